/*
 * The results model: what a run measured, as every writer and renderer reads
 * it. Field names in the JSON follow fio's where fio has one.
 */
#ifndef SB_RESULTS_H
#define SB_RESULTS_H

#include "lib/sb.h"
#include "lib/job/job.h"
#include "lib/job/jobfile.h"
#include "lib/stats/hist.h"
#include "lib/stats/series.h"
#include "lib/stats/fio_ss.h"
#include "lib/base/sysinfo.h"
#include "lib/device/devinfo.h"
#include "lib/device/diskstat.h"
#include "lib/target/precond.h"
#include "lib/target/target.h"

struct sb_json;

#define SB_SCHEMA_VERSION 1

/* Each method's own section of a result's "storbench" object: its writer
 * hangs it under sb_section_name (sb_results.extra_key), its reader in its
 * folder reads it (sb_verify_read, sb_sweep_read, ...). */
enum sb_section {
	SB_SECTION_VERIFY,
	SB_SECTION_SWEEP,
	SB_SECTION_META,
	SB_SECTION_SPO,
	SB_SECTION_CLIFF,
	SB_SECTION_FLASH,
	SB_SECTION_PTS,
	SB_SECTION_SOAK,
	SB_SECTION_LATENCY,
	SB_SECTION_INFO,
	SB_SECTION_N
};
/* The member's name ("verify"); NULL out of range. */
const char *sb_section_name(enum sb_section s);

struct sb_dir_result {
	uint64_t bytes, ios;
	/* as fio defines them: lat from the moment the request was set up
	 * (before its data is filled in) to its completion; clat from the
	 * submission to the completion (with psync, the system call alone);
	 * slat from the setup to the return of the call that submitted it
	 * (asynchronous engines only; slat + clat = lat, request by request) */
	struct sb_hist clat;
	struct sb_hist lat;
	struct sb_hist slat;
};

/* fio's clat_prio: the completion latencies of a job whose requests
 * carry I/O priorities (prio, prioclass, cmdprio_*), kept by each
 * direction's priorities (the ioprio value, class << 13 | level), at
 * most SB_PRIO_MAX of them (lib/job/job.h), as fio's ts->clat_prio (allocated only for
 * such a job: sb_job_result.prios) */
struct sb_prio_stats {
	unsigned n[SB_DDIR_N];
	unsigned ioprio[SB_DDIR_N][SB_PRIO_MAX];
	struct sb_hist clat[SB_DDIR_N][SB_PRIO_MAX];
};
/* ns of a request of direction d with priority ioprio into p (a
 * priority past SB_PRIO_MAX is not kept). */
void sb_prio_add(struct sb_prio_stats *p, int d, unsigned ioprio, uint64_t ns);
/* The slot of priority v of direction d in p, made (empty) when new, in
 * the order fio lists them; -1 past SB_PRIO_MAX of them. */
int sb_prio_slot(struct sb_prio_stats *p, int d, unsigned v);

struct sb_io_error {
	uint64_t offset;
	uint32_t len;
	int ddir;
	int err; /* positive errno */
	/* not a request's: why the job failed ("rate_min=1048576B/s not met,
	 * got 8192B/s", as fio says it); "": a request's error */
	char why[192];
};

struct sb_client;

#define SB_DEPTH_LEVELS 7

