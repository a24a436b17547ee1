/*
 * The XLSX report (libxlsxwriter, HAVE_XLSX): one sheet per table, figures
 * in the units people read (MiB/s, µs), and native Excel charts beside the
 * data they draw (bars per test for quick, lines over time for a run), so a
 * spreadsheet user gets the chart without writing a script. The tables the
 * CSV report has too come from the same rows (report/rows.c): a sheet picks
 * its columns from them.
 */
#include "report/rows.h"

#ifndef HAVE_XLSX
int rep_xlsx_available(void)
{
	return 0;
}

int rep_xlsx(const char *path, struct rep_doc *const *docs, size_t n, char **why)
{
	return rep_plan_xlsx(path, NULL, docs, n, why);
}

int rep_plan_xlsx(const char *path, const struct rep_plan *p, struct rep_doc *const *docs, size_t n,
		  char **why)
{
	(void)p;
	(void)docs;
	(void)n;
	return rep_fail(why, -ENOTSUP,
			"--output: '%s': this storbench was built without XLSX "
			"support (libxlsxwriter); use .html or .csv",
			path);
}
#else
#include "report/xlsx_book.h"

#include <math.h>

#define MIB XB_MIBYTES
#define MAX_LINES XB_MAX_LINES
#define colors xb_colors

int rep_xlsx_available(void)
{
	return 1;
}

static void str(struct xb_book *b, lxw_col_t c, const char *s)
{
	xb_str(b, b->row, c, s, 0);
}

static void num(struct xb_book *b, lxw_col_t c, double v, enum xb_fmt k)
{
	xb_num(b, b->row, c, v, k, 0);
}

/* A column of a table's sheet: a cell of its rows (report/rows.h) in the
 * unit and number format of kind fmt (divided by div, 0: the kind's own
 * divisor from the base unit). */
struct column {
	const char *title;
	int cell;
	enum xb_fmt fmt;
	double div;
};

static lxw_worksheet *table_sheet(struct xb_book *b, const char *name, const struct column *cols,
				  size_t n)
{
	const char *titles[REP_ROW_MAX];
	n = SB_MIN(n, SB_ARRAY_SIZE(titles));
	for (size_t i = 0; i < n; i++)
		titles[i] = cols[i].title;
	return xb_sheet(b, name, titles, n, 1, 0);
}

/* A row of a table as the next row of the sheet, cell by cell in the
 * sheet's order (the order strings are first written in is the workbook's). */
static void put_row(struct xb_book *b, const struct column *cols, size_t n, const struct rep_row *r)
{
	for (size_t i = 0; i < n; i++) {
		const struct rep_cell *c = &r->cell[cols[i].cell];
		const lxw_col_t x = (lxw_col_t)i;
		const double div = cols[i].div ? cols[i].div : xb_div(cols[i].fmt);
		const enum xb_fmt k = cols[i].fmt == XB_TEXT ? XB_NUM : cols[i].fmt;
		switch (c->kind) {
		case REP_CELL_STR: str(b, x, c->s); break;
		case REP_CELL_NUM:
		case REP_CELL_WHOLE: num(b, x, c->d / div, k); break;
		case REP_CELL_INT: num(b, x, (double)c->u / div, k); break;
		case REP_CELL_FLAG: str(b, x, c->flag < 0 ? "" : c->flag ? "yes" : "no"); break;
		case REP_CELL_EMPTY: break;
		}
	}
	b->row++;
}

struct table_rows {
	struct xb_book *b;
	const struct column *cols;
	size_t n;
};

static void table_row(void *ctx, const struct rep_row *r)
{
	const struct table_rows *t = ctx;
	put_row(t->b, t->cols, t->n, r);
}

/* A sheet of table t with these columns and its rows over docs, when it
 * has rows: a sheet of only a header row is none. */
static void table_rows(struct xb_book *b, enum rep_table t, const char *name,
		       const struct column *cols, size_t n, struct rep_doc *const *docs,
		       size_t ndocs)
{
	struct table_rows ctx = { b, cols, n };
	const long rows = rep_rows(t, docs, ndocs, 0, NULL, NULL);
	if (rows < 0)
		b->err = -EIO;
	if (rows <= 0 || !table_sheet(b, name, cols, n))
		return;
	if (rep_rows(t, docs, ndocs, 0, table_row, &ctx) < 0)
		b->err = -EIO;
}

#define new_chart xb_chart
#define place xb_place

/* ---- Summary: the table, then per quick result a pivot and its chart ---- */
static void summary_chart(struct xb_book *b, const struct rep_doc *d, lxw_col_t col, lxw_row_t *at)
{
	const char *tests[32];
	size_t nt = 0;
	for (size_t i = 0; i < d->nsummary; i++) {
		size_t k;
		for (k = 0; k < nt && strcmp(tests[k], d->summary[i].test); k++)
			;
		if (k == nt && nt < SB_ARRAY_SIZE(tests))
			tests[nt++] = d->summary[i].test;
	}
	if (!nt)
		return;
	lxw_row_t top = *at;
	xb_str(b, top, col, d->name, 1);
	xb_str(b, top, col + 1, "read (MiB/s)", 1);
	xb_str(b, top, col + 2, "write (MiB/s)", 1);
	for (size_t t = 0; t < nt; t++) {
		xb_str(b, top + 1 + (lxw_row_t)t, col, tests[t], 0);
		for (size_t i = 0; i < d->nsummary; i++)
			if (!strcmp(d->summary[i].test, tests[t]) &&
			    d->summary[i].ddir <= SB_DDIR_WRITE)
				xb_base(b, top + 1 + (lxw_row_t)t,
					col + 1 + (lxw_col_t)d->summary[i].ddir,
					d->summary[i].bw_median, XB_RATE);
	}
	lxw_chart *ch = new_chart(b, LXW_CHART_COLUMN, "Bandwidth by test (median of the runs)",
				  "Test", "Bandwidth (MiB/s)");
	for (int k = 0; ch && k < 2; k++) {
		lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
		lxw_chart_fill fill = { .color = colors[k ? 5 : 0] };
		chart_series_set_categories(s, b->sheet_name, top + 1, col, top + (lxw_row_t)nt,
					    col);
		chart_series_set_values(s, b->sheet_name, top + 1, col + 1 + (lxw_col_t)k,
					top + (lxw_row_t)nt, col + 1 + (lxw_col_t)k);
		chart_series_set_name(s, k ? "write" : "read");
		chart_series_set_fill(s, &fill);
	}
	if (ch)
		place(b, top + (lxw_row_t)nt + 2, col, ch);
	*at = top + (lxw_row_t)nt + 26;
}

static void summary_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "source", RS_SOURCE, XB_TEXT, 0 },
		{ "test", RS_TEST, XB_TEXT, 0 },
		{ "direction", RS_DIR, XB_TEXT, 0 },
		{ "runs", RS_RUNS, XB_COUNT, 0 },
		{ "bandwidth median (MiB/s)", RS_BW_MED, XB_RATE, 0 },
		{ "bandwidth min (MiB/s)", RS_BW_MIN, XB_RATE, 0 },
		{ "bandwidth max (MiB/s)", RS_BW_MAX, XB_RATE, 0 },
		{ "IOPS median", RS_IOPS_MED, XB_IOPS, 0 },
		{ "IOPS min", RS_IOPS_MIN, XB_IOPS, 0 },
		{ "IOPS max", RS_IOPS_MAX, XB_IOPS, 0 },
		{ "mean latency median (µs)", RS_LAT_MEAN_MED, XB_US, 0 },
		{ "p99 latency median (µs)", RS_LAT_P99_MED, XB_US, 0 },
	};
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		any += docs[i]->nsummary;
	if (!any)
		return;
	table_rows(b, REP_T_SUMMARY, "Summary", cols, SB_ARRAY_SIZE(cols), docs, n);
	/* below the table: the workbook is written row by row (constant memory) */
	lxw_row_t at = b->row + 1;
	for (size_t i = 0; b->sheet && i < n; i++)
		summary_chart(b, docs[i], 0, &at);
}

