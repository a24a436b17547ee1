/*
 * Reports: results files (storbench JSON, storbench JSON Lines logs, fio's
 * JSON) read into one model that every renderer (text, CSV, HTML, XLSX,
 * JSON) and compare read. Files are read record by record, never whole:
 * a document's long arrays (a job's per-interval series, a soak's
 * iteration records) and a log's lines are taken one at a time into arrays
 * of the figures the charts draw (rep_series, rep_iters), and the rest of
 * the document stays a parsed tree the model owns (strings point into
 * it). What a table needs of every record (CSV, XLSX) is read again from
 * the file as it is written (rep_each_record, rep_each_interval), so a day
 * of 1-second iterations costs tens of bytes per iteration, not the file.
 * A command's own figures stay reachable through the trees (rep_doc.sb,
 * rep_job.json) for its section of a report.
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

/* A job's intervals (storbench.series) as the charts draw them: the end of
 * each, and per direction its bandwidth and IOPS (0 where the direction
 * moved nothing); a direction no interval has stays NULL. An interval
 * without a finite end or a length is left out, and so is the last one when
 * it is shorter than a quarter of log_interval_ns (the stop leaves a sliver
 * whose rate means nothing): rep_interval_kept() says which. */
struct rep_series {
	size_t n, cap;
	double *t;				 /* end, s from the start of measurement */
	double *bw[SB_DDIR_N], *iops[SB_DDIR_N]; /* bytes/s, requests/s */
	size_t nraw;				 /* intervals in the file, kept or not */
	int last_kept;				 /* the last of them is the last kept */
	double last_len;			 /* its length, s */
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
	struct rep_series series;
	uint64_t errors;
	double usr_cpu, sys_cpu;
	int interrupted;
	double interval_s;		 /* storbench.log_interval_ns, in s (0: none) */
	const struct sb_jv *series_json; /* a log line's storbench.series (a document's: NULL) */
	const struct sb_jv *json;	 /* the job as written (a document's: series left out) */
	size_t index;			 /* in its document's "jobs" (which series are its own) */
	int in_log;			 /* from a log line, whose tree keeps its series */
	char *owned; /* read for its figures alone (rep_load_figures): its strings, json NULL */
};

/* A soak's iterations (a log's iteration lines, or a result's
 * storbench.soak.iteration_records), as the charts and the analysis take
 * them: one array per figure, and the iterations where something went
 * wrong with what (I/O errors, bad blocks, kernel messages). */
#define REP_IT_INTERRUPTED 1u /* measured only part of the work */
#define REP_IT_FAILED 2u
#define REP_EVENT_TEXTS 4096 /* events whose text is kept; later ones are counted */
struct rep_event {
	size_t i;    /* index in the arrays */
	size_t text; /* offset in rep_iters.text; SIZE_MAX: not kept */
};
/* An iozone workload's cell (soak --workload=iozone) over the iterations:
 * its test, sizes, and KiB/s per iteration (NaN where not measured). */
struct rep_cellser {
	int test; /* enum sb_sweep_test */
	double file_size, record_size;
	double *v;
};
/* A soak of many ranks (mpirun): one rank's own figures of each iteration
 * (the records' "ranks"), in the order of the iterations. */
struct rep_rankser {
	double rank;
	char host[64];
	size_t n, cap, failed;
	double *bw[2];	    /* write, read bytes/s */
	double bad, errors; /* blocks not intact, I/O errors: over its iterations */
};
struct rep_iters {
	struct rep_rankser *rk; /* many ranks: each one's, in rank order of appearance */
	size_t nrk;
	/* many ranks: how far apart they started and ended an iteration
	 * (start_spread_s, end_spread_s): the sum and the widest, over nspread */
	double spread_sum[2], spread_max[2];
	size_t nspread[2];
	size_t n, cap;
	struct rep_cellser *cs; /* the cells, in the order they first appear */
	size_t ncs, capcs;
	double *x;	       /* iteration number */
	double *bw[2];	       /* write, read bytes/s; NaN when absent */
	double *errors, *kmsg; /* I/O errors; kernel lines, told and omitted */
	double *start;	       /* when the iteration started, ns since the epoch (NaN) */
	double *bad;	       /* blocks that did not verify */
	unsigned char *flags;  /* REP_IT_* */
	size_t failed;
	size_t cut_short; /* iterations a signal cut short */
	double kother;	  /* kernel lines about other devices (not counted) */
	double t0, t1;	  /* the first start and the last end, ns (0: not told) */
	struct rep_event *ev;
	size_t nev, capev;
	char *text;
	size_t ntext, captext;
};
/* What went wrong in iteration it: "2 I/O errors (first errno 5 at 4.00
 * KiB); 3 bad blocks; io: mmc0: timeout", "" for nothing. */
void rep_trouble_text(const struct sb_soak_iter *it, char *buf, size_t len);
/* The text of event e, or one made of its figures when it was not kept. */
const char *rep_event_text(const struct rep_iters *it, const struct rep_event *e, char *buf,
			   size_t len);

/* spo --cycles (a log whose configuration line names "spo-cycles"): per
 * cycle its blocks per class, whether it passed and when the cut came; the
 * lost acknowledged writes' times from acknowledgement to cut summed over
 * the cycles; the cycles that could not run. */
