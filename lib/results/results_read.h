/*
 * The jobs of a results document read back (the writer is results_json.c):
 * a job of "jobs", or an entry of fio's "client_stats" (a rank's figures,
 * or its job's "All clients"), and the intervals of its series. What is
 * read is a documented subset of struct sb_job_result as written: figures
 * the writer derives (bandwidth, percentiles) as written, and what fio's
 * own JSON holds of the same (fio writes fewer: what it lacks stays at the
 * defaults below). Every member read is checked for its type and range;
 * what is wrong is named by its key path ("jobs[2].read.io_bytes: expected
 * a number from 0 to 1e18, found a string").
 */
#ifndef SB_RESULTS_READ_H
#define SB_RESULTS_READ_H

#include "lib/sb.h"
#include "lib/json/json_read.h"
#include "lib/results/results.h"

#define SB_LAT_DOC_PCT 32

/* A latency distribution in ns (fio's fields): 0 where not written;
 * percentiles (0..100) in increasing order. */
struct sb_lat_doc {
	int has_pct; /* a "percentile" object is written (fio's lat_ns has none by default) */
	uint64_t n;
	double min, mean, max, stddev;
	unsigned npct;
	double pct[SB_LAT_DOC_PCT];
	double val[SB_LAT_DOC_PCT];
};

struct sb_dir_doc {
	int present;		   /* the direction's object is there */
	uint64_t bytes;		   /* io_bytes (0: not written) */
	uint64_t kbytes;	   /* io_kbytes */
	uint64_t ios;		   /* total_ios */
	double bw_bytes;	   /* bytes/s; NaN: not written */
	double bw;		   /* fio's bw, KiB/s; NaN: not written */
	double iops;		   /* NaN: not written */
	double runtime_ms;	   /* fio's runtime of the direction */
	double iops_min, iops_max; /* over the whole intervals; NaN: not written */
	struct sb_lat_doc slat, clat, lat;
};

/* The first failed request of a job (storbench.first_error; present 0:
 * none written). */
struct sb_first_error_doc {
	int present;
	int ddir; /* -1: not written or not a direction */
	uint64_t offset, length;
	double err; /* its errno; 0 not written */
	const char *error;
};

/* The options as written, for a job from the job's storbench.options,
 * else its "job options", else the document's "global options" (fio's
 * words: strings); NULL: not written. */
struct sb_opts_doc {
	const char *rw, *bs, *bssplit, *iodepth, *numjobs, *direct, *size, *ioengine;
};

struct sb_job_doc {
	const struct sb_jv *json; /* the job as read */
	const char *name;	  /* jobname (required) */
	const char *job;	  /* an "All clients" entry: the job it sums; NULL */
	const char *hostname;	  /* a rank's entry of client_stats; NULL */
	int rank;		  /* -1: not a rank's */
	double error;		  /* fio's error: the first failure's errno, 0 none */
	double job_runtime_ms;
	double usr_cpu, sys_cpu; /* percent */
	struct sb_opts_doc opts;
	struct sb_dir_doc dir[SB_DDIR_N];
	/* fio's unified_rw_reporting: the directions as one ("mixed"); not
	 * drawn, but checked as a direction is */
	struct sb_dir_doc mixed;
	/* the fsync requests (fio's "sync"): how many and their latency */
	uint64_t sync_ios;
	struct sb_lat_doc sync_lat;
	/* storbench's section of the job (have_sb); fio's JSON has none */
	int have_sb;
	double runtime_ns;
	const char *engine, *cache; /* its conditions; NULL: not written */
	int direct;		    /* 1, 0, -1 not written */
	unsigned iodepth, numjobs;  /* 0: not written */
	uint64_t errors;
	struct sb_first_error_doc first_error;
	int interrupted, stonewalled;
	double log_interval_ns;	    /* 0: none */
	const struct sb_jv *series; /* its intervals (sb_interval_read each), NULL none */
	/* a rank's entry: its clock against rank 0's and its measured phase
	 * on rank 0's clock (s); NaN: not written */
	double clock_offset_s, clock_rtt_s, start_s, end_s;
	/* the All clients entry: how far the ranks were apart */
	int have_skew;
	unsigned skew_ranks;
	struct sb_skew skew;
};

/* Reads job (an object of "jobs" or "client_stats"; global: the
 * document's "global options", or NULL) into out, whose strings point
 * into the tree. where names the job in messages ("jobs[2]"). 0, or
 * -EINVAL with err's message naming the key path (SB_ERR_INPUT). */