/* ---- A soak's verdict, why, settings and statistics: the first sheet
 * (report/soak_lead.c, as the HTML's first screen); settings as numbers
 * in their unit (sizes in bytes, durations as [h]:mm:ss) ---- */
static void setting(struct xb_book *b, const char *name, double v, enum xb_fmt k, const char *unit)
{
	xb_str(b, b->row, 0, name, 1);
	xb_num(b, b->row, 1, v / xb_div(k), k, 0);
	if (unit)
		xb_str(b, b->row, 2, unit, 0);
	b->row++;
}

static void soak_settings(struct xb_book *b, const struct rep_soak_lead *l)
{
	const struct sb_soak_settings *s = &l->set;
	if (s->known) {
		xb_str(b, b->row, 0, "Workload", 1);
		xb_str(b, b->row++, 1, s->iozone ? "iozone" : "verify", 0);
		setting(b, s->iozone ? "Largest file" : "Size", (double)s->size, XB_BYTES, "bytes");
		if (s->block_size)
			setting(b, "Block size", (double)s->block_size, XB_BYTES, "bytes");
		if (s->request_size)
			setting(b, s->iozone ? "Largest record" : "Request size",
				(double)s->request_size, XB_BYTES, "bytes");
		if (s->stop_known && s->iterations) {
			setting(b, "Iterations", (double)s->iterations, XB_COUNT, NULL);
		} else if (s->stop_known) {
			xb_str(b, b->row, 0, "Iterations", 1);
			xb_str(b, b->row++, 1, "no limit", 0);
		}
		if (s->stop_known && s->duration_ns) {
			setting(b, "Duration", (double)s->duration_ns / 1e9, XB_DUR, "h:mm:ss");
		} else if (s->stop_known) {
			xb_str(b, b->row, 0, "Duration", 1);
			xb_str(b, b->row++, 1, "no limit", 0);
		}
		if (s->idle_ns)
			setting(b, "Idle after each", (double)s->idle_ns / 1e9, XB_DUR, "h:mm:ss");
	}
	if (isfinite(l->elapsed_s))
		setting(b, "Ran for", l->elapsed_s, XB_DUR, "h:mm:ss");
}

static void soak_lead_block(struct xb_book *b, const struct rep_doc *d,
			    const struct rep_soak_lead *l, lxw_format *word)
{
	static const char *const cols[] = { "Direction",  "Median (MiB/s)",
					    "p5 (MiB/s)", "p95 (MiB/s)",
					    "CV",	  "Trend" };
	xb_str(b, b->row, 0, "Source", 1);
	xb_str(b, b->row++, 1, d->name, 0);
	xb_str(b, b->row, 0, "Verdict", 1);
	worksheet_write_string(b->sheet, b->row, 1, l->word, word);
	xb_str(b, b->row++, 2, l->headline, 0);
	for (size_t i = 0; i < l->nwhy; i++) {
		if (!i)
			xb_str(b, b->row, 0, "Why", 1);
		xb_str(b, b->row++, 1, l->why[i].text, 0);
	}
	soak_settings(b, l);
	b->row++;
	for (size_t c = 0; c < SB_ARRAY_SIZE(cols); c++)
		xb_str(b, b->row, (lxw_col_t)c, cols[c], 1);
	b->row++;
	for (int k = 0; k < 2; k++) {
		const struct sb_stability *st = &l->an[k].m.st;
		if (!st->n)
			continue;
		xb_str(b, b->row, 0, k ? "read" : "write", 0);
		const double v[] = { st->median, st->p5, st->p95 };
		for (size_t c = 0; c < SB_ARRAY_SIZE(v); c++)
			xb_base(b, b->row, (lxw_col_t)(c + 1), v[c], XB_RATE);
		xb_num(b, b->row, 4, st->cv, XB_SHARE, 0);
		xb_num(b, b->row, 5, l->trend[k], XB_SHARE, 0);
		b->row++;
	}
	b->row++;
}

static void soak_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	struct rep_soak_lead *l = NULL;
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		any += !strcmp(docs[i]->command, "soak");
	if (!any || !(l = malloc(sizeof(*l))) || !xb_sheet(b, "Soak verdict", NULL, 0, 0, 0)) {
		free(l);
		return;
	}
	lxw_format *word = workbook_add_format(b->wb);
	format_set_bold(word);
	format_set_font_size(word, 14);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(docs[i]->command, "soak") && rep_soak_lead(docs[i], l) == 0)
			soak_lead_block(b, docs[i], l, word);
	/* the long lines (why, headline) run on over the empty cells beside
	 * them: column B need not be as wide as a sentence */
	b->width[1] = SB_MIN(b->width[1], 24.0);
	b->width[2] = SB_MIN(b->width[2], 16.0);
	free(l);
}

/* ---- Measurements ---- */
static void measurements_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "source", RM_SOURCE, XB_TEXT, 0 },
		{ "measurement", RM_JOB, XB_TEXT, 0 },
		{ "direction", RM_DIR, XB_TEXT, 0 },
		{ "pattern", RM_RW, XB_TEXT, 0 },
		{ "block size (bytes)", RM_BS_BYTES, XB_BYTES, 0 },
		{ "queue depth", RM_IODEPTH, XB_COUNT, 0 },
		{ "jobs", RM_NUMJOBS, XB_COUNT, 0 },
		{ "engine", RM_ENGINE, XB_TEXT, 0 },
		{ "direct", RM_DIRECT, XB_TEXT, 0 },
		{ "measured (s)", RM_RUNTIME, XB_SEC, 0 },
		{ "bandwidth (MiB/s)", RM_BW, XB_RATE, 0 },
		{ "IOPS", RM_IOPS, XB_IOPS, 0 },
		{ "mean latency (µs)", RM_LAT_MEAN, XB_US, 0 },
		{ "p50 (µs)", RM_P50, XB_US, 0 },
		{ "p99 (µs)", RM_P99, XB_US, 0 },
		{ "p99.9 (µs)", RM_P99_9, XB_US, 0 },
		{ "max latency (µs)", RM_LAT_MAX, XB_US, 0 },
		{ "errors", RM_ERRORS, XB_COUNT, 0 },
	};
	table_rows(b, REP_T_MEASUREMENTS, "Measurements", cols, SB_ARRAY_SIZE(cols), docs, n);
}

/* ---- Intervals: rows by job, direction, time, so each line is one range ---- */
static const struct column interval_cols[] = {
	{ "source", RI_SOURCE, XB_TEXT, 0 },
	{ "measurement", RI_JOB, XB_TEXT, 0 },
	{ "direction", RI_DIR, XB_TEXT, 0 },
	{ "start (s)", RI_T0, XB_SEC, 0 },
	{ "end (s)", RI_T1, XB_SEC, 0 },
	{ "bandwidth (MiB/s)", RI_BW, XB_RATE, 0 },
	{ "IOPS", RI_IOPS, XB_IOPS, 0 },
	{ "mean latency (µs)", RI_LAT_MEAN, XB_US, 0 },
	{ "p99 latency (µs)", RI_LAT_P99, XB_US, 0 },
};

