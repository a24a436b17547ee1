/*
 * Reports: results files (storbench JSON, storbench JSON Lines logs, fio's
 * JSON) read into one model that every renderer (text, CSV, HTML, XLSX)
 * and compare read. Strings point into the parsed JSON trees, which the
 * model owns. A command's own figures stay reachable through the trees
 * (rep_doc.sb, rep_job.json, rep_doc.records) for its section of a report.
 */
#ifndef SB_REPORT_H
#define SB_REPORT_H

#include "lib/storbench.h"

#define REP_MAX_PCT 32
#define REP_LOG_VERSION 1 /* of logs that start with a "config" line (soak) */

/* A latency distribution in ns: fio's fields, percentiles increasing. */
struct rep_lat {
	uint64_t n;
	double min, mean, max, stddev;
	unsigned npct;
	double pct[REP_MAX_PCT]; /* 0..100 */
	double val[REP_MAX_PCT]; /* ns */
};

struct rep_dir {
	int used;
	uint64_t bytes, ios;
	double bw, iops; /* bytes/s, requests/s */
	struct rep_lat lat;
};

/* One interval of a job's time series. */
struct rep_point {
	double t0_s, t1_s; /* start and end, from the start of measurement */
	unsigned char has[SB_DDIR_N];
	double bw[SB_DDIR_N], iops[SB_DDIR_N];
	double lat_mean_ns[SB_DDIR_N], lat_p99_ns[SB_DDIR_N];
};

struct rep_job {
	const char *name;
	char group[96];	     /* name without " (run i of n)": repeats share it */
	unsigned run, nruns; /* i and n of "(run i of n)", else 1 and 1 */
	const char *rw, *engine, *cache, *lat_kind; /* never NULL ("" unknown) */
	char bs[48];				    /* "4 KiB", a bssplit, or fio's text */
	uint64_t bs_bytes;			    /* 0 for a split or unknown */
	unsigned iodepth, numjobs;
	int direct; /* 1, 0, -1 unknown */
	uint64_t size;
	double runtime_s;
	struct rep_dir dir[SB_DDIR_N];
	struct rep_point *series;
	size_t nseries;
	uint64_t errors;
	double usr_cpu, sys_cpu;
	int interrupted;
	const struct sb_jv *json; /* the job as written */
};

struct rep_summary {
	const char *test;
	int ddir;
	unsigned runs;
	double bw_median, bw_min, bw_max; /* bytes/s */
	double iops_median, iops_min, iops_max;
	double lat_mean_median, lat_p99_median; /* ns */
};

struct rep_host {
	const char *hostname, *kernel, *arch, *cpu;
	unsigned cpus;
	uint64_t mem_total;
};

struct rep_target {
	const char *path, *kind, *device, *disk, *model, *scheduler, *write_cache;
	const char *filesystem, *mountpoint;
	uint64_t capacity;
	unsigned lbs, pbs;
	int rotational; /* 1, 0, -1 unknown */
	int created;
};

struct rep_doc {
	const char *path;    /* as given */
	const char *name;    /* its base name */
	char producer[64];   /* "storbench 0.1.0", "fio-3.33" */
	const char *command; /* "run", "quick", "fio", "soak", ... */
	int is_fio, is_log;  /* fio's JSON; a JSON Lines log */
	const char *time;
	int interrupted;
	struct rep_host host;
	struct rep_target target;
	struct rep_job *jobs;
	size_t njobs;
	struct rep_summary *summary;
	size_t nsummary;
	const char **warnings;
	size_t nwarnings;
	char **notes; /* what the reader noticed (a cut last line...) */
	size_t nnotes;
	const struct sb_jv *root;     /* the document, or a log's header line */
	const struct sb_jv *sb;	      /* its "storbench" section (NULL for fio) */
	const struct sb_jv **records; /* log lines that are neither header nor job */
	size_t nrecords;
	struct sb_jdoc **trees;
	size_t ntrees;
};

/* report/ prints nothing: a call that fails returns a negative errno, or
 * -REP_EINPUT for input this storbench does not read (not a result, an
 * unknown schema or log version), and says why in *why ("'x' is not valid
 * JSON: ..."), allocated for the caller to print and free (NULL when even
 * that failed). REP_EINPUT lies past the errno values, so no failure to
 * read a file passes for it. */
#define REP_EINPUT 4096

