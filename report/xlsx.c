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
	(void)docs;
	(void)n;
	return rep_fail(why, -ENOTSUP,
			"--output: '%s': this storbench was built without XLSX "
			"support (libxlsxwriter); use .html or .csv",
			path);
}
#else
#include <math.h>
#include <xlsxwriter.h>

#define MIB 1048576.0
#define MAX_LINES 8
/* the HTML charts' colours (Okabe-Ito): read, write, and by job */
static const lxw_color_t colors[] = { 0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7,
				      0x56B4E9, 0xD55E00, 0x000000, 0xF0E442 };

struct book {
	lxw_workbook *wb;
	lxw_format *bold;
	lxw_worksheet *sheet;
	const char *sheet_name;
	lxw_row_t row;
	int err; /* a result could not be read again */
};

int rep_xlsx_available(void)
{
	return 1;
}

static lxw_worksheet *sheet(struct book *b, const char *name, const char *const *cols, size_t n)
{
	b->sheet = workbook_add_worksheet(b->wb, name);
	b->sheet_name = name;
	b->row = 1;
	for (size_t i = 0; b->sheet && i < n; i++)
		worksheet_write_string(b->sheet, 0, (lxw_col_t)i, cols[i], b->bold);
	if (b->sheet) {
		worksheet_set_column(b->sheet, 0, 1, 22, NULL);
		worksheet_set_column(b->sheet, 2, (lxw_col_t)(n ? n - 1 : 0), 13, NULL);
		worksheet_freeze_panes(b->sheet, 1, 0);
	}
	return b->sheet;
}

static void str(struct book *b, lxw_col_t c, const char *s)
{
	worksheet_write_string(b->sheet, b->row, c, s ? s : "", NULL);
}

static void num(struct book *b, lxw_col_t c, double v)
{
	if (isfinite(v))
		worksheet_write_number(b->sheet, b->row, c, v, NULL);
}

/* A column of a table's sheet: a cell of its rows (report/rows.h), divided
 * into the unit its title names. */
struct column {
	const char *title;
	int cell;
	double div;
};

static lxw_worksheet *table_sheet(struct book *b, const char *name, const struct column *cols,
				  size_t n)
{
	const char *titles[REP_ROW_MAX];
	n = SB_MIN(n, SB_ARRAY_SIZE(titles));
	for (size_t i = 0; i < n; i++)
		titles[i] = cols[i].title;
	return sheet(b, name, titles, n);
}

/* A row of a table as the next row of the sheet, cell by cell in the
 * sheet's order (the order strings are first written in is the workbook's). */
static void put_row(struct book *b, const struct column *cols, size_t n, const struct rep_row *r)
{
	for (size_t i = 0; i < n; i++) {
		const struct rep_cell *c = &r->cell[cols[i].cell];
		lxw_col_t x = (lxw_col_t)i;
		switch (c->kind) {
		case REP_CELL_STR: str(b, x, c->s); break;
		case REP_CELL_NUM:
		case REP_CELL_WHOLE: num(b, x, c->d / cols[i].div); break;
		case REP_CELL_INT: num(b, x, (double)c->u / cols[i].div); break;
		case REP_CELL_FLAG: str(b, x, c->flag < 0 ? "" : c->flag ? "yes" : "no"); break;
		case REP_CELL_EMPTY: break;
		}
	}
	b->row++;
}

struct table_rows {
	struct book *b;
	const struct column *cols;
	size_t n;
};

static void table_row(void *ctx, const struct rep_row *r)
{
	const struct table_rows *t = ctx;
	put_row(t->b, t->cols, t->n, r);
}

/* A sheet of table t with these columns: its rows over docs. */
static void table_rows(struct book *b, enum rep_table t, const struct column *cols, size_t n,
		       struct rep_doc *const *docs, size_t ndocs)
{
	struct table_rows ctx = { b, cols, n };
	if (rep_rows(t, docs, ndocs, 0, table_row, &ctx) < 0)
		b->err = -EIO;
}