struct range {
	const char *name;
	lxw_row_t first, last;
	int color;
};

/* The rows of one result, and a range per job and direction (the first MAX_LINES). */
struct interval_rows {
	struct xb_book *b;
	struct range rg[MAX_LINES];
	size_t nrg;
	const struct rep_job *job;
	int ddir, in_range;
};

static void interval_row(void *ctx, const struct rep_row *r)
{
	struct interval_rows *w = ctx;
	if (r->job != w->job || r->ddir != w->ddir) {
		const struct rep_doc *d = r->doc;
		w->job = r->job;
		w->ddir = r->ddir;
		w->in_range = w->nrg < MAX_LINES;
		if (w->in_range) {
			struct range *g = &w->rg[w->nrg];
			g->name = d->njobs == 1 ? sb_ddir_name(r->ddir) : r->job->name;
			g->first = w->b->row;
			g->color = d->njobs == 1 ? (r->ddir ? 5 : 0) : (int)w->nrg;
			w->nrg++;
		}
	}
	if (w->in_range)
		w->rg[w->nrg - 1].last = w->b->row;
	put_row(w->b, interval_cols, SB_ARRAY_SIZE(interval_cols), r);
}

static void intervals_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < docs[i]->njobs; k++)
			any += docs[i]->jobs[k].series.n;
	if (!any || !table_sheet(b, "Intervals", interval_cols, SB_ARRAY_SIZE(interval_cols)))
		return;
	lxw_row_t chart_at = 1;
	for (size_t i = 0; i < n; i++) {
		struct interval_rows w = { .b = b, .ddir = -1 };
		if (rep_rows(REP_T_INTERVALS, docs + i, 1, REP_ROWS_BY_SERIES, interval_row, &w) <
		    0)
			b->err = -EIO;
		char title[160];
		snprintf(title, sizeof(title), "Bandwidth over time: %s", docs[i]->name);
		lxw_chart *ch = w.nrg ? new_chart(b, LXW_CHART_SCATTER_STRAIGHT, title, "Time (s)",
						  "Bandwidth (MiB/s)")
				      : NULL;
		for (size_t r = 0; ch && r < w.nrg; r++) {
			lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
			lxw_chart_line line = { .color = colors[w.rg[r].color], .width = 2.25 };
			chart_series_set_categories(s, "Intervals", w.rg[r].first, 4, w.rg[r].last,
						    4);
			chart_series_set_values(s, "Intervals", w.rg[r].first, 5, w.rg[r].last, 5);
			chart_series_set_name(s, w.rg[r].name);
			chart_series_set_line(s, &line);
		}
		if (ch) {
			place(b, chart_at, SB_ARRAY_SIZE(interval_cols) + 1, ch);
			chart_at += 24;
		}
	}
}

static void percentiles_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "source", RP_SOURCE, XB_TEXT, 0 },  { "measurement", RP_JOB, XB_TEXT, 0 },
		{ "direction", RP_DIR, XB_TEXT, 0 },  { "latency kind", RP_LAT_KIND, XB_TEXT, 0 },
		{ "percentile", RP_PCT, XB_PCTL, 0 }, { "latency (µs)", RP_LAT, XB_US, 0 },
	};
	table_rows(b, REP_T_PERCENTILES, "Percentiles", cols, SB_ARRAY_SIZE(cols), docs, n);
}

/* ---- Iterations of a soak log, with a line chart of their throughput ---- */
static void iteration_chart(struct xb_book *b, const struct rep_doc *d, lxw_row_t first,
			    lxw_row_t last, lxw_row_t *at)
{
	char title[160];
	snprintf(title, sizeof(title), "Throughput per iteration: %s", d->name);
	lxw_chart *ch = new_chart(b, LXW_CHART_SCATTER_STRAIGHT_WITH_MARKERS, title, "Iteration",
				  "Bandwidth (MiB/s)");
	for (int k = 0; ch && k < 2; k++) {
		lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
		lxw_chart_line line = { .color = colors[k ? 0 : 5], .width = 2.25 };
		chart_series_set_categories(s, "Iterations", first, 1, last, 1);
		chart_series_set_values(s, "Iterations", first, 3 + (lxw_col_t)k, last,
					3 + (lxw_col_t)k);
		chart_series_set_name(s, k ? "read" : "write");
		chart_series_set_line(s, &line);
	}
	if (ch) {
		place(b, *at, 10, ch);
		*at += 24;
	}
}

/* A row per iteration: when it started, its figures, and what went wrong
 * (I/O errors, bad blocks, the kernel's messages) in the last column, so
 * the text runs on over the empty cells beside it. */
static void iterations_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	static const char *const cols[] = {
		"source",	"iteration",
		"start (UTC)",	"write (MiB/s)",
		"read (MiB/s)", "I/O errors",
		"bad blocks",	"kernel messages",
		"failed",	"errors and kernel messages",
	};
	char buf[512];
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		any += docs[i]->iters.n;
	if (!any || !xb_sheet(b, "Iterations", cols, SB_ARRAY_SIZE(cols), 1, 0))
		return;
	lxw_row_t chart_at = 1;
	for (size_t i = 0; i < n; i++) {
		const struct rep_iters *it = &docs[i]->iters;
		const lxw_row_t first = b->row;
		size_t ev = 0;
		for (size_t k = 0; k < it->n; k++) {
			str(b, 0, docs[i]->name);
			num(b, 1, it->x[k], XB_COUNT);
			xb_base(b, b->row, 2, it->start[k], XB_TIME);
			xb_base(b, b->row, 3, it->bw[0][k], XB_RATE);
			xb_base(b, b->row, 4, it->bw[1][k], XB_RATE);
			num(b, 5, it->errors[k], XB_COUNT);
			num(b, 6, it->bad[k], XB_COUNT);
			num(b, 7, it->kmsg[k], XB_COUNT);
			str(b, 8, it->flags[k] & REP_IT_FAILED ? "yes" : "no");
			while (ev < it->nev && it->ev[ev].i < k)
				ev++;
			if (ev < it->nev && it->ev[ev].i == k)
				worksheet_write_string(b->sheet, b->row, 9,
						       rep_event_text(it, &it->ev[ev], buf,
								      sizeof(buf)),
						       NULL);
			b->row++;
		}
		if (b->row > first)
			iteration_chart(b, docs[i], first, b->row - 1, &chart_at);
	}
	b->width[9] = 40; /* the last column: its sentences run on to the right */
}

/* ---- Sweep: a sheet per test laid out as iozone -Rb does: file sizes
 * down, record sizes across, KiB/s (kB/s with --units=si) in the cells,
 * coloured on one scale for the whole report (the HTML's heatmaps), and a
 * chart of each file size's line across the record sizes ---- */
struct sweep_scale {
	double lo, hi; /* the report's slowest and fastest cell, KiB/s */
};

