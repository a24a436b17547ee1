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

#endif
