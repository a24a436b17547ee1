/* run --verify's text (cli/run_verify.c). */
#ifndef SB_CLI_RUN_VERIFY_H
#define SB_CLI_RUN_VERIFY_H

#include "cli/cli.h"
#include "lib/storbench.h"

/* The counts and the bad ranges of the files paths[] checked (of many
 * ranks, a line a rank). */
void run_verify_text(FILE *f, const struct sb_job_verify *v, char *const *paths, unsigned npaths);

#endif
