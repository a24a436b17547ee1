/*
 * What report and compare share as commands: "-o FILE" and the format it
 * picks, results read with their failure printed (cli/report_files.c). Their output is written
 * whole or not at all by cli_write_file (cli/output.c).
 */
#ifndef SB_REPORT_FILES_H
#define SB_REPORT_FILES_H

#include "cli/cli.h"
#include "report/report.h"

/* rep_load, its failure printed: 0 or an exit code (a file that is not
 * there or not a result is bad input; one that cannot be read, the
 * environment's); the notes of what was left out of it go to stderr. */
int cli_load_result(const char *path, struct rep_doc **out);
/* The same, for compare (figures_only): rep_load_figures. */
int cli_load(const char *path, int figures_only, struct rep_doc **out);
/* The format of report's or compare's output: --format as given, else the
 * one the extension of -o FILE names (exts, the extensions the command
 * takes, for the message when FILE has none of them), else the first of
 * the command's formats. A workbook (xlsx) needs a file and a build with
 * libxlsxwriter. 0 with *fmt its name ("html"), or an exit code after the
 * message. */
int cli_output_format(const struct cli_command *cmd, const struct cli_shared *sh, const char *exts,
		      const char **fmt);
/* storbench report DIR -o out for a plan's directory (storbench plan
 * --html): 0 or an exit code after the message. */
int cli_report_plan_html(const char *dir, const char *out);
/* Prints what a call of report/ said (or "out of memory" when it could not
 * say) and frees it. */
void cli_print_why(char *why);

#endif
