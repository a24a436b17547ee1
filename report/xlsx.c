/*
 * The XLSX report (libxlsxwriter, HAVE_XLSX): one sheet per table, figures
 * in the units people read (MiB/s, µs), and native Excel charts beside the
 * data they draw (bars per test for quick, lines over time for a run), so a
 * spreadsheet user gets the chart without writing a script.
 */
#include "report/report.h"

#ifndef HAVE_XLSX
int rep_xlsx_available(void)
{
	return 0;
}

int rep_xlsx(const char *path, struct rep_doc *const *docs, size_t n, char **why)
{
	(void)docs;
	(void)n;
	return rep_fail(why, -ENOTSUP, "--output: '%s': this storbench was built without XLSX "
			"support (libxlsxwriter); use .html or .csv", path);
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
			if (!strcmp(d->summary[i].test, tests[t]) && d->summary[i].ddir <= SB_DDIR_WRITE)
				worksheet_write_number(b->sheet, top + 1 + (lxw_row_t)t,
						       col + 1 + (lxw_col_t)d->summary[i].ddir,
						       d->summary[i].bw_median / MIB, NULL);
	}
	lxw_chart *ch = new_chart(b, LXW_CHART_COLUMN, "Bandwidth by test (median of the runs)",
				  "Test", "Bandwidth (MiB/s)");
	for (int k = 0; ch && k < 2; k++) {
		lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
		lxw_chart_fill fill = { .color = colors[k ? 5 : 0] };
		chart_series_set_categories(s, b->sheet_name, top + 1, col, top + (lxw_row_t)nt, col);
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
	static const char *const cols[] = { "source", "test", "direction", "runs",
		"bandwidth median (MiB/s)", "bandwidth min (MiB/s)", "bandwidth max (MiB/s)",
		"IOPS median", "IOPS min", "IOPS max", "mean latency median (µs)",
		"p99 latency median (µs)" };
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		any += docs[i]->nsummary;
	if (!any || !sheet(b, "Summary", cols, SB_ARRAY_SIZE(cols)))
		return;
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < docs[i]->nsummary; k++, b->row++) {
			const struct rep_summary *s = &docs[i]->summary[k];
			str(b, 0, docs[i]->name);
			str(b, 1, s->test);
			str(b, 2, sb_ddir_name(s->ddir));
			num(b, 3, s->runs);
			num(b, 4, s->bw_median / MIB);
			num(b, 5, s->bw_min / MIB);
			num(b, 6, s->bw_max / MIB);
			num(b, 7, s->iops_median);
			num(b, 8, s->iops_min);
			num(b, 9, s->iops_max);
			num(b, 10, s->lat_mean_median / 1e3);
			num(b, 11, s->lat_p99_median / 1e3);
		}
	}
	lxw_row_t at = 0;
	for (size_t i = 0; i < n; i++)
		summary_chart(b, docs[i], SB_ARRAY_SIZE(cols) + 1, &at);
}

/* ---- Measurements ---- */
static void measurements_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
{
	static const char *const cols[] = { "source", "measurement", "direction", "pattern",
		"block size", "queue depth", "jobs", "engine", "direct", "measured (s)",
		"bandwidth (MiB/s)", "IOPS", "mean latency (µs)", "p50 (µs)", "p99 (µs)",
		"p99.9 (µs)", "max latency (µs)", "errors" };
	if (!sheet(b, "Measurements", cols, SB_ARRAY_SIZE(cols)))
		return;
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < docs[i]->njobs; k++) {
			const struct rep_job *j = &docs[i]->jobs[k];
			for (int dd = 0; dd < SB_DDIR_N; dd++) {
				const struct rep_dir *r = &j->dir[dd];
				if (!r->used)
					continue;
				str(b, 0, docs[i]->name);
				str(b, 1, j->name);
				str(b, 2, sb_ddir_name(dd));
				str(b, 3, j->rw);
				str(b, 4, j->bs);
				num(b, 5, j->iodepth);
				num(b, 6, j->numjobs);
				str(b, 7, j->engine);
				str(b, 8, j->direct < 0 ? "" : j->direct ? "yes" : "no");
				num(b, 9, j->runtime_s);
				num(b, 10, r->bw / MIB);
				num(b, 11, r->iops);
				num(b, 12, r->lat.n ? r->lat.mean / 1e3 : NAN);
				num(b, 13, rep_pct(&r->lat, 50) / 1e3);
				num(b, 14, rep_pct(&r->lat, 99) / 1e3);
				num(b, 15, rep_pct(&r->lat, 99.9) / 1e3);
				num(b, 16, r->lat.n ? r->lat.max / 1e3 : NAN);
				num(b, 17, (double)j->errors);
				b->row++;
			}
		}
	}
}