static void sweep_sheet(struct xb_book *b, const struct rep_doc *d, int t, size_t ndocs,
			const struct sweep_scale *sc)
{
	const struct sb_sweep_result *r = &d->sweep->r;
	const int si = rep_units_si();
	const double mul = si ? 1.024 : 1; /* KiB/s to kB/s */
	char name[32], title[200];
	/* a sheet name: at most 31 characters, unique across the results */
	snprintf(name, sizeof(name), "%.*s%s%.20s", ndocs > 1 ? 8 : 0, d->name,
		 ndocs > 1 ? " " : "", sb_sweep_test_name(t));
	for (char *p = name; *p; p++)
		if (strchr("[]:*?/\\", *p))
			*p = '_';
	if (!r->nfile || !r->nrec || workbook_get_worksheet_by_name(b->wb, name) ||
	    !xb_sheet(b, name, NULL, 0, 2, 1))
		return;
	snprintf(title, sizeof(title),
		 "%s: %s by file size (down, KiB) and record size (across, KiB)",
		 sb_sweep_test_title(t), si ? "kB/s" : "KiB/s");
	xb_str(b, 0, 0, title, 1);
	b->width[0] = 0; /* the title runs on over the empty cells beside it */
	xb_str(b, 1, 0, "file \\ record", 1);
	for (unsigned j = 0; j < r->nrec; j++)
		xb_num(b, 1, (lxw_col_t)(j + 1), (double)r->record_sizes[j] / 1024, XB_KIB, 1);
	for (unsigned i = 0; i < r->nfile; i++) {
		xb_num(b, (lxw_row_t)(i + 2), 0, (double)r->file_sizes[i] / 1024, XB_KIB, 1);
		for (unsigned j = 0; j < r->nrec; j++)
			if (r->state[t][i][j] == SB_SWEEP_CELL_DONE)
				xb_num(b, (lxw_row_t)(i + 2), (lxw_col_t)(j + 1),
				       (double)r->kibps[t][i][j] * mul, XB_COUNT, 0);
	}
	const lxw_row_t last = (lxw_row_t)(r->nfile + 1);
	if (sc->hi > sc->lo) {
		/* the viridis ends and middle, as the HTML's heatmaps */
		lxw_conditional_format cf = {
			.type = LXW_CONDITIONAL_3_COLOR_SCALE,
			.min_rule_type = LXW_CONDITIONAL_RULE_TYPE_NUMBER,
			.min_value = sc->lo * mul,
			.min_color = 0x440154,
			.mid_rule_type = LXW_CONDITIONAL_RULE_TYPE_PERCENTILE,
			.mid_value = 50,
			.mid_color = 0x21918C,
			.max_rule_type = LXW_CONDITIONAL_RULE_TYPE_NUMBER,
			.max_value = sc->hi * mul,
			.max_color = 0xFDE725,
		};
		worksheet_conditional_format_range(b->sheet, 2, 1, last, (lxw_col_t)r->nrec, &cf);
	}
	snprintf(title, sizeof(title), "%s by record size", sb_sweep_test_title(t));
	/* a line chart: the record sizes evenly apart, labelled as the sheet */
	lxw_chart *ch = new_chart(b, LXW_CHART_LINE, title, "Record size (KiB)",
				  si ? "Throughput (kB/s)" : "Throughput (KiB/s)");
	for (unsigned i = 0; ch && i < r->nfile && i < MAX_LINES; i++) {
		char sname[48];
		lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
		lxw_chart_line line = { .color = colors[i], .width = 2.25 };
		snprintf(sname, sizeof(sname), "file %llu KiB",
			 (unsigned long long)(r->file_sizes[i] / 1024));
		chart_series_set_categories(s, name, 1, 1, 1, (lxw_col_t)r->nrec);
		chart_series_set_values(s, name, (lxw_row_t)(i + 2), 1, (lxw_row_t)(i + 2),
					(lxw_col_t)r->nrec);
		chart_series_set_name(s, sname);
		chart_series_set_line(s, &line);
	}
	if (ch) {
		chart_axis_set_num_format(ch->y_axis, "#,##0");
		place(b, last + 2, 0, ch);
	}
}

static void sweep_sheets(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	struct sweep_scale sc = { INFINITY, 0 };
	for (size_t i = 0; i < n; i++) {
		const struct sb_sweep_result *r = docs[i]->sweep ? &docs[i]->sweep->r : NULL;
		for (int t = 0; r && t < SB_SWEEP_NTESTS; t++)
			for (unsigned f = 0; docs[i]->sweep->o.tests & (1u << t) && f < r->nfile;
			     f++)
				for (unsigned j = 0; j < r->nrec; j++)
					if (r->state[t][f][j] == SB_SWEEP_CELL_DONE) {
						sc.lo = fmin(sc.lo, (double)r->kibps[t][f][j]);
						sc.hi = fmax(sc.hi, (double)r->kibps[t][f][j]);
					}
	}
	for (size_t i = 0; i < n; i++)
		for (int t = 0; docs[i]->sweep && t < SB_SWEEP_NTESTS; t++)
			if (docs[i]->sweep->o.tests & (1u << t))
				sweep_sheet(b, docs[i], t, n, &sc);
}

/* ---- PTS: a sheet per test: each round's tracked figure and the tracked
 * figure of every cell (columns R/W mix and block size), the window's
 * average under them, and the convergence chart ---- */
static double pts_value(const struct sb_pts_part *p, const struct sb_pts_fig *f, unsigned c)
{
	if (p->track != SB_PTS_M_WRITE_BW)
		return sb_pts_tracked(p->track, f);
	return p->cells[c].read_pct ? f->read_bw : f->write_bw;
}

/* The tracked metric's unit: IOPS, a rate (bytes/s), a latency (ns). */
static enum xb_fmt pts_fmt(const struct sb_pts_part *p)
{
	return p->track == SB_PTS_M_WRITE_BW   ? XB_RATE
	       : p->track == SB_PTS_M_LAT_MEAN ? XB_US
					       : XB_IOPS;
}

static void pts_row(struct xb_book *b, const struct sb_pts_part *p, const struct sb_pts_fig *row,
		    size_t n)
{
	for (size_t c = 0; row && c < n; c++)
		xb_base(b, b->row, (lxw_col_t)(c + 2), pts_value(p, &row[c], (unsigned)c),
			pts_fmt(p));
}

