/* storbench iozone: what cli/cmd_iozone.c and sweep's text share (iozone's
 * layout is report/'s: report/iozone_layout.h). */
#ifndef SB_CLI_IOZONE_H
#define SB_CLI_IOZONE_H

#include "cli/cmd_sweep.h"
#include "report/iozone_layout.h"

struct iozone_cli {
	struct sb_iozone_args a;
	struct sweep_cli s;
	const char *json; /* --output=FILE: storbench's JSON results too */
	int drop_cache;	  /* --drop-cache: cold page cache before each read test */
};

/* From here on every message names iozone's options, not the sweep's
 * behind them: -r, not --record-sizes (cli_msg_alias). */
void iozone_name_options(void);

/* The names sweep_out.c and soak_out.c call iozone's layout by (owned by
 * another branch), until they call report/iozone_layout.h's own. */
#define iozone_print_columns rep_iozone_columns
#define iozone_print_rows rep_iozone_rows
#define iozone_print_blocks rep_iozone_blocks
#define iozone_print_excel rep_iozone_excel

#endif
