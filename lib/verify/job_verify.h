/*
 * run --verify: prove that a write workload's data came back. The region of
 * every file of the job is first filled with verify blocks (unmeasured),
 * the workload then writes verify blocks too (the same ones a block always
 * gets: seed, offset and generation 1), and afterwards every block of the
 * region is read back and classified, one accumulator per file. Any
 * pattern, distribution or mix works, because every block is valid before
 * the workload starts and stays valid if written right.
 */
#ifndef SB_JOB_VERIFY_H
#define SB_JOB_VERIFY_H

#include "lib/sb.h"
#include "lib/coord/coord.h"
#include "lib/stats/hist.h"
#include "lib/verify/block.h"
#include "lib/verify/ranges.h"

#define SB_JOB_VERIFY_MAX_FILES 256

/* The files of a job and the region of each. */
struct sb_job_verify_files {
	char *const *paths;
	unsigned npaths;
	uint64_t offset, size; /* the region in every file */
	/* NULL, or each file's own region: all of it, sizes[i] bytes (fio's
	 * nrfiles; offset 0) */
	const uint64_t *sizes;
	int is_blockdev;
	/* A descriptor of file i with open(2) flags, or -errno: the caller's
	 * way to the files it holds open (a fill writes only through it: the
	 * write gate's, lib/target/gate.h). NULL: paths[i] is opened to read. */
	int (*open)(void *ctx, unsigned i, int flags);
	/* After every request of a pass; non-zero ends the pass (a first
	 * Ctrl-C during the fill of a large file). May be NULL. */
	int (*stop)(void *ctx, uint64_t bytes_done);
	void *ctx;
	/* fio's numjobs clones, each its own reads (0 or 1: one): clone c's
	 * part is files [c * npaths / nparts, ..) of several, or of one file
	 * [offset + c * part_span, + part_span) (the last to the region's
	 * end; fio's offset_increment) */
	unsigned nparts;
	uint64_t part_span;
};

/* A clone's share of the check's timed reads (fio counts each clone's
 * verify reads as its own). */
struct sb_job_verify_part {
	uint64_t timed_bytes, ns;
	struct sb_hist lat;
};

/* Many ranks (run --verify under mpirun): one rank's verdict, as rank 0
 * gathers it; offsets are in the rank's own files. */
#define SB_JOB_VERIFY_RANK_RANGES 8
struct sb_job_verify_rank {
	int rank;
	char host[64];
	char path[256]; /* its first file */
	unsigned nfiles;
	uint64_t seed;
	uint64_t blocks, count[SB_VERIFY_NCLASS];
	int checked; /* 0: its check did not run (or did not end) */
	unsigned nranges;
	uint64_t omitted; /* its bad ranges not in ranges[] */
	struct sb_verify_range ranges[SB_JOB_VERIFY_RANK_RANGES];
	unsigned file[SB_JOB_VERIFY_RANK_RANGES]; /* ranges[i]'s file, 0 its first */
};

struct sb_job_verify {
	struct sb_verify_fmt fmt;
	int direct;
	/* the check's read size, a multiple of the block size (a fio job's:
	 * its writes' size, each read timed as fio times its verify reads);
	 * 0: large requests */
	uint32_t read_size;
	struct sb_hist lat;   /* the check's reads, each from its submission to its completion */
	uint64_t timed_bytes; /* of the reads in lat */
	/* fio's verify reads back each write the job made: with these (a bit
	 * per block of each file's region, set for each write's first block:
	 * sb_job_verify_track), the check still reads and classifies every
	 * block, but in requests that each hold one write from its start,
	 * timing and counting only those; NULL: every read */
	uint64_t *written[SB_JOB_VERIFY_MAX_FILES];
	unsigned nacc;
	struct sb_verify_acc acc[SB_JOB_VERIFY_MAX_FILES]; /* one per file */
	uint64_t blocks, bad;
	int checked;
	/* each clone's part (f->nparts of them, malloc'ed by the check), or
	 * NULL: timed_bytes and lat are the whole check's either way */
	struct sb_job_verify_part *parts;
	unsigned nparts;
	/* many ranks, on rank 0 (sb_job_verify_set_ranks): each rank's part;
	 * blocks and bad are then every rank's summed, acc[] stays its own */
	struct sb_job_verify_rank *ranks;
	unsigned nranks;
};

/* Fill the region of every file with blocks of (seed, generation 1,
 * block_size) before the workload. 0, or -errno with msg naming the file. */
int sb_job_verify_fill(struct sb_job_verify *v, const struct sb_job_verify_files *f, uint64_t seed,
		       uint32_t block_size, int direct, char *msg, size_t ml);
/* Instead of a fill: check blocks that fmt's writer wrote earlier (a
 * job that only reads verifies what a job before it wrote). */
void sb_job_verify_expect(struct sb_job_verify *v, const struct sb_verify_fmt *fmt, int direct);
/* The seed and block size of the verify blocks already in f's regions
 * (an earlier run's: a job that only reads checks them, as fio checks
 * the headers it reads), learned as storbench verify learns a target's:
 * the run most sampled windows' valid blocks belong to; generation 1, a
 * job's. 0, -ENOENT (no valid block), -ENOMEM. */
int sb_job_verify_learn(const struct sb_job_verify_files *f, struct sb_verify_fmt *fmt);
/* dst += src, both checked (a job file's verify= jobs, one after
 * another, in one verdict): blocks, classes and each file's bad ranges
 * (file i of both the same index) add up; of many ranks, each rank's
 * part; the format becomes src's (the last job's). src is left empty.
 * 0, or -ENOMEM (dst then counts src's blocks without its ranges). */
int sb_job_verify_absorb(struct sb_job_verify *dst, struct sb_job_verify *src);
/* Read everything back and classify (after the workload; caches are
 * dropped first). 0, or -errno with msg naming the file (empty when memory
 * ran out). */
int sb_job_verify_check(struct sb_job_verify *v, const struct sb_job_verify_files *f, char *msg,
			size_t ml);
void sb_job_verify_free(struct sb_job_verify *v);
/* After the fill: keep a map of where the writes began in the region of
 * each of f's files (the workload marks them). 0 or -ENOMEM. */
int sb_job_verify_track(struct sb_job_verify *v, const struct sb_job_verify_files *f);

/* This rank's part of v (its counts and its first bad ranges); the caller
 * sets rank, host and path. */
void sb_job_verify_rank_of(const struct sb_job_verify *v, struct sb_job_verify_rank *out);
/* Rank 0: every rank's part (n of them, malloc'ed; v takes them, freed by
 * sb_job_verify_free); blocks and bad become the sums, checked whether
 * every rank checked. */
void sb_job_verify_set_ranks(struct sb_job_verify *v, struct sb_job_verify_rank *all, unsigned n);
/* Many ranks (every rank calls it after its check): each rank's part to
 * rank 0 (path: its first file), whose v then holds every rank's and the
 * counts summed; the others' v stays their own. Alone (c NULL or of one
 * rank): nothing. 0, or -errno with err when a rank did not answer (the
 * caller ends the job). */
int sb_job_verify_gather(struct sb_job_verify *v, struct sb_coord *c, const char *path,
			 struct sb_error *err);
/* Whether the part failed: a block not intact, or its check did not run. */
int sb_job_verify_rank_failed(const struct sb_job_verify_rank *k);

#endif
