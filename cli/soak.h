/* storbench soak: what its files (cmd_soak.c, soak_iter.c, soak_log.c,
 * soak_summary.c) share. */
#ifndef SB_CLI_SOAK_H
#define SB_CLI_SOAK_H

#include "cli/verify.h"
#include "lib/storbench.h"

#define SOAK_MAX_KMSG 16	/* kernel lines kept per iteration */
#define SOAK_MAX_RANGES 8	/* bad ranges kept per iteration in the log */
#define SOAK_LOG_VERSION 1

struct soak_opts {
	struct verify_opts v;	/* size, block size, request size, engine, direct... */
	uint64_t iterations;	/* 0: until --duration or Ctrl-C */
	uint64_t duration_ns;	/* 0: none */
	uint64_t idle_ns;
	uint64_t burst_bytes, burst_idle_ns; /* 0: no bursts */
	int stop_on_error, fail_on_anomaly;
	const char *log;	/* JSON Lines log; NULL: soak-<time>.jsonl here */
	const char *resume;	/* continue this log */
	int argc;		/* the options as given, kept in the log for --resume */
	char **argv;
};

struct soak_kline {
	uint64_t time_us;	/* kernel timestamp */
	char category[16];
	char text[240];
};

/* One iteration, as logged. */
struct soak_iter {
	uint64_t n;			/* 1-based */
	uint64_t start_ns, end_ns;	/* wall clock, ns since the epoch */
	double write_bw, read_bw;	/* bytes/s; write includes the fsync */
	uint64_t wlat[3], rlat[3];	/* request latency p50, p99, max (ns) */
	uint64_t blocks, count[SB_VERIFY_NCLASS];
	struct sb_verify_range ranges[SOAK_MAX_RANGES];
	size_t nranges;
	uint64_t ranges_omitted;
	uint64_t io_errors;		/* failed writes and unreadable blocks */
	int first_errno;
	uint64_t first_error_offset;
	int cache;			/* how caches were dropped before the check */
	struct soak_kline kmsg[SOAK_MAX_KMSG];
	size_t nkmsg, kmsg_omitted;
	int interrupted;
};

/* The run's state: what the loop, the log and the summary share. */
struct soak_state {
	struct soak_opts *o;
	struct vtarget t;
	const struct sb_engine_ops *ops;
	uint64_t seed;
	uint64_t started_ns;		/* wall clock of the first iteration ever */
	struct soak_iter *it;		/* all iterations, resumed ones included */
	size_t nit, capit;
	FILE *log;
	struct sb_kmsg kmsg;
	int kmsg_ok;
	int region_mode;		/* device or existing file: data kept between iterations */
	int health_ok[2];
	struct sb_health health[2];	/* before, after */
};

/* soak_iter.c: one iteration: write, fsync, drop caches, read back and
 * check, remove (file mode), collect kernel messages. Returns 0, or an
 * exit code when the iteration could not run at all. */
int soak_iteration(struct soak_state *s, struct soak_iter *it);
void soak_print_iteration(FILE *f, const struct soak_iter *it, int tty);
/* Failure of an iteration: verification, I/O or kernel storage errors. */
int soak_iter_failed(const struct soak_iter *it);

/* soak_loop.c */
uint64_t soak_wall_ns(void);
int soak_loop(struct soak_state *s);
/* Summary, log line, results and the exit code. */
int soak_finish(struct soak_state *s, const char *logname);

/* soak_log.c */
int soak_log_open(struct soak_state *s, const char *path, int append);
int soak_log_config(struct soak_state *s);
int soak_log_iteration(struct soak_state *s, const struct soak_iter *it);
int soak_log_summary(struct soak_state *s);
/* Read a log to resume: the options it was started with (argv, seed,
 * started time) and its complete iterations; a torn last line is cut off.
 * Prints its error and returns an exit code on failure. */
int soak_log_resume(const char *path, struct soak_state *s, char ***argv, int *argc);
void soak_iter_json(struct sb_json *j, const struct soak_iter *it);

/* soak_summary.c */
struct soak_metric_summary {
	const char *name;		/* "write_bw" */
	struct sb_stability st;
	size_t noutliers;
	size_t outliers[32];		/* iteration numbers (1-based) */
	size_t nchanges;
	struct {
		size_t at;		/* first iteration of the new level (1-based) */
		double before, after;
	} changes[8];
};
struct soak_summary {
	size_t iterations, failed;
	uint64_t verify_bad, io_errors, kmsg_lines;
	struct soak_metric_summary m[2];	/* write_bw, read_bw */
	int anomalies;
	int pass;
};
void soak_summarize(const struct soak_state *s, struct soak_summary *out);
void soak_summary_text(FILE *f, const struct soak_state *s, const struct soak_summary *sum);
void soak_summary_json(struct sb_json *j, const void *ctx);	 /* the log's last line */
void soak_results_json(struct sb_json *j, const void *ctx);	 /* results: summary + iterations */
int soak_state_add(struct soak_state *s, const struct soak_iter *it);

#endif
