/*
 * The meta section of the text report (storbench.meta, docs/latency-meta.md):
 * each test's rate and latency; under mpirun those are the All clients
 * aggregate, followed by a table of each rank's figures and the skew
 * (docs/mpi.md).
 */
#include "report/report.h"

#include <math.h>

const char *rep_meta_unit(int test)
{
	const enum sb_meta_test t = (enum sb_meta_test)test;
	return sb_meta_is_io(t) ? "bytes/s" : t == SB_META_SEEKS ? "seeks/s" : "files/s";
}

void rep_meta_rate(int test, double v, char *buf, size_t len)
{
	char n[48];
	const enum sb_meta_test t = (enum sb_meta_test)test;
	if (sb_meta_is_io(t)) {
		rep_fmt_rate(v, buf, len);
		return;
	}
	snprintf(buf, len, "%s %s/s", rep_fmt_count(v, n, sizeof(n)),
		 t == SB_META_SEEKS ? "seeks" : "files");
}

static void aggregate(FILE *f, const struct sb_meta_doc *m)
{
	struct rep_ttable t = {
		{ "test", "rate", "ops", "time", "min", "p50", "p99", "max" }, 8, 1, NULL, 0, 0
	};
	char a[64];
	for (int i = 0; i < SB_META_NTESTS; i++) {
		const struct sb_meta_result *r = &m->m.res[i];
		const struct sb_meta_doc_test *x = &m->t[i];
		if (!(m->tests & (1u << i)))
			continue;
		if (!rep_tt_row(&t))
			break;
		rep_tt_set(&t, 0, sb_meta_test_name((enum sb_meta_test)i));
		rep_meta_rate(i, x->rate, a, sizeof(a));
		rep_tt_set(&t, 1, a);
		snprintf(a, sizeof(a), "%llu", (unsigned long long)r->ops);
		rep_tt_set(&t, 2, a);
		rep_tt_set(&t, 3, rep_fmt_ns((double)r->elapsed_ns, a, sizeof(a)));
		rep_tt_set(&t, 4, rep_fmt_ns((double)x->lat_min, a, sizeof(a)));
		rep_tt_set(&t, 5, rep_fmt_ns(x->lat_pct[REP_META_P50], a, sizeof(a)));
		rep_tt_set(&t, 6, rep_fmt_ns(x->lat_pct[REP_META_P99], a, sizeof(a)));
		rep_tt_set(&t, 7, rep_fmt_ns((double)x->lat_max, a, sizeof(a)));
	}
	if (!t.nrows)
		return;
	fprintf(f, "\nmeta%s\n", m->m.nranks ? ": All clients (every rank together)" : "");
	rep_tt_print(f, &t);
}

/* A rank's number, from an index of the ranks (-1: none). */
static int rank_no(const struct sb_meta_run *m, int i)
{
	return i >= 0 && (unsigned)i < m->nranks ? m->ranks[i].rank : -1;
}

static void per_rank(FILE *f, const struct sb_meta_run *m, unsigned skews)
{
	struct rep_ttable t = {
		.head = { "test", "rank", "host", "rate", "ops", "p99", "start", "end",
			  "stonewalled" },
		.ncols = 8,
		.right_from = 3,
	};
	char a[64];
	/* --stonewall: a column for the ranks whose figures end where the
	 * first rank's did, when there are any */
	for (unsigned r = 0; r < m->nranks && t.ncols == 8; r++)
		for (int i = 0; i < SB_META_NTESTS; i++)
			if (m->ranks[r].t[i].ran && m->ranks[r].t[i].stonewalled)
				t.ncols = 9;
	for (int i = 0; i < SB_META_NTESTS; i++)
		for (unsigned r = 0; r < m->nranks; r++) {
			const struct sb_meta_rank *k = &m->ranks[r];
			const struct sb_meta_rank_test *x = &k->t[i];
			if (!x->ran)
				continue;
			if (!rep_tt_row(&t))
				break;
			rep_tt_set(&t, 0, sb_meta_test_name((enum sb_meta_test)i));
			snprintf(a, sizeof(a), "%d", k->rank);
			rep_tt_set(&t, 1, a);
			rep_tt_set(&t, 2, k->host);
			rep_meta_rate(i, x->rate, a, sizeof(a));
			rep_tt_set(&t, 3, a);
			snprintf(a, sizeof(a), "%llu", (unsigned long long)x->ops);
			rep_tt_set(&t, 4, a);
			rep_tt_set(&t, 5, rep_fmt_ns((double)x->lat_p99, a, sizeof(a)));
			rep_tt_set(&t, 6, rep_fmt_ns(1e9 * x->start_s, a, sizeof(a)));
			rep_tt_set(&t, 7, rep_fmt_ns(1e9 * x->end_s, a, sizeof(a)));
			if (t.ncols == 9)
				rep_tt_set(&t, 8, x->stonewalled ? "yes" : "");
		}
	fprintf(f, "\nper rank (start and end from the test's earliest start)\n");
	rep_tt_print(f, &t);
	fprintf(f, "\nskew\n");
	for (int i = 0; i < SB_META_NTESTS; i++) {
		const struct sb_meta_skew *k = &m->skew[i];
		char b[64];
		if (!(skews & (1u << i)))
			continue;
		fprintf(f,
			"  %-12s starts within %s, ends within %s; rank %d %+.0f%%, rank %d "
			"%+.0f%% against the median\n",
			sb_meta_test_name((enum sb_meta_test)i),
			rep_fmt_ns(1e9 * k->start_spread_s, a, sizeof(a)),
			rep_fmt_ns(1e9 * k->end_spread_s, b, sizeof(b)),
			rank_no(m, k->slowest_rank), 100 * k->slowest_vs_median,
			rank_no(m, k->fastest_rank), 100 * k->fastest_vs_median);
	}
}

int rep_meta_rank_no(const struct sb_meta_run *m, int i)
{
	return rank_no(m, i);
}

void rep_text_meta(FILE *f, const struct rep_doc *d)
{
	const struct sb_meta_doc *m = d->meta;
	if (!m)
		return;
	aggregate(f, m);
	if (m->m.nranks)
		per_rank(f, &m->m, m->skews);
	if (m->bonnie_csv[0])
		fprintf(f, "\nbonnie++ CSV%s: ", m->m.nranks ? " (All clients)" : ""),
			rep_vis_put(f, m->bonnie_csv), fputc('\n', f);
}