struct rep_cycles {
	size_t n, cap;
	double *x;		       /* cycle number */
	double *blocks[SB_SPO_NCLASS]; /* blocks per class */
	double *cut_s;		       /* the cut came this long after the start */
	unsigned char *failed;	       /* 1: the check failed */
	size_t nfailed;
	double first_failed;	    /* cycle number, NaN: none */
	double hist[SB_SPO_HIST_N]; /* lost-acked writes per ack-to-cut bucket */
	size_t errors;		    /* cycle_error lines */
	double first_error;	    /* its cycle, NaN: none */
	char error[160];	    /* its text */
	double planned;		    /* the log header's cycles */
	double bs;		    /* the log header's block size (NaN: none) */
};
struct rep_summary {
	const char *test;
	int ddir;
	unsigned runs;
	double bw_median, bw_min, bw_max; /* bytes/s */
	double iops_median, iops_min, iops_max;
	double lat_mean_median, lat_p99_median; /* ns */
};

struct rep_doc {
	const char *path;    /* as given */
	const char *name;    /* its base name */
	char producer[64];   /* "storbench 0.1.0", "fio-3.33" */
	const char *command; /* "run", "quick", "fio", "soak", ... */
	int is_fio, is_log;  /* fio's JSON; a JSON Lines log */
	const char *time;
	int interrupted;
	struct sb_host_doc host; /* through the results' reader */
	struct sb_target_doc target;
	/* storbench.state.name: what --precondition/--discard-before made of
	 * the target ("full", "purged"); NULL: nothing was done to it */
	const char *state;
	const char *state_detail; /* "fill, 256 MiB written", for headers */
	char state_buf[160];
	/* for compare: the name, and the purge method ("purged (by discard)") */
	const char *state_label;
	char state_label_buf[80];
	struct rep_job *jobs;
	size_t njobs;
	struct rep_summary *summary;
	size_t nsummary;
	const char **warnings; /* each once (warning_lines) */
	size_t nwarnings;
	/* NULL, or beside each warning: the line made for it */
	char **warnings_made;
	char **notes; /* what the reader noticed (a cut last line...) */
	size_t nnotes;
	size_t nskipped;	      /* log lines left out: the first REP_MAX_NOTES have a note */
	const struct sb_jv *root;     /* the document, or a log's header line */
	const struct sb_jv *sb;	      /* its "storbench" section (NULL for fio) */
	struct sb_verify_doc *verify; /* its "verify" section read back (NULL: none) */
	/* records: a log's lines that are neither header nor job (soak's
	 * iterations and summary ...), a result's soak iteration records;
	 * read again with rep_each_record */
	size_t nrecords;
	struct rep_iters iters;		  /* soak's iterations */
	struct rep_cycles *cycles;	  /* spo --cycles's log, else NULL */
	const struct sb_jv *soak_summary; /* the last summary line, or storbench.soak */
	size_t soak_summary_at;		  /* iterations before that line (SIZE_MAX: a result's) */
	struct sb_jdoc *summary_tree;	  /* the summary line's */
	struct rep_source *src;		  /* how to read the file again */
	struct sb_jdoc **trees;
	size_t ntrees;
	/* compare (rep_load_figures): the jobs read one at a time for their
	 * figures, kept without their trees or series */
	int figures_only;
	/* the device methods' sections, read through their readers
	 * (methods_dev.c); NULL where the document has none */
	struct sb_cliff_doc *cliff;
	struct sb_flash_doc *flash;
	struct sb_pts_doc *pts;
	/* the methods' sections, read through their readers (methods.c);
	 * NULL where the document has none */
	struct sb_sweep_doc *sweep;
	/* HTML: the one colour scale of every sweep heatmap in the report,
	 * bytes/s (html_sweep_scale sets it over all the documents) */
	double sweep_lo, sweep_hi;
	struct sb_meta_doc *meta;
	struct sb_spo_doc *spo;
	/* a step of a plan's report: "[speed]" (NULL: none) */
	const char *plan_step;
};

#define REP_MAX_NOTES 10 /* notes of lines left out, per file */

/* Where a document's records are read again from: the file, where its
 * JSON starts, what the first reading found (a log is read again only as
 * far as then, when a soak goes on writing it). A reading again that fails
 * says why here. */