/* ---- Intervals: rows by job, direction, time, so each line is one range ---- */
struct range {
	const char *name;
	lxw_row_t first, last;
	int color;
};

static void interval_rows(struct book *b, const struct rep_doc *d, struct range *rg, size_t *nrg)
{
	for (size_t k = 0; k < d->njobs; k++) {
		const struct rep_job *j = &d->jobs[k];
		for (int dd = 0; dd < SB_DDIR_N; dd++) {
			if (!j->dir[dd].used || !j->nseries)
				continue;
			lxw_row_t first = b->row;
			for (size_t p = 0; p < j->nseries; p++, b->row++) {
				const struct rep_point *pt = &j->series[p];
				str(b, 0, d->name);
				str(b, 1, j->name);
				str(b, 2, sb_ddir_name(dd));
				num(b, 3, pt->t0_s);
				num(b, 4, pt->t1_s);
				num(b, 5, pt->has[dd] ? pt->bw[dd] / MIB : 0);
				num(b, 6, pt->has[dd] ? pt->iops[dd] : 0);
				num(b, 7, pt->has[dd] ? pt->lat_mean_ns[dd] / 1e3 : NAN);
				num(b, 8, pt->has[dd] ? pt->lat_p99_ns[dd] / 1e3 : NAN);
			}
			if (*nrg < MAX_LINES) {
				rg[*nrg] = (struct range){ d->njobs == 1 ? sb_ddir_name(dd) : j->name,
							   first, b->row - 1,
							   d->njobs == 1 ? (dd ? 5 : 0) : (int)*nrg };
				(*nrg)++;
			}
		}
	}
}

static void intervals_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
{
	static const char *const cols[] = { "source", "measurement", "direction", "start (s)",
		"end (s)", "bandwidth (MiB/s)", "IOPS", "mean latency (µs)", "p99 latency (µs)" };
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < docs[i]->njobs; k++)
			any += docs[i]->jobs[k].nseries;
	if (!any || !sheet(b, "Intervals", cols, SB_ARRAY_SIZE(cols)))
		return;
	lxw_row_t chart_at = 1;
	for (size_t i = 0; i < n; i++) {
		struct range rg[MAX_LINES];
		size_t nrg = 0;
		interval_rows(b, docs[i], rg, &nrg);
		char title[160];
		snprintf(title, sizeof(title), "Bandwidth over time: %s", docs[i]->name);
		lxw_chart *ch = nrg ? new_chart(b, LXW_CHART_SCATTER_STRAIGHT, title, "Time (s)",
						"Bandwidth (MiB/s)") : NULL;
		for (size_t r = 0; ch && r < nrg; r++) {
			lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
			lxw_chart_line line = { .color = colors[rg[r].color], .width = 2.25 };
			chart_series_set_categories(s, "Intervals", rg[r].first, 4, rg[r].last, 4);
			chart_series_set_values(s, "Intervals", rg[r].first, 5, rg[r].last, 5);
			chart_series_set_name(s, rg[r].name);
			chart_series_set_line(s, &line);
		}
		if (ch) {
			place(b, chart_at, SB_ARRAY_SIZE(cols) + 1, ch);
			chart_at += 24;
		}
	}
}

static void percentiles_sheet(struct book *b, struct rep_doc *const *docs, size_t n)
{
	static const char *const cols[] = { "source", "measurement", "direction", "latency kind",
					    "percentile", "latency (µs)" };
	if (!sheet(b, "Percentiles", cols, SB_ARRAY_SIZE(cols)))
		return;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < docs[i]->njobs; k++)
			for (int dd = 0; dd < SB_DDIR_N; dd++) {
				const struct rep_job *j = &docs[i]->jobs[k];
				const struct rep_lat *l = &j->dir[dd].lat;
				for (unsigned p = 0; j->dir[dd].used && p < l->npct; p++, b->row++) {
					str(b, 0, docs[i]->name);
					str(b, 1, j->name);
					str(b, 2, sb_ddir_name(dd));
					str(b, 3, j->lat_kind);
					num(b, 4, l->pct[p]);
					num(b, 5, l->val[p] / 1e3);
				}
			}
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
		chart_series_set_values(s, "Iterations", first, 2 + (lxw_col_t)k, last, 2 + (lxw_col_t)k);
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
	static const char *const cols[] = { "source", "iteration", "write (MiB/s)", "read (MiB/s)",
					    "I/O errors", "failed" };
	size_t any = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < docs[i]->nrecords; k++)
			any += rep_is_iteration(docs[i]->records[k]);
	if (!any || !sheet(b, "Iterations", cols, SB_ARRAY_SIZE(cols)))
		return;
	lxw_row_t chart_at = 1;
	for (size_t i = 0; i < n; i++) {
		lxw_row_t first = b->row;
		for (size_t k = 0; k < docs[i]->nrecords; k++) {
			const struct sb_jv *r = docs[i]->records[k];
			if (!rep_is_iteration(r))
				continue;
			str(b, 0, docs[i]->name);
			num(b, 1, sb_jv_num(sb_jv_get(r, "iteration"), (double)(b->row - first + 1)));
			num(b, 2, sb_jv_num(sb_jv_get(r, "write_bw_bytes"), NAN) / MIB);
			num(b, 3, sb_jv_num(sb_jv_get(r, "read_bw_bytes"), NAN) / MIB);
			num(b, 4, sb_jv_num(sb_jv_get(r, "io_errors"), 0));
			str(b, 5, sb_jv_bool(sb_jv_get(r, "failed"), 0) ? "yes" : "no");
			b->row++;
		}
		if (b->row > first)
			iteration_chart(b, docs[i], first, b->row - 1, &chart_at);
	}
}