/* The figures a result's document or log line v holds, checked for their
 * types and ranges before the model reads them: 0, or -REP_EINPUT with
 * msg naming the key path ("jobs[0].read.bw_bytes: expected a number from
 * 0 to 1e18, found a string") (report/check.c). */
int rep_check(const struct sb_jv *v, char *msg, size_t len);
/* Reads a result: 0, -REP_EINPUT, -ENOMEM or the errno of reading it. */
int rep_load(const char *path, struct rep_doc **out, char **why);
/* Sets *why as printf would and returns err (report/model.c). */
int rep_fail(char **why, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void rep_free(struct rep_doc *d);

/* Model building blocks (report/model.c) used by the loader. */
int rep_add_job(struct rep_doc *d, const struct sb_jv *job);
void rep_read_header(struct rep_doc *d, const struct sb_jv *root);
int rep_note(struct rep_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Helpers shared by the renderers (report/model.c). */
double rep_pct(const struct rep_lat *l, double p);   /* NaN when absent */
const char *rep_or(const char *s, const char *dflt); /* s unless NULL or "" */

/* Verify results (report/verify_walk.c): the classes in verify's order, the
 * palette colour of each, and every verify object of a result: its own
 * (storbench.verify of verify and run --verify, iteration 0) and those of
 * a soak's iterations. */
#define REP_VCLASS_N SB_VERIFY_NCLASS /* named by sb_verify_class_name() */
extern const int rep_vclass_color[REP_VCLASS_N];
int rep_vclass_index(const char *name);
/* Whether verify object v has class k to show: the first six always, the
 * later ones (newer, missing) where the result lists them. */
int rep_vclass_shown(const struct sb_jv *v, int k); /* -1 when unknown */
typedef void (*rep_verify_fn)(void *ctx, const struct rep_doc *d, double iteration,
			      const struct sb_jv *v);
size_t rep_verify_each(const struct rep_doc *d, rep_verify_fn fn, void *ctx);
/* "1.17 MiB (1228800)" */
char *rep_fmt_offset(double bytes, char *buf, size_t len);
/* What a bad range adds to its class: "data written for 4.00 KiB (4096)",
 * "generation 1", "errno 5 (Input/output error)"; "" for none. */
char *rep_range_detail(const struct sb_jv *r, char *buf, size_t len);
/* An iteration record of soak (a log's "type": "iteration" line, or an
 * entry of storbench.soak.iteration_records, which has no type). */
int rep_is_iteration(const struct sb_jv *r);

/* Tables a CSV file can hold (one per file, long format); their rows and
 * columns: report/rows.h. */
enum rep_table {
	REP_T_MEASUREMENTS,
	REP_T_INTERVALS,
	REP_T_SUMMARY,
	REP_T_PERCENTILES,
	REP_T_RECORDS,
	REP_T_VERIFY,
	REP_T_RANGES,
	REP_T_N
};
extern const char *const rep_table_names[REP_T_N];

/* Renderers: 0, or -errno of a failed write. */
int rep_text(FILE *f, struct rep_doc *const *docs, size_t n);
int rep_csv(FILE *f, struct rep_doc *const *docs, size_t n, enum rep_table t);
int rep_html(FILE *f, struct rep_doc *const *docs, size_t n);
/* Writes the workbook to path: 0, or -EIO with *why (-ENOTSUP when built
 * without libxlsxwriter: see rep_xlsx_available). */
int rep_xlsx(const char *path, struct rep_doc *const *docs, size_t n, char **why);
int rep_xlsx_available(void);

/* A text table (report/text_table.c): add rows, set cells, print once
 * (printing frees the rows). */
#define REP_TT_MAXCOLS 12
struct rep_ttable {
	const char *head[REP_TT_MAXCOLS];
	size_t ncols;
	unsigned right_from; /* columns from here on are right-aligned */
	char (*cells)[REP_TT_MAXCOLS][64];
	size_t nrows, cap;
};
char *rep_tt_row(struct rep_ttable *t); /* NULL when out of memory */
void rep_tt_set(struct rep_ttable *t, size_t col, const char *s);
void rep_tt_print(FILE *f, struct rep_ttable *t);

/* Human figures for tables: "1.23 GiB/s", "12.3 µs" (utf8 micro in HTML). */
char *rep_fmt_rate(double bps, char *buf, size_t len);
char *rep_fmt_ns(double ns, char *buf, size_t len);
char *rep_fmt_count(double n, char *buf, size_t len);

#endif
