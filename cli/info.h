/* storbench info: what the command (cli/cmd_info.c) and its text renderer
 * (cli/render_info.c) share; the report is lib's (sb_info_report), the
 * health's text report/'s (rep_health_text). */
#ifndef SB_CLI_INFO_H
#define SB_CLI_INFO_H

#include "cli/cli.h"
#include "lib/storbench.h"

void render_info_text(FILE *f, const struct sb_info_report *r);

#endif