int sb_job_read(const struct sb_jv *job, const struct sb_jv *global, const char *where,
		struct sb_job_doc *out, struct sb_error *err);

/* One interval of a job's series, as written: its end and length (ns;
 * NaN: not written), and per direction (has[d]: its object is there) its
 * figures. */
struct sb_interval_doc {
	double t_ns, len_ns;
	int has[SB_DDIR_N];
	uint64_t bytes[SB_DDIR_N], ios[SB_DDIR_N];
	double bw[SB_DDIR_N], iops[SB_DDIR_N];		      /* per second; 0 not written */
	double lat_mean_ns[SB_DDIR_N], lat_p99_ns[SB_DDIR_N]; /* NaN: not written */
};
int sb_interval_read(const struct sb_jv *iv, const char *where, struct sb_interval_doc *out,
		     struct sb_error *err);

/* ---- the document's own section (storbench) ---- */

struct sb_host_doc {
	const char *hostname, *kernel, *arch, *cpu; /* NULL: not written */
	unsigned cpus;
	uint64_t mem_total;
};
struct sb_target_doc {
	const char *path, *kind, *device, *disk, *model, *scheduler, *write_cache;
	const char *filesystem, *mountpoint;
	uint64_t capacity;
	unsigned lbs, pbs;
	int rotational; /* 1, 0, -1 not known */
	int created;
	int in_ram; /* tmpfs, ramfs, devtmpfs: the figures are memory's */
};
/* The state the target was brought to (name NULL: none). */
struct sb_state_doc {
	const char *name, *precondition, *purge, *purge_asked, *discard_method;
	int have_written;
	uint64_t written;
	int discard_before;
};
struct sb_results_doc {
	const char *command, *version, *job_file;
	int interrupted;
	struct sb_host_doc host;
	struct sb_target_doc target;
	struct sb_state_doc state;
	const struct sb_jv *summary;  /* its rows: sb_summary_read each; NULL none */
	const struct sb_jv *warnings; /* an array of strings, NULL none */
	/* each warning once, as the program said it (results written before
	 * them have none): a non-empty array, else NULL; its items that are
	 * no string are not read (nothing refused) */
	const struct sb_jv *warning_lines;
};
/* Reads a result's "storbench" section sb (not its methods' sections)
 * into out, whose strings point into the tree; where names sb in messages
 * ("storbench"). 0, or -EINVAL with err naming the key path. */
int sb_results_head_read(const struct sb_jv *sb, const char *where, struct sb_results_doc *out,
			 struct sb_error *err);

/* A row of the summary (quick's tests, run's repeats): test and
 * direction (ddir -1: neither written nor known), the figures NaN where
 * not written. */
struct sb_summary_doc {
	const char *test;
	int ddir;
	double runs;
	double bw_median, bw_min, bw_max, iops_median, iops_min, iops_max;
	double lat_mean_median, lat_p99_median;
};
int sb_summary_read(const struct sb_jv *row, const char *where, struct sb_summary_doc *out,
		    struct sb_error *err);

/* The ranks' entries of a run of many ranks, wherever v holds them (every
 * "ranks" array, every "skew" object, at any depth; clients_read.c): each
 * entry an object naming its rank, ranks whole numbers from 0 (-1: a
 * skew's none), hosts and paths strings, figures from 0 to 1e18. at: the
 * key path of v ("" at a section's top). 0; -EINVAL with err naming the
 * key path ("ranks[1]: a rank's entry without its 'rank'"). The
 * readers of the sections that hold them call it first (meta's, sweep's,
 * the results' header for its state), as do the report's checks of a
 * soak's iterations. */
int sb_ranks_check(const struct sb_jv *v, const char *at, struct sb_error *err);

/* ---- the methods' sections and the schema version ---- */

/* Section s of sb as written (any type: its reader judges it); NULL when
 * not written or sb is not an object. */
const struct sb_jv *sb_results_section(const struct sb_jv *sb, enum sb_section s);
/* The results schema version sb ("storbench") was written with: 0 and
 * *n; -ENOENT when it has none (or sb is no object); -EINVAL when it is
 * not a whole number from 1, *found then the number written (NaN: not a
 * number). */
int sb_results_schema_read(const struct sb_jv *sb, uint64_t *n, double *found);

#endif
