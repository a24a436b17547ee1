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
	int cache_method;     /* how the cache was dropped before the run (0: none) */
	int cache_after;      /* hdparm presets: how it was dropped after (0: none) */
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
 * and for every buffered run: the hdparm presets with hdparm's own flush of
 * a block device (sync, BLKFLSBUF: that device's pages only), where
 * BLKFLSBUF is refused or on a file with sb_cache_drop. 0, or the priming
 * read's -errno (the run can go on: the re-reads fill the cache). */
int sb_lat_prime(struct sb_lat_run *lr);
/* After the probe of an hdparm preset, as hdparm ends -t and -T: the
 * cache of what was read dropped again (lr->cache_after: BLKFLSBUF on a
 * block device, fadvise on a file), so that the next measurement, ours or
 * hdparm's, starts cold. */
void sb_lat_flush_after(struct sb_lat_run *lr);
/* What lr holds (the log, the statistics); lr itself is the caller's. */
void sb_lat_run_free(struct sb_lat_run *lr);
/* hdparm's elapsed time in s (-T: the lseek overhead taken off). */
double sb_lat_hdparm_seconds(const struct sb_lat_run *lr);
/* The original tool's figure: hdparm's "Timing ..." line, or dd's three
 * lines ("N+0 records in" ... "copied, S s, R B/s"), without the last
 * newline. */
void sb_lat_hdparm_line(const struct sb_lat_run *lr, char *buf, size_t len);
void sb_lat_dd_lines(const struct sb_lat_run *lr, char *buf, size_t len);
/* How the page cache stood: "fadvise per request", "drop_caches",
 * "fadvise", "bypassed" (direct I/O), "warm". */
const char *sb_lat_cache_name(const struct sb_lat_run *lr);

/* ---- what the command was asked, made into a run (lat_preset.c) ---- */
/* The preset of that name ("ioping", "dd-sync", ...), or -EINVAL. */
int sb_lat_preset_by_name(const char *name);
/* The options' values; *_set: given (a preset's default otherwise). */
struct sb_lat_choice {
	enum sb_lat_preset preset;
	uint64_t bs, size, offset, interval_ns, count, runtime_ns, warmup, settle_ns;
	int bs_set, size_set, interval_set, flood, count_set, warmup_set, settle_set;
	int write, direct, buffered;
};
/* Options that cannot go together: 0, or -EINVAL with the message. */
int sb_lat_choice_check(const struct sb_lat_choice *c, char *msg, size_t ml);
/* The probe's parameters and lr's preset, direct and dsync from c and its
 * preset (c checked). */
void sb_lat_choice_apply(const struct sb_lat_choice *c, struct sb_lat_run *lr);
/* The job that prepares the target (creates: a test file is made, sized
 * by the preset unless --size): 0, or -EINVAL with the message when the
 * working set is smaller than a request. */
struct sb_job_opts;
int sb_lat_choice_job(const struct sb_lat_choice *c, const struct sb_lat_run *lr, int creates,
		      struct sb_job_opts *job, char *msg, size_t ml);

/* ---- storbench latency as a library call (lat_run.c) ---- */
struct sb_latency_opts {
	enum sb_lat_preset preset;
	const char *path;		   /* as given: the results' and the words' */
	const struct sb_jobtarget *target; /* prepared for one job: what is opened */
	struct sb_probe_params p;	   /* the probe (fd, stop, on_request, ctx: the run's) */
	int direct, dsync;
};
/* What the program hears of as the probe runs; each may be NULL. */
struct sb_latency_hooks {
	void *ctx;
	/* polled between requests: non-zero stops the probe (interrupted) */
	int (*stop)(void *ctx);
	/* the probe begins (the target open, the cache dropped) */
	void (*begin)(void *ctx, const struct sb_lat_run *lr);
	/* each request, once it is in lr's log and statistics */
	void (*request)(void *ctx, const struct sb_lat_run *lr, const struct sb_probe_req *r);
	/* said as it happens, the run going on (the priming read failed) */
	void (*warn)(void *ctx, const char *msg);
};
/*
 * Runs the probe o describes on its target, telling h (NULL: nothing) as
 * it goes, into out (zeroed by the caller; free what it holds with
 * sb_latency_result_free): opens the target, primes and drops the cache as
 * the preset asks, runs the requests, then closes it; a stop asked before
 * it begins measures nothing (out->interrupted). coord: NULL (one
 * process; the probe has no ranks). 0; -errno with err when the target
 * cannot be opened (nothing ran: SB_ERR_ENV for permission or a busy
 * device, else SB_ERR_INPUT) or a request failed (SB_ERR_FAIL: out has
 * the requests before it, out->failed and fail_offset where).
 */
struct sb_coord;
int sb_latency_run(const struct sb_latency_opts *o, const struct sb_latency_hooks *h,
		   struct sb_coord *coord, struct sb_lat_run *out, struct sb_error *err);
/* What out holds (the log, the statistics); NULL accepted. */
void sb_latency_result_free(struct sb_lat_run *lr);

/* The results' "latency" section and its job in fio's shape (psync, queue
 * depth 1) (latency_json.c): statistics, the preset's own figures, the
 * log of requests. lr must outlive res. 0 or -ENOMEM. */
struct sb_results;
int sb_results_latency(struct sb_results *res, struct sb_lat_run *lr);
/* The percentiles the section has. */
#define SB_LAT_NPCTS 9
extern const double sb_lat_pcts[SB_LAT_NPCTS];

/* The "latency" section read back (lat_read.c): lr holds the preset, the
 * probe's parameters (pattern, direction, request size, region, interval,
 * warm-up), direct, dsync, interrupted, the log and st's counts (count,
 * valid, sum_ns, wall_ns, size; no histogram: the figures below are the
 * section's), and hdparm's overhead; the rest as written. */
struct sb_latency_doc {
	struct sb_lat_run lr;
	char cache[32]; /* sb_lat_cache_name's */
	double iops, bw_bytes, avg_ns, mdev_ns;
	uint64_t min_ns, max_ns;
	int percentiles_exact;
	double pct[SB_LAT_NPCTS]; /* ns at sb_lat_pcts[i]; NAN where not written */
	double load_iops, load_bw_bytes;
	uint64_t load_bytes;
	/* dd's or hdparm's: its line, and what it says (seconds; hdparm's MiB) */
	char line[512];
	double seconds, mib;
	uint64_t bytes;
};
struct sb_jv;
/* Reads section (storbench.latency) into out: 0, or -EINVAL with err->msg
 * naming the key path of what is wrong, -ENOMEM. Free out with
 * sb_latency_doc_free (also after a failure). */
int sb_latency_read(const struct sb_jv *section, struct sb_latency_doc *out, struct sb_error *err);
void sb_latency_doc_free(struct sb_latency_doc *d);

#endif
