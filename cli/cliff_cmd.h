/* storbench cliff: the command's state (cli/cmd_cliff.c, cli/cliff_text.c). */
#ifndef SB_CLI_CLIFF_H
#define SB_CLI_CLIFF_H

#include "cli/cli.h"

struct cliff_ctx {
	uint64_t size, offset, max_time_ns, rate_bps;
	uint32_t bs;
	unsigned iodepth;
	int random;
	char engine[16];
	unsigned nrecovery;
	uint64_t recovery_ns[SB_CLIFF_MAX_RECOVERY];
	enum sb_purge_method purge; /* --purge; SB_PURGE_NONE: none */
	uint64_t idle_before_ns;    /* --idle-before */
	int json_stdout;
	struct cli_shared sh; /* --output, --format, --quiet, --destroy-data */

	struct sb_job_opts job; /* the write job as run */
	const struct sb_engine_ops *ops;
	struct sb_cliff_result *res;
	/* the progress line */
	struct cli_progress pg;
	struct sb_rate rate;
	uint64_t start_ns;
	int phase, idle; /* of the last line drawn */
};

/* lib/cliff's progress hook: the live line. */
void cli_cliff_progress(void *ctx, const struct sb_cliff_progress *p);

#endif