static lxw_chart *new_chart(struct book *b, uint8_t type, const char *title, const char *x,
			    const char *y)
{
	lxw_chart *ch = workbook_add_chart(b->wb, type);
	if (!ch)
		return NULL;
	chart_title_set_name(ch, title);
	chart_axis_set_name(ch->x_axis, x);
	chart_axis_set_name(ch->y_axis, y);
	return ch;
}

static void place(struct book *b, lxw_row_t row, lxw_col_t col, lxw_chart *ch)
{
	lxw_chart_options o = { .x_scale = 1.6, .y_scale = 1.4 };
	worksheet_insert_chart_opt(b->sheet, row, col, ch, &o);
}

/* ---- Summary: the table, then per quick result a pivot and its chart ---- */
static void summary_chart(struct book *b, const struct rep_doc *d, lxw_col_t col, lxw_row_t *at)
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
	worksheet_write_string(b->sheet, top, col, d->name, b->bold);
	worksheet_write_string(b->sheet, top, col + 1, "read (MiB/s)", b->bold);
	worksheet_write_string(b->sheet, top, col + 2, "write (MiB/s)", b->bold);
	for (size_t t = 0; t < nt; t++) {
		worksheet_write_string(b->sheet, top + 1 + (lxw_row_t)t, col, tests[t], NULL);
		for (size_t i = 0; i < d->nsummary; i++)
			if (!strcmp(d->summary[i].test, tests[t]) &&
			    d->summary[i].ddir <= SB_DDIR_WRITE)
				worksheet_write_number(b->sheet, top + 1 + (lxw_row_t)t,
						       col + 1 + (lxw_col_t)d->summary[i].ddir,
						       d->summary[i].bw_median / MIB, NULL);
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

static void summary_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "source", RS_SOURCE, 1 },
		{ "test", RS_TEST, 1 },
		{ "direction", RS_DIR, 1 },
		{ "runs", RS_RUNS, 1 },
		{ "bandwidth median (MiB/s)", RS_BW_MED, MIB },
		{ "bandwidth min (MiB/s)", RS_BW_MIN, MIB },
		{ "bandwidth max (MiB/s)", RS_BW_MAX, MIB },
		{ "IOPS median", RS_IOPS_MED, 1 },
		{ "IOPS min", RS_IOPS_MIN, 1 },
		{ "IOPS max", RS_IOPS_MAX, 1 },
		{ "mean latency median (µs)", RS_LAT_MEAN_MED, 1e3 },
		{ "p99 latency median (µs)", RS_LAT_P99_MED, 1e3 },
	};
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		any += docs[i]->nsummary;
	if (!any || !table_sheet(b, "Summary", cols, SB_ARRAY_SIZE(cols)))
		return;
	table_rows(b, REP_T_SUMMARY, cols, SB_ARRAY_SIZE(cols), docs, n);
	/* below the table: the workbook is written row by row (constant memory) */
	lxw_row_t at = b->row + 1;
	for (size_t i = 0; i < n; i++)
		summary_chart(b, docs[i], 0, &at);
}

/* ---- A soak's verdict, why, settings and statistics: the first sheet
 * (report/soak_lead.c, as the HTML's first screen) ---- */
