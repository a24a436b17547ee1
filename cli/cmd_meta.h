/* storbench meta: what cmd_meta.c, meta_progress.c and cmd_bonnie.c share
 * (the run is lib's: sb_meta_run; its text report/'s: rep_meta_run_text). */
#ifndef SB_CLI_META_H
#define SB_CLI_META_H

#include "cli/cli.h"
#include "lib/storbench.h"

/* meta_progress.c: bonnie++'s message as each test starts and the live
 * line, from the run's hooks (ctx: a meta_progress): phase(), progress()
 * (from any thread of a test; under mpirun rank 0's line of every rank's
 * operations as each round ends). */
struct meta_progress {
	const struct sb_meta_run *m;
	struct cli_progress pg;
	struct sb_rate rate; /* of operations, by the drawing thread */
	struct sb_meta_progress p;
	int have_all;
	struct sb_rate all; /* many ranks: every rank's operations, summed */
	char what[64];
};
void meta_progress_init(struct meta_progress *p, const struct sb_meta_run *m, int quiet);
void meta_progress_phase(void *ctx, enum sb_meta_test t, unsigned step);
void meta_progress_tell(void *ctx, const struct sb_meta_progress *p);
void meta_progress_end(struct meta_progress *p);

/* storbench bonnie (cmd_bonnie.c) runs meta with bonnie++'s output. */
struct cli_bonnie_out {
	int quiet;     /* -q: the table on stderr, the CSV line alone on stdout */
	unsigned reps; /* -x: runs; above 1, the CSV header and one line a run */
};
/* storbench meta's main; bo NULL: meta's own output. */
int cli_meta_main(const struct cli_command *cmd, int argc, char **argv,
		  const struct cli_bonnie_out *bo);

#endif
