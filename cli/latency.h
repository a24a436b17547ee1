/* storbench latency: what cmd_latency.c and latency_report.c share (the
 * run and its results section are lib's: sb_lat_run, sb_results_latency). */
#ifndef SB_CLI_LATENCY_H
#define SB_CLI_LATENCY_H

#include "cli/cli.h"
#include "lib/storbench.h"

/* The text side of a run. */
struct lat_out {
	struct sb_lat_run *lr;
	char where[256]; /* ioping's "(ext4 /dev/vda 252 GiB)" */
	int per_request; /* print a line per request */
	FILE *lines;	 /* where they go (stdout, or stderr with JSON on stdout) */
	/* the live progress line, when there are no request lines */
	int progress;
	struct cli_progress pg;
	struct sb_rate rate;
	uint64_t since_check_ns; /* request time summed since the clock was last read */
};

/* ioping's description of the target, "(ext4 /dev/vda 252 GiB)", into o->where. */
void cli_lat_describe_target(struct lat_out *o, const struct sb_target_info *t);
/* The per-request callback (ctx: a lat_out): keeps the record, prints
 * ioping's line, or redraws the progress line when o->progress (the
 * clock is read only once the requests since the last read add up to
 * 50 ms, so hdparm -T's loop of cached reads does not time it). */
void cli_lat_on_request(void *ctx, const struct sb_probe_req *r);
/* Text summary: ioping's statistics, the preset's own line, percentiles. */
void cli_lat_print_text(FILE *f, const struct lat_out *o);
/* Start (o->progress set) and end the progress line. */
void cli_lat_progress_start(struct lat_out *o, int quiet);
void cli_lat_progress_end(struct lat_out *o);

#endif
