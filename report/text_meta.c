/*
 * The meta section of the text report (storbench.meta, docs/latency-meta.md):
 * each test's rate and latency; under mpirun those are the All clients
 * aggregate, followed by a table of each rank's figures and the skew
 * (docs/mpi.md).
 */
#include "report/report.h"

#include <math.h>

const char *const rep_meta_tests[REP_META_NTESTS] = { "putc",	     "write",	  "rewrite",
						      "getc",	     "read",	  "seeks",
						      "seq_create",  "seq_stat",  "seq_delete",
						      "rand_create", "rand_stat", "rand_delete" };

double rep_meta_rate_of(const struct sb_jv *t, const char **unit)
{
	static const char *const keys[][2] = { { "bw_bytes", "bytes/s" },
					       { "seeks_per_s", "seeks/s" },
					       { "files_per_s", "files/s" } };
	for (size_t i = 0; i < SB_ARRAY_SIZE(keys); i++)
		if (sb_jv_is(sb_jv_get(t, keys[i][0]), SB_JV_NUM)) {
			*unit = keys[i][1];
			return sb_jv_num(sb_jv_get(t, keys[i][0]), NAN);
		}
	*unit = NULL;
	return NAN;
}

void rep_meta_rate(const struct sb_jv *t, char *buf, size_t len)
{
	char n[48];
	double v = sb_jv_num(sb_jv_get(t, "bw_bytes"), NAN);
	if (!isnan(v)) {
		rep_fmt_rate(v, buf, len);
		return;
	}
	v = sb_jv_num(sb_jv_get(t, "seeks_per_s"), NAN);
	const int seeks = !isnan(v);
	if (!seeks)
		v = sb_jv_num(sb_jv_get(t, "files_per_s"), 0);
	snprintf(buf, len, "%s %s/s", rep_fmt_count(v, n, sizeof(n)), seeks ? "seeks" : "files");
}

static void aggregate(FILE *f, const struct sb_jv *ts, int ranks)
{
	struct rep_ttable t = {
		{ "test", "rate", "ops", "time", "min", "p50", "p99", "max" }, 8, 1, NULL, 0, 0
	};
	char a[64];
	for (size_t i = 0; i < SB_ARRAY_SIZE(rep_meta_tests); i++) {
		const struct sb_jv *x = sb_jv_get(ts, rep_meta_tests[i]),
				   *l = sb_jv_get(x, "lat_ns");
		const struct sb_jv *p = sb_jv_get(l, "percentile");
		if (!sb_jv_is(x, SB_JV_OBJ))
			continue;
		if (!rep_tt_row(&t))
			break;
		rep_tt_set(&t, 0, rep_meta_tests[i]);
		rep_meta_rate(x, a, sizeof(a));
		rep_tt_set(&t, 1, a);
		snprintf(a, sizeof(a), "%.0f", sb_jv_num(sb_jv_get(x, "ops"), 0));
		rep_tt_set(&t, 2, a);
		rep_tt_set(&t, 3,
			   rep_fmt_ns(sb_jv_num(sb_jv_get(x, "elapsed_ns"), NAN), a, sizeof(a)));
		rep_tt_set(&t, 4, rep_fmt_ns(sb_jv_num(sb_jv_get(l, "min"), NAN), a, sizeof(a)));
		rep_tt_set(&t, 5,
			   rep_fmt_ns(sb_jv_num(sb_jv_get(p, "50.000000"), NAN), a, sizeof(a)));
		rep_tt_set(&t, 6,
			   rep_fmt_ns(sb_jv_num(sb_jv_get(p, "99.000000"), NAN), a, sizeof(a)));
		rep_tt_set(&t, 7, rep_fmt_ns(sb_jv_num(sb_jv_get(l, "max"), NAN), a, sizeof(a)));
	}
	if (!t.nrows)
		return;
	fprintf(f, "\nmeta%s\n", ranks ? ": All clients (every rank together)" : "");
	rep_tt_print(f, &t);
}