static void soak_lead_block(struct book *b, const struct rep_doc *d, const struct rep_soak_lead *l,
			    lxw_format *word, lxw_format *mib, lxw_format *pct)
{
	static const char *const cols[] = { "Direction", "Median (MiB/s)", "p5 (MiB/s)",
					    "p95 (MiB/s)", "CV", "Trend" };
	const char *kv[12][2];
	char buf[12][64];
	lxw_worksheet *w = b->sheet;
	worksheet_write_string(w, b->row, 0, "Source", b->bold);
	worksheet_write_string(w, b->row++, 1, d->name, NULL);
	worksheet_write_string(w, b->row, 0, "Verdict", b->bold);
	worksheet_write_string(w, b->row, 1, l->word, word);
	worksheet_write_string(w, b->row++, 2, l->headline, NULL);
	for (size_t i = 0; i < l->nwhy; i++) {
		if (!i)
			worksheet_write_string(w, b->row, 0, "Why", b->bold);
		worksheet_write_string(w, b->row++, 1, l->why[i].text, NULL);
	}
	const size_t n = rep_soak_settings_kv(l, kv, buf, SB_ARRAY_SIZE(kv));
	for (size_t i = 0; i < n; i++) {
		worksheet_write_string(w, b->row, 0, kv[i][0], b->bold);
		worksheet_write_string(w, b->row++, 1, kv[i][1], NULL);
	}
	b->row++;
	for (size_t c = 0; c < SB_ARRAY_SIZE(cols); c++)
		worksheet_write_string(w, b->row, (lxw_col_t)c, cols[c], b->bold);
	b->row++;
	for (int k = 0; k < 2; k++) {
		const struct sb_stability *st = &l->an[k].m.st;
		if (!st->n)
			continue;
		worksheet_write_string(w, b->row, 0, k ? "read" : "write", NULL);
		const double v[] = { st->median / MIB, st->p5 / MIB, st->p95 / MIB, st->cv,
				     l->trend[k] };
		for (size_t c = 0; c < SB_ARRAY_SIZE(v); c++)
			if (isfinite(v[c]))
				worksheet_write_number(w, b->row, (lxw_col_t)(c + 1), v[c],
						       c < 3 ? mib : pct);
		b->row++;
	}
	b->row++;
}

static void soak_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
{
	struct rep_soak_lead *l = NULL;
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		any += !strcmp(docs[i]->command, "soak");
	if (!any || !(l = malloc(sizeof(*l))) ||
	    !(b->sheet = workbook_add_worksheet(b->wb, "Soak verdict"))) {
		free(l);
		return;
	}
	b->sheet_name = "Soak verdict";
	lxw_format *word = workbook_add_format(b->wb), *mib = workbook_add_format(b->wb),
		   *pct = workbook_add_format(b->wb);
	format_set_bold(word);
	format_set_font_size(word, 14);
	format_set_num_format(mib, "#,##0.0");
	format_set_num_format(pct, "0.0%");
	worksheet_set_column(b->sheet, 0, 0, 20, NULL);
	worksheet_set_column(b->sheet, 1, 5, 15, NULL);
	b->row = 0;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(docs[i]->command, "soak") && rep_soak_lead(docs[i], l) == 0)
			soak_lead_block(b, docs[i], l, word, mib, pct);
	free(l);
}

/* ---- Measurements ---- */
static void measurements_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "source", RM_SOURCE, 1 },
		{ "measurement", RM_JOB, 1 },
		{ "direction", RM_DIR, 1 },
		{ "pattern", RM_RW, 1 },
		{ "block size", RM_BS, 1 },
		{ "queue depth", RM_IODEPTH, 1 },
		{ "jobs", RM_NUMJOBS, 1 },
		{ "engine", RM_ENGINE, 1 },
		{ "direct", RM_DIRECT, 1 },
		{ "measured (s)", RM_RUNTIME, 1 },
		{ "bandwidth (MiB/s)", RM_BW, MIB },
		{ "IOPS", RM_IOPS, 1 },
		{ "mean latency (µs)", RM_LAT_MEAN, 1e3 },
		{ "p50 (µs)", RM_P50, 1e3 },
		{ "p99 (µs)", RM_P99, 1e3 },
		{ "p99.9 (µs)", RM_P99_9, 1e3 },
		{ "max latency (µs)", RM_LAT_MAX, 1e3 },
		{ "errors", RM_ERRORS, 1 },
	};
	if (table_sheet(b, "Measurements", cols, SB_ARRAY_SIZE(cols)))
		table_rows(b, REP_T_MEASUREMENTS, cols, SB_ARRAY_SIZE(cols), docs, n);
}

