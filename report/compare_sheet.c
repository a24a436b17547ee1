/*
 * compare's output for spreadsheets: CSV (one long table, RFC 4180 quoting,
 * base units, an empty field where a figure is absent) and XLSX (the same
 * table on a sheet "Comparison", bandwidth in MiB/s and latency in µs as
 * spreadsheets show them). One row per comparison: the medians and spread
 * of both sides, the shift and its interval, the p-value, the verdict.
 */
#include "report/compare.h"

#include <math.h>

struct sheet_cell {
	int num; /* 1: d, 0: s */
	double d;
	const char *s;
};

static const char *const titles[] = {
	"test",	      "direction",  "metric",		"unit",
	"other",      "a_runs",	    "a_median",		"a_min",
	"a_max",      "other_runs", "other_median",	"other_min",
	"other_max",  "diff_pct",   "interval_low_pct", "interval_high_pct",
	"confidence", "p_value",    "verdict",		"reason",
};
#define NCOLS SB_ARRAY_SIZE(titles)

/* What a row holds, in the columns' order; spreadsheet units when xlsx.
 * Strings point into r's entries or into why and tag. */
static void row_cells(const struct cmp_row *r, char tag, int xlsx, struct sheet_cell *o, char *why,
		      size_t wl, char *tagbuf)
{
	const char *const units_x[CMP_NMETRICS] = { rep_rate_unit(), "IO/s", "µs", "µs" };
	const double div_x[CMP_NMETRICS] = { rep_rate_div(), 1, 1000, 1000 };
	const struct cmp_stat *a = &r->a->m[r->metric], *b = &r->b->m[r->metric];
	double div = xlsx ? div_x[r->metric] : 1;
	size_t i = 0;
	tagbuf[0] = tag;
	tagbuf[1] = 0;
	cmp_verdict_text(r, why, wl);
	const char *reason = r->d.verdict == SB_DIFF_INCONCLUSIVE ? strchr(why, ':') : NULL;
	o[i++] = (struct sheet_cell){ 0, 0, r->a->label };
	o[i++] = (struct sheet_cell){ 0, 0, sb_ddir_name(r->a->ddir) };
	o[i++] = (struct sheet_cell){ 0, 0, cmp_metric_keys[r->metric] };
	o[i++] = (struct sheet_cell){ 0, 0,
				      xlsx ? units_x[r->metric] : cmp_metric_units[r->metric] };
	o[i++] = (struct sheet_cell){ 0, 0, tagbuf };
	o[i++] = (struct sheet_cell){ 1, (double)a->n, NULL };
	o[i++] = (struct sheet_cell){ 1, a->v.med / div, NULL };
	o[i++] = (struct sheet_cell){ 1, a->v.min / div, NULL };
	o[i++] = (struct sheet_cell){ 1, a->v.max / div, NULL };
	o[i++] = (struct sheet_cell){ 1, (double)b->n, NULL };
	o[i++] = (struct sheet_cell){ 1, b->v.med / div, NULL };
	o[i++] = (struct sheet_cell){ 1, b->v.min / div, NULL };
	o[i++] = (struct sheet_cell){ 1, b->v.max / div, NULL };
	o[i++] = (struct sheet_cell){ 1, r->d.pct, NULL };
	o[i++] = (struct sheet_cell){ 1, r->d.lo_pct, NULL };
	o[i++] = (struct sheet_cell){ 1, r->d.hi_pct, NULL };
	o[i++] = (struct sheet_cell){ 1, r->d.confidence, NULL };
	o[i++] = (struct sheet_cell){ 1, r->d.p, NULL };
	o[i++] = (struct sheet_cell){ 0, 0, cmp_verdict_names[r->d.verdict] };
	o[i++] = (struct sheet_cell){ 0, 0, reason ? reason + 2 : "" };
}

static char tag_of_row(const struct cmp *c, const struct cmp_row *r)
{
	for (size_t k = 0; k < c->nsides; k++)
		if (r->b >= c->sides[k].e && r->b < c->sides[k].e + c->sides[k].n)
			return c->sides[k].tag;
	return '?';
}