static void per_rank(FILE *f, const struct sb_jv *ranks, const struct sb_jv *skew)
{
	struct rep_ttable t = {
		.head = { "test", "rank", "host", "rate", "ops", "p99", "start", "end", "stonewalled" },
		.ncols = 8,
		.right_from = 3,
	};
	char a[64];
	/* --stonewall: a column for the ranks whose figures end where the
	 * first rank's did, when there are any */
	for (size_t r = 0; r < sb_jv_len(ranks) && t.ncols == 8; r++)
		for (size_t i = 0; i < SB_ARRAY_SIZE(rep_meta_tests); i++)
			if (sb_jv_bool(sb_jv_get(sb_jv_get(sb_jv_get(sb_jv_at(ranks, r), "tests"),
							   rep_meta_tests[i]),
						 "stonewalled"),
				       0))
				t.ncols = 9;
	for (size_t i = 0; i < SB_ARRAY_SIZE(rep_meta_tests); i++)
		for (size_t r = 0; r < sb_jv_len(ranks); r++) {
			const struct sb_jv *k = sb_jv_at(ranks, r);
			const struct sb_jv *x = sb_jv_get(sb_jv_get(k, "tests"), rep_meta_tests[i]);
			if (!sb_jv_is(x, SB_JV_OBJ))
				continue;
			if (!rep_tt_row(&t))
				break;
			rep_tt_set(&t, 0, rep_meta_tests[i]);
			snprintf(a, sizeof(a), "%.0f", sb_jv_num(sb_jv_get(k, "rank"), -1));
			rep_tt_set(&t, 1, a);
			rep_tt_set(&t, 2, rep_or(sb_jv_str(sb_jv_get(k, "hostname")), "?"));
			rep_meta_rate(x, a, sizeof(a));
			rep_tt_set(&t, 3, a);
			snprintf(a, sizeof(a), "%.0f", sb_jv_num(sb_jv_get(x, "ops"), 0));
			rep_tt_set(&t, 4, a);
			rep_tt_set(&t, 5,
				   rep_fmt_ns(sb_jv_num(sb_jv_get(sb_jv_get(x, "lat_ns"), "p99"),
							NAN),
					      a, sizeof(a)));
			rep_tt_set(&t, 6,
				   rep_fmt_ns(1e9 * sb_jv_num(sb_jv_get(x, "start_s"), NAN), a,
					      sizeof(a)));
			rep_tt_set(&t, 7,
				   rep_fmt_ns(1e9 * sb_jv_num(sb_jv_get(x, "end_s"), NAN), a,
					      sizeof(a)));
			if (t.ncols == 9)
				rep_tt_set(&t, 8,
					   sb_jv_bool(sb_jv_get(x, "stonewalled"), 0) ? "yes" : "");
		}
	fprintf(f, "\nper rank (start and end from the test's earliest start)\n");
	rep_tt_print(f, &t);
	fprintf(f, "\nskew\n");
	for (size_t i = 0; i < SB_ARRAY_SIZE(rep_meta_tests); i++) {
		const struct sb_jv *k = sb_jv_get(skew, rep_meta_tests[i]);
		char b[64];
		if (!sb_jv_is(k, SB_JV_OBJ))
			continue;
		fprintf(f,
			"  %-12s starts within %s, ends within %s; rank %.0f %+.0f%%, rank %.0f "
			"%+.0f%% against the median\n",
			rep_meta_tests[i],
			rep_fmt_ns(1e9 * sb_jv_num(sb_jv_get(k, "start_spread_s"), NAN), a,
				   sizeof(a)),
			rep_fmt_ns(1e9 * sb_jv_num(sb_jv_get(k, "end_spread_s"), NAN), b,
				   sizeof(b)),
			sb_jv_num(sb_jv_get(k, "slowest_rank"), -1),
			100 * sb_jv_num(sb_jv_get(k, "slowest_vs_median"), 0),
			sb_jv_num(sb_jv_get(k, "fastest_rank"), -1),
			100 * sb_jv_num(sb_jv_get(k, "fastest_vs_median"), 0));
	}
}

void rep_text_meta(FILE *f, const struct rep_doc *d)
{
	const struct sb_jv *m = sb_jv_get(d->sb, "meta"), *ranks = sb_jv_get(m, "ranks");
	if (!sb_jv_is(m, SB_JV_OBJ))
		return;
	aggregate(f, sb_jv_get(m, "tests"), sb_jv_len(ranks) > 0);
	if (sb_jv_len(ranks))
		per_rank(f, ranks, sb_jv_get(m, "skew"));
	const char *csv = sb_jv_str(sb_jv_get(m, "bonnie_csv"));
	if (csv && *csv)
		fprintf(f, "\nbonnie++ CSV%s: %s\n", sb_jv_len(ranks) ? " (All clients)" : "", csv);
}