static void pts_sheet(struct xb_book *b, const struct rep_doc *d, unsigned i, size_t ndocs)
{
	char name[32], title[200], label[40];
	const struct sb_pts_part *p = &d->pts->r.parts[i];
	const struct sb_pts_doc_part *dp = &d->pts->parts[i];
	const struct sb_steady *ss = &p->ss;
	const size_t nc = SB_MIN((size_t)p->ncells, (size_t)200), nr = p->nrounds;
	const enum xb_fmt k = pts_fmt(p);
	static const char *const unit[XB_NFMT] = {
		[XB_RATE] = "MiB/s", [XB_US] = "µs", [XB_IOPS] = "IOPS"
	};
	snprintf(name, sizeof(name), "%.*s%spts %.20s", ndocs > 1 ? 6 : 0, d->name,
		 ndocs > 1 ? " " : "", p->name);
	for (char *c = name; *c; c++)
		if (strchr("[]:*?/\\", *c))
			*c = '_';
	if (!nr || workbook_get_worksheet_by_name(b->wb, name) || !xb_sheet(b, name, NULL, 0, 2, 1))
		return;
	const char *metric = sb_pts_metric_name(p->track);
	snprintf(title, sizeof(title), "%s: %s per round (%s); %s", p->name, metric, unit[k],
		 !dp->has_window ? "no steady state (WSAT)"
		 : ss->reached	 ? "steady state reached"
				 : "steady state NOT reached");
	xb_str(b, 0, 0, title, 1);
	b->width[0] = 0; /* the title runs on over the empty cells beside it */
	xb_str(b, 1, 0, "round", 1);
	xb_str(b, 1, 1, "tracked", 1);
	for (size_t c = 0; c < nc; c++) {
		const double r = p->cells[c].read_pct, bs = p->cells[c].bs;
		snprintf(label, sizeof(label), "%.0f/%.0f %gk", r, 100 - r, bs / 1024);
		xb_str(b, 1, (lxw_col_t)(c + 2), label, 1);
	}
	b->row = 2;
	for (size_t r = 0; r < nr; r++, b->row++) {
		num(b, 0, (double)(r + 1), XB_COUNT);
		xb_base(b, b->row, 1, p->tracked[r], k);
		pts_row(b, p, &p->fig[r * p->ncells], nc);
	}
	if (dp->has_window) {
		snprintf(label, sizeof(label), "window %u..%u", ss->first, ss->last);
		str(b, 0, label);
		xb_base(b, b->row, 1, ss->average, k);
		pts_row(b, p, dp->avg, dp->avg ? nc : 0);
		b->row++;
	}
	lxw_chart *ch = new_chart(b, LXW_CHART_SCATTER_STRAIGHT_WITH_MARKERS, "Convergence",
				  "Round", metric);
	if (ch) {
		lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
		chart_series_set_categories(s, name, 2, 0, (lxw_row_t)(nr + 1), 0);
		chart_series_set_values(s, name, 2, 1, (lxw_row_t)(nr + 1), 1);
		chart_series_set_name(s, "tracked");
		if (k == XB_IOPS)
			chart_axis_set_num_format(ch->y_axis, "#,##0");
		place(b, b->row + 1, 1, ch);
	}
}

static void pts_sheets(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (unsigned k = 0; docs[i]->pts && k < docs[i]->pts->r.nparts && k < 16; k++)
			pts_sheet(b, docs[i], k, n);
}

/* ---- Verify classes: blocks per class of verify, run --verify, soak and
 * spo (the CSV's verify table) ---- */
static void classes_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "source", RV_SOURCE, XB_TEXT, 0 },	    { "command", RV_COMMAND, XB_TEXT, 0 },
		{ "iteration", RV_ITERATION, XB_COUNT, 0 }, { "class", RV_CLASS, XB_TEXT, 0 },
		{ "blocks", RV_BLOCKS, XB_COUNT, 0 },	    { "MiB", RV_BYTES, XB_MIB, 0 },
		{ "share (%)", RV_SHARE, XB_PCT, 0 },
	};
	table_rows(b, REP_T_VERIFY, "Classes", cols, SB_ARRAY_SIZE(cols), docs, n);
}

/* ---- soak --workload=iozone: a row per iteration and cell (the CSV's
 * iozone table) ---- */
static void iozone_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "source", RZ_SOURCE, XB_TEXT, 0 },
		{ "command", RZ_COMMAND, XB_TEXT, 0 },
		{ "iteration", RZ_ITERATION, XB_COUNT, 0 },
		{ "test", RZ_TEST, XB_TEXT, 0 },
		{ "file size (KiB)", RZ_FILE, XB_KIB, 0 },
		{ "record size (KiB)", RZ_RECORD, XB_KIB, 0 },
		{ "throughput (KiB/s)", RZ_KIBPS, XB_COUNT, 0 },
	};
	table_rows(b, REP_T_IOZONE, "iozone cells", cols, SB_ARRAY_SIZE(cols), docs, n);
}

/* ---- spo --cycles: a row per cycle, the failing classes charted ---- */
static void cycles_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	const char *cols[3 + SB_SPO_NCLASS] = { "source", "cycle", "cut after (s)" };
	size_t any = 0;
	for (int k = 0; k < SB_SPO_NCLASS; k++)
		cols[3 + k] = sb_spo_class_name(k);
	for (size_t i = 0; i < n; i++)
		any += docs[i]->cycles ? docs[i]->cycles->n : 0;
	if (!any || !xb_sheet(b, "SPO cycles", cols, SB_ARRAY_SIZE(cols), 1, 0))
		return;
	lxw_row_t chart_at = 1;
	for (size_t i = 0; i < n; i++) {
		const struct rep_cycles *c = docs[i]->cycles;
		const lxw_row_t first = b->row;
		for (size_t k = 0; c && k < c->n; k++, b->row++) {
			str(b, 0, docs[i]->name);
			num(b, 1, c->x[k], XB_COUNT);
			num(b, 2, c->cut_s[k], XB_SEC);
			for (int x = 0; x < SB_SPO_NCLASS; x++)
				num(b, (lxw_col_t)(3 + x), c->blocks[x][k], XB_COUNT);
		}
		if (b->row == first)
			continue;
		lxw_chart *ch = new_chart(b, LXW_CHART_SCATTER, "Damaged and lost blocks per cycle",
					  "Cycle", "Blocks");
		for (int x = SB_SPO_LOST_ACKED; ch && x < SB_SPO_NCLASS; x++) {
			lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
			chart_series_set_categories(s, b->sheet_name, first, 1, b->row - 1, 1);
			chart_series_set_values(s, b->sheet_name, first, (lxw_col_t)(3 + x),
						b->row - 1, (lxw_col_t)(3 + x));
			chart_series_set_name(s, sb_spo_class_name(x));
		}
		if (ch) {
			place(b, chart_at, 4 + SB_SPO_NCLASS, ch);
			chart_at += 24;
		}
	}
}

/* ---- cliff: its series, steps and recoveries (the CSV table cliff), and
 * throughput against GiB written with the steps marked ---- */
static const struct column cliff_cols[] = {
	{ "source", RC_SOURCE, XB_TEXT, 0 },
	{ "row", RC_ROW, XB_TEXT, 0 },
	{ "index", RC_INDEX, XB_COUNT, 0 },
	{ "written (GiB)", RC_BYTES, XB_GIB, 0 },
	{ "bandwidth (MiB/s)", RC_BW, XB_RATE, 0 },
	{ "before (MiB/s)", RC_BEFORE_BW, XB_RATE, 0 },
	{ "after (MiB/s)", RC_AFTER_BW, XB_RATE, 0 },
	{ "idle (s)", RC_IDLE, XB_SEC, 0 },
	{ "recovered (MiB)", RC_RECOVERED, XB_MIB, 0 },
	{ "recovered share", RC_FRACTION, XB_SHARE, 0 },
};

struct cliff_rows {
	struct xb_book *b;
	lxw_row_t first[2], last[2]; /* series, steps (last: 0 none) */
};

static void cliff_row(void *ctx, const struct rep_row *r)
{
	struct cliff_rows *w = ctx;
	const char *kind = r->cell[RC_ROW].s;
	/* the drops: the cache's end and the steps after it, rows in a row */
	const int k = !strcmp(kind, "series")				? 0
		      : !strcmp(kind, "cache") || !strcmp(kind, "step") ? 1
									: -1;
	if (k >= 0) {
		if (!w->last[k])
			w->first[k] = w->b->row;
		w->last[k] = w->b->row;
	}
	put_row(w->b, cliff_cols, SB_ARRAY_SIZE(cliff_cols), r);
}

