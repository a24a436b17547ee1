/* storbench flash: what cmd_flash.c shares with flash_text.c. */
#ifndef SB_CLI_FLASH_H
#define SB_CLI_FLASH_H

#include "cli/cli.h"

/* The progress line while a method runs, fed by the method's hooks. */
struct cli_flash_live {
	struct cli_progress pg;
	struct sb_flash_hooks hooks;
	char what[48]; /* the step: "align, bs 4 KiB", "open-au" */
};
void cli_flash_live_init(struct cli_flash_live *l, int quiet);
/* The findings, their meaning and every row, for a person. */
void cli_flash_print_text(FILE *f, const struct sb_flash_result *r);

#endif
