/* storbench meta: what cmd_meta.c and meta_report.c share. */
#ifndef SB_CLI_META_H
#define SB_CLI_META_H

#include "cli/cli.h"
#include "lib/storbench.h"

struct meta_run {
	struct sb_meta_files files;
	struct sb_meta_io io;
	char rundir[4096];
	int dirfd;		/* rundir, held open from its creation on */
	char iopath[4200];
	char name[64];		/* machine name in the CSV */
	struct sb_meta_result res[SB_META_NTESTS];
	int cache_method;
	int interrupted;
	int kept;		/* the run directory could not be removed */
	int quiet;
	uint64_t seed;
};

/* Text summary (a table of the tests run). */
void cli_meta_print_text(FILE *f, const struct meta_run *m);
/* bonnie++'s CSV line, or "" when it does not fit. */
void cli_meta_csv(const struct meta_run *m, char *buf, size_t len);
/* Hook the "meta" section into the results. */
void cli_meta_fill_results(struct sb_results *res, const struct meta_run *m);

#endif
