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
	/* progress state: the line, and what it shows (the cell and test now
	 * running, the bytes done) */
	struct cli_progress pg;
	struct sb_sweep_meter m;
	FILE *trace; /* SB_SWEEP_TRACE */
	/* under mpirun (cli/sweep_ranks.c): this rank's state; on rank 0 every
	 * rank's matrices after the run (c->r then holds their aggregate) */
	struct sweep_ranks *ranks;
	struct sb_sweep_rank *all;
	int silent; /* a rank other than 0: writes no result */
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
/* The report on a terminal: the conditions, then one matrix per test (file
 * size down, record size across, KiB/s), as iozone's -R report. */
void sweep_print_text(FILE *f, const struct sweep_cli *c, const char *path,
		      const struct sb_results *res);
/* The matrices as CSV blocks, one per test, like iozone -R: 0 or -1. */
int sweep_write_csv(const struct sweep_cli *c, const char *path);
/* Callbacks of the run. */
void sweep_progress(void *ctx, unsigned fi, unsigned ri, int test);
/* The line now; and this rank's bytes of the whole sweep done so far (a
 * test's file size for each test ended, the records of the one running). */
void sweep_draw(struct sweep_cli *c, uint64_t now);
uint64_t sweep_done_bytes(const struct sweep_cli *c);
void sweep_trace(void *ctx, const struct sb_sweep_event *ev);
int sweep_should_stop(void *ctx);

/* Under mpirun (cli/sweep_ranks.c, docs/mpi.md). The ranks agree that
 * they run the same matrix, and --stonewall or not: 0 or an exit code. */
int sweep_ranks_plan(struct sweep_cli *c);
/* Every rank checks TARGET creating nothing, they agree, each makes its
 * directory under a directory TARGET and opens its test file there (*path
 * then names it), and they agree again: 0 or the worst exit code. */
int sweep_ranks_target(struct sweep_cli *c, struct sb_jobtarget *t, const char **path,
		       struct sb_sweep_file *f);
/* Around each timed pass (sb_sweep_opts.timed's arguments): before it,
 * every rank starts it together (-EINTR: another rank stopped); after it,
 * its end is stamped, and then sweep_ranks_pass_over is called until it
 * returns 1. */
int sweep_ranks_timed(struct sweep_cli *c, int test, unsigned fi, unsigned ri, int end);
/* One look at the rounds after this rank's pass ended (or failed), with
 * its bytes of the sweep done (sweep_done_bytes): 1 once every rank's
 * pass is over, so every rank ran the same rounds before the next pass. */
int sweep_ranks_pass_over(struct sweep_cli *c, uint64_t mine);
/* From should_stop, before each record of a timed pass, with this rank's
 * bytes of the sweep done: a look at the round in flight now and then
 * (*fresh: a round ended, rank 0 has new figures); SB_SWEEP_END_PASS once
 * another rank ended the pass (--stonewall), else 0. */
int sweep_ranks_poll(struct sweep_cli *c, uint64_t mine, int *fresh);
/* Rank 0: every rank's bytes of the sweep done, summed, and their rate,
 * as of the last round (bps -1 when not known yet); -1 before any round. */
int sweep_ranks_figures(const struct sweep_cli *c, uint64_t *done, double *bps);
/* After the run (rc its exit code here): the ranks' worst into *out_rc;
 * rank 0 gathers every rank's and puts the aggregate into c->r and res
 * (returns 0), the others return 1 (they write nothing). */
int sweep_ranks_finish(struct sweep_cli *c, int rc, struct sb_results *res, int *out_rc);
/* The text after the matrices: each rank's rate per test and the skew. */
void sweep_ranks_print(FILE *f, const struct sweep_cli *c);
void sweep_ranks_free(struct sweep_cli *c);

#endif
