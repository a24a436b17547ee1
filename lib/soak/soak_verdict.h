/*
 * The soak's verdict: failed iterations (verification, I/O or kernel
 * storage errors), and per throughput metric its stability (median, p5,
 * p95, coefficient of variation) and anomalies (sb_series_anomalies),
 * told by iteration number. Anomalies fail the soak only when asked.
 */
#ifndef SB_SOAK_VERDICT_H
#define SB_SOAK_VERDICT_H

#include "lib/analysis/anomalies.h"
#include "lib/analysis/robust.h"
#include "lib/soak/soak_record.h"

struct sb_soak_metric {
	const char *name; /* "write_bw" */
	struct sb_stability st;
	size_t noutliers;
	size_t outliers_total;			    /* every outlier, outliers[] the first ones */
	uint64_t outliers[SB_ANOMALY_MAX_OUTLIERS]; /* iteration numbers */
	size_t nchanges;
	struct {
		uint64_t at; /* first iteration of the new level */
		double before, after;
		double step; /* (after - before) / before */
	} changes[SB_ANOMALY_MAX_CHANGES];
};

/* The one word a soak ends with. A failed iteration makes it "fail"
 * whatever stopped the soak (a failure found stays found); a soak that
 * stopped before its end without one is "interrupted" (a signal) or
 * "aborted" (it could not go on), never "pass"; anomalies fail a soak
 * that ran to its end only with --fail-on-anomaly. */
enum sb_soak_verdict {
	SB_SOAK_PASS,
	SB_SOAK_FAIL,
	SB_SOAK_INTERRUPTED,
	SB_SOAK_ABORTED,
};
/* "pass", "fail", "interrupted", "aborted" */
const char *sb_soak_verdict_name(enum sb_soak_verdict v);
/* The verdict named s, or -EINVAL. */
int sb_soak_verdict_by_name(const char *s);

/* Kernel lines about devices outside the target's stack, by device (the
 * first SB_SOAK_MAX_OTHER of them), for information. */
#define SB_SOAK_MAX_OTHER 8
struct sb_soak_other_device {
	char device[32];
	uint64_t lines;
	char first[240]; /* the first line about it */
};

/* What a soak was asked to do, as its configuration line and its summary
 * tell it (0: not told, a log of an older storbench): the region and its
 * requests, the stop condition in force at the end (iterations, a time,
 * or both; a resume may change it), the pause after each iteration. */
struct sb_soak_settings {
	uint64_t size;
	uint32_t block_size, request_size; /* iozone: no block, its largest record */
	uint64_t iterations, duration_ns, idle_ns;
	int iozone;	/* the iozone workload */
	int known;	/* any of it was told */
	int stop_known; /* iterations and duration_ns were told */
};

struct sb_soak_summary {
	struct sb_soak_settings set;
	size_t iterations, failed;
	size_t cut_short; /* iterations a signal cut short (in iterations) */
	uint64_t verify_bad, io_errors, kmsg_lines;
	/* kernel lines about other devices: their number, and per device */
	uint64_t kmsg_other_lines;
	struct sb_soak_other_device other[SB_SOAK_MAX_OTHER];
	size_t nother;
	struct sb_soak_metric m[2]; /* write_bw, read_bw */
	int anomalies;
	int fail_on_anomaly;
	enum sb_soak_verdict verdict;
	int pass; /* verdict == SB_SOAK_PASS */
	/* stopped before its end: SB_SOAK_INTERRUPTED or SB_SOAK_ABORTED
	 * (0: it ran to its end), reason says why */
	int stopped;
	char reason[768];
	char resume[1024]; /* stopped: the command line that goes on with it ("" none) */
};

/*
 * One metric over iterations iteration[0..n) with values v[0..n): values
 * that are not finite and > 0 are left out (an interrupted iteration, which
 * measured only part of the work, is given as NAN). name is left NULL. 0 or -ENOMEM.
 */
int sb_soak_metric(const double *v, const uint64_t *iteration, size_t n, struct sb_soak_metric *m);
/* The verdict over a soak's n iterations. 0 or -ENOMEM. */
int sb_soak_summarize(const struct sb_soak_iter *it, size_t n, int fail_on_anomaly,
		      struct sb_soak_summary *out);
/* An iozone workload's cell (test, file size, record size) over the
 * iterations: its stability and anomalies as a metric's. */
struct sb_soak_cell_metric {
	int test; /* enum sb_sweep_test */
	uint64_t file_size, record_size;
	struct sb_soak_metric m;
};
/*
 * Every cell that it[0..n) measured (in the order they first appear), each
 * judged as sb_soak_metric over the iterations (an interrupted iteration,
 * or one without the cell, left out); their outliers and changes are
 * added to sum's anomalies and its verdict made again with
 * fail_on_anomaly. *out (free it) is NULL when no iteration has cells.
 * 0 or -ENOMEM.
 */
int sb_soak_summarize_cells(const struct sb_soak_iter *it, size_t n, int fail_on_anomaly,
			    struct sb_soak_summary *sum, struct sb_soak_cell_metric **out,
			    size_t *nout);

/* The soak stopped before its end: how (SB_SOAK_INTERRUPTED: a signal;
 * SB_SOAK_ABORTED: a full target, an iteration that could not run), why,
 * and the command line that resumes it (NULL: none). Never a pass
 * afterwards; a failed iteration stays a failure. */
void sb_soak_stop(struct sb_soak_summary *sum, enum sb_soak_verdict how, const char *reason,
		  const char *resume);

#endif