struct sb_job_result {
	char name[96];
	struct sb_job_opts opts;
	char engine[16];
	uint64_t runtime_ns;	/* measured period */
	uint64_t start_unix_ns; /* when it started (ramp included), wall clock */
	struct sb_dir_result dir[SB_DDIR_N];
	struct sb_hist sync_lat; /* fsync and fdatasync requests */
	/* buffered reads: of the region's bytes looked at when each loop's
	 * reads began (after invalidate's drop), those in the page cache */
	uint64_t cache_checked, cache_resident;
	uint64_t datasyncs; /* of which fdatasync (fio leaves them out of sync.total_ios) */
	uint64_t errors;
	struct sb_io_error first_error;
	double usr_cpu, sys_cpu; /* percent of one CPU over the run, whole process */
	uint64_t cpu_ns;	 /* usr + sys of the process during the run */
	double busiest_worker;	 /* highest share of a core used by one worker, 0..1 */
	int iou_workers;	 /* io_uring kernel workers seen (punting) */
	uint64_t settle_ns;	 /* completions coalesced: at most this late; 0: not */
	uint64_t waits, waited;	 /* waits for completions, and completions they took */
	uint64_t batched;	 /* waits that asked for more than one */
	/* requests by the number in flight at their submission, fio's
	 * iodepth_level: 1, 2-3, 4-7, 8-15, 16-31, 32-63, >=64 */
	uint64_t depth_map[SB_DEPTH_LEVELS];
	uint64_t ctx, majf, minf; /* the process's context switches and page faults in the run */
	int interrupted;
	struct sb_series series;
	int have_diskstat;
	struct sb_diskstat ds_before, ds_after;
	uint64_t ds_elapsed_ns; /* time between the two disk samples */
	/* A multi-host run (lib/results/clients.c): the job holds the "All
	 * clients" figures of its nclients ranks, each rank's own in clients */
	struct sb_client *clients;
	unsigned nclients;
	struct sb_skew *skew;
	/* this rank's measured phase on its own clock (sb_coord_time), s */
	double rank_start_s, rank_end_s;
	int stonewalled; /* stopped when the first rank finished (--stonewall) */
	/* a job file's job: its section's options as written (fio's "job
	 * options"; the results' fio_raw says these are written) */
	struct sb_fio_rawopts fio_opts;
	/* each of the job's numjobs threads, its own figures (fio's
	 * thread_stat of each clone), in order, for a job of a fio job file
	 * or command line; none (0) with one thread, for other jobs, for a
	 * rank's job under mpirun and where lib/run did not run it (owned) */
	struct sb_job_result **threads;
	unsigned nthreads;
	/* fio's io_u_submit, io_u_complete: submissions (completion reaps) by
	 * the requests each took, 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64, as the
	 * worker made them (a synchronous engine's request: one of each); all
	 * 0 in results of an older storbench (then read off a depth of 1) */
	uint64_t submit_map[SB_DEPTH_LEVELS], complete_map[SB_DEPTH_LEVELS];
	/* fio's steadystate (a job file's steadystate= with ss_dur=): what
	 * lib/run judged over the job's (with group_reporting its report
	 * group's) one-second figures; NULL: none (owned) */
	struct sb_fio_ss *ss;
	/* fio's latency_depth with latency_target: the depth the search
	 * ended at (of many threads the deepest); 0: no search */
	unsigned latency_depth;
	/* the bytes its verify pass read back (verify=, --verify: the check
	 * after the run), which fio counts as the job's reads */
	uint64_t verify_bytes;
	uint64_t verify_ns;	   /* the time that pass took */
	struct sb_hist verify_lat; /* its reads, each timed (fio's read clat and lat) */
	/* fio's runtime[ddir]: the time the threads ran, of each direction
	 * that moved anything (0: none, or not known: runtime_ns), so a
	 * group's reads that ended early have their own (sb_dir_runtime_ns) */
	uint64_t dir_runtime_ns[SB_DDIR_N];
	/* fio's clat_prio, NULL for a job without priorities (owned) */
	struct sb_prio_stats *prios;
	/* fio's bw_stat and iops_stat of one thread: a sample of each
	 * direction that moved anything every bwavgtime (iopsavgtime) while it
	 * measured, bytes/s (fio's whole KiB/s) and requests/s, as fio's
	 * __add_samples takes them (have_samples: lib/run took them) */
	int have_samples;
	struct sb_rate_stats bw_sample[SB_DDIR_N], iops_sample[SB_DDIR_N];
	/* Set on the entries fio's output is made of (sb_fio_entries): the
	 * stonewall group, how many of fio's jobs the entry holds, and its
	 * bw and iops interval statistics as fio sums a group's (have_rates) */
	unsigned groupid, members;
	int have_rates;
	struct sb_rate_stats bw_stat[SB_DDIR_N], iops_stat[SB_DDIR_N];
};