/* ---- Intervals: rows by job, direction, time, so each line is one range ---- */
static const struct column interval_cols[] = {
	{ "source", RI_SOURCE, 1 },
	{ "measurement", RI_JOB, 1 },
	{ "direction", RI_DIR, 1 },
	{ "start (s)", RI_T0, 1 },
	{ "end (s)", RI_T1, 1 },
	{ "bandwidth (MiB/s)", RI_BW, MIB },
	{ "IOPS", RI_IOPS, 1 },
	{ "mean latency (µs)", RI_LAT_MEAN, 1e3 },
	{ "p99 latency (µs)", RI_LAT_P99, 1e3 },
};

struct range {
	const char *name;
	lxw_row_t first, last;
	int color;
};

/* The rows of one result, and a range per job and direction (the first MAX_LINES). */
struct interval_rows {
	struct book *b;
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

static void intervals_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
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

static void percentiles_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "source", RP_SOURCE, 1 },  { "measurement", RP_JOB, 1 },
		{ "direction", RP_DIR, 1 },  { "latency kind", RP_LAT_KIND, 1 },
		{ "percentile", RP_PCT, 1 }, { "latency (µs)", RP_LAT, 1e3 },
	};
	if (table_sheet(b, "Percentiles", cols, SB_ARRAY_SIZE(cols)))
		table_rows(b, REP_T_PERCENTILES, cols, SB_ARRAY_SIZE(cols), docs, n);
}

/* ---- Iterations of a soak log, with a line chart of their throughput ---- */
static void iteration_chart(struct book *b, const struct rep_doc *d, lxw_row_t first,
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
		chart_series_set_values(s, "Iterations", first, 2 + (lxw_col_t)k, last,
					2 + (lxw_col_t)k);
		chart_series_set_name(s, k ? "read" : "write");
		chart_series_set_line(s, &line);
	}
	if (ch) {
		place(b, *at, 7, ch);
		*at += 24;
	}
}

static void iterations_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
{
	static const char *const cols[] = { "source",	    "iteration",  "write (MiB/s)",
					    "read (MiB/s)", "I/O errors", "failed" };
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		any += docs[i]->iters.n;
	if (!any || !sheet(b, "Iterations", cols, SB_ARRAY_SIZE(cols)))
		return;
	lxw_row_t chart_at = 1;
	for (size_t i = 0; i < n; i++) {
		const struct rep_iters *it = &docs[i]->iters;
		lxw_row_t first = b->row;
		for (size_t k = 0; k < it->n; k++) {
			str(b, 0, docs[i]->name);
			num(b, 1, it->x[k]);
			num(b, 2, it->bw[0][k] / MIB);
			num(b, 3, it->bw[1][k] / MIB);
			num(b, 4, it->errors[k]);
			str(b, 5, it->flags[k] & REP_IT_FAILED ? "yes" : "no");
			b->row++;
		}
		if (b->row > first)
			iteration_chart(b, docs[i], first, b->row - 1, &chart_at);
	}
}

/* ---- Sweep: a sheet per test laid out as iozone -Rb does: file sizes
 * down, record sizes across, KiB/s in the cells ---- */
