/* storbench latency: what cmd_latency.c and latency_report.c share. */
#ifndef SB_CLI_LATENCY_H
#define SB_CLI_LATENCY_H

#include "cli/cli.h"
#include "lib/storbench.h"

enum lat_preset { LAT_IOPING, LAT_DD_SYNC, LAT_HDPARM, LAT_HDPARM_CACHE };

/* Requests kept for the JSON document (the statistics keep every one). */
#define LAT_MAX_RECORDS 100000

struct lat_record {
	uint64_t offset, ns;
	int warmup;
};

/* One probe run, as the report needs it. */
struct lat_run {
	enum lat_preset preset;
	const char *path;
	char where[256];	/* ioping's "(ext4 /dev/vda 252 GiB)" */
	struct sb_probe_params p;
	int direct, dsync;
	int per_request;	/* print a line per request */
	FILE *lines;		/* where they go (stdout, or stderr with JSON on stdout) */
	struct sb_ioping st;
	struct lat_record *rec;
	size_t nrec, rec_cap;
	int rec_truncated;
	uint64_t overhead_ns;	/* hdparm -T: lseek + clock cost subtracted */
	int cache_method;	/* sb_cache_drop's result before the run (0: none) */
	int interrupted;
	int failed;		/* -errno of a failed request, 0 */
	uint64_t fail_offset;
};

const char *cli_lat_preset_name(enum lat_preset p);
/* ioping's description of the target, "(ext4 /dev/vda 252 GiB)", into lr->where. */
void cli_lat_describe_target(struct lat_run *lr, const struct sb_target_info *t);
/* The per-request callback (prints ioping's line, keeps the record). */
void cli_lat_on_request(void *ctx, const struct sb_probe_req *r);
/* Text summary: ioping's statistics, the preset's own line, percentiles. */
void cli_lat_print_text(FILE *f, struct lat_run *lr);
/* The original tool's figure: hdparm's or dd's line (also in the JSON). */
void cli_lat_hdparm_line(const struct lat_run *lr, char *buf, size_t len);
void cli_lat_dd_lines(const struct lat_run *lr, char *buf, size_t len);
/* Fill res with the job (fio-shaped) and hook the "latency" section. */
int cli_lat_fill_results(struct sb_results *res, struct lat_run *lr);

#endif
