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

static size_t size_labels(const struct sb_jv *v, char (*buf)[24], const char **labels)
{
	size_t n = SB_MIN(sb_jv_len(v), MAX_SIZES);
	for (size_t i = 0; i < n; i++) {
		double b = sb_jv_num(sb_jv_at(v, i), 0);
		size_text(b > 0 && b < 1.8e19 ? (uint64_t)b : 0, buf[i], sizeof(buf[i]));
		labels[i] = buf[i];
	}
	return n;
}

static void matrix(FILE *f, const struct sb_jv *test, const char **rows, size_t nr,
		   const char **cols, size_t nc)
{
	double cells[MAX_SIZES * MAX_SIZES];
	const struct sb_jv *m = sb_jv_get(test, "kib_per_s");
	char title[96];
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; j < nc; j++) {
			const struct sb_jv *c = sb_jv_at(sb_jv_at(m, i), j);
			cells[i * nc + j] = sb_jv_is(c, SB_JV_NUM) ? c->num.d * 1024 : NAN;
		}
	snprintf(title, sizeof(title), "%s (%s)", rep_or(sb_jv_str(sb_jv_get(test, "title")), "?"),
		 rep_or(sb_jv_str(sb_jv_get(test, "test")), "?"));
	struct chart c = {
		.kind = CHART_HEATMAP,
		.title = title,
		.note = "throughput of each file size and record size; colour on a log scale, "
			"grey where not measured",
		.x = { "Record size", CHART_U_NONE, CHART_LINEAR, 0 },
		.y = { "File size", CHART_U_NONE, CHART_LINEAR, 0 },
		.z = { "Bandwidth", CHART_U_BYTES_S, CHART_LOG, 0 },
		.cats = cols,
		.ncats = nc,
		.rows = rows,
		.nrows = nr,
		.cells = cells,
		.height = (int)SB_MAX(300, 150 + 26 * nr),
	};
	chart_figure(f, &c, NULL);
}

/* Many ranks (docs/mpi.md): the matrices above are the All clients
 * aggregate; a row per rank with its rate of each test (its bytes over its
 * time), then the widest start and end spread of each test's cells. */
static void ranks_table(FILE *f, const struct sb_jv *s)
{
	const struct sb_jv *rk = sb_jv_get(s, "ranks"), *tests = sb_jv_get(s, "tests");
	const char *cols[2 + 16];
	char a[48];
	size_t nt = SB_MIN(sb_jv_len(tests), 16);
	if (!sb_jv_len(rk) || !nt)
		return;
	cols[0] = "Rank";
	cols[1] = "Host";
	for (size_t i = 0; i < nt; i++)
		cols[2 + i] = rep_or(sb_jv_str(sb_jv_get(sb_jv_at(tests, i), "test")), "?");
	fprintf(f,
		"<h3>Ranks</h3>\n<p class=\"meta\">%zu ranks; each cell above is the All "
		"clients aggregate: the ranks' bytes over the time from the earliest start to "
		"the latest end. Below, each rank's bytes over its own time, per test.</p>\n",
		sb_jv_len(rk));
	html_head_row(f, cols, 2 + nt, 2);
	for (size_t k = 0; k < sb_jv_len(rk); k++) {
		const struct sb_jv *r = sb_jv_at(rk, k), *rt = sb_jv_get(r, "tests");
		fputs("<tr>", f);
		snprintf(a, sizeof(a), "%.0f", sb_jv_num(sb_jv_get(r, "rank"), -1));
		html_cell(f, a, 0);
		html_cell(f, rep_or(sb_jv_str(sb_jv_get(r, "hostname")), "?"), 0);
		for (size_t i = 0; i < nt; i++) {
			const double bw = rep_sweep_rank_rate(sb_jv_at(rt, i));
			html_cell(f, bw < 0 ? "-" : rep_fmt_rate(bw, a, sizeof(a)), 1);
		}
		fputs("</tr>\n", f);
	}
	static const char *const spreads[2][2] = { { "start_spread_s", "widest start spread" },
						   { "end_spread_s", "widest end spread" } };
	for (size_t w = 0; w < 2; w++) {
		fprintf(f, "<tr><td colspan=\"2\">%s</td>", spreads[w][1]);
		for (size_t i = 0; i < nt; i++) {
			snprintf(a, sizeof(a), "%.3f ms",
				 1e3 * rep_sweep_widest(sb_jv_at(tests, i), spreads[w][0]));
			html_cell(f, a, 1);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

void html_section_sweep(FILE *f, const struct rep_doc *d)
{
	const struct sb_jv *s = sb_jv_get(d->sb, "sweep");
	const struct sb_jv *tests = sb_jv_get(s, "tests");
	char rbuf[MAX_SIZES][24], cbuf[MAX_SIZES][24];
	const char *rows[MAX_SIZES], *cols[MAX_SIZES];
	size_t nr = size_labels(sb_jv_get(s, "file_sizes"), rbuf, rows);
	size_t nc = size_labels(sb_jv_get(s, "record_sizes"), cbuf, cols);
	if (!nr || !nc || !sb_jv_len(tests))
		return;
	fprintf(f, "<h3>Charts</h3>\n<p class=\"meta\">Cache: ");
	rep_html_esc(f, rep_or(sb_jv_str(sb_jv_get(s, "cache")), "?"));
	fprintf(f, "; %.0f of %.0f cells measured.</p>\n", sb_jv_num(sb_jv_get(s, "cells_done"), 0),
		sb_jv_num(sb_jv_get(s, "cells_planned"), 0));
	for (size_t i = 0; i < sb_jv_len(tests); i++)
		matrix(f, sb_jv_at(tests, i), rows, nr, cols, nc);
	ranks_table(f, s);
}