static void sweep_sheet(struct book *b, const struct rep_doc *d, int t, size_t ndocs)
{
	const struct sb_sweep_result *r = &d->sweep->r;
	char name[32];
	/* a sheet name: at most 31 characters, unique across the results */
	snprintf(name, sizeof(name), "%.*s%s%.20s", ndocs > 1 ? 8 : 0, d->name,
		 ndocs > 1 ? " " : "", sb_sweep_test_name(t));
	for (char *p = name; *p; p++)
		if (strchr("[]:*?/\\", *p))
			*p = '_';
	if (workbook_get_worksheet_by_name(b->wb, name) ||
	    !(b->sheet = workbook_add_worksheet(b->wb, name)))
		return;
	worksheet_write_string(b->sheet, 0, 0, sb_sweep_test_title(t), b->bold);
	worksheet_write_string(b->sheet, 1, 0, "file size (KiB) \\ record size (KiB), KiB/s",
			       b->bold);
	worksheet_set_column(b->sheet, 0, 0, 40, NULL);
	for (unsigned j = 0; j < r->nrec; j++)
		worksheet_write_number(b->sheet, 1, (lxw_col_t)(j + 1),
				       (double)r->record_sizes[j] / 1024, b->bold);
	for (unsigned i = 0; i < r->nfile; i++) {
		worksheet_write_number(b->sheet, (lxw_row_t)(i + 2), 0,
				       (double)r->file_sizes[i] / 1024, b->bold);
		for (unsigned j = 0; j < r->nrec; j++)
			if (r->state[t][i][j] == SB_SWEEP_CELL_DONE)
				worksheet_write_number(b->sheet, (lxw_row_t)(i + 2),
						       (lxw_col_t)(j + 1),
						       (double)r->kibps[t][i][j], NULL);
	}
}

static void sweep_sheets(struct book *b, struct rep_doc *const *docs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (int t = 0; docs[i]->sweep && t < SB_SWEEP_NTESTS; t++)
			if (docs[i]->sweep->o.tests & (1u << t))
				sweep_sheet(b, docs[i], t, n);
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

static void pts_row(struct book *b, const struct sb_pts_part *p, const struct sb_pts_fig *row,
		    size_t n)
{
	for (size_t c = 0; c < n; c++)
		num(b, (lxw_col_t)(c + 2), row ? pts_value(p, &row[c], (unsigned)c) : NAN);
}

static void pts_sheet(struct book *b, const struct rep_doc *d, unsigned i, size_t ndocs)
{
	char name[32], title[160], label[40];
	const struct sb_pts_part *p = &d->pts->r.parts[i];
	const struct sb_pts_doc_part *dp = &d->pts->parts[i];
	const struct sb_steady *ss = &p->ss;
	const size_t nc = SB_MIN((size_t)p->ncells, (size_t)200), nr = p->nrounds;
	snprintf(name, sizeof(name), "%.*s%spts %.20s", ndocs > 1 ? 6 : 0, d->name,
		 ndocs > 1 ? " " : "", p->name);
	for (char *c = name; *c; c++)
		if (strchr("[]:*?/\\", *c))
			*c = '_';
	if (!nr || workbook_get_worksheet_by_name(b->wb, name) ||
	    !(b->sheet = workbook_add_worksheet(b->wb, name)))
		return;
	const char *metric = sb_pts_metric_name(p->track);
	snprintf(title, sizeof(title), "%s: %s per round (bytes/s, ns or IOPS as named); %s",
		 p->name, metric,
		 !dp->has_window ? "no steady state (WSAT)"
		 : ss->reached	 ? "steady state reached"
				 : "steady state NOT reached");
	worksheet_write_string(b->sheet, 0, 0, title, b->bold);
	worksheet_write_string(b->sheet, 1, 0, "round", b->bold);
	worksheet_write_string(b->sheet, 1, 1, "tracked", b->bold);
	for (size_t c = 0; c < nc; c++) {
		const double r = p->cells[c].read_pct, bs = p->cells[c].bs;
		snprintf(label, sizeof(label), "%.0f/%.0f %gk", r, 100 - r, bs / 1024);
		worksheet_write_string(b->sheet, 1, (lxw_col_t)(c + 2), label, b->bold);
	}
	b->row = 2;
	for (size_t k = 0; k < nr; k++, b->row++) {
		num(b, 0, (double)(k + 1));
		num(b, 1, p->tracked[k]);
		pts_row(b, p, &p->fig[k * p->ncells], nc);
	}
	if (dp->has_window) {
		snprintf(label, sizeof(label), "window %u..%u", ss->first, ss->last);
		str(b, 0, label);
		num(b, 1, ss->average);
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
		place(b, b->row + 1, 1, ch);
	}
}

static void pts_sheets(struct book *b, struct rep_doc *const *docs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (unsigned k = 0; docs[i]->pts && k < docs[i]->pts->r.nparts && k < 16; k++)
			pts_sheet(b, docs[i], k, n);
}

/* ---- Verify classes: blocks per class of verify, run --verify, soak and
 * spo (the CSV's verify table) ---- */
static void classes_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "source", RV_SOURCE, 1 },	  { "command", RV_COMMAND, 1 },
		{ "iteration", RV_ITERATION, 1 }, { "class", RV_CLASS, 1 },
		{ "blocks", RV_BLOCKS, 1 },	  { "MiB", RV_BYTES, MIB },
		{ "share (%)", RV_SHARE, 1 },
	};
	long rows = rep_rows(REP_T_VERIFY, docs, n, 0, NULL, NULL);
	if (rows < 0)
		b->err = -EIO;
	else if (rows > 0 && table_sheet(b, "Classes", cols, SB_ARRAY_SIZE(cols)))
		table_rows(b, REP_T_VERIFY, cols, SB_ARRAY_SIZE(cols), docs, n);
}

