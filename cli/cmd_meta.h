/* storbench meta: what cmd_meta.c and meta_report.c share (the run is
 * lib's: sb_meta_run). */
#ifndef SB_CLI_META_H
#define SB_CLI_META_H

#include "cli/cli.h"
#include "lib/storbench.h"

#include <stdatomic.h>

/* meta_progress.c: bonnie++'s message as each test starts and the live
 * line; poll() counts an operation (from any thread) and draws when due.
 * Under mpirun tick() (the thread running the tests) runs the rounds that
 * sum every rank's operations to rank 0, and draws rank 0's line of them. */
struct meta_progress {
	const struct sb_meta_run *m;
	struct cli_progress pg;
	struct sb_rate rate; /* of operations, by the drawing thread */
	_Atomic uint64_t ops, next_ns;
	atomic_int busy;
	int test; /* enum sb_meta_test running; -1 none */
	unsigned step, nsteps;
	uint64_t ops0; /* ops when the test began */
	/* many ranks: every rank's operations, summed by the rounds */
	int many, have_all;
	struct sb_rate all;
	uint64_t all_ops, all_total, next_tick_ns;
	char what[64];
};
void meta_progress_init(struct meta_progress *p, const struct sb_meta_run *m, int quiet);
void meta_progress_phase(struct meta_progress *p, enum sb_meta_test t);
int meta_progress_poll(struct meta_progress *p);
void meta_progress_tick(struct meta_progress *p);
void meta_progress_end(struct meta_progress *p);

/* storbench bonnie (cmd_bonnie.c) runs meta with bonnie++'s output. */
struct cli_bonnie_out {
	int quiet;     /* -q: the table on stderr, the CSV line alone on stdout */
	unsigned reps; /* -x: runs; above 1, the CSV header and one line a run */
};
/* storbench meta's main; bo NULL: meta's own output. */
int cli_meta_main(const struct cli_command *cmd, int argc, char **argv,
		  const struct cli_bonnie_out *bo);
/* bonnie++'s text table of a run (bonnie_text.c). */
void cli_bonnie_print_text(FILE *f, const struct sb_meta_run *m);
/* The header line bonnie++ -x prints above its CSV lines. */
extern const char cli_bonnie_csv_header[];

/* Under mpirun (meta_ranks.c; alone every call is a no-op): begin()
 * before a run; phase() before test t, after every rank got there (1:
 * stop, another rank failed or was stopped); stopped() for the tests'
 * stop callback; end() after the tests (this rank's exit code, whether it
 * was interrupted; returns every rank's worst, *failed set when a rank
 * failed, rank 0 naming it); collect(): every rank's figures of the tests in mask to rank 0,
 * whose m then holds the All clients aggregate and the ranks (0 there: it
 * writes the result; 1 on the others). */
void meta_ranks_begin(void);
int meta_ranks_same_tests(unsigned mask);
int meta_ranks_phase(enum sb_meta_test t);
int meta_ranks_stopped(void);
/* --stonewall: another rank ended the test running (stop() says so). */
int meta_ranks_walled(void);
/* From the thread running the tests, often while a test runs: this rank's
 * operations of it so far and to do; a round of every rank's state and
 * counts at most every 50 ms, never waited for. */
void meta_ranks_tick(uint64_t ops, uint64_t total, uint64_t now);
/* Rank 0: the sums of the last round ended since the last call (1), when
 * it began (sb_now_ns); 0 when none ended since. */
int meta_ranks_sums(uint64_t *t_ns, uint64_t *ops, uint64_t *total);
int meta_ranks_end(int rc, int interrupted, int *failed);
int meta_ranks_collect(struct sb_meta_run *m, unsigned mask);
void meta_ranks_results(struct sb_results *res, const struct sb_meta_run *m);
void meta_ranks_print_text(FILE *f, const struct sb_meta_run *m);
void meta_ranks_free(struct sb_meta_run *m);

/* Text summary (a table of the tests run). */
void cli_meta_print_text(FILE *f, const struct sb_meta_run *m);
/* Why the block test file has its default size, in one sentence. */
void cli_meta_size_why(const struct sb_meta_run *m, char *buf, size_t len);

#endif