/* One rank of a multi-host run: who, when on rank 0's clock, what it did. */
struct sb_client {
	int rank;
	char host[64];
	double clock_offset_s, clock_rtt_s; /* its clock against rank 0's */
	double start_s, end_s;		    /* its measured phase, on rank 0's clock */
	struct sb_job_result *job;	    /* its own figures (owned) */
};

/* How far the ranks were apart (seconds; shares of the median rank). */
struct sb_skew {
	double start_spread_s, end_spread_s;	     /* latest less earliest */
	double span_s;				     /* earliest start to latest end */
	double median_bw;			     /* bytes/s of the median rank */
	int slowest_rank, fastest_rank;		     /* by bandwidth */
	double slowest_vs_median, fastest_vs_median; /* e.g. -0.08, +0.03 */
};
#define SB_SKEW_WARN 0.05 /* a spread past 5% of the span is worth a warning */

/* One line of a command's summary table (quick, repeats of run). */
struct sb_summary_row {
	char test[32]; /* e.g. "SEQ1M Q8T1" */
	int ddir;
	unsigned nruns;
	unsigned ndiscarded;		  /* runs that moved no data, left out (quick) */
	double bw_median, bw_min, bw_max; /* bytes/s */
	double iops_median, iops_min, iops_max;
	double lat_mean_median_ns; /* median of the runs' mean latency */
	uint64_t lat_p99_median_ns;
};

/* How the figure of a run's warning is written. */
enum sb_wfig {
	SB_WFIG_NS,    /* a duration: 1.00 s */
	SB_WFIG_SIZE,  /* bytes: 3.20 GiB */
	SB_WFIG_PCT,   /* a share of 1: 95% */
	SB_WFIG_COUNT, /* a whole number: 4 */
	SB_WFIG_DEC1,  /* one decimal: 3.2 */
};

/* A warning about one run that other runs of the same result may raise
 * too. Its sentence is "BEFORE FIGURE AFTER in 'JOB': ADVICE"; several runs
 * with the same before, after and advice are said once, as "BEFORE
 * MIN..MAX AFTER in N of M runs (TESTS): ADVICE" (sb_results_warnings). */
struct sb_run_warning {
	const char *before, *after; /* the claim around its figure */
	double figure;
	enum sb_wfig unit;
	const char *advice;
};

/* What the results keep of a run's warning beside its sentence; before is
 * NULL for a warning about the whole result. */
struct sb_warn_run {
	char *before, *after, *advice;
	char job[96];
	double figure;
	enum sb_wfig unit;
};

/* One rank's state, under mpirun ("state.ranks" in the JSON). */
struct sb_rank_state {
	int rank;
	char host[64];
	char path[256]; /* its target */
	struct sb_state state;
};

struct sb_results {
	char command[16]; /* "run", "quick" */
	char target_path[4096];
	char job_file[4096]; /* run JOB.fio: the job file, else "" */
	struct sb_target_info target;
	int have_device; /* device: the disk beneath the target */
	struct sb_devinfo device;
	int have_health; /* long runs: health before and after */
	struct sb_health health[2];
	struct sb_host host;
	int target_created; /* storbench created (and removed) the file */
	int cache_dropped;  /* how caches were made cold: 0 no, 1 fadvise, 2 drop_caches,
			      3 BLKFLSBUF */
	/* --precondition, --discard-before: the state the target was brought
	 * to before the measurement ("state" in the JSON) */
	int have_state;
	struct sb_state state;
	/* many ranks: every rank's state (rank 0's is also `state`), in rank
	 * order; NULL alone. Freed with the results. */
	struct sb_rank_state *rank_states;
	unsigned nrank_states;
	time_t started;
	struct sb_job_result **jobs;
	size_t njobs;
	struct sb_summary_row *summary;
	size_t nsummary;
	char **warnings;	       /* the sentences, one per run for a run's warning */
	struct sb_warn_run *warn_runs; /* beside each sentence: what groups it */
	size_t nwarnings;
	int interrupted;
	/* a multi-host run: how many ranks, on what, stonewalled or not */
	unsigned nranks;
	char mpi_library[96];
	int stonewall;
	/* A command's own section (sweep matrices, verify counts...), written
	 * inside "storbench" under the key extra_key by extra_json. */
	const char *extra_key;
	int json_plus; /* fio's json+: the latency histograms' buckets too (bins) */
	void (*extra_json)(struct sb_json *j, const void *ctx);
	const void *extra_ctx;
	/* Jobs from a job file (run JOB.fio, storbench fio): "job options" and
	 * "global options" are the options as written, as fio prints them
	 * (sb_results_set_fio_global); else storbench's own options. */
	int fio_raw;
	struct sb_fio_rawopts fio_global;
	/* storbench fio's JSON: the jobs are fio's report entries
	 * (sb_fio_report_make), with the keys fio writes that storbench's own
	 * JSON leaves out (eta, bw_agg, iodepth_submit, latency_depth, ...) */
	int fio_layout;
};

