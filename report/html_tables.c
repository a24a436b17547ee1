/*
 * The HTML report's tables: results per measurement and direction, the
 * median and spread of repeated runs, and a log's own records (for commands
 * whose section has not been written yet, so nothing is hidden).
 */
#include "report/html.h"

#include <math.h>

static void results(FILE *f, const struct rep_doc *d)
{
	static const char *const cols[] = { "Measurement",  "Direction", "Bandwidth", "IOPS",
					    "Mean latency", "p50",	 "p99",	      "p99.9",
					    "Max latency",  "Errors" };
	char a[48];
	int any = 0;
	for (size_t i = 0; i < d->njobs; i++)
		for (int k = 0; k < SB_DDIR_N; k++)
			any |= d->jobs[i].dir[k].used;
	if (!any)
		return;
	fprintf(f, "<h3>Results</h3>\n<p class=\"meta\">Latency is %s.</p>\n",
		d->njobs && !strcmp(d->jobs[0].lat_kind, "completion")
			? "completion latency (fio's clat: from submission to completion)"
			: "total latency (from the moment a request was queued to its completion)");
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 2);
	for (size_t i = 0; i < d->njobs; i++) {
		const struct rep_job *j = &d->jobs[i];
		for (int k = 0; k < SB_DDIR_N; k++) {
			const struct rep_dir *r = &j->dir[k];
			if (!r->used)
				continue;
			fputs("<tr>", f);
			html_cell(f, j->name, 0);
			html_cell(f, sb_ddir_name(k), 0);
			html_cell(f, rep_fmt_rate(r->bw, a, sizeof(a)), 1);
			html_cell(f, rep_fmt_count(r->iops, a, sizeof(a)), 1);
			html_cell(f, html_fmt_ns(r->lat.n ? r->lat.mean : NAN, a, sizeof(a)), 1);
			html_cell(f, html_fmt_ns(rep_pct(&r->lat, 50), a, sizeof(a)), 1);
			html_cell(f, html_fmt_ns(rep_pct(&r->lat, 99), a, sizeof(a)), 1);
			html_cell(f, html_fmt_ns(rep_pct(&r->lat, 99.9), a, sizeof(a)), 1);
			html_cell(f, html_fmt_ns(r->lat.n ? r->lat.max : NAN, a, sizeof(a)), 1);
			snprintf(a, sizeof(a), "%llu", (unsigned long long)j->errors);
			fprintf(f, "<td class=\"n%s\">%s</td></tr>\n", j->errors ? " bad" : "", a);
		}
	}
	fputs("</tbody></table>\n", f);
}

static void range_cell(FILE *f, double lo, double hi, char *(*fmt)(double, char *, size_t))
{
	char a[48], b[48], c[112];
	snprintf(c, sizeof(c), "%s .. %s", fmt(lo, a, sizeof(a)), fmt(hi, b, sizeof(b)));
	html_cell(f, c, 1);
}