/* ---- soak --workload=iozone: a row per iteration and cell (the CSV's
 * iozone table) ---- */
static void iozone_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "source", RZ_SOURCE, 1 },
		{ "command", RZ_COMMAND, 1 },
		{ "iteration", RZ_ITERATION, 1 },
		{ "test", RZ_TEST, 1 },
		{ "file size (KiB)", RZ_FILE, 1024 },
		{ "record size (KiB)", RZ_RECORD, 1024 },
		{ "throughput (KiB/s)", RZ_KIBPS, 1 },
	};
	long rows = rep_rows(REP_T_IOZONE, docs, n, 0, NULL, NULL);
	if (rows < 0)
		b->err = -EIO;
	else if (rows > 0 && table_sheet(b, "iozone cells", cols, SB_ARRAY_SIZE(cols)))
		table_rows(b, REP_T_IOZONE, cols, SB_ARRAY_SIZE(cols), docs, n);
}

/* ---- spo --cycles: a row per cycle, the failing classes charted ---- */
static void cycles_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
{
	const char *cols[3 + SB_SPO_NCLASS] = { "source", "cycle", "cut after (s)" };
	size_t any = 0;
	for (int k = 0; k < SB_SPO_NCLASS; k++)
		cols[3 + k] = sb_spo_class_name(k);
	for (size_t i = 0; i < n; i++)
		any += docs[i]->cycles ? docs[i]->cycles->n : 0;
	if (!any || !sheet(b, "SPO cycles", cols, SB_ARRAY_SIZE(cols)))
		return;
	lxw_row_t chart_at = 1;
	for (size_t i = 0; i < n; i++) {
		const struct rep_cycles *c = docs[i]->cycles;
		const lxw_row_t first = b->row;
		for (size_t k = 0; c && k < c->n; k++, b->row++) {
			str(b, 0, docs[i]->name);
			num(b, 1, c->x[k]);
			num(b, 2, c->cut_s[k]);
			for (int x = 0; x < SB_SPO_NCLASS; x++)
				num(b, (lxw_col_t)(3 + x), c->blocks[x][k]);
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
	{ "source", RC_SOURCE, 1 },
	{ "row", RC_ROW, 1 },
	{ "index", RC_INDEX, 1 },
	{ "written (GiB)", RC_BYTES, MIB * 1024 },
	{ "bandwidth (MiB/s)", RC_BW, MIB },
	{ "before (MiB/s)", RC_BEFORE_BW, MIB },
	{ "after (MiB/s)", RC_AFTER_BW, MIB },
	{ "idle (s)", RC_IDLE, 1 },
	{ "recovered (MiB)", RC_RECOVERED, MIB },
	{ "recovered share", RC_FRACTION, 1 },
};

struct cliff_rows {
	struct book *b;
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
static void ranks_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "Source", RK_SOURCE, 1 },
		{ "Job", RK_JOB, 1 },
		{ "Rank", RK_RANK, 1 },
		{ "Host", RK_HOST, 1 },
		{ "Direction", RK_DIR, 1 },
		{ "Bytes", RK_IO_BYTES, 1 },
		{ "Bandwidth (MiB/s)", RK_BW, 1048576 },
		{ "IOPS", RK_IOPS, 1 },
		{ "Start (s)", RK_START, 1 },
		{ "End (s)", RK_END, 1 },
		{ "Clock offset (s)", RK_OFFSET, 1 },
	};
	if (rep_rows(REP_T_RANKS, docs, n, 0, NULL, NULL) > 0 &&
	    table_sheet(b, "Ranks", cols, SB_ARRAY_SIZE(cols)))
		table_rows(b, REP_T_RANKS, cols, SB_ARRAY_SIZE(cols), docs, n);
}

