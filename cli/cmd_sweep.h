/* storbench sweep: what cli/cmd_sweep.c and cli/sweep_out.c share. */
#ifndef SB_CLI_SWEEP_H
#define SB_CLI_SWEEP_H

#include "cli/cli.h"
#include "lib/storbench.h"

struct sweep_cli {
	struct sb_sweep_opts o;
	struct sb_sweep_result *r;
	uint32_t tests_given; /* the tests named in --tests, 0 when not given */
	int no_retest;
	struct cli_shared sh; /* --output, --format, --quiet, --destroy-data */
	const char *csv;
	int json_stdout;
	int ran;     /* the run started: there are results to write */
	int checked; /* sweep_check passed */
	/* the progress line, and what the run told it last */
	struct cli_progress pg;
	struct sb_sweep_progress p;
	FILE *trace; /* SB_SWEEP_TRACE */
	int silent;  /* a rank other than 0: writes no result */
	/* no "sweep: file size" line per file size (a soak's iterations have
	 * their own line each) */
	int no_notes;
};

/* Plan the sweep c->o (checking option combinations) and run it on path,
 * results into res: 0 or an exit code, the error said. c->ran says whether
 * there is something to write. */
int sweep_execute(struct sweep_cli *c, const char *path, struct sb_results *res);
/* Its first step alone (the options together, the plan), for a caller
 * that prints before it runs (iozone's header): 0 or an exit code, said. */
int sweep_check(struct sweep_cli *c);
/* The matrices as CSV blocks, one per test, like iozone -R: 0 or -1. */
int sweep_write_csv(const struct sweep_cli *c, const char *path);
/* The hooks of the run (ctx: a sweep_cli): the progress line, the
 * test-only trace, Ctrl-C, what rank 0 is told as it happens. */
void sweep_progress(void *ctx, const struct sb_sweep_progress *p);
void sweep_trace(void *ctx, const struct sb_sweep_event *ev);
int sweep_should_stop(void *ctx);
void sweep_error(void *ctx, const char *msg);

#endif