static void repeats(FILE *f, const struct rep_doc *d)
{
	static const char *const cols[] = { "Test",	  "Direction",	  "Runs",
					    "Bandwidth",  "min .. max",	  "IOPS",
					    "min .. max", "Mean latency", "p99 latency" };
	char a[48];
	if (!d->nsummary)
		return;
	fputs("<h3>Summary</h3>\n<p class=\"meta\">Median of the runs, and the range from the "
	      "slowest to the fastest run; latencies are the medians of the runs' figures.</p>\n",
	      f);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 2);
	for (size_t i = 0; i < d->nsummary; i++) {
		const struct rep_summary *s = &d->summary[i];
		fputs("<tr>", f);
		html_cell(f, s->test, 0);
		html_cell(f, sb_ddir_name(s->ddir), 0);
		snprintf(a, sizeof(a), "%u", s->runs);
		html_cell(f, a, 1);
		html_cell(f, rep_fmt_rate(s->bw_median, a, sizeof(a)), 1);
		range_cell(f, s->bw_min, s->bw_max, rep_fmt_rate);
		html_cell(f, rep_fmt_count(s->iops_median, a, sizeof(a)), 1);
		range_cell(f, s->iops_min, s->iops_max, rep_fmt_count);
		html_cell(f, html_fmt_ns(s->lat_mean_median, a, sizeof(a)), 1);
		html_cell(f, html_fmt_ns(s->lat_p99_median, a, sizeof(a)), 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

void html_repeats_table(FILE *f, const struct rep_doc *d)
{
	repeats(f, d);
}

void html_results_table(FILE *f, const struct rep_doc *d)
{
	results(f, d);
}

/* ---- a log's records, generically ---- */
#define MAX_COLS 12
#define MAX_ROWS 500
#define COL_LEN 64

/* The table is read from the log again: once for its columns (the scalar
 * members of the first MAX_ROWS records), once for its rows. */
struct records {
	FILE *f;
	char cols[MAX_COLS][COL_LEN];
	size_t ncols;
};

static int record_columns(void *ctx, const struct rep_doc *d, size_t index, const struct sb_jv *v)
{
	struct records *r = ctx;
	(void)d;
	for (size_t i = 0; i < sb_jv_len(v) && r->ncols < MAX_COLS; i++) {
		const struct sb_jmember *m = &v->obj.m[i];
		size_t k;
		if (m->val.type == SB_JV_OBJ || m->val.type == SB_JV_ARR || m->keylen >= COL_LEN)
			continue;
		for (k = 0; k < r->ncols && strcmp(r->cols[k], m->key); k++)
			;
		if (k == r->ncols)
			snprintf(r->cols[r->ncols++], COL_LEN, "%s", m->key);
	}
	return index + 1 >= MAX_ROWS;
}

static void scalar_cell(FILE *f, const struct sb_jv *v)
{
	char a[64];
	if (!v || v->type == SB_JV_NULL) {
		html_cell(f, "", 0);
	} else if (v->type == SB_JV_STR) {
		html_cell(f, v->str.s, 0);
	} else if (v->type == SB_JV_BOOL) {
		html_cell(f, v->boolean ? "true" : "false", 0);
	} else if (v->type == SB_JV_NUM) {
		/* integers whole (nanosecond times run to 19 digits) */
		if (v->num.d == floor(v->num.d) && fabs(v->num.d) < 1e19)
			snprintf(a, sizeof(a), "%.0f", v->num.d);
		else
			snprintf(a, sizeof(a), "%.10g", v->num.d);
		html_cell(f, a, 1);
	} else {
		html_cell(f, "...", 0);
	}
}

/* The records of a log no reader knows, their members by name: the
 * columns are whatever keys the records have (a generic table). */
static int record_row(void *ctx, const struct rep_doc *d, size_t index, const struct sb_jv *v)
{
	struct records *r = ctx;
	(void)d;
	fputs("<tr>", r->f);
	for (size_t k = 0; k < r->ncols; k++)
		scalar_cell(r->f, sb_jv_get(v, r->cols[k]));
	fputs("</tr>\n", r->f);
	return index + 1 >= MAX_ROWS;
}

void html_records(FILE *f, const struct rep_doc *d)
{
	struct records r = { .f = f };
	const char *cols[MAX_COLS];
	if (!d->nrecords || !strcmp(d->command, "soak"))
		return; /* soak's records have their own section (and the CSV) */
	if (rep_each_record(d, record_columns, &r) < 0 || !r.ncols)
		return;
	for (size_t k = 0; k < r.ncols; k++)
		cols[k] = r.cols[k];
	fprintf(f, "<h3>Log records</h3>\n<p class=\"meta\">%zu record%s%s.</p>\n", d->nrecords,
		d->nrecords == 1 ? "" : "s",
		d->nrecords > MAX_ROWS ? "; the first 500 are shown" : "");
	fputs("<div class=\"wide\">", f);
	html_head_row(f, cols, r.ncols, (unsigned)r.ncols);
	rep_each_record(d, record_row, &r);
	fputs("</tbody></table></div>\n", f);
}
