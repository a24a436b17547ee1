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
	static const char *const units_x[CMP_NMETRICS] = { "MiB/s", "IO/s", "µs", "µs" };
	static const double div_x[CMP_NMETRICS] = { 1048576, 1, 1000, 1000 };
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
#include <xlsxwriter.h>

int cmp_xlsx(const char *path, const struct cmp *c, char **why)
{
	struct sheet_cell o[NCOLS];
	char text[96], tag[2], advice[512];
	*why = NULL;
	lxw_workbook *wb = workbook_new(path);
	if (!wb)
		return rep_fail(why, -EIO, "cannot write '%s'", path);
	lxw_format *bold = workbook_add_format(wb);
	format_set_bold(bold);
	lxw_worksheet *ws = workbook_add_worksheet(wb, "Comparison");
	for (size_t i = 0; ws && i < NCOLS; i++)
		worksheet_write_string(ws, 0, (lxw_col_t)i, titles[i], bold);
	if (ws) {
		worksheet_set_column(ws, 0, 0, 22, NULL);
		worksheet_set_column(ws, NCOLS - 2, NCOLS - 1, 24, NULL);
		worksheet_freeze_panes(ws, 1, 0);
	}
	for (size_t k = 0; ws && k < c->nrows; k++) {
		row_cells(&c->rows[k], tag_of_row(c, &c->rows[k]), 1, o, text, sizeof(text), tag);
		for (size_t i = 0; i < NCOLS; i++) {
			if (!o[i].num)
				worksheet_write_string(ws, (lxw_row_t)(k + 1), (lxw_col_t)i, o[i].s,
						       NULL);
			else if (isfinite(o[i].d))
				worksheet_write_number(ws, (lxw_row_t)(k + 1), (lxw_col_t)i, o[i].d,
						       NULL);
		}
	}
	if (ws && cmp_advice(c, advice, sizeof(advice)))
		worksheet_write_string(ws, (lxw_row_t)(c->nrows + 2), 0, advice, NULL);
	lxw_error e = workbook_close(wb);
	if (e != LXW_NO_ERROR)
		return rep_fail(why, -EIO, "cannot write '%s': %s", path, lxw_strerror(e));
	return 0;
}
#endif
