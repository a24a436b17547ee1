/* storbench soak: what its files (cmd_soak.c, soak_iter.c, soak_loop.c,
 * soak_finish.c, soak_ranks.c, soak_log.c, soak_summary.c) share. */
#ifndef SB_CLI_SOAK_H
#define SB_CLI_SOAK_H

#include "cli/iozone_cli.h"
#include "cli/verify_cli.h"
#include "lib/storbench.h"

struct soak_opts {
	struct verify_opts v; /* size, block size, request size, engine, direct... */
	uint64_t iterations;  /* 0: until --duration or Ctrl-C */
	uint64_t duration_ns; /* 0: none */
	uint64_t idle_ns;
	uint64_t burst_bytes, burst_idle_ns; /* 0: no bursts */
	int stop_on_error, fail_on_anomaly;
	const char *log;    /* JSON Lines log; NULL: soak-<time>.jsonl here */
	const char *resume; /* continue this log */
	int argc;	    /* the options as given, kept in the log for --resume */
	char **argv;
	/* --workload=iozone: iozone's options after "--", parsed (za.file is
	 * the target); --iozone-output prints its rows each iteration */
	int iozone, iozone_output;
	struct sb_iozone_args za;
	const char *verify_opt; /* a verify workload option given (refused with iozone) */
};

/* The run's state: what the loop, the log and the summary share. */
struct soak_state {
	struct soak_opts *o;
	const char *prog; /* the program as it was run (for the resume line) */
	struct vtarget t;
	const struct sb_engine_ops *ops;
	uint64_t seed;
	uint64_t started_ns;	/* wall clock of the first iteration ever */
	uint64_t mono_start_ns; /* monotonic clock when this process's loop began */
	uint64_t prior_ns;	/* run before that (a resumed soak), from the log */
	/* for the progress line's ETA: the first iteration of this process,
	 * the current one and when it began (monotonic), how long its last
	 * check phase took */
	uint64_t first_n, cur_n, it_mono_ns, check_ns;
	/* how the soak stopped before its end (SB_SOAK_INTERRUPTED: a signal,
	 * SB_SOAK_ABORTED: it could not go on; 0 it did not), and why */
	int stopped;
	char abort_reason[768];
	int ranks_cut; /* many ranks: the last iteration was cut short on one */
	/* iteration gen_first of this run writes generation gen_base, each
	 * next one more: 1 and 1, or (--resume) one above any a write of the
	 * soak may have used, a killed iteration's included */
	uint64_t gen_first, gen_base;
	size_t ncut; /* iterations a signal cut short (done again) */
	/* --resume: the files a killed iteration listed (the log's start
	 * records), removed when they prove ours */
	struct sb_soak_leftover *left;
	size_t nleft;
	struct sb_kmsg_stack kstack; /* the target's devices: lines about others do not count */
	struct sb_soak_iter *it;     /* all iterations, resumed ones included */
	size_t nit, capit;
	FILE *log;
	struct sb_kmsg kmsg;
	int kmsg_ok;
	int region_mode; /* device or existing file: data kept between iterations */
	int health_ok[2];
	struct sb_health health[2]; /* before, after */
	/* --resume: the stop condition an earlier resume logged, and whether
	 * this one changes it (--iterations, --duration) and how */
	int stop_logged;
	uint64_t logged_iterations, logged_duration_ns;
	int stop_changed;
	struct sb_soak_stop_change stop_change;
	struct sb_sweep_result *zr; /* --workload=iozone: the sweep of the iteration */
	/* the log's configuration: many ranks (0: one), its rank, or rank 0's
	 * log of the All clients figures */
	unsigned log_ranks;
	int log_rank, log_aggregate;
	/* many ranks (mpirun, soak_ranks.c): this iteration's times on the
	 * coordination clock (write start, end; check start, end), its bytes
	 * and latencies, for rank 0's All clients figures */
	double ph_start, ph_end, ph[4];
	double wshared_s, wpause_s; /* --burst: the write's pauses every rank shared, its own */
	uint64_t wbytes, rbytes;
	struct sb_hist wh, rh;
	/* rank 0: the All clients iterations (resumed ones included), their
	 * log, and per rank its host and its failed iterations */
	struct sb_soak_iter *agg;
	size_t nagg, capagg;
	FILE *agg_log;
	char (*rank_host)[64];
	uint64_t *rank_failed;
	/* rank 0: each All clients iteration's ranks (agg_ranks[i]: cli_ranks()
	 * of them; NULL for one resumed from the log), for the results (-o) */
	struct sb_soak_rank **agg_ranks;
	size_t nagg_ranks;
	const struct sb_soak_rank *const *fin_ranks; /* soak_finish_log's, or NULL */
	unsigned fin_nranks;
};

/* soak_iter.c: one iteration: write, fsync, drop caches, read back and
 * check, remove (file mode), collect kernel messages. Returns 0, or an
 * exit code when the iteration could not run at all. */
int soak_iteration(struct soak_state *s, struct sb_soak_iter *it);
void soak_print_iteration(FILE *f, const struct sb_soak_iter *it, int tty);
/* Wall clock, ns since the epoch (the log's times). */
uint64_t soak_wall_ns(void);

