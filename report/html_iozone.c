/*
 * A soak of the iozone workload (storbench soak --workload=iozone) in
 * HTML: a chart per test of its cells' throughput per iteration (a line
 * per file size and record size), outliers ringed and changes of level
 * dashed as the soak's throughput chart draws them, and a table of each
 * cell's median, range and variation.
 */
#include "report/html.h"
#include "report/chart.h"
#include "lib/storbench.h"

#include <math.h>

#define MAX_LINES 16 /* cells drawn per test chart; the CSV has them all */

struct test_chart {
	struct chart_series s[MAX_LINES];
	double *y[MAX_LINES]; /* bytes/s: the axis' unit */
	unsigned char *ring[MAX_LINES];
	char name[MAX_LINES][48];
	double at[MAX_LINES * SB_ANOMALY_MAX_CHANGES];
	char text[MAX_LINES * SB_ANOMALY_MAX_CHANGES][120];
	const char *texts[MAX_LINES * SB_ANOMALY_MAX_CHANGES];
	size_t nlines, nat, more;
};

static void cell_name(const struct rep_cellser *s, char *buf, size_t len)
{
	char a[32], b[32];
	snprintf(buf, len, "file %s, record %s", sb_fmt_size((uint64_t)s->file_size, a, sizeof(a)),
		 sb_fmt_size((uint64_t)s->record_size, b, sizeof(b)));
}

/* Line l of the chart from cell j: its values in bytes/s, rings, changes. */
static int add_line(struct test_chart *tc, const struct rep_doc *d, size_t j)
{
	const struct rep_iters *it = &d->iters;
	const size_t l = tc->nlines;
	struct rep_anomalies an;
	if (!(tc->y[l] = malloc((it->n + 1) * sizeof(double))) ||
	    !(tc->ring[l] = calloc(it->n + 1, 1)) || rep_cell_anomalies(d, j, &an) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < it->n; i++)
		tc->y[l][i] = it->cs[j].v[i] * 1024;
	for (size_t o = 0; o < an.m.noutliers; o++)
		for (size_t i = 0; i < it->n; i++)
			if (it->x[i] == (double)an.m.outliers[o])
				tc->ring[l][i] = 1;
	char name[sizeof(tc->name[0])];
	cell_name(&it->cs[j], name, sizeof(name));
	memcpy(tc->name[l], name, sizeof(name));
	for (size_t c = 0; c < an.m.nchanges; c++) {
		tc->at[tc->nat] = (double)an.m.changes[c].at - 0.5;
		snprintf(tc->text[tc->nat], sizeof(tc->text[0]),
			 "%s changes at iteration %llu: %.0f to %.0f KiB/s (%+.0f%%)", name,
			 (unsigned long long)an.m.changes[c].at, an.m.changes[c].before,
			 an.m.changes[c].after, 100 * an.m.changes[c].step);
		tc->texts[tc->nat] = tc->text[tc->nat];
		tc->nat++;
	}
	tc->s[l] = (struct chart_series){ .name = tc->name[l],
					  .x = it->x,
					  .y = tc->y[l],
					  .mark = an.m.noutliers ? tc->ring[l] : NULL,
					  .n = it->n,
					  .color = (int)l };
	tc->nlines++;
	return 0;
}

static void test_chart(FILE *f, const struct rep_doc *d, int t)
{
	const struct rep_iters *it = &d->iters;
	struct test_chart *tc = calloc(1, sizeof(*tc));
	char title[96], note[160];
	int e = tc ? 0 : -ENOMEM;
	for (size_t j = 0; !e && j < it->ncs; j++) {
		if (it->cs[j].test != t)
			continue;
		if (tc->nlines == MAX_LINES)
			tc->more++;
		else
			e = add_line(tc, d, j);
	}
	if (!e && tc->nlines) {
		snprintf(title, sizeof(title), "iozone %s per iteration", sb_sweep_test_name(t));
		snprintf(note, sizeof(note),
			 "%s, a line per file size and record size%s; outliers ringed, changes "
			 "of level dashed",
			 sb_sweep_test_title(t),
			 tc->more ? " (the first 16: the CSV table iozone has them all)" : "");
		struct chart c = {
			.kind = CHART_LINE,
			.title = title,
			.note = note,
			.x = { "Iteration", CHART_U_NONE, CHART_LINEAR, 1 },
			.y = { "Throughput", CHART_U_BYTES_S, CHART_LINEAR, 0 },
			.series = tc->s,
			.nseries = tc->nlines,
			.vlines = tc->at,
			.vline_text = tc->texts,
			.nvlines = tc->nat,
		};
		fputs("<figure>\n", f);
		chart_svg(f, &c);
		fputs("</figure>\n", f);
	}
	for (size_t l = 0; tc && l < MAX_LINES; l++) {
		free(tc->y[l]);
		free(tc->ring[l]);
	}
	free(tc);
}

static void cells_table(FILE *f, const struct rep_doc *d)
{
	static const char *const cols[] = { "Test",	    "File size", "Record size",
					    "Median KiB/s", "Min",	 "Max",
					    "Variation",    "Outliers",	 "Changes of level" };
	const struct rep_iters *it = &d->iters;
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 3);
	for (size_t j = 0; j < it->ncs; j++) {
		const struct rep_cellser *s = &it->cs[j];
		struct rep_anomalies an;
		char v[6][48];
		if (rep_cell_anomalies(d, j, &an) < 0)
			continue;
		fputs("<tr>", f);
		html_cell(f, sb_sweep_test_name(s->test), 0);
		html_cell(f, sb_fmt_size((uint64_t)s->file_size, v[0], sizeof(v[0])), 0);
		html_cell(f, sb_fmt_size((uint64_t)s->record_size, v[1], sizeof(v[1])), 0);
		snprintf(v[2], sizeof(v[2]), an.m.st.n ? "%.0f" : "-", an.m.st.median);
		snprintf(v[3], sizeof(v[3]), an.m.st.n ? "%.0f" : "-", an.m.st.min);
		snprintf(v[4], sizeof(v[4]), an.m.st.n ? "%.0f" : "-", an.m.st.max);
		snprintf(v[5], sizeof(v[5]), an.m.st.n ? "%.1f%%" : "-", 100 * an.m.st.cv);
		for (int k = 2; k < 6; k++)
			html_cell(f, v[k], 1);
		snprintf(v[0], sizeof(v[0]), an.judged.outliers ? "%zu" : "too few",
			 an.m.outliers_total);
		snprintf(v[1], sizeof(v[1]), an.judged.changes ? "%zu" : "too few", an.m.nchanges);
		html_cell(f, v[0], 1);
		html_cell(f, v[1], 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

void html_soak_cells(FILE *f, const struct rep_doc *d)
{
	if (!d->iters.ncs || !d->iters.n)
		return;
	fputs("<h3>iozone cells</h3>\n"
	      "<p class=\"meta\">Each iteration ran iozone's command line once; a chart per "
	      "test, a line per cell. The CSV table <code>iozone</code> has a row per "
	      "iteration and cell.</p>\n",
	      f);
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		test_chart(f, d, t);
	cells_table(f, d);
}
