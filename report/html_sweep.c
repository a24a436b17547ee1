/*
 * The sweep section of the HTML report: one heatmap per iozone test, file
 * sizes down, record sizes across, the cell's throughput as colour on a
 * log scale (the matrix spans decades) with the figure written in the
 * cell. From storbench.sweep (docs/sweep.md).
 */
#include "report/html.h"
#include "report/chart.h"

#include <math.h>

#define MAX_SIZES 32

/* "64 KiB" rather than "64.0 KiB" for the round sizes of a matrix edge. */
static void size_text(uint64_t b, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned k = 0;
	while (k + 1 < SB_ARRAY_SIZE(units) && b && b % (1024ull << (10 * k)) == 0)
		k++;
	if (b && b % (1ull << (10 * k)) == 0)
		snprintf(buf, len, "%llu %s", (unsigned long long)(b >> (10 * k)), units[k]);
	else
		sb_fmt_size(b, buf, len);
}

static size_t size_labels(const uint64_t *v, unsigned n, char (*buf)[24], const char **labels)
{
	const size_t k = SB_MIN(n, MAX_SIZES);
	for (size_t i = 0; i < k; i++) {
		size_text(v[i], buf[i], sizeof(buf[i]));
		labels[i] = buf[i];
	}
	return k;
}

/* A cell's throughput in bytes/s, NaN where it was not measured. */
static double cell_bps(const struct sb_sweep_result *r, int t, size_t i, size_t j)
{
	return r->state[t][i][j] == SB_SWEEP_CELL_DONE ? (double)r->kibps[t][i][j] * 1024 : NAN;
}

/* The range of a sweep's measured cells, widening lo..hi. */
static void sweep_range(const struct sb_sweep_doc *s, double *lo, double *hi)
{
	const size_t nr = SB_MIN(s->r.nfile, MAX_SIZES), nc = SB_MIN(s->r.nrec, MAX_SIZES);
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		for (size_t i = 0; (s->o.tests & (1u << t)) && i < nr; i++)
			for (size_t j = 0; j < nc; j++) {
				double v = cell_bps(&s->r, t, i, j);
				if (v > 0) {
					*lo = SB_MIN(*lo, v);
					*hi = SB_MAX(*hi, v);
				}
			}
}

void html_sweep_scale(struct rep_doc *const *docs, size_t n)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t k = 0; k < n; k++)
		if (docs[k]->sweep)
			sweep_range(docs[k]->sweep, &lo, &hi);
	for (size_t k = 0; k < n; k++) {
		docs[k]->sweep_lo = isfinite(lo) ? lo : NAN;
		docs[k]->sweep_hi = isfinite(hi) ? hi : NAN;
	}
}

static void matrix(FILE *f, const struct rep_doc *d, int t, const char **rows, size_t nr,
		   const char **cols, size_t nc)
{
	const struct sb_sweep_result *r = &d->sweep->r;
	double cells[MAX_SIZES * MAX_SIZES];
	char title[96];
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; j < nc; j++)
			cells[i * nc + j] = cell_bps(r, t, i, j);
	snprintf(title, sizeof(title), "%s (%s)", sb_sweep_test_title(t), sb_sweep_test_name(t));
	struct chart c = {
		.kind = CHART_HEATMAP,
		.title = title,
		.note = "throughput of each file size and record size; one colour scale (log) "
			"for every heatmap of the report, grey where not measured",
		.x = { "Record size", CHART_U_NONE, CHART_LINEAR, 0 },
		.y = { "File size", CHART_U_NONE, CHART_LINEAR, 0 },
		.z = { "Bandwidth", CHART_U_BYTES_S, CHART_LOG, 0 },
		.cats = cols,
		.ncats = nc,
		.rows = rows,
		.nrows = nr,
		.cells = cells,
		.zlo = d->sweep_lo,
		.zhi = d->sweep_hi,
		.height = (int)SB_MAX(300, 150 + 26 * nr),
	};
	chart_figure(f, &c, NULL);
}

/* Many ranks (docs/mpi.md): the matrices above are the All clients
 * aggregate; a row per rank with its rate of each test (its bytes over its
 * time), then the widest start and end spread of each test's cells. */
static void ranks_table(FILE *f, const struct sb_sweep_doc *s)
{
	const struct sb_sweep_result *agg = &s->r;
	const char *cols[2 + 16];
	int test[16];
	char a[48];
	size_t nt = 0;
	for (int t = 0; t < SB_SWEEP_NTESTS && nt < 16; t++)
		if (s->o.tests & (1u << t))
			test[nt++] = t;
	if (!agg->nranks || !nt)
		return;
	cols[0] = "Rank";
	cols[1] = "Host";
	for (size_t i = 0; i < nt; i++)
		cols[2 + i] = sb_sweep_test_name(test[i]);
	fprintf(f,
		"<h3>Ranks</h3>\n<p class=\"meta\">%u ranks; each cell above is the All "
		"clients aggregate: the ranks' bytes over the time from the earliest start to "
		"the latest end. Below, each rank's bytes over its own time, per test.</p>\n",
		agg->nranks);
	html_head_row(f, cols, 2 + nt, 2);
	for (unsigned k = 0; k < agg->nranks; k++) {
		const struct sb_sweep_rank *rk = &agg->ranks[k];
		fputs("<tr>", f);
		snprintf(a, sizeof(a), "%d", rk->rank);
		html_cell(f, a, 0);
		html_cell(f, rk->host, 0);
		for (size_t i = 0; i < nt; i++) {
			const double bw = sb_sweep_rank_rate(&rk->r, test[i]);
			html_cell(f, bw < 0 ? "-" : rep_fmt_rate(bw, a, sizeof(a)), 1);
		}
		fputs("</tr>\n", f);
	}
	static const char *const spreads[2] = { "widest start spread", "widest end spread" };
	for (int w = 0; w < 2; w++) {
		fprintf(f, "<tr><td colspan=\"2\">%s</td>", spreads[w]);
		for (size_t i = 0; i < nt; i++) {
			snprintf(a, sizeof(a), "%.3f ms", 1e3 * rep_sweep_widest(s, test[i], w));
			html_cell(f, a, 1);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

void html_section_sweep(FILE *f, const struct rep_doc *d)
{
	const struct sb_sweep_doc *s = d->sweep;
	char rbuf[MAX_SIZES][24], cbuf[MAX_SIZES][24];
	const char *rows[MAX_SIZES], *cols[MAX_SIZES];
	if (!s)
		return;
	size_t nr = size_labels(s->r.file_sizes, s->r.nfile, rbuf, rows);
	size_t nc = size_labels(s->r.record_sizes, s->r.nrec, cbuf, cols);
	if (!nr || !nc || !s->o.tests)
		return;
	fprintf(f, "<h3>Charts</h3>\n<p class=\"meta\">Cache: ");
	rep_html_esc(f, s->cache);
	fprintf(f, "; %u of %u cells measured.</p>\n", s->r.cells_done, s->r.cells_planned);
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		if (s->o.tests & (1u << t))
			matrix(f, d, t, rows, nr, cols, nc);
	ranks_table(f, s);
}
