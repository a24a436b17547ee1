/* storbench pts: what cmd_pts.c and pts_out.c share. */
#ifndef SB_CLI_PTS_H
#define SB_CLI_PTS_H

#include "cli/cli.h"

struct pts_cli {
	struct sb_pts_opts o;
	struct sb_pts_result *r;
	struct cli_shared sh; /* --output, --format, --quiet, --destroy-data, --seed */
	int json_stdout;
	uint64_t start_ns;
	struct sb_jobtarget *t; /* the device, prepared */
};

/* The text summary: conditions, deviations, per test its rounds, steady
 * state and window-average tables (cli/pts_out.c). */
void pts_print_text(FILE *f, const struct pts_cli *c, const char *path);
/* "0.5k", "4k", "1024k" */
void pts_bs_text(uint32_t bs, char *buf, size_t len);

#endif
