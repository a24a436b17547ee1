/*
 * A soak iteration as its log records it: throughput, request latency,
 * what verification found, I/O errors and the kernel's storage messages.
 * lib/soak runs the iterations and judges them (soak_verdict.h, over
 * lib/analysis' statistics); soak_json.h writes them and reads them back.
 */
#ifndef SB_SOAK_RECORD_H
#define SB_SOAK_RECORD_H

#include "lib/sb.h"
#include "lib/stats/hist.h"
#include "lib/verify/block.h"
#include "lib/verify/ranges.h"

#define SB_SOAK_MAX_KMSG 16  /* kernel lines kept per iteration */
#define SB_SOAK_MAX_RANGES 8 /* bad ranges kept per iteration in the log */
#define SB_SOAK_LOG_VERSION 1

struct sb_soak_kline {
	uint64_t time_us; /* kernel timestamp */
	char category[16];
	char device[32]; /* the device the line names ("" none) */
	char text[240];
};

/* One figure of an iozone workload's iteration (storbench soak
 * --workload=iozone): a test on a file size with a record size. */
struct sb_soak_cell {
	uint64_t file_size, record_size; /* bytes */
	int test;			 /* enum sb_sweep_test */
	double kibps;			 /* KiB/s, as iozone prints it */
};

struct sb_soak_iter {
	uint64_t n;		   /* 1-based */
	uint64_t start_ns, end_ns; /* wall clock, ns since the epoch */
	double write_bw, read_bw;  /* bytes/s; write includes the fsync */
	uint64_t wlat[3], rlat[3]; /* request latency p50, p99, max (ns) */
	uint64_t blocks, count[SB_VERIFY_NCLASS];
	struct sb_verify_range ranges[SB_SOAK_MAX_RANGES];
	size_t nranges;
	uint64_t ranges_omitted;
	uint64_t io_errors; /* failed writes and unreadable blocks */
	int first_errno;
	uint64_t first_error_offset;
	uint64_t unwritten; /* blocks the write could not write (a full
					 * target); the iteration was not checked */
	int cache;	    /* how caches were dropped before the check */
	/* kernel lines about storage trouble of the target's own devices (or
	 * naming none): they fail the iteration */
	struct sb_soak_kline kmsg[SB_SOAK_MAX_KMSG];
	size_t nkmsg, kmsg_omitted;
	/* those about other devices, told for information: at most
	 * SB_SOAK_MAX_KMSG, allocated when there are any (owned as cells) */
	struct sb_soak_kline *kother;
	size_t nkother, kother_omitted;
	uint64_t generation; /* of the blocks written (0: not told, an older log) */
	int interrupted;     /* cut short by a signal: not a whole iteration */
	/* read back: the record's "failed" as written (which a run writes as
	 * sb_soak_iter_failed says; this field is not what decides it) */
	int failed;
	/* --workload=iozone: every cell measured, in iozone's order (test,
	 * then file size, then record size); NULL/0 for the verify workload.
	 * Owned by the array the iteration is in (sb_soak_iters_free). */
	struct sb_soak_cell *cells;
	size_t ncells;
	int iozone; /* an iozone iteration: cells, no verify nor request latency */
};

/* src into dst[len], whole when it fits; else cut at the last word
 * boundary (a space) that leaves room for an ellipsis ("..."), never
 * inside a word or a UTF-8 character: a kernel line kept in a record,
 * a report's text. dst may not be src. */
void sb_soak_cut_text(char *dst, size_t len, const char *src);

/* Blocks of the iteration that did not verify (every class but intact). */
uint64_t sb_soak_iter_bad(const struct sb_soak_iter *it);
/* Failure of an iteration: verification, I/O or kernel storage errors. */
int sb_soak_iter_failed(const struct sb_soak_iter *it);
/* Append a copy of it to the array *v of *n (room for *cap, grown here).
 * 0 or -ENOMEM. */
int sb_soak_iter_append(struct sb_soak_iter **v, size_t *n, size_t *cap,
			const struct sb_soak_iter *it);

/* Free what an iteration owns (its cells, its other devices' lines). */
void sb_soak_iter_release(struct sb_soak_iter *it);
/* Free what v[0..n) own and v. */
void sb_soak_iters_free(struct sb_soak_iter *v, size_t n);
/* A kernel line about another device into it->kother (allocated here);
 * counted in kother_omitted past SB_SOAK_MAX_KMSG or without memory. */
void sb_soak_iter_add_other(struct sb_soak_iter *it, const struct sb_soak_kline *l);

struct sb_sweep_result;
/* An iozone iteration's figures from the sweep it ran: every cell measured
 * into it->cells (allocated here; it->cells NULL before), and the
 * iteration's write_bw and read_bw: the bytes of every write test (write,
 * rewrite, random write, record rewrite, fwrite, frewrite) over their
 * time, and of every read test likewise. 0 or -ENOMEM. */
int sb_soak_cells_from_sweep(struct sb_soak_iter *it, const struct sb_sweep_result *r);
/* Many ranks (mpirun): one rank's iteration as rank 0 gathered it, its
 * times in seconds on rank 0's clock (MPI_Wtime less the rank's measured
 * offset). */
struct sb_soak_rank {
	int rank;
	char host[64];
	double start_s, end_s;			   /* the iteration */
	double wstart_s, wend_s, rstart_s, rend_s; /* its write, its check (none: equal) */
	uint64_t write_bytes, read_bytes;
	/* --burst: the pauses within the write that every rank shared (no
	 * rank wrote: every burst starts on all ranks together), the same on
	 * each rank; the All clients write time leaves them out */
	double wshared_s;
	double wpause_s;	/* --burst: this rank's own pauses (left out of its write time) */
	struct sb_soak_iter it; /* the rank's own, as its log has it */
};

/* The All clients iteration of n ranks (r[0] rank 0): each phase's bytes
 * summed over the time from the earliest start to the latest end (the
 * write's less the pauses every rank shared, wshared_s), the
 * latencies read from the ranks' merged histograms wh and rh (NULL: 0),
 * blocks, counts, errors and unwritten blocks summed, the first error the
 * first rank's that had one. Bad ranges stay each rank's (offsets in
 * different targets do not add up): counted in ranges_omitted. Kernel
 * lines come with their rank named. start_ns and end_ns: rank 0's wall
 * clock moved by the earliest start and the latest end. */
void sb_soak_iter_aggregate(struct sb_soak_iter *out, const struct sb_soak_rank *r, unsigned n,
			    const struct sb_hist *wh, const struct sb_hist *rh);

#endif
