/*
 * What report and compare share as commands: "-o FILE", results read with
 * their failure printed (cli/report_files.c). Their output is written
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
/* Prints what a call of report/ said (or "out of memory" when it could not
 * say) and frees it. */
void cli_print_why(char *why);

#endif
