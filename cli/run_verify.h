/* run --verify (cli/run_verify.c): the option checks, the messages and the
 * text around lib/verify/job_verify.h. */
#ifndef SB_CLI_RUN_VERIFY_H
#define SB_CLI_RUN_VERIFY_H

#include "cli/cli.h"
#include "lib/storbench.h"

/* Can this workload be verified? Prints and returns an exit code if not. */
int run_verify_check_opts(const struct sb_job_opts *job, const struct sb_jobtarget *t);
/* Fill the region of every file with verify blocks (before the workload). */
int run_verify_prepare(struct sb_job_verify *v, const struct sb_job_opts *job,
		       const struct sb_jobtarget *t);
/* Read everything back and classify (after the workload, caches dropped). */
int run_verify_check(struct sb_job_verify *v, const struct sb_jobtarget *t);
/* Many ranks (every rank calls it after its check): each rank's verdict
 * to rank 0, whose v then holds every rank's part and the counts summed;
 * the others' v stays their own. Alone: nothing. */
void run_verify_ranks(struct sb_job_verify *v, const struct sb_jobtarget *t);
/* The counts and the bad ranges (of many ranks, a line a rank). */
void run_verify_text(FILE *f, const struct sb_job_verify *v, const struct sb_jobtarget *t);

#endif
