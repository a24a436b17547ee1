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
#include "lib/verify/block.h"
#include "lib/verify/ranges.h"

#define SB_JOB_VERIFY_MAX_FILES 256

/* The files of a job and the region of each. */
struct sb_job_verify_files {
	char *const *paths;
	unsigned npaths;
	uint64_t offset, size; /* the region in every file */
	int is_blockdev;
	/* A descriptor of file i with open(2) flags, or -errno: the caller's
	 * way to the files it holds open. NULL: paths[i] is opened. */
	int (*open)(void *ctx, unsigned i, int flags);
	/* After every request of a pass; non-zero ends the pass (a first
	 * Ctrl-C during the fill of a large file). May be NULL. */
	int (*stop)(void *ctx, uint64_t bytes_done);
	void *ctx;
};

struct sb_job_verify {
	struct sb_verify_fmt fmt;
	int direct;
	unsigned nacc;
	struct sb_verify_acc acc[SB_JOB_VERIFY_MAX_FILES]; /* one per file */
	uint64_t blocks, bad;
	int checked;
};

/* Fill the region of every file with blocks of (seed, generation 1,
 * block_size) before the workload. 0, or -errno with msg naming the file. */
int sb_job_verify_fill(struct sb_job_verify *v, const struct sb_job_verify_files *f, uint64_t seed,
		       uint32_t block_size, int direct, char *msg, size_t ml);
/* Read everything back and classify (after the workload; caches are
 * dropped first). 0, or -errno with msg naming the file (empty when memory
 * ran out). */
int sb_job_verify_check(struct sb_job_verify *v, const struct sb_job_verify_files *f, char *msg,
			size_t ml);
void sb_job_verify_free(struct sb_job_verify *v);

#endif
