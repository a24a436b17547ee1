/* storbench info (cli/cmd_info.c): the report is lib's (sb_info_report),
 * its text report/'s (rep_info_text). What cli/soak_out.c includes of it
 * (until that file, another branch's, includes cli/cli.h itself). */
#ifndef SB_CLI_INFO_H
#define SB_CLI_INFO_H

#include "cli/cli.h"
#include "lib/storbench.h"

#endif
