/*
 * storbench soak as a library call. sb_soak_run() repeats, until its stop
 * condition, an iteration: write the region with verify blocks of a
 * generation no earlier write of the soak used (fsync included), drop the
 * caches, read it back and check every block, remove the files (a
 * directory or a new file) or keep the data (a device or an existing
 * file: the next write replaces it), and collect the kernel's storage
 * messages; or, with the iozone workload, one iozone sweep (lib/sweep).
 * Each iteration is a line of its JSON Lines log (soak_json.h), fsync'd
 * before the next one begins; the end is a summary line with the verdict.
 * A soak goes on from its log after a crash or a Ctrl-C: sb_soak_resume
 * reads the log, the caller parses the options it holds, and
 * sb_soak_run goes on with them.
 *
 * Under mpirun (a coordination handle of many ranks, lib/coord) every rank
 * soaks its own target and keeps its own log, LOG.rank-N; the iterations
 * start together, and rank 0 writes LOG: the All clients iteration (bytes
 * summed over the span from the earliest start to the latest end) with
 * each rank's own. LOG's verdict is the soak's.
 *
 *   struct sb_soak_result r; struct sb_error er;
 *   if (sb_soak_run(&opts, &hooks, coord, &r, &er) < 0) ... er.msg
 *   ... r.sum.verdict, r.it[0..r.nit) ...
 *   sb_soak_result_free(&r);
 *
 * Nothing here prints: what the program says as it happens comes through
 * the hooks, what it says at the end is in the result.
 */
#ifndef SB_SOAK_H
#define SB_SOAK_H

#include "lib/coord/coord.h"
#include "lib/engine/engine.h"
#include "lib/soak/soak_json.h"
#include "lib/sweep/sweep.h"
#include "lib/verify/verify_target.h"

struct sb_soak_resume;

struct sb_soak_opts {
	/* the target as probed (its device, disk and model name the kernel
	 * lines that are the target's, and the health captured) */
	const struct sb_target_info *info;
	/* the verify workload: the target resolved by the caller (a
	 * directory's or a new file's files planned, made by each iteration
	 * here; a device or an existing file ready to be written in place),
	 * the options its files are made with, the engine, and the requests */
	struct sb_vtarget *vt;
	struct sb_vtarget_opts vto;
	const struct sb_engine_ops *ops;
	uint32_t block_size, request_size;
	unsigned iodepth;
	/* the iozone workload (NULL: the verify workload): iozone's options,
	 * its -f the target; destroy: a file not storbench's may be taken */
	const struct sb_iozone_args *iozone;
	int destroy;
	const char *target; /* as given: the aggregate log's configuration */
	uint64_t seed;
	/* the stop condition: whole iterations (one a stop cut short is done
	 * again), a time since the first start, or both; neither: 10
	 * iterations */
	uint64_t iterations, duration_ns;
	uint64_t idle_ns;		     /* a pause after each iteration */
	uint64_t burst_bytes, burst_idle_ns; /* the write pauses after each burst (0: none) */
	int stop_on_error, fail_on_anomaly;
	/* the log (under mpirun rank 0's name, LOG; each rank's own is
	 * LOG.rank-N): a new file, refused when it exists */
	const char *log;
	/* the options as given, kept in the log's configuration for a resume;
	 * prog: the program as it was run, in the line that resumes it */
	int argc;
	char *const *argv;
	const char *prog;
	/* --resume: the log read back (sb_soak_resume; log names it), whose
	 * iterations the run takes over (the caller frees it after, with the
	 * options that point into its argv), and the stop condition the
	 * command line gives instead of the log's (0, 0: none) */
	struct sb_soak_resume *resume;
	uint64_t resume_iterations, resume_duration_ns;
};

/* What a progress line needs, while an iteration runs. */
struct sb_soak_progress {
	uint64_t iteration, last; /* iteration of last (0: no such limit) */
	const char *phase;	  /* "write", "check"; iozone: the test ("randread") */
	unsigned ranks;		  /* > 1: done, total and bps are every rank's together */
	uint64_t done, total;	  /* bytes of the phase (iozone: of the sweep) */
	double pct;		  /* of the phase (< 0: none) */
	double bps;		  /* over the last second; < 0 not known yet */
	/* of the soak, a resumed one's earlier time included (the iozone
	 * workload's too); eta < 0: unknown */
	uint64_t elapsed_ns;
	double eta_ns;
	/* iozone: the sweep's cell (1-based) of ncells, its sizes; ncells 0
	 * for the verify workload */
	unsigned cell, ncells;
	uint64_t file_size, record_size;
};