/* fio's steadystate of a job (the JSON's "steadystate" object, the
 * normal output's steadystate line): the options (SB_SS_* flags, limit,
 * window in seconds), whether it was attained, the newest criterion,
 * largest deviation and slope (0 before the window filled), and the
 * window's iops and bw figures, oldest first (0 where none was taken) */
struct sb_fio_ss {
	unsigned flags;
	double limit;
	unsigned dur_s;
	int attained;
	double criterion, deviation, slope;
	unsigned n;
	uint64_t *iops, *bw; /* n each, in the same allocation */
};
/* A new one of n intervals (zeroed), or NULL; a copy of s (NULL: none). */
struct sb_fio_ss *sb_fio_ss_new(unsigned n);
struct sb_fio_ss *sb_fio_ss_dup(const struct sb_fio_ss *s);
/* The mean of the window as fio's steadystate_data_mean: the sum over n,
 * in integers. */
uint64_t sb_fio_ss_mean(const struct sb_fio_ss *s, int iops);

struct sb_results *sb_results_create(const char *command);
void sb_results_free(struct sb_results *r);
/* Takes ownership of j. */
int sb_results_add_job(struct sb_results *r, struct sb_job_result *j);
int sb_results_add_summary(struct sb_results *r, const struct sb_summary_row *row);
/* Warnings (warnings.c): one about the whole result, said once however
 * often it is raised; one about run j (see struct sb_run_warning). */