/* ---- Sweep: a sheet per test laid out as iozone -Rb does: file sizes
 * down, record sizes across, KiB/s in the cells ---- */
static void sweep_sheet(struct book *b, const struct rep_doc *d, const struct sb_jv *t,
			const struct sb_jv *fs, const struct sb_jv *rs, size_t ndocs)
{
	char name[32];
	const struct sb_jv *m = sb_jv_get(t, "kib_per_s");
	/* a sheet name: at most 31 characters, unique across the results */
	snprintf(name, sizeof(name), "%.*s%s%.20s", ndocs > 1 ? 8 : 0, d->name, ndocs > 1 ? " " : "",
		 rep_or(sb_jv_str(sb_jv_get(t, "test")), "test"));
	for (char *p = name; *p; p++)
		if (strchr("[]:*?/\\", *p))
			*p = '_';
	if (workbook_get_worksheet_by_name(b->wb, name) || !(b->sheet = workbook_add_worksheet(b->wb, name)))
		return;
	worksheet_write_string(b->sheet, 0, 0, rep_or(sb_jv_str(sb_jv_get(t, "title")), name), b->bold);
	worksheet_write_string(b->sheet, 1, 0, "file size (KiB) \\ record size (KiB), KiB/s", b->bold);
	worksheet_set_column(b->sheet, 0, 0, 40, NULL);
	for (size_t j = 0; j < sb_jv_len(rs); j++)
		worksheet_write_number(b->sheet, 1, (lxw_col_t)(j + 1), sb_jv_num(sb_jv_at(rs, j), 0) / 1024,
				       b->bold);
	for (size_t i = 0; i < sb_jv_len(fs); i++) {
		worksheet_write_number(b->sheet, (lxw_row_t)(i + 2), 0, sb_jv_num(sb_jv_at(fs, i), 0) / 1024,
				       b->bold);
		for (size_t j = 0; j < sb_jv_len(rs); j++) {
			const struct sb_jv *c = sb_jv_at(sb_jv_at(m, i), j);
			if (sb_jv_is(c, SB_JV_NUM))
				worksheet_write_number(b->sheet, (lxw_row_t)(i + 2), (lxw_col_t)(j + 1),
						       c->num.d, NULL);
		}
	}
}

static void sweep_sheets(struct book *b, struct rep_doc *const *docs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct sb_jv *s = sb_jv_get(docs[i]->sb, "sweep"), *tests = sb_jv_get(s, "tests");
		for (size_t k = 0; k < sb_jv_len(tests) && k < 64; k++)
			sweep_sheet(b, docs[i], sb_jv_at(tests, k), sb_jv_get(s, "file_sizes"),
				    sb_jv_get(s, "record_sizes"), n);
	}
}

int rep_xlsx(const char *path, struct rep_doc *const *docs, size_t n, char **why)
{
	struct book b;
	memset(&b, 0, sizeof(b));
	*why = NULL;
	b.wb = workbook_new(path);
	if (!b.wb)
		return rep_fail(why, -EIO, "cannot write '%s'", path);
	b.bold = workbook_add_format(b.wb);
	format_set_bold(b.bold);
	summary_sheet(&b, docs, n);
	measurements_sheet(&b, docs, n);
	intervals_sheet(&b, docs, n);
	percentiles_sheet(&b, docs, n);
	iterations_sheet(&b, docs, n);
	sweep_sheets(&b, docs, n);
	lxw_error e = workbook_close(b.wb);
	if (e != LXW_NO_ERROR)
		return rep_fail(why, -EIO, "cannot write '%s': %s", path, lxw_strerror(e));
	return 0;
}
#endif
