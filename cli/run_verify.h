/* run --verify (cli/run_verify.c). */
#ifndef SB_CLI_RUN_VERIFY_H
#define SB_CLI_RUN_VERIFY_H

#include "cli/cli.h"
#include "lib/storbench.h"

#define RUN_VERIFY_MAX_FILES 256

struct run_verify {
	struct sb_verify_fmt fmt;
	int direct;
	unsigned npaths, nacc;
	struct sb_verify_acc acc[RUN_VERIFY_MAX_FILES]; /* one per file */
	uint64_t blocks, bad;
	int checked;
};

/* Can this workload be verified? Prints and returns an exit code if not. */
int run_verify_check_opts(const struct sb_job_opts *job, const struct cli_target *t);
/* Fill the region of every file with verify blocks (before the workload). */
int run_verify_prepare(struct run_verify *v, const struct sb_job_opts *job,
		       const struct cli_target *t);
/* Read everything back and classify (after the workload, caches dropped). */
int run_verify_check(struct run_verify *v, const struct cli_target *t);
void run_verify_free(struct run_verify *v);
void run_verify_text(FILE *f, const struct run_verify *v, const struct cli_target *t);
void run_verify_json(struct sb_json *j, const void *ctx);

#endif
