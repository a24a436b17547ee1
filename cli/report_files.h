/*
 * What report and compare share as commands: "-o FILE", results read with
 * their failure printed, and the output written under a temporary name
 * renamed at the end, so a failed report leaves nothing half-written
 * behind (cli/report_files.c).
 */
#ifndef SB_REPORT_FILES_H
#define SB_REPORT_FILES_H

#include "cli/cli.h"
#include "report/report.h"

/* argv with "-o" spelled "--output" for the shared parser (free the array). */
char **cli_expand_short(int argc, char **argv);
/* rep_load, its failure printed: 0 or an exit code (a file that is not
 * there or not a result is bad input; one that cannot be read, the
 * environment's). */
int cli_load_result(const char *path, struct rep_doc **out);
/* Prints what a call of report/ said (or "out of memory" when it could not
 * say) and frees it. */
void cli_print_why(char *why);
/* Writes through write() (0 or -errno) to path ("-" or NULL: stdout);
 * prints errors, returns an exit code. */
int cli_write_file(const char *path, int (*write)(FILE *f, const void *ctx), const void *ctx);
/* The same for a writer that opens the file itself (a workbook): write()
 * gets the temporary name and returns 0 or an exit code, its error printed. */
int cli_write_named(const char *path, int (*write)(const char *tmp, const void *ctx),
		    const void *ctx);

#endif
