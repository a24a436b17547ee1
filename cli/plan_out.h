/* storbench plan's run and its report (cli/cmd_plan.c, cli/plan_out.c). */
#ifndef SB_PLAN_OUT_H
#define SB_PLAN_OUT_H

#include "cli/cli.h"

#include <limits.h>

/* A step on a target. */
struct plan_step_out {
	char target[PATH_MAX + 256]; /* absolute */
	char result[PATH_MAX + 128]; /* its result file */
	int ran;		     /* its figures are read (run now or before) */
	int resumed;		     /* finished before: the journal's */
	int status;		     /* its command's exit code (0 or 1) */
	int stopped;		     /* it could not run: the plan's exit code */
	int skipped;		     /* an optional step that could not run: why */
	int interrupted;	     /* stopped by the plan's signal: why */
	char why[8192];
	struct sb_figures figures;
};

struct plan_run {
	const struct sb_plan *pl;
	const char *file;
	int quiet, json_stdout;
	int destroy; /* --destroy-data: passed to each step whose command takes it */
	char (*targets)[PATH_MAX + 256];
	size_t ntargets;
	char dir[PATH_MAX], journal_path[PATH_MAX + 16];
	struct sb_plan_journal journal;
	struct plan_step_out *out;  /* [target][step] */
	int stopped;		    /* a step could not run: the exit code */
	int interrupted;	    /* the signal that stopped the plan (0: none) */
	const char *interrupted_by; /* its name ("SIGTERM") */
};

/* The verdict, the criteria table (text or JSON on stdout), the JSON
 * result to output (NULL: none) and JUnit XML to junit (NULL: none); the
 * exit code: 0 every criterion passed, 1 one failed, a step's that could
 * not run (2, 3, 128+N), or that of an output that could not be written. */
int plan_report(const struct plan_run *r, const char *output, const char *junit);

#endif