int sb_results_warn(struct sb_results *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int sb_results_warn_run(struct sb_results *r, const struct sb_job_result *j,
			const struct sb_run_warning *w);
/* The warnings as a person reads them, in the order first raised: each
 * warning about the whole result, and each run's warning once for all the
 * runs that raised it, with how many of the result's runs those are and the
 * range of its figure ("measured for only 1.00..1.01 s in 16 of 16 runs:
 * ..."); one raised by a single run keeps its own sentence. fn gets each
 * line. */
void sb_results_warnings(const struct sb_results *r, void (*fn)(const char *line, void *ctx),
			 void *ctx);
struct sb_job_result *sb_job_result_create(void);
/* The options as written, copied: a job file's [global] ones for r (which
 * from then on writes every job's options as written), a job's for j. */
int sb_results_set_fio_global(struct sb_results *r, const struct sb_fio_rawopts *o);
int sb_job_result_set_fio_opts(struct sb_job_result *j, const struct sb_fio_rawopts *o);
void sb_job_result_free(struct sb_job_result *j);
/* dst gets src's figures added (bytes, requests, latency histograms,
 * errors, depth maps, the series; the longer runtime): a job's threads
 * merged, fio's group_reporting. 0 or -ENOMEM (the series). */
int sb_job_result_add(struct sb_job_result *dst, const struct sb_job_result *src);
/* The same without the series (a running worker's, which it still grows). */
void sb_job_result_add_counts(struct sb_job_result *dst, const struct sb_job_result *src);
/* The bw (iops 0) or iops (1) statistics over direction d's intervals: the
 * entry's own when it has them (have_rates), else from its series. */
void sb_job_rate_stats(const struct sb_job_result *j, int d, int iops, struct sb_rate_stats *out);

/* The conditions (conditions.c): the host, the target at path (t) and
 * the device beneath it, with warnings when the I/O went through the page
 * cache for want of direct I/O (direct_fallback) or when there is no block
 * device beneath; created: storbench created the test files. */
void sb_results_describe(struct sb_results *r, const struct sb_target_info *t, const char *path,
			 int created, int direct_fallback);
/* The warnings a finished job calls for (sb_results_warn_run): too short to trust, buffered reads
 * the page cache could hold, a CPU-bound worker, io_uring handing requests
 * to kernel workers, completions reaped in batches, no disk counters. */
void sb_results_sanity(struct sb_results *r, const struct sb_job_result *j);

/* j becomes the "All clients" figures of its n ranks c (taken over, with
 * their jobs): bytes, requests, errors and CPU summed, latency histograms
 * merged bucket by bucket, the time from the earliest start to the latest
 * end (so bandwidth is all bytes over that span), and the skew. 0 or
 * -ENOMEM. */
int sb_job_aggregate(struct sb_job_result *j, struct sb_client *c, unsigned n);
/* The warnings a job's skew calls for (past SB_SKEW_WARN). */
void sb_results_skew_warn(struct sb_results *r, const struct sb_job_result *j);

/* Derived figures. */
/* fio's latency_ns/us/ms shares (percent of the requests of all
 * directions by completion latency, a share under 0.01 but not 0 shown as
 * 0.01), as the JSON writes them; ns_total: the unrounded share under 1 us,
 * which fio's terse output adds to its first microsecond field. */
struct sb_lat_shares {
	double ns[10], us[10], ms[12];
	double ns_total;
};
void sb_job_lat_shares(const struct sb_job_result *jr, struct sb_lat_shares *out);
/* Direction ddir's runtime: its own where known, else the job's */
uint64_t sb_dir_runtime_ns(const struct sb_job_result *j, int ddir);
double sb_dir_bw(const struct sb_job_result *j, int ddir); /* bytes/s */
double sb_dir_iops(const struct sb_job_result *j, int ddir);

/* fio's report entries of r's jobs (lib/results/fio_report.c): each of
 * fio's jobs (a job's every numjobs thread) an entry, or with
 * group_reporting a stonewall group's jobs one entry, as fio 3.33's
 * __show_run_stats makes them; a job of many ranks stays whole (owned 0,
 * r's own). group[i]: job i's stonewall group; the entries' in group. */
struct sb_fio_report {
	struct sb_job_result **jobs;
	size_t njobs;
	unsigned char *owned;
	unsigned *group;
};
int sb_fio_report_make(const struct sb_results *r, const unsigned *group,
		       struct sb_fio_report *rep);
void sb_fio_report_free(struct sb_fio_report *rep);
/* fio's group_run_stats agg: group g's bytes/s in direction d (its bytes
 * over its longest runtime, in ms as fio counts it), 0 when none; job k's
 * group is group[k], or with group NULL its groupid. */
uint64_t sb_fio_group_agg(struct sb_job_result *const *jobs, size_t n, const unsigned *group,
			  unsigned g, int d);
/* The value of fio option key as written for job j of r (its section's,
 * else [global]'s), or NULL. */
const char *sb_fio_rawopt(const struct sb_results *r, const struct sb_job_result *j,
			  const char *key);
/* fio's io_u_submit (complete 0) or io_u_complete shares, percent, of
 * j's submissions or reaps: 0, 4, 8, 16, 32, 64, >=64 requests. */
void sb_fio_submit_dist(const struct sb_job_result *j, int complete, double *pct);

/* The whole document as JSON (pretty). 0 or -errno. */
int sb_results_write_json(const struct sb_results *r, FILE *f);

#endif
