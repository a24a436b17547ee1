/* The jobs of a job file run as `storbench run JOB.fio` runs them, for
 * other commands that make a job file of their own (storbench fio). */
#ifndef SB_RUN_JOBS_H
#define SB_RUN_JOBS_H

#include "cli/cli.h"

struct cli_run_jobs {
	const char *source;   /* what the jobs were read from, for messages */
	const char *target;   /* NULL: the jobs' filename= or directory=, else "." */
	struct cli_shared sh; /* --destroy-data, --keep, --quiet */
	/* where line N of the jobs' text came from, for messages */
	const char *(*where)(const void *ctx, unsigned line, char *buf, size_t len);
	const void *where_ctx;
	/* fio's --status-interval: status(status_ctx, every job so far) every
	 * status_ns of each group's measurement (0: never) */
	uint64_t status_ns;
	void (*status)(void *status_ctx, const struct sb_results *so_far);
	void *status_ctx;
	/* out: the results (res NULL when nothing ran; write: this rank
	 * writes them, rank 0 under mpirun), freed by cli_run_jobs_free */
	struct sb_run_result result;
};

/* Check every job of jf (nothing is created before all are accepted), then
 * run them in their groups (sb_run_jobs). The caller says jf's notes.
 * Returns an exit code, every rank's worst. */
int cli_run_jobs(struct cli_run_jobs *a, const struct sb_jobfile *jf);
void cli_run_jobs_free(struct cli_run_jobs *a);

#endif