struct rep_source {
	int is_log;
	long long start, end; /* bytes; end of a log as first read */
	unsigned line0;
	int err;
	char why[320];
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
/* The same for a piece of a document at key path prefix ("jobs[0].storbench.series[7]"). */
int rep_check_at(const struct sb_jv *v, const char *prefix, char *msg, size_t len);
/* The ranks' entries v holds (a soak iteration's), by lib/results' rules
 * (sb_ranks_check), at key path at: 0, or -REP_EINPUT with msg. */
int rep_ranks_check(const struct sb_jv *v, const char *at, char *msg, size_t len);
/* A result's job (an item of "jobs" or "client_stats", named where: "jobs[2]")
 * and its intervals, judged by their readers (lib/results/results_read.h).
 * 0, or -REP_EINPUT with msg naming the key path. */
int rep_check_job(const struct sb_jv *job, const char *where, char *msg, size_t len);
/* Reads a result (report/load.c): 0, -REP_EINPUT, -ENOMEM or the errno of
 * reading it. What it had to leave out or read only in part is in
 * (*out)->notes, each naming the file (and the line). */
int rep_load(const char *path, struct rep_doc **out, char **why);
/* The same for compare: the header, and each job's figures and conditions
 * alone (no series, no job's JSON: j->json is NULL), the document's jobs
 * read one at a time, so that its size in memory is that of its figures,
 * not of its text (a result of 6000 jobs, 23 MB: 14 MB, not 150). */
int rep_load_figures(const char *path, struct rep_doc **out, char **why);
void rep_free(struct rep_doc *d);
/* Sets *why as printf would and returns err (report/model.c). */
int rep_fail(char **why, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The device methods' sections of a result (cliff, flash, ...), read through
 * their readers into d (report/methods_dev.c): 0, or -REP_EINPUT with
 * *why naming the key path of what is wrong, -ENOMEM; rep_dev_methods_free
 * frees them. */
int rep_dev_methods_read(struct rep_doc *d, const struct sb_jv *sb, char **why);
void rep_dev_methods_free(struct rep_doc *d);

/* An array p of n elements of sz bytes with room for one more: p, or it
 * grown (to twice n when n is a power of two: its room is always the next
 * power of two, so adding n elements one at a time copies O(n) bytes, not
 * O(n^2), which a sanitizer's realloc does on every call); NULL when out of
 * memory, p then unchanged (report/model.c). */
void *rep_grow_one(void *p, size_t n, size_t sz);

/* Model building blocks (report/model.c) used by the loader. A job
 * through the results' reader (lib/results/results_read.h), where naming
 * it in messages ("jobs[2]"): 0, -ENOMEM, or -REP_EINPUT with msg naming
 * the key path of what is wrong. */
int rep_add_job(struct rep_doc *d, const struct sb_jv *job, const char *where, char *msg,
		size_t len);
/* The document's header (storbench's through the results' reader, or
 * fio's): 0, or -REP_EINPUT with msg naming the key path. */
int rep_read_header(struct rep_doc *d, const struct sb_jv *root, char *msg, size_t len);
/* The entries of the document's client_stats (a run of many ranks: each
 * rank's job, then its All clients), entry i through the results' reader:
 * 0, or -1 for one it refuses (checked when the document was read). */
size_t rep_nclients(const struct rep_doc *d);
int rep_client(const struct rep_doc *d, size_t i, struct sb_job_doc *out);
int rep_note(struct rep_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line of a log left out: a note for the first REP_MAX_NOTES, a count after. */
int rep_skip_line(struct rep_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The loaders (report/load_log.c, report/load_doc.c) read f from where
 * d->src says the JSON starts; 0 or -REP_EINPUT/-ENOMEM/-errno with *why. */
int rep_load_log(struct rep_doc *d, FILE *f, char **why);
/* A log's lines as they come, checked: a soak log's by the soak's rules
 * (lib/soak/soak_check.h, the same --resume goes by), then every
 * figure (rep_check). 0, or -REP_EINPUT with msg. */
struct rep_logcheck {
	int started, soak, cycles;
	struct sb_soak_check c;
};
int rep_log_line_check(struct rep_logcheck *lc, const struct sb_jv *v, char *msg, size_t len);
int rep_load_doc(struct rep_doc *d, FILE *f, char **why);
/* 0 when the schema of storbench section sb is one this storbench reads, a
 * note when it is newer; -REP_EINPUT with *why when it is not a version
 * (report/source.c). */
int rep_check_schema(struct rep_doc *d, const struct sb_jv *sb, char **why);
/* A soak iteration record into d->iters (report/iters.c), read through
 * lib/soak's reader: 0, -EINVAL (err says what is wrong) or -ENOMEM. */
int rep_iters_add(struct rep_doc *d, const struct sb_jv *r, struct sb_error *err);
void rep_iters_free(struct rep_iters *it);
/* The median of the finite values of v[0..n) (NaN: none, or out of memory). */
double rep_finite_median(const double *v, size_t n);
/* *p resized to cap items of size bytes (report/iters.c): 0, or -ENOMEM
 * with *p as it was. */
int rep_grow(void **p, size_t size, size_t cap);
/* A cycle line of an spo --cycles log (report/cycles.c); 0 or -ENOMEM. */
/* A line of the log after its header, read by lib/spo's reader of the
 * log (sb_spo_cycles_read): 0, -EINVAL with err, -ENOMEM. */
int rep_cycles_add(struct rep_doc *d, const struct sb_jv *r, struct sb_error *err);
/* The cycles the log's header asks for and the writer's block size (NaN:
 * not written, or a header the reader refuses). */
void rep_cycles_header(struct rep_cycles *c, const struct sb_jv *header);
void rep_cycles_free(struct rep_cycles *c);
/* Interval iv, the i-th of n (0: not known yet) of a job whose intervals
 * are interval_s long: 1 and its end and length when the charts keep it
 * (report/job_series.c). */
int rep_interval_kept(const struct sb_interval_doc *iv, size_t i, size_t n, double interval_s,
		      double *t1, double *len);
/* A job's interval (read by sb_interval_read) into its series (n not
 * known: the sliver is left out by rep_series_end); 0 or -ENOMEM. */
int rep_series_add(struct rep_series *s, const struct sb_interval_doc *iv);
void rep_series_end(struct rep_series *s, double interval_s);
void rep_series_free(struct rep_series *s);

/* Reading the records again (report/reread.c), for the tables that list
 * every one: fn for each record of d (a log's records, a result's soak
 * iteration records) in the order of the first reading, or for each
 * interval of job j (every job's when NULL) that the charts keep. 0 (also
 * when fn stops the walk by returning 1), fn's negative return, or -EIO
 * with d->src->err and why set (the file cannot be read again, or no
 * longer holds what it held). */
typedef int (*rep_record_fn)(void *ctx, const struct rep_doc *d, size_t index,
			     const struct sb_jv *r);
int rep_each_record(const struct rep_doc *d, rep_record_fn fn, void *ctx);
typedef int (*rep_interval_fn)(void *ctx, const struct rep_doc *d, const struct rep_job *j,
			       const struct sb_interval_doc *iv);
int rep_each_interval(const struct rep_doc *d, const struct rep_job *j, rep_interval_fn fn,
		      void *ctx);
/* What a log line is, the same on every reading (report/source.c). */
enum rep_line_kind { REP_LINE_HEADER, REP_LINE_CONFIG, REP_LINE_JOBS, REP_LINE_RECORD };
enum rep_line_kind rep_line_kind(const struct sb_jv *v);
/* A result file, opened for reading if it is a regular file (a FIFO would
 * block for ever): NULL with *err an errno, or REP_EINPUT for no regular file. */
FILE *rep_open_regular(const char *path, int *err);
/* A line reader that never holds more than one line (report/lines.c): a
 * line longer than max is skipped (too_long set). */
struct rep_lines {
	FILE *f;
	long long off, end; /* bytes read; stop at end (< 0: at the end of f) */
	size_t lineno;	    /* of the line returned */
	char *buf;	    /* the line, NUL-terminated, without its newline */
	size_t len, cap, max;
	int has_nl, too_long;
	char *chunk;
	size_t pos, fill;
};
int rep_lines_open(struct rep_lines *lr, FILE *f, long long start, long long end, unsigned line0,
		   size_t max);
/* 1: a line; 0: the end; -errno. */
int rep_lines_next(struct rep_lines *lr);
void rep_lines_close(struct rep_lines *lr);

/* Helpers shared by the renderers (report/model.c). */
double rep_pct(const struct rep_lat *l, double p);   /* NaN when absent */
const char *rep_or(const char *s, const char *dflt); /* s unless NULL or "" */

/* Verify results (report/verify_walk.c): the classes in verify's order, the
 * palette colour of each, a result's verify section read back through
 * lib/verify's reader (rep_doc.verify), and every verify object of a
 * result: its own (storbench.verify of verify and run --verify, iteration
 * 0) and those of a soak's iterations (read again: rep_verify_each is
 * report/reread.c's). */
#define REP_VCLASS_N SB_VERIFY_NCLASS /* named by sb_verify_class_name() */
extern const int rep_vclass_color[REP_VCLASS_N];
/* storbench.verify into d->verify (none: NULL); 0, or an error in *why. */
int rep_read_verify(struct rep_doc *d, char **why);
/* Whether blocks b have class k to show: the first six always, the later
 * ones (newer, missing) where the result lists them. */
int rep_vclass_shown(const struct sb_verify_doc_blocks *b, int k);
typedef void (*rep_verify_fn)(void *ctx, const struct rep_doc *d, double iteration,
			      const struct sb_verify_doc *v);
/* 0, or the error of reading the records again (rep_each_record). */
int rep_verify_each(const struct rep_doc *d, rep_verify_fn fn, void *ctx);
/* A rank's verdict in verify or run --verify: the result it names
 * ("pass", "fail", "not checked"), else one read from its figures. */
const char *rep_rank_verdict(const struct sb_verify_doc_rank *k);
/* The classes other than intact that b has blocks of: "corrupted 16,
 * stale 2", "" for none. */
char *rep_bad_classes(const struct sb_verify_doc_blocks *b, char *buf, size_t len);
/* "1.17 MiB (1228800)" */
char *rep_fmt_offset(double bytes, char *buf, size_t len);
/* What a bad range adds to its class: "data written for 4.00 KiB (4096)",
 * "generation 1", "errno 5 (Input/output error)"; "" for none. */
char *rep_range_detail(const struct sb_verify_doc_range *r, char *buf, size_t len);
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
	REP_T_CLIFF,
	REP_T_IOZONE,
	REP_T_RANKS,
	REP_T_SOAK_RANKS,
	REP_T_META_RANKS,
	REP_T_META_SKEW,
	REP_T_VERIFY_RANKS,
	REP_T_N
};
extern const char *const rep_table_names[REP_T_N];

/* The anomalies of soak metric k (0 write, 1 read) as every renderer shows
 * them (report/soak_anomalies.c): the verdict the soak wrote (the last
 * summary line of a log, unless iterations follow it; a result's soak
 * section) when it covers the iterations read, or else the analysis the
 * soak makes (lib/analysis: values that are not > 0 and interrupted
 * iterations left out, sb_series_anomalies), by iteration number. */
struct rep_anomalies {
	int written;		      /* the soak's own verdict */
	struct sb_soak_judged judged; /* enough values to look for outliers, change points */
	struct sb_soak_metric m;      /* m.st.n values judged; m.st valid when n > 0 */
};
int rep_soak_anomalies(const struct rep_doc *d, int k, struct rep_anomalies *out);
/* The verdict the soak wrote, when its summary covers every iteration
 * read: 0 and *sum; -ENOENT when there is none (a soak killed, or still
 * running: it has no verdict yet). */
int rep_soak_verdict(const struct rep_doc *d, struct sb_soak_summary *sum);
/* The first screen of a soak's report (report/soak_lead.c), the same in
 * every format: the verdict as the soak wrote it (none: killed, or still
 * running) and why, line by line (each stop, failed iteration with what
 * failed and its kernel messages, change of level and outlier with its
 * iteration and size), what it was asked (settings), and per direction
 * the statistics and the trend. */
#define REP_LEAD_LINES 32
#define REP_LEAD_LEN 480
enum rep_why {
	REP_WHY_STOPPED,    /* stopped before its end: why */
	REP_WHY_RESUME,	    /* the command line that goes on with it */
	REP_WHY_FAILED,	    /* a failed iteration, what failed */
	REP_WHY_EVENT,	    /* trouble in an iteration that did not fail it */
	REP_WHY_CHANGE,	    /* a change of level */
	REP_WHY_OUTLIER,    /* an outlier */
	REP_WHY_KMSG_OTHER, /* kernel lines about other devices: not counted */
	REP_WHY_MORE,	    /* and more of the kind before (the tables list them) */
	REP_WHY_CLEAN,	    /* nothing went wrong */
	REP_WHY_NONE,	    /* no verdict: the soak was killed or still runs */
};
struct rep_soak_why {
	enum rep_why kind;
	double iteration; /* NaN: not of one iteration */
	char text[REP_LEAD_LEN];
};
struct rep_soak_lead {
	int has_verdict;
	struct sb_soak_summary sum;  /* has_verdict: the soak's own */
	char word[16];		     /* "PASS", "FAIL", "INTERRUPTED", "ABORTED", "NO VERDICT" */
	char headline[160];	     /* "2 of 40 iterations failed" */
	struct sb_soak_settings set; /* set.known 0: not told */
	double elapsed_s;	     /* first start to last end (NaN: not told) */
	struct rep_anomalies an[2];  /* write, read */
	double trend[2];	     /* fitted line's change over the soak / median (NaN) */
	size_t nwhy;
	struct rep_soak_why why[REP_LEAD_LINES];
};
/* l (large: allocate it) for a soak's d: 0 or -ENOMEM. */
int rep_soak_lead(const struct rep_doc *d, struct rep_soak_lead *l);
/* "fail", ... for REP_WHY_* (the JSON's kind). */
const char *rep_why_name(enum rep_why k);
/* A soak's settings in words, k of them: name and value (0: all said). */
size_t rep_soak_settings_kv(const struct rep_soak_lead *l, const char *kv[][2], char buf[][64],
			    size_t max);
/* Index of iteration number x in it's arrays (SIZE_MAX: none). */
size_t rep_iter_index(const struct rep_iters *it, double x);

/* The same analysis of an iozone soak's cell j (d->iters.cs[j], KiB/s),
 * always made again from the iterations read. */
int rep_cell_anomalies(const struct rep_doc *d, size_t j, struct rep_anomalies *out);
/* An iozone soak's cells in text (report/text_iozone.c): each one's
 * median, range and anomalies, and a table per test of the figures per
 * iteration (up to REP_CELL_TEXT_ROWS iterations). */
#define REP_CELL_TEXT_ROWS 200
void rep_text_soak_cells(FILE *f, const struct rep_doc *d);

/* A qualification plan's report (storbench report PLAN-DIR, docs/plans.md):
 * the plan's result (its JSON, plan.json in its directory) read through
 * lib/plan's reader, or its journal alone (the steps it records, no
 * verdict), and each step's result loaded as report loads any result
 * (report/plan_load.c). */
struct rep_plan {
	const char *path;	/* as given */
	char *dir;		/* the plan's directory */
	char *from;		/* the file the plan was read from */
	struct sb_jdoc *tree;	/* its JSON (NULL: the journal alone) */
	struct sb_plan_doc doc; /* doc.verdict NULL: the journal alone */
	struct sb_plan_journal journal;
	struct rep_doc **steps; /* [doc.nsteps]: each step's result (NULL: none) */
	char **paths, **heads;	/* [doc.nsteps]: its file; its rep_doc.plan_step */
	/* [doc.nsteps]: the first step whose result is the same file (i
	 * itself: steps[i] is its own), which is loaded once, for all */
	size_t *lead;
	char **notes;		/* what could not be used (a step's result missing) */
	size_t nnotes, notes_cap;
	struct rep_plan_target *targets; /* the steps' targets, by their first step */
	size_t ntargets;
	size_t *order;	 /* [doc.nsteps]: the steps by target (targets[].step) */
	size_t *by_name; /* [ntargets]: targets' indices in the order of their names */
};
/* A target of a plan's steps: its steps (indices of doc.steps, in the
 * plan's order), its criteria's results and its verdict (rep_plan_verdict),
 * counted once when the plan is loaded: a journal of 100,000 steps is
 * reported in n log n, not n squared. */
struct rep_plan_target {
	const char *target, *verdict;
	const size_t *step;
	size_t nsteps, pass, fail, other;
};
/* The target named t of p's steps (NULL: none). */
const struct rep_plan_target *rep_plan_target_of(const struct rep_plan *p, const char *t);
/* path a plan's directory (with plan.json or journal.json), its JSON or
 * its journal: 0 and *out; 1 when it is none of those (read it as a
 * result); -REP_EINPUT, -ENOMEM, -errno with *why. */
int rep_plan_load(const char *path, struct rep_plan **out, char **why);
void rep_plan_free(struct rep_plan *p);
/* Whether path is the result of one of p's steps (a glob of its
 * directory gives it again); whether a and b are one plan (its
 * journal.json and its plan.json). */
int rep_plan_holds(const struct rep_plan *p, const char *path);
int rep_plan_same(const struct rep_plan *a, const struct rep_plan *b);
/* The steps' results that were read, in the plan's order (NULL: out of
 * memory); *n of them. */
struct rep_doc **rep_plan_docs(const struct rep_plan *p, size_t *n);
/* The plan's verdict as the report says it ("NO VERDICT": the journal
 * alone), and that of the steps on target (NULL: every target). */
const char *rep_plan_verdict(const struct rep_plan *p, const char *target);
/* Its first screen: the verdict overall and per target, the criteria,
 * the steps that never ran (report/html_plan.c, report/text_plan.c);
 * the Plan sheet (report/xlsx.c). */
/* "6 of 9 criteria passed, 1 failed, 2 not judged: their steps never
 * ran"; a figure in its unit ("-": not found); a criterion's limit
 * (">= 40.0 MiB/s") (report/plan_load.c). */
char *rep_plan_headline(const struct rep_plan *p, char *buf, size_t len);
char *rep_plan_value(const char *unit, int found, double v, const char *word, char *buf,
		     size_t len);
char *rep_plan_limit(const struct sb_plan_doc_crit *c, char *buf, size_t len);
void rep_plan_html_lead(FILE *f, const struct rep_plan *p, struct rep_doc *const *docs, size_t n);
void rep_plan_text_lead(FILE *f, const struct rep_plan *p);
/* storbench plan's run as it ends (report/plan_result.c, from lib/plan's
 * struct sb_plan_result): the verdict, the criteria table per target and
 * the steps that never ran in text; the plan's JSON result (lib/plan's
 * writer); JUnit XML, each criterion a test case. The writers: 0 or
 * -errno. */
void rep_plan_run_text(FILE *f, const struct sb_plan_result *r);
int rep_plan_run_json(FILE *f, const struct sb_plan_result *r);
int rep_plan_run_junit(FILE *f, const struct sb_plan_result *r);
/* storbench plan --figures COMMAND: the figures of COMMAND's results a
 * criterion may name, with their units and what each is, and how the
 * names' parts are made (report/plan_result.c); -ENOENT: COMMAND has
 * none. */
int rep_plan_figures_text(FILE *f, const char *command);

/* Renderers: 0, or -errno of a failed write (-EIO too when a file could
 * not be read again: its rep_source says why). */
int rep_text(FILE *f, struct rep_doc *const *docs, size_t n);
/* storbench.pts as text (report/text_pts.c) */
void rep_text_pts(FILE *f, const struct rep_doc *d);
/* Text of what a run holds, as the commands print it: a device's health,
 * lines indented by indent (report/text_health.c); the per-rank table and
 * the skew of a job of many ranks (report/text_ranks.c). */
void rep_health_text(FILE *f, const struct sb_health *h, const char *indent);
void rep_ranks_text(FILE *f, const struct sb_job_result *j);
/* A result's text as a command ends (report/text_result.c): a job's
 * figures (rates, latencies, sync calls, cpu, the disk's counters,
 * errors); the target, the device beneath and its state; the state alone
 * ("state: purged (purge by ...)"); each warning once, "warning: ..."
 * (sb_results_warnings). */
void rep_job_run_text(FILE *f, const struct sb_job_result *j);
void rep_target_text(FILE *f, const struct sb_results *r);
void rep_state_text(FILE *f, const struct sb_state *st);
/* --repeat's line per direction: "read  median of 5 runs: ... (min .. max),
 * ... IOPS" (the result's summary rows). */
void rep_repeats_text(FILE *f, const struct sb_results *r);
void rep_warnings_text(FILE *f, const struct sb_results *r);
/* storbench verify's text as its run ends (report/text_verify_run.c): what
 * was written and checked, the blocks by class, the result, with what the
 * command ran with that the report does not hold (settings); each rank's
 * line under mpirun; the fake-capacity probe's finding on path. */
struct rep_verify_settings {
	uint32_t block_size, request_size;
	unsigned iodepth;
	uint64_t seed, generation;
};
void rep_verify_run_text(FILE *f, const struct rep_verify_settings *o,
			 const struct sb_verify_report *res);
void rep_verify_ranks_text(FILE *f, const struct sb_verify_report *v);
/* Each phase's job of many ranks: "write, per rank:" and its table. */
void rep_verify_jobs_ranks_text(FILE *f, const struct sb_results *res);
void rep_verify_probe_text(FILE *f, const char *path, const struct sb_capacity_report *p);
/* storbench run --verify's text (report/text_run_verify.c): the counts and
 * the bad ranges of the files paths[] checked (of many ranks, a line a
 * rank, then which failed). */
void rep_run_verify_text(FILE *f, const struct sb_job_verify *v, char *const *paths,
			 unsigned npaths);
/* storbench spo --check's findings on path in text (report/text_spo_check.c). */
void rep_spo_check_text(FILE *f, const char *path, const struct sb_spo_check *c);
/* storbench soak's text as its run ends (report/text_soak_run.c): the
 * verdict (failed iterations, each metric's stability, changes and
 * outliers); an iozone workload's cells, one line each (median, spread),
 * then their changes and outliers; an iteration's "  other devices: 2
 * kernel lines (loop3, not counted)" when there are any; "resumed; stop
 * condition changed from 100000 iterations to 50 iterations". */
void rep_soak_run_text(FILE *f, const struct sb_soak_result *r, int fail_on_anomaly);
void rep_soak_cells_text(FILE *f, const struct sb_soak_cell_metric *c, size_t n);
void rep_soak_other_text(FILE *f, const struct sb_soak_iter *it);
void rep_soak_stop_change_text(const struct sb_soak_stop_change *c, char *buf, size_t len);
/* storbench soak's lines as it runs and as it ends (report/text_soak_iter.c):
 * an iteration's line (rates, the verify's verdict, errors, the kernel's
 * first line, the damaged ranges); a rank's own under mpirun; the iozone
 * workload's, iozone's rows first with iozone_output; as it ends the
 * verdict, its cells, the target, the health before and after and where
 * the log is; under mpirun the ranks that failed iterations. */
void rep_soak_iter_text(FILE *f, const struct sb_soak_iter *it);
void rep_soak_rank_text(FILE *f, const struct sb_soak_rank *k);
void rep_soak_iozone_iter_text(FILE *f, const struct sb_iozone_args *a, int iozone_output,
			       const struct sb_soak_event *e);
void rep_soak_end_text(FILE *f, const struct sb_soak_result *r, int fail_on_anomaly,
		       const struct sb_results *res);
void rep_soak_ranks_end_text(FILE *f, const struct sb_soak_result *r);
/* storbench pts's text of its run as it ends, on path (report/text_pts_run.c):
 * conditions, deviations, per test its rounds, steady state and
 * window-average tables. */
void rep_pts_run_text(FILE *f, const struct sb_pts_result *r, const char *path);
/* storbench quick's text of its run as it ends (report/text_quick_run.c),
 * with what the command ran with (settings): of n results (two targets:
 * [A] and [B], and B/A) on the targets pos (npos asked); under mpirun
 * each rank's median rate per test; two targets' warnings, each once with
 * the target it is about, or both. */
struct rep_quick_settings {
	uint64_t size, runtime_ns;
	unsigned repeat;
	const struct sb_quick_test *tests;
	int interrupted; /* a stop was asked */
};
void rep_quick_run_text(FILE *f, const struct rep_quick_settings *c, const struct sb_quick_result *q,
			struct sb_results *const *res, int n, char *const *pos, int npos);
void rep_quick_ranks_text(FILE *f, const struct sb_quick_result *q);
void rep_quick_warnings_text(FILE *f, struct sb_results *const *res, char *const *pos);
/* storbench latency's text (report/text_latency_run.c): ioping's description
 * of the target, "ext4 /dev/vda 252 GiB", into where; ioping's line of a
 * request; as the run ends, ioping's statistics, the preset's own line
 * (dd's, hdparm's), percentiles (lr's samples sorted on first use) and the
 * conditions. */
void rep_lat_where(const struct sb_target_info *t, char *where, size_t len);
void rep_lat_request_text(FILE *f, const struct sb_lat_run *lr, const char *where,
			  const struct sb_probe_req *r);
void rep_lat_run_text(FILE *f, struct sb_lat_run *lr, const char *where);
/* storbench info as text (report/text_info.c): the target, the device's
 * identity and geometry, whether it is in use, an MMC card's registers,
 * its health, the cache set. */
void rep_info_text(FILE *f, const struct sb_info_report *r);
/* storbench.cliff as text (report/text_cliff.c) */
void rep_text_cliff(FILE *f, const struct rep_doc *d);
/* storbench cliff's summary of its run on path as it ends
 * (report/text_cliff_run.c), with what the command ran with that the
 * result does not hold (settings). */
struct rep_cliff_settings {
	int random, direct;
	uint32_t bs;
	unsigned iodepth;
	const char *engine;
	unsigned nrecovery; /* recoveries asked for */
};
void rep_cliff_run_text(FILE *f, const struct rep_cliff_settings *c,
			const struct sb_cliff_result *r, const char *path);
/* storbench.flash as text (report/text_flash.c) */
void rep_text_flash(FILE *f, const struct rep_doc *d);
/* storbench flash's summary of its run as it ends (report/text_flash_run.c):
 * the findings, their meaning and every row, for a person. */
void rep_flash_run_text(FILE *f, const struct sb_flash_result *r);
/* storbench.meta as text (report/text_meta.c) */
void rep_text_meta(FILE *f, const struct rep_doc *d);
/* A meta test's rate v in words ("12.3 MiB/s", "4.56k files/s", "789
 * seeks/s"), its unit ("bytes/s", "seeks/s", "files/s"), for the text,
 * HTML and CSV reports; the latency percentiles the reports show
 * (sb_meta_pcts' 50 and 99); a rank's number from an index of the
 * ranks (-1: none). */
void rep_meta_rate(int test, double v, char *buf, size_t len);
const char *rep_meta_unit(int test);
#define REP_META_P50 3
#define REP_META_P99 6
int rep_meta_rank_no(const struct sb_meta_run *m, int i);
/* storbench meta's text of its run as it ends (report/text_meta_run.c):
 * the table of the tests run; under mpirun each rank's figures and the
 * skew, after it; why the block test file has its default size, in one
 * sentence. */
void rep_meta_run_text(FILE *f, const struct sb_meta_run *m);
void rep_meta_run_ranks_text(FILE *f, const struct sb_meta_run *m);
void rep_meta_size_why(const struct sb_meta_run *m, char *buf, size_t len);
/* storbench bonnie's text table of a run, as bonnie++ 2.00a prints it, drawn
 * from the run's CSV line (report/text_bonnie.c); the CSV's header line. */
void rep_bonnie_run_text(FILE *f, const struct sb_meta_run *m);
extern const char rep_bonnie_csv_header[];
/* storbench.sweep in text (report/text_sweep.c): the matrices, and for
 * many ranks a row per rank and test. A rank's rate of one test (bytes
 * over elapsed_ns of its cells, -1 none); the widest cell of a matrix. */
void rep_text_sweep(FILE *f, const struct rep_doc *d);
double rep_sweep_widest(const struct sb_sweep_doc *s, int test, int end);
/* storbench sweep's text as its run ends (report/text_sweep_run.c), from
 * the run's result and the options it ran with: the target, the
 * conditions, iozone's row table, one matrix per test (file size down,
 * record size across, KiB/s) as iozone's -R report; under mpirun each
 * rank's rate per test and the skew. */
void rep_sweep_run_text(FILE *f, const struct sb_sweep_result *r, const struct sb_sweep_opts *o,
			const struct sb_results *res);
/* The methods' sections of a result, read through their readers into d
 * (report/methods.c): 0, or -REP_EINPUT with *why naming the key path of
 * what is wrong, -ENOMEM; rep_methods_free frees them. */
int rep_methods_read(struct rep_doc *d, const struct sb_jv *sb, char **why);
/* A method's section reader said e (er): 0, or the report's refusal,
 * "'FILE': storbench.SECTION.PATH: expected ..." (methods.c). */
int rep_section_verdict(const struct rep_doc *d, char **why, const char *section, int e,
			const struct sb_error *er);
void rep_methods_free(struct rep_doc *d);
/* A string read from a file as text may show it (vis.c): s itself, or
 * its copy in buf (len bytes, cut short when it must be) with control
 * characters but the tab and what is not UTF-8 written visibly (\n, \r,
 * \x1b, \u009b): nothing from a file moves the cursor or forges a line.
 * rep_vis_put writes s so, whole. */
const char *rep_vis(const char *s, char *buf, size_t len);
void rep_vis_put(FILE *f, const char *s);
/* The visible form of the character at s into out (at most 7 bytes and
 * its NUL): its length; *used: the bytes of s it took (the HTML and CSV
 * writers escape with it too). */
size_t rep_vis_char(const char *s, char out[8], size_t *used);
#define REP_VIS 256 /* a buffer for rep_vis: a name, a model, a label */
/* Buffers for a line that shows several strings: rep_vs(&v, s) is
 * rep_vis into the next of them (the eighth call reuses the first). */
struct rep_vis_ring {
	char b[8][REP_VIS];
	unsigned k;
};
const char *rep_vs(struct rep_vis_ring *v, const char *s);
int rep_csv(FILE *f, struct rep_doc *const *docs, size_t n, enum rep_table t);
/* One CSV field, RFC 4180 quoted when it must be (NULL: empty), with the
 * comma before it unless first. */
void rep_csv_field(FILE *f, const char *s, int first);
int rep_html(FILE *f, struct rep_doc *const *docs, size_t n);
/* The same with a plan's first screen before them (p NULL: rep_html);
 * rep_text, rep_json and rep_xlsx likewise. */
int rep_plan_html(FILE *f, const struct rep_plan *p, struct rep_doc *const *docs, size_t n);
int rep_plan_text(FILE *f, const struct rep_plan *p, struct rep_doc *const *docs, size_t n);
int rep_plan_json(FILE *f, const struct rep_plan *p, struct rep_doc *const *docs, size_t n);
/* A plan's criteria as CSV, a row each (report/csv_plan.c). */
int rep_plan_csv(FILE *f, const struct rep_plan *p);
int rep_plan_xlsx(const char *path, const struct rep_plan *p, struct rep_doc *const *docs, size_t n,
		  char **why);
/* The analysis as data (report/json_out.c, docs/reports.md): per soak
 * metric its outliers and change points, per test its repeat statistics. */
int rep_json(FILE *f, struct rep_doc *const *docs, size_t n);
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

/* Rates in decimal units (MB/s, GB/s: --units=si) rather than binary
 * (MiB/s, the default), for every rate the process prints or draws; the
 * JSON keeps bytes. Set once, before any output. */
void rep_set_units_si(int si);
int rep_units_si(void);
/* A table's column of rates in one unit: bytes/s to divide by, its name
 * ("MiB/s" or "MB/s"). */
double rep_rate_div(void);
const char *rep_rate_unit(void);
/* Human figures for tables: "1.23 GiB/s" (or "1.32 GB/s"), "12.3 µs" (utf8
 * micro in HTML). */
char *rep_fmt_rate(double bps, char *buf, size_t len);
char *rep_fmt_ns(double ns, char *buf, size_t len);
char *rep_fmt_count(double n, char *buf, size_t len);
/* A time as a person reads it on a progress line: "42s", "3m07s", "2h05m",
 * "1d03h". */
char *rep_fmt_dur(double ns, char *buf, size_t len);

#endif
