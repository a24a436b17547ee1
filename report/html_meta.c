/*
 * storbench.meta in the HTML report (docs/latency-meta.md): a row per test
 * (rate, operations, time, latency); under mpirun (docs/mpi.md) those are
 * the All clients aggregate, followed by how far the ranks were apart and a
 * row per rank and test.
 */
#include "report/chart.h"
#include "report/html.h"

#include <math.h>

static const char *name(int t)
{
	return sb_meta_test_name((enum sb_meta_test)t);
}

static void tests_table(FILE *f, const struct sb_meta_doc *m)
{
	static const char *const cols[] = { "Test", "Rate", "Operations", "Time",
					    "Min",  "p50",  "p99",	  "Max" };
	char a[64];
	fprintf(f, "<h3>Meta%s</h3>\n", m->m.nranks ? ": All clients (every rank together)" : "");
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (int i = 0; i < SB_META_NTESTS; i++) {
		const struct sb_meta_doc_test *x = &m->t[i];
		if (!(m->tests & (1u << i)))
			continue;
		fputs("<tr>", f);
		html_cell(f, name(i), 0);
		rep_meta_rate(i, x->rate, a, sizeof(a));
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%llu", (unsigned long long)m->m.res[i].ops);
		html_cell(f, a, 1);
		html_cell(f, html_fmt_ns((double)m->m.res[i].elapsed_ns, a, sizeof(a)), 1);
		html_cell(f, html_fmt_ns((double)x->lat_min, a, sizeof(a)), 1);
		html_cell(f, html_fmt_ns(x->lat_pct[REP_META_P50], a, sizeof(a)), 1);
		html_cell(f, html_fmt_ns(x->lat_pct[REP_META_P99], a, sizeof(a)), 1);
		html_cell(f, html_fmt_ns((double)x->lat_max, a, sizeof(a)), 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void skew_table(FILE *f, const struct sb_meta_doc *m)
{
	static const char *const cols[] = { "Test",	    "Start spread",  "End spread",
					    "Slowest rank", "vs the median", "Fastest rank",
					    "vs the median" };
	char a[64];
	fputs("<h3>Skew</h3>\n<p class=\"meta\">How far the ranks started and ended apart, and "
	      "the slowest and fastest rank by rate against the median rank.</p>\n",
	      f);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (int i = 0; i < SB_META_NTESTS; i++) {
		const struct sb_meta_skew *k = &m->m.skew[i];
		if (!(m->skews & (1u << i)))
			continue;
		fputs("<tr>", f);
		html_cell(f, name(i), 0);
		html_cell(f, html_fmt_ns(1e9 * k->start_spread_s, a, sizeof(a)), 1);
		html_cell(f, html_fmt_ns(1e9 * k->end_spread_s, a, sizeof(a)), 1);
		snprintf(a, sizeof(a), "%d", rep_meta_rank_no(&m->m, k->slowest_rank));
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%+.1f%%", 100 * k->slowest_vs_median);
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%d", rep_meta_rank_no(&m->m, k->fastest_rank));
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%+.1f%%", 100 * k->fastest_vs_median);
		html_cell(f, a, 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void ranks_table(FILE *f, const struct sb_meta_run *m)
{
	static const char *const cols[] = { "Test", "Rank", "Host",
					    "Rate", "p99",  "Start (from the first)",
					    "End" };
	char a[64];
	fputs("<h3>Ranks</h3>\n", f);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 3);
	for (int i = 0; i < SB_META_NTESTS; i++)
		for (unsigned r = 0; r < m->nranks; r++) {
			const struct sb_meta_rank *k = &m->ranks[r];
			const struct sb_meta_rank_test *x = &k->t[i];
			if (!x->ran)
				continue;
			fputs("<tr>", f);
			html_cell(f, name(i), 0);
			snprintf(a, sizeof(a), "%d", k->rank);
			html_cell(f, a, 0);
			html_cell(f, k->host, 0);
			rep_meta_rate(i, x->rate, a, sizeof(a));
			html_cell(f, a, 1);
			html_cell(f, html_fmt_ns((double)x->lat_p99, a, sizeof(a)), 1);
			html_cell(f, html_fmt_ns(1e9 * x->start_s, a, sizeof(a)), 1);
			html_cell(f, html_fmt_ns(1e9 * x->end_s, a, sizeof(a)), 1);
			fputs("</tr>\n", f);
		}
	fputs("</tbody></table>\n", f);
}

#define CHART_RANKS 8 /* bars a test at most: the first ranks */

/* Each rank's rate as a share of the median rank's, a group of bars per
 * test and a bar per rank: the tests' units differ (MiB/s, files/s), the
 * share does not, and a slow rank or host stands out in every test. */
static void ranks_chart(FILE *f, const struct sb_meta_doc *d)
{
	const struct sb_meta_run *m = &d->m;
	const char *cats[SB_META_NTESTS], *names[CHART_RANKS];
	char name_buf[CHART_RANKS][80];
	double y[CHART_RANKS][SB_META_NTESTS];
	size_t nt = 0;
	const size_t nr = SB_MIN(m->nranks, (size_t)CHART_RANKS);
	for (int t = 0; t < SB_META_NTESTS; t++) {
		const double med = d->skews & (1u << t) ? m->skew[t].median_rate : NAN;
		if (!(med > 0))
			continue;
		cats[nt] = name(t);
		for (size_t r = 0; r < nr; r++) {
			const struct sb_meta_rank_test *x = &m->ranks[r].t[t];
			y[r][nt] = 100 * (x->ran ? x->rate : NAN) / med;
		}
		nt++;
	}
	if (!nt || !nr)
		return;
	struct chart_series s[CHART_RANKS];
	for (size_t r = 0; r < nr; r++) {
		snprintf(name_buf[r], sizeof(name_buf[0]), "rank %d %.60s", m->ranks[r].rank,
			 m->ranks[r].host);
		names[r] = name_buf[r];
		s[r] = (struct chart_series){ .name = names[r], .y = y[r], .n = nt, .color = -1 };
	}
	char note[120];
	snprintf(note, sizeof(note), "100%% is the median rank of the test%s",
		 m->nranks > nr ? "; the first 8 ranks, the table has them all" : "");
	const struct chart c = {
		.kind = CHART_BAR,
		.title = "Rate of each rank against the median rank",
		.note = note,
		.x = { "Test", CHART_U_NONE, CHART_LINEAR, 0 },
		.y = { "Rate", CHART_U_PCT, CHART_LINEAR, 0 },
		.cats = cats,
		.ncats = nt,
		.series = s,
		.nseries = nr,
		.id = "meta-ranks-rate",
	};
	chart_figure(f, &c, NULL);
}

void html_section_meta(FILE *f, const struct rep_doc *d)
{
	const struct sb_meta_doc *m = d->meta;
	if (!m)
		return;
	tests_table(f, m);
	if (!m->m.nranks)
		return;
	skew_table(f, m);
	ranks_chart(f, m);
	ranks_table(f, &m->m);
}