/* ---- CSV ---- */
int cmp_csv(FILE *f, const void *vc)
{
	const struct cmp *c = vc;
	struct sheet_cell o[NCOLS];
	char why[96], tag[2];
	for (size_t i = 0; i < NCOLS; i++)
		rep_csv_field(f, titles[i], i == 0);
	fputs("\r\n", f);
	for (size_t k = 0; k < c->nrows; k++) {
		row_cells(&c->rows[k], tag_of_row(c, &c->rows[k]), 0, o, why, sizeof(why), tag);
		for (size_t i = 0; i < NCOLS; i++) {
			if (!o[i].num)
				rep_csv_field(f, o[i].s, i == 0);
			else if (isfinite(o[i].d))
				fprintf(f, ",%.15g", o[i].d);
			else
				fputc(',', f);
		}
		fputs("\r\n", f);
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* ---- XLSX ---- */
#ifndef HAVE_XLSX
int cmp_xlsx(const char *path, const struct cmp *c, char **why)
{
	(void)c;
	return rep_fail(why, -ENOTSUP,
			"--output: '%s': this storbench was built without XLSX "
			"support (libxlsxwriter); use .html or .csv",
			path);
}
#else
#include "report/xlsx_book.h"

/* Each column's number format: counts, the metric's unit, per cent. */
static enum xb_fmt col_fmt(size_t i, enum cmp_metric m)
{
	static const enum xb_fmt metric[CMP_NMETRICS] = { XB_RATE, XB_IOPS, XB_US, XB_US };
	if (i == 5 || i == 9)
		return XB_COUNT;
	if (i < 13)
		return metric[m];
	return i < 16 ? XB_PCT : XB_RATIO;
}

/* Below the table: the median bandwidth of each test and direction on
 * each side, and their bars (the HTML's chart). */
static void bw_pivot(struct xb_book *b, const struct cmp *c)
{
	const struct cmp_side *a = &c->sides[0];
	const size_t ns = SB_MIN(c->nsides, (size_t)XB_MAX_LINES);
	char t[112];
	const lxw_row_t top = ++b->row;
	xb_str(b, top, 0, "test and direction", 1);
	for (size_t k = 0; k < ns; k++) {
		snprintf(t, sizeof(t), "%c median (MiB/s)", c->sides[k].tag);
		xb_str(b, top, (lxw_col_t)(k + 1), t, 1);
	}
	b->row = top + 1;
	for (size_t i = 0; i < a->n && i < 64; i++, b->row++) {
		const struct cmp_entry *e = &a->e[i];
		snprintf(t, sizeof(t), "%s %s", e->label, sb_ddir_name(e->ddir));
		xb_str(b, b->row, 0, t, 0);
		for (size_t k = 0; k < ns; k++)
			for (size_t q = 0; q < c->sides[k].n; q++) {
				const struct cmp_entry *x = &c->sides[k].e[q];
				if (x->ddir == e->ddir && !strcmp(x->label, e->label) &&
				    x->m[CMP_BW].have)
					xb_base(b, b->row, (lxw_col_t)(k + 1), x->m[CMP_BW].v.med,
						XB_RATE);
			}
	}
	if (b->row == top + 1)
		return;
	lxw_chart *ch = xb_chart(b, LXW_CHART_COLUMN,
				 "Bandwidth of each input (median of the runs)",
				 "Test and direction", "Bandwidth (MiB/s)");
	for (size_t k = 0; ch && k < ns; k++) {
		char name[2] = { c->sides[k].tag, 0 };
		lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
		lxw_chart_fill fill = { .color = xb_colors[k] };
		chart_series_set_categories(s, "Comparison", top + 1, 0, b->row - 1, 0);
		chart_series_set_values(s, "Comparison", top + 1, (lxw_col_t)(k + 1), b->row - 1,
					(lxw_col_t)(k + 1));
		chart_series_set_name(s, name);
		chart_series_set_fill(s, &fill);
	}
	if (ch)
		xb_place(b, b->row + 1, 0, ch);
}

int cmp_xlsx(const char *path, const struct cmp *c, char **why)
{
	struct sheet_cell o[NCOLS];
	char text[96], tag[2], advice[512];
	struct xb_book b;
	*why = NULL;
	if (xb_open(&b, path) < 0)
		return rep_fail(why, -EIO, "cannot write '%s'", path);
	if (xb_sheet(&b, "Comparison", titles, NCOLS, 1, 0)) {
		for (size_t k = 0; k < c->nrows; k++, b.row++) {
			row_cells(&c->rows[k], tag_of_row(c, &c->rows[k]), 1, o, text, sizeof(text),
				  tag);
			for (size_t i = 0; i < NCOLS; i++) {
				if (!o[i].num)
					xb_str(&b, b.row, (lxw_col_t)i, o[i].s, 0);
				else
					xb_num(&b, b.row, (lxw_col_t)i, o[i].d,
					       col_fmt(i, c->rows[k].metric), 0);
			}
		}
		if (cmp_advice(c, advice, sizeof(advice)))
			worksheet_write_string(b.sheet, ++b.row, 0, advice, NULL);
		if (c->nsides)
			bw_pivot(&b, c);
	}
	lxw_error e = xb_close(&b);
	if (e != LXW_NO_ERROR)
		return rep_fail(why, -EIO, "cannot write '%s': %s", path, lxw_strerror(e));
	return 0;
}
#endif