/* soak_iozone.c: --workload=iozone. Before the log: the target probed and
 * the test file checked as storbench iozone would (0 or an exit code,
 * said). Then each iteration runs the sweep once: its cells and the write
 * and read tests' throughput into it; 0, or an exit code when it could not
 * run (an I/O failure of a test is the iteration's, not the soak's). */
int soak_iozone_prepare(struct soak_state *s, const char *target);
int soak_iozone_iteration(struct soak_state *s, struct sb_soak_iter *it);
/* The iteration's line (and with --iozone-output iozone's rows first). */
void soak_iozone_print(FILE *f, const struct soak_state *s, const struct sb_soak_iter *it);

/* soak_loop.c */
int soak_loop(struct soak_state *s);
/* soak_log.c: the number of the last iteration --iterations asks for (0:
 * no such limit): whole iterations count, one cut short is done again. */
uint64_t soak_last_planned(const struct soak_state *s);

/* soak_log.c: the JSON Lines log (records from lib/results/soak_json.c) */
int soak_log_open(struct soak_state *s, const char *path, int append);
int soak_log_config(struct soak_state *s);
/* End a record of the log: newline, flush, fsync; 0 or -errno (said). */
int soak_log_commit(FILE *log, struct sb_json *j);
int soak_log_iteration(struct soak_state *s, const struct sb_soak_iter *it);
int soak_log_summary(struct soak_state *s, const struct sb_soak_result *r);
int soak_log_stop_change(struct soak_state *s);
/* A resumed run, before it writes: its start record (iteration n writes
 * s->gen_base, each next one more; the files its iterations make),
 * fsync'd. 0 or -errno (said). */
int soak_log_start(struct soak_state *s, uint64_t n);
/* Read a log to resume: the options it was started with (argv, seed,
 * started time) and its complete iterations; a torn last line is cut off.
 * Prints its error and returns an exit code on failure. */
int soak_log_resume(const char *path, struct soak_state *s, char ***argv, int *argc);
/* --resume: remove the files a killed iteration left (s->left), those
 * that prove to be the soak's (sb_soak_leftover_remove); the others are
 * named in a warning. */
void soak_log_leftovers(struct soak_state *s);
void soak_log_free_left(struct soak_state *s);
int soak_state_add(struct soak_state *s, const struct sb_soak_iter *it);

/* soak_ranks.c: soak under mpirun (docs/mpi.md). Each rank works on its
 * own target (a directory of its own under a directory TARGET) and keeps
 * its own log, LOG.rank-N; rank 0 also writes LOG, the All clients
 * figures of every iteration with each rank's. All return 0 or an exit
 * code, the same on every rank. */
int soak_ranks_target(struct soak_state *s, const char **target);
/* the log names: base (rank 0's, made up when --log was not given) and
 * this rank's own */
void soak_ranks_log_names(const char *base, char *mine, size_t len);
int soak_ranks_open_aggregate(struct soak_state *s, const char *base, int append);
/* rank 0: the aggregate log's configuration (not when resumed) and a
 * resume's stop change */
int soak_ranks_aggregate_start(struct soak_state *s, const char *target, int resumed);
/* --resume: the ranks agree on the last iteration every log holds (each
 * rank's and rank 0's aggregate) and cut what comes after it */
int soak_ranks_resume(struct soak_state *s, const char *base);
/* After an iteration (rc: the exit code when it could not run): every
 * rank's figures to rank 0, which logs and prints the All clients
 * iteration and each rank's; *stop says, the same on every rank, 0 go on,
 * 1 stop, or an exit code (abort_reason set). */
int soak_ranks_iteration(struct soak_state *s, const struct sb_soak_iter *it, int rc, int *stop);
int soak_ranks_finish(struct soak_state *s, const char *logname);
void soak_ranks_free(struct soak_state *s);
/* soak_log.c: cut the log after iteration n's line (after line 1 when 0),
 * keeping what the lines cut away told (soak_log.c); used: the highest
 * generation a write may have used. 0 or -errno. */
int soak_log_cut(const char *path, uint64_t n, uint64_t used);
/* soak_finish.c: one log's summary and verdict (results and exit code); quiet: nothing printed,
 * no results written (each rank's own log under mpirun) */
int soak_finish_log(struct soak_state *s, const char *logname, int quiet);

/* soak_summary.c: the verdict in text; an iteration's "  other devices: 2
 * kernel lines (loop3, not counted)" when there are any */
void soak_print_other(FILE *f, const struct sb_soak_iter *it);
void soak_summary_text(FILE *f, const struct soak_state *s, const struct sb_soak_summary *sum);
/* An iozone workload's cells: one line each (median, spread), then their
 * changes and outliers. */
void soak_cells_text(FILE *f, const struct sb_soak_cell_metric *c, size_t n);
/* "resumed; stop condition changed from 100000 iterations to 50 iterations" */
void soak_stop_change_text(const struct sb_soak_stop_change *c, char *buf, size_t len);

#endif