/* Many ranks (mpirun): a row per rank, job and direction. */
static void ranks_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "Source", RK_SOURCE, XB_TEXT, 0 },
		{ "Job", RK_JOB, XB_TEXT, 0 },
		{ "Rank", RK_RANK, XB_COUNT, 0 },
		{ "Host", RK_HOST, XB_TEXT, 0 },
		{ "Direction", RK_DIR, XB_TEXT, 0 },
		{ "Bytes", RK_IO_BYTES, XB_BYTES, 0 },
		{ "Bandwidth (MiB/s)", RK_BW, XB_RATE, 0 },
		{ "IOPS", RK_IOPS, XB_IOPS, 0 },
		{ "Start (s)", RK_START, XB_SEC, 0 },
		{ "End (s)", RK_END, XB_SEC, 0 },
		{ "Clock offset (s)", RK_OFFSET, XB_SEC, 0 },
	};
	table_rows(b, REP_T_RANKS, "Ranks", cols, SB_ARRAY_SIZE(cols), docs, n);
}

static void soak_ranks_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "Source", RSK_SOURCE, XB_TEXT, 0 },
		{ "Iteration", RSK_ITERATION, XB_COUNT, 0 },
		{ "Rank", RSK_RANK, XB_COUNT, 0 },
		{ "Host", RSK_HOST, XB_TEXT, 0 },
		{ "Write (MiB/s)", RSK_WRITE_BW, XB_RATE, 0 },
		{ "Read (MiB/s)", RSK_READ_BW, XB_RATE, 0 },
		{ "Written (MiB)", RSK_WRITE_BYTES, XB_MIB, 0 },
		{ "Checked (MiB)", RSK_CHECKED_BYTES, XB_MIB, 0 },
		{ "Start (s)", RSK_START, XB_SEC, 0 },
		{ "End (s)", RSK_END, XB_SEC, 0 },
		{ "Blocks checked", RSK_BLOCKS, XB_COUNT, 0 },
		{ "Blocks not intact", RSK_BAD, XB_COUNT, 0 },
		{ "I/O errors", RSK_IO_ERRORS, XB_COUNT, 0 },
		{ "Failed", RSK_FAILED, XB_TEXT, 0 },
	};
	table_rows(b, REP_T_SOAK_RANKS, "Soak ranks", cols, SB_ARRAY_SIZE(cols), docs, n);
}

static void meta_ranks_sheets(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "Source", RMK_SOURCE, XB_TEXT, 0 },
		{ "Test", RMK_TEST, XB_TEXT, 0 },
		{ "Rank", RMK_RANK, XB_COUNT, 0 },
		{ "Host", RMK_HOST, XB_TEXT, 0 },
		{ "Operations", RMK_OPS, XB_COUNT, 0 },
		{ "Bytes", RMK_BYTES, XB_BYTES, 0 },
		{ "Time (s)", RMK_ELAPSED, XB_SEC, 1e9 },
		{ "CPU (s)", RMK_CPU, XB_SEC, 1e9 },
		{ "Rate", RMK_RATE, XB_NUM, 0 },
		{ "Rate unit", RMK_UNIT, XB_TEXT, 0 },
		{ "Min latency (µs)", RMK_LAT_MIN, XB_US, 0 },
		{ "p50 (µs)", RMK_LAT_P50, XB_US, 0 },
		{ "p99 (µs)", RMK_LAT_P99, XB_US, 0 },
		{ "Max latency (µs)", RMK_LAT_MAX, XB_US, 0 },
		{ "Start (s)", RMK_START, XB_SEC, 0 },
		{ "End (s)", RMK_END, XB_SEC, 0 },
	};
	static const struct column skew[] = {
		{ "Source", RMS_SOURCE, XB_TEXT, 0 },
		{ "Test", RMS_TEST, XB_TEXT, 0 },
		{ "First start (s)", RMS_FIRST_START, XB_SEC, 0 },
		{ "Start spread (s)", RMS_START_SPREAD, XB_SEC, 0 },
		{ "End spread (s)", RMS_END_SPREAD, XB_SEC, 0 },
		{ "Span (s)", RMS_SPAN, XB_SEC, 0 },
		{ "Median rate", RMS_MEDIAN_RATE, XB_NUM, 0 },
		{ "Rate unit", RMS_UNIT, XB_TEXT, 0 },
		{ "Slowest rank", RMS_SLOWEST, XB_COUNT, 0 },
		{ "Slowest vs median", RMS_SLOWEST_VS, XB_RATIO, 0 },
		{ "Fastest rank", RMS_FASTEST, XB_COUNT, 0 },
		{ "Fastest vs median", RMS_FASTEST_VS, XB_RATIO, 0 },
	};
	table_rows(b, REP_T_META_RANKS, "Meta ranks", cols, SB_ARRAY_SIZE(cols), docs, n);
	table_rows(b, REP_T_META_SKEW, "Meta skew", skew, SB_ARRAY_SIZE(skew), docs, n);
}

static void verify_ranks_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "Source", RVK_SOURCE, XB_TEXT, 0 },
		{ "Command", RVK_COMMAND, XB_TEXT, 0 },
		{ "Rank", RVK_RANK, XB_COUNT, 0 },
		{ "Host", RVK_HOST, XB_TEXT, 0 },
		{ "Result", RVK_RESULT, XB_TEXT, 0 },
		{ "Blocks checked", RVK_BLOCKS, XB_COUNT, 0 },
		{ "Not intact", RVK_NOT_INTACT, XB_COUNT, 0 },
		{ "intact", RVK_CLASS0 + 0, XB_COUNT, 0 },
		{ "corrupted", RVK_CLASS0 + 1, XB_COUNT, 0 },
		{ "misplaced", RVK_CLASS0 + 2, XB_COUNT, 0 },
		{ "stale", RVK_CLASS0 + 3, XB_COUNT, 0 },
		{ "foreign", RVK_CLASS0 + 4, XB_COUNT, 0 },
		{ "unreadable", RVK_CLASS0 + 5, XB_COUNT, 0 },
		{ "newer", RVK_CLASS0 + 6, XB_COUNT, 0 },
		{ "missing", RVK_CLASS0 + 7, XB_COUNT, 0 },
		{ "Path", RVK_PATH, XB_TEXT, 0 },
	};
	table_rows(b, REP_T_VERIFY_RANKS, "Verify ranks", cols, SB_ARRAY_SIZE(cols), docs, n);
}

