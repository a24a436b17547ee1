/*
 * A soak of the iozone workload (storbench soak --workload=iozone) in
 * text: each cell (test, file size, record size) with its median, range,
 * variation and the outliers and changes of level found, then per test a
 * table of its cells' KiB/s per iteration, iozone's unit, so the series
 * a spreadsheet of iozone's columns gave is on the terminal.
 */
#include "report/report.h"

#include <math.h>

static void cell_name(const struct rep_cellser *s, char *buf, size_t len)
{
	char a[32], b[32];
	snprintf(buf, len, "%s/%s", sb_fmt_size((uint64_t)s->file_size, a, sizeof(a)),
		 sb_fmt_size((uint64_t)s->record_size, b, sizeof(b)));
}

static void cell_line(FILE *f, const struct rep_doc *d, size_t j)
{
	const struct rep_cellser *s = &d->iters.cs[j];
	struct rep_anomalies an;
	char name[80];
	cell_name(s, name, sizeof(name));
	fprintf(f, "%-10s %-22s", sb_sweep_test_name(s->test), name);
	if (rep_cell_anomalies(d, j, &an) < 0 || !an.m.st.n) {
		fprintf(f, " no figure\n");
		return;
	}
	fprintf(f, " median %.0f KiB/s, %.0f .. %.0f, variation %.1f%%", an.m.st.median,
		an.m.st.min, an.m.st.max, 100 * an.m.st.cv);
	if (!an.judged.outliers)
		fprintf(f, "; too few iterations to judge\n");
	else
		fprintf(f, "; %zu outlier%s, %zu change%s of level%s\n", an.m.outliers_total,
			an.m.outliers_total == 1 ? "" : "s", an.m.nchanges,
			an.m.nchanges == 1 ? "" : "s",
			an.judged.changes ? "" : " (too few to tell)");
	for (size_t c = 0; c < an.m.nchanges; c++)
		fprintf(f, "  at iteration %llu: %.0f to %.0f KiB/s (%+.0f%%)\n",
			(unsigned long long)an.m.changes[c].at, an.m.changes[c].before,
			an.m.changes[c].after, 100 * an.m.changes[c].step);
}

/* The table of test t: a row per iteration, a column per cell (the first
 * REP_TT_MAXCOLS - 1 of them). */
static void test_table(FILE *f, const struct rep_iters *it, int t)
{
	struct rep_ttable tt = { { "iteration" }, 1, 1, NULL, 0, 0 };
	char head[REP_TT_MAXCOLS][48];
	size_t col[REP_TT_MAXCOLS], ncol = 0, more = 0;
	for (size_t j = 0; j < it->ncs; j++) {
		if (it->cs[j].test != t)
			continue;
		if (ncol + 1 >= REP_TT_MAXCOLS) {
			more++;
			continue;
		}
		cell_name(&it->cs[j], head[ncol], sizeof(head[0]));
		tt.head[1 + ncol] = head[ncol];
		col[ncol++] = j;
	}
	if (!ncol)
		return;
	tt.ncols = 1 + ncol;
	fprintf(f, "\n%s (KiB/s; file/record)%s\n", sb_sweep_test_title(t),
		more ? " (the first cells; the CSV table iozone has them all)" : "");
	for (size_t i = 0; i < it->n; i++) {
		char v[64];
		if (!rep_tt_row(&tt))
			break;
		snprintf(v, sizeof(v), "%.0f", it->x[i]);
		rep_tt_set(&tt, 0, v);
		for (size_t c = 0; c < ncol; c++) {
			const double x = it->cs[col[c]].v[i];
			snprintf(v, sizeof(v), isfinite(x) ? "%.0f" : "-", x);
			rep_tt_set(&tt, 1 + c, v);
		}
	}
	rep_tt_print(f, &tt);
}

void rep_text_soak_cells(FILE *f, const struct rep_doc *d)
{
	const struct rep_iters *it = &d->iters;
	if (!it->ncs)
		return;
	fprintf(f, "\niozone cells per iteration (KiB/s):\n");
	for (size_t j = 0; j < it->ncs; j++)
		cell_line(f, d, j);
	if (it->n > REP_CELL_TEXT_ROWS) {
		fprintf(f,
			"(%zu iterations: the figures of each are in the HTML report's charts "
			"and the CSV table iozone)\n",
			it->n);
		return;
	}
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		test_table(f, it, t);
}