/* Many ranks of soak, meta and verify: a sheet each of the CSV tables
 * soak_ranks, meta_ranks, meta_skew and verify_ranks. */
static void rank_table_sheet(struct book *b, enum rep_table t, const char *name,
			     const struct column *cols, size_t ncols, struct rep_doc *const *docs,
			     size_t n)
{
	long rows = rep_rows(t, docs, n, 0, NULL, NULL);
	if (rows < 0)
		b->err = -EIO;
	else if (rows > 0 && table_sheet(b, name, cols, ncols))
		table_rows(b, t, cols, ncols, docs, n);
}

static void soak_ranks_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "Source", RSK_SOURCE, 1 },
		{ "Iteration", RSK_ITERATION, 1 },
		{ "Rank", RSK_RANK, 1 },
		{ "Host", RSK_HOST, 1 },
		{ "Write (MiB/s)", RSK_WRITE_BW, MIB },
		{ "Read (MiB/s)", RSK_READ_BW, MIB },
		{ "Written (MiB)", RSK_WRITE_BYTES, MIB },
		{ "Checked (MiB)", RSK_CHECKED_BYTES, MIB },
		{ "Start (s)", RSK_START, 1 },
		{ "End (s)", RSK_END, 1 },
		{ "Blocks checked", RSK_BLOCKS, 1 },
		{ "Blocks not intact", RSK_BAD, 1 },
		{ "I/O errors", RSK_IO_ERRORS, 1 },
		{ "Failed", RSK_FAILED, 1 },
	};
	rank_table_sheet(b, REP_T_SOAK_RANKS, "Soak ranks", cols, SB_ARRAY_SIZE(cols), docs, n);
}

static void meta_ranks_sheets(struct book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "Source", RMK_SOURCE, 1 },
		{ "Test", RMK_TEST, 1 },
		{ "Rank", RMK_RANK, 1 },
		{ "Host", RMK_HOST, 1 },
		{ "Operations", RMK_OPS, 1 },
		{ "Bytes", RMK_BYTES, 1 },
		{ "Time (s)", RMK_ELAPSED, 1e9 },
		{ "CPU (s)", RMK_CPU, 1e9 },
		{ "Rate", RMK_RATE, 1 },
		{ "Rate unit", RMK_UNIT, 1 },
		{ "Min latency (µs)", RMK_LAT_MIN, 1e3 },
		{ "p50 (µs)", RMK_LAT_P50, 1e3 },
		{ "p99 (µs)", RMK_LAT_P99, 1e3 },
		{ "Max latency (µs)", RMK_LAT_MAX, 1e3 },
		{ "Start (s)", RMK_START, 1 },
		{ "End (s)", RMK_END, 1 },
	};
	static const struct column skew[] = {
		{ "Source", RMS_SOURCE, 1 },
		{ "Test", RMS_TEST, 1 },
		{ "First start (s)", RMS_FIRST_START, 1 },
		{ "Start spread (s)", RMS_START_SPREAD, 1 },
		{ "End spread (s)", RMS_END_SPREAD, 1 },
		{ "Span (s)", RMS_SPAN, 1 },
		{ "Median rate", RMS_MEDIAN_RATE, 1 },
		{ "Rate unit", RMS_UNIT, 1 },
		{ "Slowest rank", RMS_SLOWEST, 1 },
		{ "Slowest vs median", RMS_SLOWEST_VS, 1 },
		{ "Fastest rank", RMS_FASTEST, 1 },
		{ "Fastest vs median", RMS_FASTEST_VS, 1 },
	};
	rank_table_sheet(b, REP_T_META_RANKS, "Meta ranks", cols, SB_ARRAY_SIZE(cols), docs, n);
	rank_table_sheet(b, REP_T_META_SKEW, "Meta skew", skew, SB_ARRAY_SIZE(skew), docs, n);
}

