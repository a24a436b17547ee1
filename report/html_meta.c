/*
 * storbench.meta in the HTML report (docs/latency-meta.md): a row per test
 * (rate, operations, time, latency); under mpirun (docs/mpi.md) those are
 * the All clients aggregate, followed by how far the ranks were apart and a
 * row per rank and test.
 */
#include "report/chart.h"
#include "report/html.h"

#include <math.h>

static void tests_table(FILE *f, const struct sb_jv *ts, int ranks)
{
	static const char *const cols[] = { "Test", "Rate", "Operations", "Time",
					    "Min",  "p50",  "p99",	  "Max" };
	char a[64];
	fprintf(f, "<h3>Meta%s</h3>\n", ranks ? ": All clients (every rank together)" : "");
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (size_t i = 0; i < SB_ARRAY_SIZE(rep_meta_tests); i++) {
		const struct sb_jv *x = sb_jv_get(ts, rep_meta_tests[i]),
				   *l = sb_jv_get(x, "lat_ns");
		const struct sb_jv *p = sb_jv_get(l, "percentile");
		if (!sb_jv_is(x, SB_JV_OBJ))
			continue;
		fputs("<tr>", f);
		html_cell(f, rep_meta_tests[i], 0);
		rep_meta_rate(x, a, sizeof(a));
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%.0f", sb_jv_num(sb_jv_get(x, "ops"), 0));
		html_cell(f, a, 1);
		html_cell(f, html_fmt_ns(sb_jv_num(sb_jv_get(x, "elapsed_ns"), NAN), a, sizeof(a)),
			  1);
		html_cell(f, html_fmt_ns(sb_jv_num(sb_jv_get(l, "min"), NAN), a, sizeof(a)), 1);
		html_cell(f, html_fmt_ns(sb_jv_num(sb_jv_get(p, "50.000000"), NAN), a, sizeof(a)),
			  1);
		html_cell(f, html_fmt_ns(sb_jv_num(sb_jv_get(p, "99.000000"), NAN), a, sizeof(a)),
			  1);
		html_cell(f, html_fmt_ns(sb_jv_num(sb_jv_get(l, "max"), NAN), a, sizeof(a)), 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void skew_table(FILE *f, const struct sb_jv *skew)
{
	static const char *const cols[] = { "Test",	    "Start spread",  "End spread",
					    "Slowest rank", "vs the median", "Fastest rank",
					    "vs the median" };
	char a[64];
	fputs("<h3>Skew</h3>\n<p class=\"meta\">How far the ranks started and ended apart, and "
	      "the slowest and fastest rank by rate against the median rank.</p>\n",
	      f);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (size_t i = 0; i < SB_ARRAY_SIZE(rep_meta_tests); i++) {
		const struct sb_jv *k = sb_jv_get(skew, rep_meta_tests[i]);
		if (!sb_jv_is(k, SB_JV_OBJ))
			continue;
		fputs("<tr>", f);
		html_cell(f, rep_meta_tests[i], 0);
		html_cell(f,
			  html_fmt_ns(1e9 * sb_jv_num(sb_jv_get(k, "start_spread_s"), NAN), a,
				      sizeof(a)),
			  1);
		html_cell(f,
			  html_fmt_ns(1e9 * sb_jv_num(sb_jv_get(k, "end_spread_s"), NAN), a,
				      sizeof(a)),
			  1);
		snprintf(a, sizeof(a), "%.0f", sb_jv_num(sb_jv_get(k, "slowest_rank"), -1));
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%+.1f%%",
			 100 * sb_jv_num(sb_jv_get(k, "slowest_vs_median"), 0));
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%.0f", sb_jv_num(sb_jv_get(k, "fastest_rank"), -1));
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%+.1f%%",
			 100 * sb_jv_num(sb_jv_get(k, "fastest_vs_median"), 0));
		html_cell(f, a, 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void ranks_table(FILE *f, const struct sb_jv *ranks)
{
	static const char *const cols[] = { "Test", "Rank", "Host",
					    "Rate", "p99",  "Start (from the first)",
					    "End" };
	char a[64];
	fputs("<h3>Ranks</h3>\n", f);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 3);
	for (size_t i = 0; i < SB_ARRAY_SIZE(rep_meta_tests); i++)
		for (size_t r = 0; r < sb_jv_len(ranks); r++) {
			const struct sb_jv *k = sb_jv_at(ranks, r);
			const struct sb_jv *x = sb_jv_get(sb_jv_get(k, "tests"), rep_meta_tests[i]);
			if (!sb_jv_is(x, SB_JV_OBJ))
				continue;
			fputs("<tr>", f);
			html_cell(f, rep_meta_tests[i], 0);
			snprintf(a, sizeof(a), "%.0f", sb_jv_num(sb_jv_get(k, "rank"), -1));
			html_cell(f, a, 0);
			html_cell(f, rep_or(sb_jv_str(sb_jv_get(k, "hostname")), "?"), 0);
			rep_meta_rate(x, a, sizeof(a));
			html_cell(f, a, 1);
			html_cell(f,
				  html_fmt_ns(sb_jv_num(sb_jv_get(sb_jv_get(x, "lat_ns"), "p99"),
							NAN),
					      a, sizeof(a)),
				  1);
			html_cell(f,
				  html_fmt_ns(1e9 * sb_jv_num(sb_jv_get(x, "start_s"), NAN), a,
					      sizeof(a)),
				  1);
			html_cell(f,
				  html_fmt_ns(1e9 * sb_jv_num(sb_jv_get(x, "end_s"), NAN), a,
					      sizeof(a)),
				  1);
			fputs("</tr>\n", f);
		}
	fputs("</tbody></table>\n", f);
}

#define CHART_RANKS 8 /* bars a test at most: the first ranks */

/* Each rank's rate as a share of the median rank's, a group of bars per
 * test and a bar per rank: the tests' units differ (MiB/s, files/s), the
 * share does not, and a slow rank or host stands out in every test. */
static void ranks_chart(FILE *f, const struct sb_jv *ranks, const struct sb_jv *skew)
{
	const char *cats[REP_META_NTESTS], *names[CHART_RANKS];
	char name_buf[CHART_RANKS][80];
	double y[CHART_RANKS][REP_META_NTESTS];
	size_t nt = 0;
	const size_t nr = SB_MIN(sb_jv_len(ranks), (size_t)CHART_RANKS);
	for (size_t t = 0; t < REP_META_NTESTS; t++) {
		const char *unit;
		const double med = sb_jv_num(sb_jv_get(sb_jv_get(skew, rep_meta_tests[t]),
						       "median_rate"),
					     NAN);
		if (!(med > 0))
			continue;
		cats[nt] = rep_meta_tests[t];
		for (size_t r = 0; r < nr; r++) {
			const struct sb_jv *x = sb_jv_get(sb_jv_get(sb_jv_at(ranks, r), "tests"),
							  rep_meta_tests[t]);
			y[r][nt] = 100 * rep_meta_rate_of(x, &unit) / med;
		}
		nt++;
	}
	if (!nt || !nr)
		return;
	struct chart_series s[CHART_RANKS];
	for (size_t r = 0; r < nr; r++) {
		const struct sb_jv *k = sb_jv_at(ranks, r);
		snprintf(name_buf[r], sizeof(name_buf[0]), "rank %.0f %.60s",
			 sb_jv_num(sb_jv_get(k, "rank"), -1), rep_or(rep_rank_host(k), "?"));
		names[r] = name_buf[r];
		s[r] = (struct chart_series){ .name = names[r], .y = y[r], .n = nt, .color = -1 };
	}
	char note[120];
	snprintf(note, sizeof(note), "100%% is the median rank of the test%s",
		 sb_jv_len(ranks) > nr ? "; the first 8 ranks, the table has them all" : "");
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
	const struct sb_jv *m = sb_jv_get(d->sb, "meta"), *ranks = sb_jv_get(m, "ranks");
	if (!sb_jv_is(m, SB_JV_OBJ))
		return;
	tests_table(f, sb_jv_get(m, "tests"), sb_jv_len(ranks) > 0);
	if (!sb_jv_len(ranks))
		return;
	skew_table(f, sb_jv_get(m, "skew"));
	ranks_chart(f, ranks, sb_jv_get(m, "skew"));
	ranks_table(f, ranks);
}
