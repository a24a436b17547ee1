/*
 * What the program needs to run a plan's step as a process of its own
 * (cli/cmd_plan.c forks and execs; lib/ never does): the step's command
 * line, its stderr relayed as it comes with its last line kept, the
 * lines cut for a prefix (--parallel), and the children a signal the
 * plan gets is passed on to.
 */
#ifndef SB_PLAN_PLAN_PROC_H
#define SB_PLAN_PLAN_PROC_H

#include "lib/plan/plan_run.h"

#include <signal.h>

/* path made absolute (sb_path_absolute): 0, or -errno with err
 * ("cannot use 'PATH': why", the class of the errno). */
int sb_plan_path(const char *path, char *out, size_t len, struct sb_error *err);
/* Where the steps run, absolute: targets[n] from given[n] (n 1 and
 * given NULL: the plan's target=), and step_targets[target][step] each
 * step's own target= or else its target's, each one checked for its
 * step (sb_plan_check_target). 0, or -errno with err. */
int sb_plan_targets(const struct sb_plan *pl, const char *const *given, size_t n, int destroy,
		    char (*targets)[PATH_MAX + 256], char (*step_targets)[PATH_MAX + 256],
		    struct sb_error *err);
/* The plan's directory (given, else NAME-plan: sb_plan_dir_name) made
 * when it is not there, absolute into out. 0, or -errno with err. */
int sb_plan_dir_make(const char *file, const struct sb_plan *pl, const char *given, char *out,
		     size_t len, struct sb_error *err);

/* What the step's command takes of what the plan was given. */
struct sb_plan_argv_opts {
	int quiet;   /* --quiet: the plan's, and the command takes it */
	int labels;  /* the plan's labels as --label: a history (db=) the command records in */
	int destroy; /* --destroy-data: the plan's, and the command takes it */
};

/* storbench COMMAND [--quiet] --output=RESULT [--label L]... [--log=LOG
 * | --resume=LOG] OPTIONS [--destroy-data] TARGET: a soak the plan names
 * a log for (RESULT's name .jsonl) unless it names its own; with that
 * log there (a soak stopped in its middle), --resume= it with only its
 * stop (--iterations=, --duration=) of the options and no target. */
struct sb_plan_argv {
	char **argv; /* NULL-terminated; into the step, the plan and this */
	int resume;
	char outopt[PATH_MAX + 160], logopt[PATH_MAX + 160];
};

/* 0 or -ENOMEM; free with sb_plan_argv_free. */
int sb_plan_step_argv(const struct sb_plan *pl, const struct sb_plan_call *call,
		      const struct sb_plan_argv_opts *o, struct sb_plan_argv *out);
void sb_plan_argv_free(struct sb_plan_argv *a);

/* A child's wait status as a step's exit code: 128+N for signal N, else
 * its exit code (127, that it could not be run, as -ENOEXEC). */
int sb_plan_step_status(int status);

/* Cuts buf into pieces, each ending at a '\n' or '\r' or at buf's end,
 * and calls piece() with each, starts set for one that begins a line
 * (*midline: the last piece given ended none; 0 at first). */
void sb_plan_lines_cut(int *midline, const char *buf, size_t n,
		       void (*piece)(void *ctx, const char *p, size_t n, int starts), void *ctx);

/* Reads fd to its end, giving out() each read as it comes; the last
 * line that was not empty into last (""). 0, or -errno of a read. */
int sb_plan_relay(int fd, void (*out)(void *ctx, const char *buf, size_t n), void *ctx, char *last,
		  size_t len);

/* The plan's children a signal it gets is passed on to: the step
 * running, and with --parallel each target's process. */
struct sb_plan_children {
	volatile sig_atomic_t signal; /* the last signal the plan got (0: none) */
	volatile pid_t step;	      /* the step running (0: none) */
	pid_t *targets;		      /* each target's process */
	volatile sig_atomic_t ntargets;
};

/* From a signal handler: sig kept, passed on to every child. */
void sb_plan_children_signal(struct sb_plan_children *c, int sig);

#endif
