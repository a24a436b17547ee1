/* storbench info: what is known about a target, shared by the command
 * (cli/cmd_info.c) and its text renderer (cli/render_info.c). */
#ifndef SB_CLI_INFO_H
#define SB_CLI_INFO_H

#include "cli/cli.h"
#include "lib/storbench.h"

struct info_report {
	struct sb_target_info t;
	int have_dev;		/* dev describes the disk beneath */
	struct sb_devinfo dev;
	int have_mount;		/* a file or directory: the filesystem holding it */
	struct sb_mount mount;
	struct sb_health health;
	int checked_block;	/* in_use and signature were asked (block targets) */
	int in_use;		/* 1, 0, -errno */
	char where[512];
	int signature;		/* 1, 0, -errno */
	char what[128];
};

void render_info_text(FILE *f, const struct info_report *r);
/* Health as text lines, indented; said by long-running commands too. */
void render_health_text(FILE *f, const struct sb_health *h, const char *indent);
/* The "info" section of the results (an extra_json hook). */
void info_json(struct sb_json *j, const void *report);

#endif