static void cliff_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	if (rep_rows(REP_T_CLIFF, docs, n, 0, NULL, NULL) <= 0 ||
	    !table_sheet(b, "Cliff", cliff_cols, SB_ARRAY_SIZE(cliff_cols)))
		return;
	lxw_row_t chart_at = 1;
	for (size_t i = 0; i < n; i++) {
		struct cliff_rows w = { .b = b };
		if (rep_rows(REP_T_CLIFF, docs + i, 1, 0, cliff_row, &w) < 0)
			b->err = -EIO;
		if (!w.last[0])
			continue;
		char title[160];
		snprintf(title, sizeof(title), "Write throughput against data written: %s",
			 docs[i]->name);
		lxw_chart *ch = new_chart(b, LXW_CHART_SCATTER_STRAIGHT, title, "Written (GiB)",
					  "Bandwidth (MiB/s)");
		if (!ch)
			continue;
		lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
		lxw_chart_line line = { .color = colors[0], .width = 2.25 };
		chart_series_set_categories(s, "Cliff", w.first[0], 3, w.last[0], 3);
		chart_series_set_values(s, "Cliff", w.first[0], 4, w.last[0], 4);
		chart_series_set_name(s, "throughput");
		chart_series_set_line(s, &line);
		if (w.last[1]) {
			/* the drops: the level after each, at the bytes written */
			lxw_chart_series *m = chart_add_series(ch, NULL, NULL);
			lxw_chart_line none = { .none = LXW_TRUE };
			lxw_chart_marker mk = { .type = LXW_CHART_MARKER_DIAMOND, .size = 9 };
			chart_series_set_categories(m, "Cliff", w.first[1], 3, w.last[1], 3);
			chart_series_set_values(m, "Cliff", w.first[1], 6, w.last[1], 6);
			chart_series_set_name(m, "drops (speed after)");
			chart_series_set_line(m, &none);
			chart_series_set_marker_type(m, mk.type);
			chart_series_set_marker_size(m, mk.size);
		}
		place(b, chart_at, SB_ARRAY_SIZE(cliff_cols) + 1, ch);
		chart_at += 24;
	}
}

/* ---- meta and bonnie: a row per test, its rate in its unit (MiB/s for
 * the I/O tests, files/s, seeks/s), operations, time and latencies (the
 * text's table; many ranks add Meta ranks and Meta skew) ---- */
static void meta_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	static const char *const cols[] = { "source",	  "test",     "rate",	  "unit",
					    "operations", "time (s)", "min (µs)", "p50 (µs)",
					    "p99 (µs)",	  "max (µs)" };
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		any += docs[i]->meta && docs[i]->meta->tests;
	if (!any || !xb_sheet(b, "Meta", cols, SB_ARRAY_SIZE(cols), 1, 0))
		return;
	for (size_t i = 0; i < n; i++) {
		const struct sb_meta_doc *m = docs[i]->meta;
		for (int t = 0; m && t < SB_META_NTESTS; t++) {
			const struct sb_meta_doc_test *x = &m->t[t];
			const int io = sb_meta_is_io((enum sb_meta_test)t);
			if (!(m->tests & (1u << t)))
				continue;
			str(b, 0, docs[i]->name);
			str(b, 1, sb_meta_test_name((enum sb_meta_test)t));
			if (io)
				xb_base(b, b->row, 2, x->rate, XB_RATE);
			else
				num(b, 2, x->rate, XB_NUM);
			str(b, 3, io ? "MiB/s" : rep_meta_unit(t));
			num(b, 4, (double)m->m.res[t].ops, XB_COUNT);
			num(b, 5, (double)m->m.res[t].elapsed_ns / 1e9, XB_SEC);
			xb_base(b, b->row, 6, (double)x->lat_min, XB_US);
			xb_base(b, b->row, 7, x->lat_pct[REP_META_P50], XB_US);
			xb_base(b, b->row, 8, x->lat_pct[REP_META_P99], XB_US);
			xb_base(b, b->row, 9, (double)x->lat_max, XB_US);
			b->row++;
		}
	}
}

/* ---- flash: what it found, then each block size's boundaries with the
 * extra time of a read across them, charted as the HTML does ---- */
static void flash_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	static const char *const cols[] = { "source",	   "block size (bytes)", "boundary (bytes)",
					    "before (µs)", "across (µs)",	 "after (µs)",
					    "diff (µs)" };
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		for (unsigned p = 0; docs[i]->flash && p < docs[i]->flash->r.nprofiles; p++)
			any += docs[i]->flash->r.profiles[p].nrows;
	if (!any || !xb_sheet(b, "Flash", cols, SB_ARRAY_SIZE(cols), 1, 0))
		return;
	lxw_row_t chart_at = 1;
	for (size_t i = 0; i < n; i++) {
		const struct sb_flash_doc *d = docs[i]->flash;
		struct range rg[MAX_LINES];
		size_t nrg = 0;
		for (unsigned p = 0; d && p < d->r.nprofiles; p++) {
			const struct sb_flash_profile *pr = &d->r.profiles[p];
			if (!pr->nrows)
				continue;
			if (nrg < MAX_LINES)
				rg[nrg++] = (struct range){ NULL, b->row, b->row + pr->nrows - 1,
							    0 };
			for (unsigned k = 0; k < pr->nrows; k++, b->row++) {
				const struct sb_flash_align_row *w = &pr->rows[k];
				str(b, 0, docs[i]->name);
				num(b, 1, (double)pr->bs, XB_BYTES);
				num(b, 2, (double)w->align, XB_BYTES);
				xb_base(b, b->row, 3, w->pre_ns, XB_US);
				xb_base(b, b->row, 4, w->on_ns, XB_US);
				xb_base(b, b->row, 5, w->post_ns, XB_US);
				xb_base(b, b->row, 6, w->diff_ns, XB_US);
			}
		}
		lxw_chart *ch = nrg ? new_chart(b, LXW_CHART_SCATTER_STRAIGHT_WITH_MARKERS,
						"Extra time of a read across each boundary (diff)",
						"Boundary (bytes)", "diff (µs)")
				    : NULL;
		for (size_t r = 0; ch && r < nrg; r++) {
			char sname[48];
			lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
			snprintf(sname, sizeof(sname), "bs %u",
				 d->r.profiles[r].bs); /* rows of profile r */
			chart_series_set_categories(s, "Flash", rg[r].first, 2, rg[r].last, 2);
			chart_series_set_values(s, "Flash", rg[r].first, 6, rg[r].last, 6);
			chart_series_set_name(s, sname);
		}
		if (ch) {
			chart_axis_set_log_base(ch->x_axis, 2);
			chart_axis_set_num_format(ch->x_axis, "#,##0");
			/* the labels under the chart, not on a diff of 0 */
			chart_axis_set_label_position(ch->x_axis,
						      LXW_CHART_AXIS_LABEL_POSITION_LOW);
			place(b, chart_at, SB_ARRAY_SIZE(cols) + 1, ch);
			chart_at += 24;
		}
	}
}

/* ---- The result of cliff, flash, spo and pts first, as a soak's verdict:
 * what was found in a word and a sentence, its figures as numbers in their
 * unit, what it means ---- */
struct lead {
	struct xb_book *b;
	lxw_format *word;
	double wordw; /* the widest word, in 14 points */
};

static void lead_word(struct lead *w, const struct rep_doc *d, const char *word, const char *line)
{
	struct xb_book *b = w->b;
	xb_str(b, b->row, 0, "Source", 1);
	xb_str(b, b->row++, 1, d->name, 0);
	xb_str(b, b->row, 0, "Command", 1);
	xb_str(b, b->row++, 1, d->command, 0);
	xb_str(b, b->row, 0, "Result", 1);
	worksheet_write_string(b->sheet, b->row, 1, word, w->word);
	w->wordw = SB_MAX(w->wordw, 1.4 * (double)strlen(word));
	if (line)
		xb_str(b, b->row, 2, line, 0);
	b->row++;
}

static void lead_line(struct xb_book *b, const char *name, const char *text)
{
	xb_str(b, b->row, 0, name, 1);
	xb_str(b, b->row++, 1, text, 0);
}

