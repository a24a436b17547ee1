/*
 * compare: results side by side. report/compare.c matches the figures the
 * results share and judges each difference from the runs of both sides
 * (lib/analysis/difference.h); report/compare_render.c writes the
 * comparison as text, JSON or HTML, report/compare_sheet.c as CSV or XLSX.
 */
#ifndef SB_COMPARE_H
#define SB_COMPARE_H

#include "report/report.h"

enum cmp_metric { CMP_BW, CMP_IOPS, CMP_LAT_MEAN, CMP_LAT_P99, CMP_NMETRICS };

struct cmp_stat {
	int have;
	struct sb_spread v; /* over the runs */
	double *runs;	    /* the finite value of each run, in the results' order */
	size_t n;
};

/* A test in one direction of one result: its figures over its runs. */
struct cmp_entry {
	char label[96]; /* the test or job, without "(run i of n)" and direction */
	int ddir;
	unsigned runs; /* jobs that make up the entry: its repeats */
	struct cmp_stat m[CMP_NMETRICS];
	const struct rep_job *job; /* the first run: its conditions */
};

struct cmp_side {
	const struct rep_doc *doc;
	char tag; /* 'A', 'B', ... */
	struct cmp_entry *e;
	size_t n;
	size_t *slot; /* entries by label and direction: index + 1, 0 empty */
	size_t nslot; /* a power of two, at least twice the entries */
};

/* One metric of one entry of the baseline (A) against another result. */
struct cmp_row {
	const struct cmp_entry *a, *b;
	enum cmp_metric metric;
	struct sb_difference d; /* the verdict, the shift and its interval */
};

/* Conditions that differ between A and another result. */
struct cmp_mismatch {
	char what[16]; /* "bs", "iodepth", "device", ... */
	char a[96], b[96];
	char tag;	 /* the other result */
	char tests[160]; /* where, e.g. "SEQ1M Q8T1 read, RND4K Q1T1 read and 6 more" */
	unsigned ntests;
};

struct cmp {
	struct cmp_side *sides;
	size_t nsides;
	struct cmp_row *rows;
	size_t nrows;
	struct cmp_mismatch *mis;
	size_t nmis;
	char **unmatched; /* "only in B: RND4K Q1T1 write" */
	size_t nunmatched;
};

extern const char *const cmp_metric_names[CMP_NMETRICS]; /* "bandwidth", ... */
extern const char *const cmp_metric_keys[CMP_NMETRICS];	 /* "bw_bytes", ... (JSON) */
extern const char *const cmp_verdict_names[];		 /* "within noise", ... */
extern const char *const cmp_metric_units[CMP_NMETRICS]; /* "bytes/s", ... (CSV, XLSX) */

/* Matches docs[1..n-1] (n >= 2) against docs[0], which stay the caller's
 * and must outlive c. 0 or -ENOMEM; free c either way. */
int cmp_build(struct cmp *c, struct rep_doc *const *docs, size_t n);
void cmp_free(struct cmp *c);

void cmp_fmt(enum cmp_metric m, double v, char *buf, size_t len);
/* The row's verdict as people read it: "worse", "within noise",
 * "inconclusive: 2 runs, at least 4 needed". */
void cmp_verdict_text(const struct cmp_row *r, char *buf, size_t len);
/* "+12.3%", and the interval "-4.1% .. +8.0%" ("-" when there is none). */
void cmp_pct_text(double pct, char *buf, size_t len);
void cmp_interval_text(const struct cmp_row *r, char *buf, size_t len);
/* What to do about inconclusive rows, one line with no newline ("" when
 * every row got a verdict): how many, the runs the test needs, and the
 * --repeat that gives them. Returns the number of inconclusive rows. */
size_t cmp_advice(const struct cmp *c, char *buf, size_t len);

/* Each takes a struct cmp (void, to be handed to rep_write_file); 0 or -errno. */
int cmp_text(FILE *f, const void *cmp);
int cmp_json(FILE *f, const void *cmp);
int cmp_html(FILE *f, const void *cmp);
int cmp_csv(FILE *f, const void *cmp);
/* The workbook at path: 0, or -errno with *why (-ENOTSUP without
 * libxlsxwriter, as rep_xlsx). */
int cmp_xlsx(const char *path, const struct cmp *c, char **why);

#endif
