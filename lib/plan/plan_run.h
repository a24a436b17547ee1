/*
 * A plan's run as a library call (issue 27's shape, docs/plans.md):
 * sb_plan_run goes over the targets and the steps of a parsed plan, skips
 * what the journal says was done (the latest entry wins), leaves the
 * target idle for a step's wait=, skips an optional= step that cannot
 * run, stops at a step that cannot run, records each finished step in
 * the journal and judges every criterion. What only the program can do
 * comes through hooks: run one step (the program runs itself with the
 * step's words and --output=), say whether a stop was asked, tell what
 * happens, and, with opts->parallel, run a target's steps in a process of
 * its own.
 */
#ifndef SB_PLAN_PLAN_RUN_H
#define SB_PLAN_PLAN_RUN_H

#include "lib/plan/plan.h"

#include <limits.h>
#include <sys/types.h>

/* A step's exit code the plan gives meaning to (storbench's own codes). */
enum {
	SB_PLAN_STEP_USAGE = 2,	  /* the step's command refused its input */
	SB_PLAN_STEP_ENV = 3,	  /* it could not run (nor start, nor be read) */
	SB_PLAN_STEP_SIGNAL = 128 /* + N: it ended by signal N */
};

/* A step on a target, as the run left it. */
struct sb_plan_outcome {
	char target[PATH_MAX + 256]; /* absolute */
	char result[PATH_MAX + 128]; /* its result file */
	int ran;		     /* its figures are read (run now or before) */
	int resumed;		     /* finished before: the journal's */
	int status;		     /* its command's exit code (0 or 1) */
	int stopped;		     /* it could not run: the exit code (2, 3, 128+N) */
	int skipped;		     /* an optional step that could not run: why */
	int interrupted;	     /* stopped by a stop asked: why */
	char why[8192];
	struct sb_figures figures;
};

struct sb_plan_result {
	const struct sb_plan *pl; /* the plan run (opts->pl) */
	const char *file;	  /* its file, as given */
	char (*targets)[PATH_MAX + 256];
	size_t ntargets;
	char dir[PATH_MAX];
	struct sb_plan_outcome *out;	     /* [target][step] */
	int stopped;			     /* a step could not run: its exit code */
	int interrupted;		     /* the signal that stopped the plan (0: none) */
	const char *interrupted_by;	     /* its name ("SIGTERM") */
	struct sb_plan_tally tally;	     /* every target's */
	struct sb_plan_tally *targets_tally; /* each target's */
};

struct sb_plan_run_opts {
	const struct sb_plan *pl;
	const char *file;	    /* the plan's file, as given (the report's name) */
	const char *const *targets; /* absolute */
	size_t ntargets;
	const char *const *step_targets; /* [target][step], absolute */
	const char *dir;		 /* the plan's directory: exists, absolute */
	int parallel;			 /* each target's steps at once, a process each */
};

/* What a step is run with (hooks->run_step). */
struct sb_plan_call {
	const struct sb_plan_step *st;
	size_t target_index;
	const char *target; /* absolute */
	const char *result; /* --output= this (a .json in the plan's directory) */
	const char *out;    /* its stdout to this (the .txt beside) */
};

enum sb_plan_event_kind {
	SB_PLAN_EV_RESUMED, /* done before: the journal's */
	SB_PLAN_EV_RERUN,   /* the journal's result cannot be read: it runs again (why) */
	SB_PLAN_EV_WAIT,    /* the target left idle for wait_ns first */
	SB_PLAN_EV_START,   /* the step begins */
	SB_PLAN_EV_SKIPPED  /* an optional step that could not run (why) */
};

struct sb_plan_event {
	enum sb_plan_event_kind kind;
	size_t target_index, step_index, nsteps;
	const struct sb_plan_step *st;
	const char *target;
	const char *why;
	uint64_t wait_ns;
};

struct sb_plan_hooks {
	void *ctx;
	/* Runs a step: its exit code (0 pass, 1 fail, 2, 3, 128+N), or
	 * -errno when it could not start; its last line of messages into
	 * said (why it could not run). Required. */
	int (*run_step)(void *ctx, const struct sb_plan_call *c, char *said, size_t saidlen);
	/* Polled between steps and after each: the signal that asks the
	 * plan to stop (the step running was told by the program), 0: none. */
	int (*stop)(void *ctx);
	void (*event)(void *ctx, const struct sb_plan_event *ev);
	/* opts->parallel: runs body(arg) in a new process that ends with
	 * its return (the program forks: signals are its own); the pid, or
	 * -errno. Required with opts->parallel. */
	pid_t (*spawn)(void *ctx, size_t target_index, int (*body)(void *arg), void *arg);
};

/*
 * Runs the plan (journal.json in opts->dir; each step's result
 * STEP.json there, STEP-N.json for the N-th of several targets) into out
 * (free it with sb_plan_result_free whatever this returned). 0 when the
 * plan ran, whatever its verdict (a step that could not run is in out);
 * -EINVAL (no run_step, no spawn with parallel), -ENOMEM, or a journal
 * that cannot be read (not a plan's), with err.
 */
int sb_plan_run(const struct sb_plan_run_opts *opts, const struct sb_plan_hooks *h,
		struct sb_plan_result *out, struct sb_error *err);
void sb_plan_result_free(struct sb_plan_result *r);

/* "SIGINT (Ctrl-C)", "SIGTERM", "SIGHUP", else "a signal" */
const char *sb_plan_signal_name(int sig);

#endif
