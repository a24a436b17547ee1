/* The results' "verify" sections: storbench verify (its write and check
 * phases, and --probe) and run --verify, written (verify_json.c) and read
 * back (verify_read.c) in one place; a soak iteration's "verify" object is
 * the blocks of such a section alone. docs/verify.md describes them. */
#ifndef SB_VERIFY_JSON_H
#define SB_VERIFY_JSON_H

#include "lib/json/json_read.h"
#include "lib/json/json_write.h"
#include "lib/results/results.h"
#include "lib/verify/capacity.h"
#include "lib/verify/job_verify.h"
#include "lib/verify/verify_target.h"

/* extra_json hooks (struct sb_results): ctx is a struct sb_verify_report,
 * a struct sb_capacity_report, a struct sb_job_verify. */
void sb_verify_json(struct sb_json *j, const void *ctx);
void sb_capacity_json(struct sb_json *j, const void *ctx);
void sb_job_verify_json(struct sb_json *j, const void *ctx);

/* verify's phases as fio-shaped jobs, so that readers of fio's layout see
 * their bandwidth. */
void sb_verify_add_jobs(struct sb_results *res, const struct sb_verify_report *r);

/* ---- read back (verify_read.c) ---- */

/* A bad range as read: the range, the index of the file it lies in (run
 * --verify's files; -1: none named), which of what its class adds were
 * given (SB_VDOC_*), and the words of its errno as written. */
enum { SB_VDOC_EXPECTED = 1, SB_VDOC_GENERATION = 2, SB_VDOC_ERRNO = 4 };
struct sb_verify_doc_range {
	struct sb_verify_range g;
	int file;
	unsigned has;
	char error[64];
};

/* The blocks of a verify object (every kind but the probe has them; a
 * rank's part too): blocks checked, per class (classes: bit c set where
 * class c is written: results older than a class do not list it), the
 * bad ranges listed and how many more were found. */
struct sb_verify_doc_blocks {
	uint64_t blocks, count[SB_VERIFY_NCLASS];
	unsigned classes;
	struct sb_verify_doc_range *ranges;
	size_t nranges;
	uint64_t omitted;
};

/* A rank's part (of many ranks): storbench verify's (its bytes, write
 * errors, missing blocks, failed and interrupted, as struct
 * sb_verify_rank holds them) or run --verify's (its files, seed and
 * result, as struct sb_job_verify_rank). */
struct sb_verify_doc_rank {
	int rank;
	char host[64]; /* "hostname" (or an older result's "host"); "" none */
	char path[256];
	struct sb_verify_doc_blocks b;
	uint64_t bytes_written, bytes_checked, write_errors, missing_blocks;
	int failed, interrupted; /* -1: not given */
	unsigned files;
	uint64_t seed;
	char result[16]; /* run --verify's: "pass", "fail", "not checked"; "" none */
};

/* storbench verify --probe's findings, as the section holds them. */
struct sb_verify_doc_probe {
	char kind[24]; /* "good", "limbo", ..., "interrupted" */
	uint64_t block_size, announced_bytes, usable_bytes, wrap_bytes, cache_bytes;
	uint64_t blocks_written, blocks_read, io_errors, seed, ns;
	unsigned has; /* bit i: the i-th of the sizes above (block_size first) given */
};

/* A phase as the section holds it: struct sb_verify_pass_result's figures
 * but its requests and latency (those are the phase's job's). */
struct sb_verify_doc_pass {
	uint64_t bytes, ns, errors, first_error_offset;
	int first_errno, interrupted;
};

/* A "verify" section (or a soak iteration's "verify" object) read back:
 * what struct sb_verify_report writes, the target's part as figures. */
enum sb_verify_doc_kind {
	SB_VDOC_BLOCKS, /* the blocks alone: a soak iteration's */
	SB_VDOC_VERIFY, /* storbench verify's: its settings and phases */
	SB_VDOC_PROBE,	/* storbench verify --probe's */
	SB_VDOC_JOB,	/* run --verify's: its block size and seed */
};
struct sb_verify_doc {
	enum sb_verify_doc_kind kind;
	int phase; /* SB_VPHASE_*; 0 none */
	uint64_t offset, size, seed, generation, request_size, iodepth;
	uint32_t block_size; /* 0: not given (a soak iteration's is its log's) */
	int seed_from_data, direct;
	char checksum[16], engine[16];
	int wrote, checked;
	struct sb_verify_doc_pass wr, rd;
	/* a directory written: how much of its free space was covered */
	int has_coverage, coverage_fill;
	uint64_t coverage_bytes, free_before;
	double coverage_percent; /* NaN: none (nothing was free) */
	int has_blocks;		 /* blocks_checked a number (null: none checked) */
	struct sb_verify_doc_blocks b;
	char error[256];		  /* a phase that could not run: why ("" none) */
	char result[16];		  /* "pass", "fail", "interrupted", "written"; "" none */
	struct sb_verify_doc_rank *ranks; /* many ranks: each one's part */
	size_t nranks;
	struct sb_verify_doc_probe probe;
};

/* Reads section (the object under "verify") into out, checking every
 * member it reads: counts, sizes and times numbers from 0 to 1e18 (null:
 * none), ranks whole numbers from 0, names strings, flags booleans, a bad
 * range's class one of the classes; blocks_checked (but for a probe, whose
 * kind is needed), a bad range's class, offset and length, and a rank's
 * number must be there. 0; -EINVAL with err->msg naming the key path
 * below the section ("ranks[1].bad_ranges[0].class: expected a verify
 * class (...), found a string"); -ENOMEM. Members it does not know are
 * left alone. Free out with sb_verify_doc_free whatever it returned. */
int sb_verify_read(const struct sb_jv *section, struct sb_verify_doc *out, struct sb_error *err);
void sb_verify_doc_free(struct sb_verify_doc *d);
/* Blocks of b that did not verify: every class but intact. */
uint64_t sb_verify_doc_bad(const struct sb_verify_doc_blocks *b);

#endif
