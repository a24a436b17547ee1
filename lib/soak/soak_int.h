/* sb_soak_run's state, shared by its files (soak.h). */
#ifndef SB_SOAK_INT_H
#define SB_SOAK_INT_H

#include "lib/soak/soak.h"
#include "lib/soak/soak_leftover.h"
#include "lib/stats/live_rate.h"
#include "lib/device/kmsg.h"

/* A wait for the other ranks: a setup's deadline (a rank may be in a long
 * request or its fsync, not dead). */
#define SOAK_WAIT_S 600.0

/* What a log read back leaves the run that goes on with it (soak_log.c). */
struct sb_soak_resume_state {
	uint64_t started_ns;
	struct sb_soak_iter *it; /* its complete iterations */
	size_t nit, capit;
	int stop_logged; /* an earlier resume's stop condition */
	uint64_t iterations, duration_ns;
	unsigned ranks; /* the configuration's: many ranks (0: one), this log's rank */
	int rank, aggregate;
	uint64_t generation; /* the highest a write may have used */
	struct sb_soak_leftover *left;
	size_t nleft;
	/* many ranks, rank 0: LOG's All clients iterations */
	struct sb_soak_iter *agg;
	size_t nagg, capagg;
};

struct soak {
	const struct sb_soak_opts *o;
	const struct sb_soak_hooks *h;
	struct sb_coord *co;
	int nranks, rank; /* 1 and 0 alone */
	struct sb_error *err;
	struct sb_soak_result *out;
	/* a coordination failed (-errno): no other is tried, the job ends */
	int coord_e;
	int signal;  /* what the stop hook said when it stopped the soak */
	int resumed; /* goes on from a log */
	int iozone;  /* the iozone workload */
	uint64_t seed;
	uint64_t iterations, duration_ns; /* the stop condition in force */
	struct sb_vtarget *vt;
	int region_mode;	/* device or existing file: data kept between iterations */
	char why[512];		/* what the last iteration that could not run met */
	uint64_t started_ns;	/* wall clock of the first iteration ever */
	uint64_t mono_start_ns; /* monotonic clock when this process's loop began */
	uint64_t prior_ns;	/* run before that (a resumed soak), from the log */
	/* for the ETA: the first iteration of this process, the current one
	 * and when it began (monotonic), how long its last check took */
	uint64_t first_n, cur_n, it_mono_ns, check_ns;
	/* how the soak stopped before its end (SB_SOAK_INTERRUPTED,
	 * SB_SOAK_ABORTED; 0 it did not), and why */
	int stopped;
	char abort_reason[768];
	int ranks_cut; /* many ranks: the last iteration was cut short on one */
	/* iteration gen_first of this run writes generation gen_base, each
	 * next one more */
	uint64_t gen_first, gen_base;
	size_t ncut;		       /* iterations a stop cut short (done again) */
	struct sb_soak_leftover *left; /* files a killed iteration listed */
	size_t nleft;
	struct sb_kmsg_stack kstack; /* the target's devices */
	struct sb_kmsg kmsg;
	int kmsg_ok;
	struct sb_soak_iter *it; /* all iterations, resumed ones included */
	size_t nit, capit;
	FILE *log;
	char logname[4200]; /* this rank's log */
	char base[4096];    /* many ranks: LOG, rank 0's name */
	int health_ok[2];
	struct sb_health health[2];
	int stop_changed;
	struct sb_soak_stop_change stop_change;
	/* the iozone workload: its sweep */
	struct sb_sweep_result *zr;
	struct sb_sweep_opts zo;
	/* the verify workload's progress: the phase's rate, when a line was
	 * told last, and (many ranks, all in the phase) the ranks' bytes */
	struct sb_rate rate;
	uint64_t told_ns, phase_ns;
	struct sb_coord_sum all;
	int all_ranks;
	/* many ranks: this iteration's times on the coordination clock
	 * (write start, end; check start, end), its bytes and latencies */
	double ph_start, ph_end, ph[4];
	double wshared_s, wpause_s; /* --burst: the pauses every rank shared, its own */
	uint64_t wbytes, rbytes;
	struct sb_hist wh, rh;
	/* rank 0: the All clients iterations, their log, per rank its host
	 * and failed iterations, and each iteration's ranks */
	struct sb_soak_iter *agg;
	size_t nagg, capagg;
	FILE *agg_log;
	char (*rank_host)[64];
	uint64_t *rank_failed;
	struct sb_soak_rank **agg_ranks;
	size_t nagg_ranks;
};