static void verify_ranks_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
{
	static const struct column cols[] = {
		{ "Source", RVK_SOURCE, 1 },
		{ "Command", RVK_COMMAND, 1 },
		{ "Rank", RVK_RANK, 1 },
		{ "Host", RVK_HOST, 1 },
		{ "Result", RVK_RESULT, 1 },
		{ "Blocks checked", RVK_BLOCKS, 1 },
		{ "Not intact", RVK_NOT_INTACT, 1 },
		{ "intact", RVK_CLASS0 + 0, 1 },
		{ "corrupted", RVK_CLASS0 + 1, 1 },
		{ "misplaced", RVK_CLASS0 + 2, 1 },
		{ "stale", RVK_CLASS0 + 3, 1 },
		{ "foreign", RVK_CLASS0 + 4, 1 },
		{ "unreadable", RVK_CLASS0 + 5, 1 },
		{ "newer", RVK_CLASS0 + 6, 1 },
		{ "missing", RVK_CLASS0 + 7, 1 },
		{ "Path", RVK_PATH, 1 },
	};
	rank_table_sheet(b, REP_T_VERIFY_RANKS, "Verify ranks", cols, SB_ARRAY_SIZE(cols), docs, n);
}

static void cliff_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
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

int rep_xlsx(const char *path, struct rep_doc *const *docs, size_t n, char **why)
{
	struct book b;
	memset(&b, 0, sizeof(b));
	*why = NULL;
	/* rows go to the file as they are written, so a day of iterations
	 * costs a row of memory, not the sheet */
	lxw_workbook_options opt = { .constant_memory = LXW_TRUE };
	b.wb = workbook_new_opt(path, &opt);
	if (!b.wb)
		return rep_fail(why, -EIO, "cannot write '%s'", path);
	b.bold = workbook_add_format(b.wb);
	format_set_bold(b.bold);
	soak_sheet(&b, docs, n); /* a soak's workbook opens on its verdict */
	summary_sheet(&b, docs, n);
	measurements_sheet(&b, docs, n);
	intervals_sheet(&b, docs, n);
	percentiles_sheet(&b, docs, n);
	iterations_sheet(&b, docs, n);
	sweep_sheets(&b, docs, n);
	pts_sheets(&b, docs, n);
	classes_sheet(&b, docs, n);
	iozone_sheet(&b, docs, n);
	cycles_sheet(&b, docs, n);
	cliff_sheet(&b, docs, n);
	ranks_sheet(&b, docs, n);
	soak_ranks_sheet(&b, docs, n);
	meta_ranks_sheets(&b, docs, n);
	verify_ranks_sheet(&b, docs, n);
	lxw_error e = workbook_close(b.wb);
	for (size_t i = 0; b.err && i < n; i++)
		if (docs[i]->src->err)
			return rep_fail(why, -EIO, "%s", docs[i]->src->why);
	if (e != LXW_NO_ERROR)
		return rep_fail(why, -EIO, "cannot write '%s': %s", path, lxw_strerror(e));
	return 0;
}
#endif