/* The soak begins its loop. */
struct sb_soak_begin {
	uint64_t resumed_after; /* a resumed soak: the last iteration its log holds (0: none) */
	int cut_short;		/* that one was cut short: it does not count, one more runs */
	const struct sb_soak_stop_change *stop_change; /* a resume changed the stop (NULL: no) */
	int kmsg_watched;			       /* kernel messages are read (/dev/kmsg) */
};

/* An iteration ended and is in the log. Under mpirun rank 0 hears of the
 * All clients iteration with each rank's own; the other ranks of nothing. */
struct sb_soak_event {
	const struct sb_soak_iter *it;
	const struct sb_soak_rank *ranks; /* nranks of them, or NULL */
	unsigned nranks;
	const struct sb_sweep_result *sweep; /* the iozone workload: the iteration's sweep */
};

/* What the program hears of as it happens; each may be NULL. */
struct sb_soak_hooks {
	void *ctx;
	/* polled between requests and iterations: non-zero stops the soak
	 * (the iteration in flight is cut short, the verdict interrupted);
	 * SIGINT, SIGTERM or SIGPIPE's number names the signal in the reason */
	int (*stop)(void *ctx);
	/* as a phase begins and at most every 50 ms while it runs (the verify
	 * workload); as each test of a sweep begins and every MiB of its
	 * records (iozone) */
	void (*progress)(void *ctx, const struct sb_soak_progress *p);
	void (*begin)(void *ctx, const struct sb_soak_begin *b);
	void (*iteration)(void *ctx, const struct sb_soak_event *e);
	/* a file made for an iteration, open as fd (-1: by name): on 1 as soon
	 * as it exists (a second Ctrl-C may remove it), 0 once it is no longer
	 * ours to remove */
	void (*track)(void *ctx, const char *path, int fd, int on);
	/* what a person is told as it happens: a note (a file a killed run
	 * left was removed), a warning, an error (the run's err too, unless
	 * another rank's: then on rank 0 "rank N refused or failed") */
	void (*note)(void *ctx, const char *msg);
	void (*warn)(void *ctx, const char *msg);
	void (*error)(void *ctx, const char *msg);
};

/*
 * Runs the soak o describes, telling h (NULL: nothing) as it goes, over
 * coord's ranks (NULL: alone). 0 when it ran to its verdict (pass, fail,
 * interrupted: out->sum, out->end); -errno with err when it could not
 * begin (nothing in the log; err->cls SB_ERR_INPUT for what was asked
 * wrongly, SB_ERR_ENV for what the environment refused) or could not go
 * on (out->ran: its verdict aborted, err says what failed). Free out with
 * sb_soak_result_free whatever it returned.
 */
int sb_soak_run(const struct sb_soak_opts *o, const struct sb_soak_hooks *h, struct sb_coord *coord,
		struct sb_soak_result *out, struct sb_error *err);
void sb_soak_result_free(struct sb_soak_result *r);

/* --resume: the log read back: the options it was started with (argv),
 * its seed, and what the next run needs (its iterations, the highest
 * generation a write may have used, the files a killed iteration left).
 * A torn last line is cut off (with a warning). Under mpirun each rank
 * reads its own, LOG.rank-N, rank 0 LOG too, and every log is cut after
 * the last iteration all of them hold. */
struct sb_soak_resume {
	char *log; /* as named */
	int argc;
	char **argv;
	uint64_t seed;
	struct sb_soak_resume_state *st; /* the rest, sb_soak_run's */
};
int sb_soak_resume(const char *log, const struct sb_soak_hooks *h, struct sb_coord *coord,
		   struct sb_soak_resume **out, struct sb_error *err);
void sb_soak_resume_free(struct sb_soak_resume *r);
/* The command line of a resume (argv[0] the command): the soak goes on as
 * it started; only how long (--iterations, the total; --duration, from
 * the first start) and where its outputs go (--output, --format, --quiet,
 * --db, --label) may be given, up to "--". 0, or -EINVAL with the message
 * naming the first other option. */
int sb_soak_resume_args_ok(int argc, char **argv, char *msg, size_t ml);

#endif