/* soak_run.c: what the hooks are told; an error is also the run's err (the
 * first one), -e returned. A failed coordination: said, and kept. */
int soak_fail(struct soak *s, int e, enum sb_errclass cls, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void soak_warn(struct soak *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void soak_note(struct soak *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int soak_coord_failed(struct soak *s, const char *what, int e);
/* Whether the stop hook asks to stop (kept in s->signal). */
int soak_stop_asked(struct soak *s);
/* Wall clock, ns since the epoch (the log's times). */
uint64_t soak_wall_ns(void);
/* The last iteration --iterations asks for (0: no such limit). */
uint64_t soak_last_planned(const struct soak *s);
int soak_add(struct soak *s, const struct sb_soak_iter *it);

/* Many ranks: every rank's verdict (0 go on, else an error's -errno) to
 * every rank: the first failing rank's (said on rank 0), or -errno of the
 * coordination. Alone: e. */
int soak_agree(struct soak *s, int e, enum sb_errclass cls);

/* soak_iter.c, soak_iozone.c: one iteration (0, or -errno when it could
 * not run at all: said, s->why set). */
int soak_iteration(struct soak *s, struct sb_soak_iter *it);
void soak_collect_kmsg(struct soak *s, struct sb_soak_iter *it);
/* The soak's time so far into *elapsed_ns (a resumed one's earlier time
 * included) and the ETA of the whole soak from its phase's own (phase_eta
 * < 0: unknown, -1 returned); write: a check is still to come. */
double soak_eta(const struct soak *s, int write, double phase_elapsed, double phase_eta,
		uint64_t now, uint64_t *elapsed_ns);
int soak_iozone_prepare(struct soak *s);
int soak_iozone_iteration(struct soak *s, struct sb_soak_iter *it);

/* soak_loop.c: the loop; 0, or -errno when the soak could not go on
 * (said, the reason in s->abort_reason). */
int soak_loop(struct soak *s);

/* soak_log.c: the log (0 or -errno, said) */
int soak_log_open(struct soak *s, FILE **f, const char *path, int append);
int soak_log_commit(struct soak *s, FILE *log, struct sb_json *j);
/* What the soak was asked (its configuration line's, its summary's). */
void soak_settings(const struct soak *s, struct sb_soak_settings *set);
int soak_log_config(struct soak *s, FILE *log, int aggregate);
int soak_log_iteration(struct soak *s, const struct sb_soak_iter *it);
int soak_log_summary(struct soak *s, FILE *log, const struct sb_soak_result *r);
int soak_log_stop_change(struct soak *s, FILE *log);
int soak_log_start(struct soak *s, uint64_t n);
void soak_log_leftovers(struct soak *s);
/* Cut the log after iteration n's line (after line 1 when 0), keeping
 * what the lines cut away told; used: the highest generation a write may
 * have used. 0 or -errno. */
int soak_log_cut(const char *path, uint64_t n, uint64_t used);
/* Read a log to resume (its torn last line cut off): 0 or -errno, said. */
int soak_log_read(struct soak *s, const char *path, struct sb_soak_resume *r);

/* soak_finish.c: the summary and verdict of the iterations it[0..n) into
 * r, written as the summary line of log (quiet: no resume line). */
int soak_finish(struct soak *s, FILE *log, const char *logname, struct sb_soak_iter *it, size_t n,
		struct sb_soak_result *r);

/* soak_ranks.c: under mpirun (docs/mpi.md) */
void soak_ranks_log_name(const struct soak *s, const char *base, char *mine, size_t len);
int soak_ranks_open(struct soak *s, int append);
int soak_ranks_begin(struct soak *s, int resumed);
int soak_ranks_resume(struct soak *s, struct sb_soak_resume *r);
/* After an iteration (e: -errno when it could not run): every rank's
 * figures to rank 0, which logs the All clients iteration and tells it;
 * *stop says, the same on every rank, 0 go on, 1 stop, < 0 an error
 * (abort_reason set). 0, or -errno of the coordination. */
int soak_ranks_iteration(struct soak *s, const struct sb_soak_iter *it, int e, int *stop);
int soak_ranks_finish(struct soak *s);
void soak_ranks_free(struct soak *s);

#endif
