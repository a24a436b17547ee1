/*
 * One run of storbench latency as its results keep it: the preset and the
 * probe's parameters, ioping's statistics, the log of requests, and the
 * figures of the tools a preset reproduces (hdparm's and dd's lines).
 */
#ifndef SB_LAT_RUN_H
#define SB_LAT_RUN_H

#include "lib/sb.h"
#include "lib/latency/probe.h"
#include "lib/stats/ioping.h"

struct sb_jobtarget;

enum sb_lat_preset {
	SB_LAT_IOPING,
	SB_LAT_DD_SYNC,
	SB_LAT_HDPARM,
	SB_LAT_HDPARM_CACHE,
	SB_LAT_NPRESETS
};

/* Requests kept for the JSON document (the statistics keep every one). */
#define SB_LAT_MAX_RECORDS 100000

struct sb_lat_record {
	uint64_t offset, ns;
	int warmup;
};

struct sb_lat_run {
	enum sb_lat_preset preset;
	const char *path;
	struct sb_probe_params p;
	int direct, dsync;
	struct sb_ioping st;
	struct sb_lat_record *rec;
	size_t nrec, rec_cap;
	int rec_truncated;
	uint64_t overhead_ns; /* hdparm -T: lseek + clock cost subtracted */
	int cache_method;     /* sb_cache_drop's result before the run (0: none) */
	int interrupted;
	int failed; /* -errno of a failed request, 0 */
	uint64_t fail_offset;
};

/* "ioping", "dd-sync", "hdparm", "hdparm-cache" */
const char *sb_lat_preset_name(enum sb_lat_preset p);
/* "random", "sequential", "fixed" */
const char *sb_lat_pattern_name(enum sb_probe_pattern p);
/* Keep request r in the log (the first SB_LAT_MAX_RECORDS; past them, or
 * without memory, rec_truncated is set). */
void sb_lat_record(struct sb_lat_run *lr, const struct sb_probe_req *r);
/* Open the target (prepared for one job) as lr->p.fd: for writes when
 * p.write, O_DIRECT when direct, O_DSYNC when dsync. 0 or -errno. */
int sb_lat_open(struct sb_lat_run *lr, const struct sb_jobtarget *t);
/* Close what sb_lat_open opened. */
void sb_lat_close(struct sb_lat_run *lr);
/* Before the probe runs on lr->p.fd: hdparm -T reads the first block once,
 * then, as hdparm does, the page cache is dropped (lr->cache_method) for it
 * and for every buffered run. 0, or the priming read's -errno (the run can
 * go on: the re-reads fill the cache). */
int sb_lat_prime(struct sb_lat_run *lr);
/* What lr holds (the log, the statistics); lr itself is the caller's. */
void sb_lat_run_free(struct sb_lat_run *lr);
/* hdparm's elapsed time in s (-T: the lseek overhead taken off). */
double sb_lat_hdparm_seconds(const struct sb_lat_run *lr);
/* The original tool's figure: hdparm's "Timing ..." line, or dd's three
 * lines ("N+0 records in" ... "copied, S s, R B/s"), without the last
 * newline. */
void sb_lat_hdparm_line(const struct sb_lat_run *lr, char *buf, size_t len);
void sb_lat_dd_lines(const struct sb_lat_run *lr, char *buf, size_t len);

#endif
