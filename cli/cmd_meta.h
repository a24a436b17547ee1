/* storbench meta: what cmd_meta.c and meta_report.c share (the run is
 * lib's: sb_meta_run). */
#ifndef SB_CLI_META_H
#define SB_CLI_META_H

#include "cli/cli.h"
#include "lib/storbench.h"

/* Text summary (a table of the tests run). */
void cli_meta_print_text(FILE *f, const struct sb_meta_run *m);
/* Why the block test file has its default size, in one sentence. */
void cli_meta_size_why(const struct sb_meta_run *m, char *buf, size_t len);

#endif