static void cliff_lead(struct lead *w, const struct rep_doc *d)
{
	struct xb_book *b = w->b;
	const struct sb_cliff_find *fd = &d->cliff->r.find;
	char line[160], a[32];
	if (fd->found)
		snprintf(line, sizeof(line), "a write cache of %s, then %zu step%s down",
			 sb_fmt_size(fd->cache_bytes, a, sizeof(a)), fd->nsteps,
			 fd->nsteps == 1 ? "" : "s");
	else
		snprintf(line, sizeof(line), "no drop over %s written",
			 sb_fmt_size(fd->total_bytes, a, sizeof(a)));
	lead_word(w, d, fd->found ? "CACHE FOUND" : "NO DROP", line);
	setting(b, "Written", (double)fd->total_bytes, XB_BYTES, "bytes");
	setting(b, "Average", fd->avg_bw, XB_RATE, "MiB/s");
	if (fd->found) {
		setting(b, "Cache", (double)fd->cache_bytes, XB_BYTES, "bytes");
		setting(b, "Before the drop", fd->before_bw, XB_RATE, "MiB/s");
		setting(b, "After the drop", fd->after_bw, XB_RATE, "MiB/s");
	}
	if (d->cliff->r.stop_reason[0])
		lead_line(b, "Stopped", d->cliff->r.stop_reason);
}

static void flash_finding(struct xb_book *b, const char *name, const struct sb_flash_finding *v)
{
	char conf[48];
	if (!v->found || !v->bytes) {
		lead_line(b, name, "none found");
		return;
	}
	snprintf(conf, sizeof(conf), "bytes (confidence %s)", sb_flash_conf_name(v->conf));
	setting(b, name, (double)v->bytes, XB_BYTES, conf);
}

static void flash_lead(struct lead *w, const struct rep_doc *d)
{
	const struct sb_flash_doc *f = d->flash;
	lead_word(w, d,
		  f->boundary_effect < 0 ? "NO DECISION"
		  : f->boundary_effect	 ? "BOUNDARIES FOUND"
					 : "NO BOUNDARY EFFECT",
		  NULL);
	flash_finding(w->b, "Erase block", &f->erase);
	flash_finding(w->b, "Page", &f->page);
	for (unsigned i = 0; i < f->nmeaning; i++)
		lead_line(w->b, i ? "" : "Means", f->meaning[i]);
}

static void spo_lead(struct lead *w, const struct rep_doc *d)
{
	struct xb_book *b = w->b;
	const struct sb_spo_check *c = &d->spo->c;
	lead_word(w, d, c->pass ? "PASS" : "FAIL", NULL);
	setting(b, "Writes journaled", (double)c->writes, XB_COUNT, NULL);
	setting(b, "Acknowledged", (double)c->acked, XB_COUNT, NULL);
	setting(b, "Blocks checked", (double)c->blocks, XB_COUNT, NULL);
	for (int k = 0; k < SB_SPO_NCLASS; k++)
		setting(b, sb_spo_class_name(k), (double)c->count[k], XB_COUNT, "blocks");
	for (unsigned i = 0; i < c->nrec; i++)
		lead_line(b, i ? "" : "Recommended", c->rec[i]);
}

static void pts_lead(struct lead *w, const struct rep_doc *d)
{
	struct xb_book *b = w->b;
	const struct sb_pts_doc *p = d->pts;
	unsigned reached = 0, windows = 0;
	char line[96];
	for (unsigned i = 0; i < p->r.nparts; i++) {
		windows += p->parts[i].has_window;
		reached += p->parts[i].has_window && p->r.parts[i].ss.reached;
	}
	snprintf(line, sizeof(line), "steady state reached in %u of %u tests%s", reached, windows,
		 p->pts_result ? "" : "; with deviations, not a PTS result");
	lead_word(w, d, reached == windows ? "STEADY" : "NOT STEADY", line);
	for (unsigned i = 0; i < p->r.nparts; i++) {
		const struct sb_pts_part *t = &p->r.parts[i];
		static const char *const unit[XB_NFMT] = {
			[XB_RATE] = "MiB/s", [XB_US] = "µs", [XB_IOPS] = "IOPS"
		};
		if (!p->parts[i].has_window) {
			lead_line(b, t->name, "no steady state window");
			continue;
		}
		snprintf(line, sizeof(line), "%s, %s, window average", unit[pts_fmt(t)],
			 t->ss.reached ? "steady" : "NOT steady");
		setting(b, t->name, t->ss.average, pts_fmt(t), line);
	}
}

static void result_sheet(struct xb_book *b, struct rep_doc *const *docs, size_t n)
{
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		any += docs[i]->cliff || docs[i]->flash || docs[i]->spo || docs[i]->pts;
	if (!any || !xb_sheet(b, "Result", NULL, 0, 0, 0))
		return;
	struct lead w = { b, workbook_add_format(b->wb), 0 };
	format_set_bold(w.word);
	format_set_font_size(w.word, 14);
	for (size_t i = 0; i < n; i++) {
		const struct rep_doc *d = docs[i];
		if (d->cliff)
			cliff_lead(&w, d);
		else if (d->flash)
			flash_lead(&w, d);
		else if (d->spo)
			spo_lead(&w, d);
		else if (d->pts)
			pts_lead(&w, d);
		else
			continue;
		b->row++;
	}
	/* the sentences run on over the empty cells beside them */
	b->width[1] = SB_MAX(SB_MIN(b->width[1], 24.0), w.wordw);
	b->width[2] = SB_MIN(b->width[2], 30.0);
}

int rep_xlsx(const char *path, struct rep_doc *const *docs, size_t n, char **why)
{
	return rep_plan_xlsx(path, NULL, docs, n, why);
}

int rep_plan_xlsx(const char *path, const struct rep_plan *p, struct rep_doc *const *docs, size_t n,
		  char **why)
{
	struct xb_book b;
	*why = NULL;
	/* rows go to the file as they are written, so a day of iterations
	 * costs a row of memory, not the sheet */
	if (xb_open(&b, path) < 0)
		return rep_fail(why, -EIO, "cannot write '%s'", path);
	/* the first sheet says what the result is (a soak's verdict, quick's
	 * summary, the method's own table), the measurements under it after */
	if (p)
		xb_plan_sheet(&b, p); /* a plan's verdict and criteria first */
	soak_sheet(&b, docs, n);
	result_sheet(&b, docs, n);
	summary_sheet(&b, docs, n);
	sweep_sheets(&b, docs, n);
	pts_sheets(&b, docs, n);
	cliff_sheet(&b, docs, n);
	flash_sheet(&b, docs, n);
	meta_sheet(&b, docs, n);
	cycles_sheet(&b, docs, n);
	iterations_sheet(&b, docs, n);
	classes_sheet(&b, docs, n);
	iozone_sheet(&b, docs, n);
	measurements_sheet(&b, docs, n);
	intervals_sheet(&b, docs, n);
	percentiles_sheet(&b, docs, n);
	ranks_sheet(&b, docs, n);
	soak_ranks_sheet(&b, docs, n);
	meta_ranks_sheets(&b, docs, n);
	verify_ranks_sheet(&b, docs, n);
	lxw_error e = xb_close(&b);
	for (size_t i = 0; b.err && i < n; i++)
		if (docs[i]->src->err)
			return rep_fail(why, -EIO, "%s", docs[i]->src->why);
	if (e != LXW_NO_ERROR)
		return rep_fail(why, -EIO, "cannot write '%s': %s", path, lxw_strerror(e));
	return 0;
}
#endif
