/* storbench plan's report (cli/plan_out.c) of its run (lib/plan/plan_run.h). */
#ifndef SB_PLAN_OUT_H
#define SB_PLAN_OUT_H

#include "cli/cli.h"

/* The verdict, the criteria table (text, or JSON on stdout: json_stdout), the JSON
 * result to output (NULL: none) and JUnit XML to junit (NULL: none); the
 * exit code: 0 every criterion passed, 1 one failed, a step's that could
 * not run (2, 3, 128+N), or that of an output that could not be written. */
int plan_report(const struct sb_plan_result *r, int json_stdout, const char *output,
		const char *junit);

#endif
