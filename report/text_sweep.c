/*
 * A sweep in text (storbench report): per test the matrix of KiB/s (file
 * size down, record size across), and for a sweep of many ranks (mpirun,
 * docs/mpi.md) the matrices are the All clients aggregate, followed by a
 * row per rank and test: its rate over the test's cells and the widest
 * start and end spread of the ranks. From storbench.sweep.
 */
#include "report/report.h"

static double cell(const struct sb_jv *m, size_t fi, size_t ri, int *ok)
{
	const struct sb_jv *c = sb_jv_at(sb_jv_at(m, fi), ri);
	*ok = sb_jv_is(c, SB_JV_NUM);
	return *ok ? c->num.d : 0;
}

double rep_sweep_rank_rate(const struct sb_jv *rank_test)
{
	const struct sb_jv *b = sb_jv_get(rank_test, "bytes");
	const struct sb_jv *e = sb_jv_get(rank_test, "elapsed_ns");
	double bytes = 0, ns = 0;
	for (size_t fi = 0; fi < sb_jv_len(b); fi++)
		for (size_t ri = 0; ri < sb_jv_len(sb_jv_at(b, fi)); ri++) {
			int okb, oke;
			const double x = cell(b, fi, ri, &okb), y = cell(e, fi, ri, &oke);
			if (okb && oke && y > 0)
				bytes += x, ns += y;
		}
	return ns > 0 ? bytes / ns * 1e9 : -1;
}

double rep_sweep_widest(const struct sb_jv *test, const char *key)
{
	const struct sb_jv *m = sb_jv_get(test, key);
	double w = 0;
	for (size_t fi = 0; fi < sb_jv_len(m); fi++)
		for (size_t ri = 0; ri < sb_jv_len(sb_jv_at(m, fi)); ri++) {
			int ok;
			const double v = cell(m, fi, ri, &ok);
			if (ok && v > w)
				w = v;
		}
	return w;
}

/* A size label in KiB; "?" for what no sweep writes. */
static void size_kib(FILE *f, const struct sb_jv *v)
{
	const double b = sb_jv_num(v, -1);
	if (b >= 0 && b <= 1e18)
		fprintf(f, "%10.0f", b / 1024);
	else
		fprintf(f, "%10s", "?");
}

static void matrix(FILE *f, const struct sb_jv *s, const struct sb_jv *test)
{
	const struct sb_jv *fs = sb_jv_get(s, "file_sizes"), *rs = sb_jv_get(s, "record_sizes");
	const struct sb_jv *m = sb_jv_get(test, "kib_per_s");
	fprintf(f, "\n%s (%s), KiB/s: file size down, record size across (KiB)\n",
		rep_or(sb_jv_str(sb_jv_get(test, "title")), "?"),
		rep_or(sb_jv_str(sb_jv_get(test, "test")), "?"));
	const size_t nf = SB_MIN(sb_jv_len(fs), SB_SWEEP_MAX_SIZES);
	const size_t nr = SB_MIN(sb_jv_len(rs), SB_SWEEP_MAX_SIZES);
	fprintf(f, "%10s", "");
	for (size_t ri = 0; ri < nr; ri++) {
		fputc(' ', f);
		size_kib(f, sb_jv_at(rs, ri));
	}
	fputc('\n', f);
	for (size_t fi = 0; fi < nf; fi++) {
		size_kib(f, sb_jv_at(fs, fi));
		for (size_t ri = 0; ri < nr; ri++) {
			int ok;
			const double v = cell(m, fi, ri, &ok);
			if (ok)
				fprintf(f, " %10.0f", v);
			else
				fprintf(f, " %10s", "-");
		}
		fputc('\n', f);
	}
}

static void ranks(FILE *f, const struct sb_jv *s)
{
	const struct sb_jv *rk = sb_jv_get(s, "ranks"), *tests = sb_jv_get(s, "tests");
	struct rep_ttable t = {
		{ "rank", "host", "test", "bandwidth", "start spread", "end spread" },
		6,
		3,
		NULL,
		0,
		0
	};
	char a[48];
	for (size_t k = 0; k < sb_jv_len(rk); k++) {
		const struct sb_jv *r = sb_jv_at(rk, k), *rt = sb_jv_get(r, "tests");
		for (size_t i = 0; i < sb_jv_len(rt) && i < sb_jv_len(tests); i++) {
			if (!rep_tt_row(&t))
				return;
			snprintf(a, sizeof(a), "%.0f", sb_jv_num(sb_jv_get(r, "rank"), -1));
			rep_tt_set(&t, 0, a);
			rep_tt_set(&t, 1, rep_or(sb_jv_str(sb_jv_get(r, "hostname")), "?"));
			rep_tt_set(&t, 2,
				   rep_or(sb_jv_str(sb_jv_get(sb_jv_at(rt, i), "test")), "?"));
			const double bw = rep_sweep_rank_rate(sb_jv_at(rt, i));
			rep_tt_set(&t, 3, bw < 0 ? "-" : rep_fmt_rate(bw, a, sizeof(a)));
			/* the test's widest spread, the same on each rank's row */
			const struct sb_jv *agg = sb_jv_at(tests, i);
			snprintf(a, sizeof(a), "%.3f ms",
				 1e3 * rep_sweep_widest(agg, "start_spread_s"));
			rep_tt_set(&t, 4, a);
			snprintf(a, sizeof(a), "%.3f ms",
				 1e3 * rep_sweep_widest(agg, "end_spread_s"));
			rep_tt_set(&t, 5, a);
		}
	}
	if (!t.nrows)
		return;
	fprintf(f, "\nranks: each rank's bytes over its time, per test; the spreads are the "
		   "widest of the test's cells\n");
	rep_tt_print(f, &t);
}

void rep_text_sweep(FILE *f, const struct rep_doc *d)
{
	const struct sb_jv *s = sb_jv_get(d->sb, "sweep");
	const struct sb_jv *tests = sb_jv_get(s, "tests");
	if (!sb_jv_len(tests))
		return;
	const double n = sb_jv_num(sb_jv_get(sb_jv_get(d->sb, "mpi"), "ranks"), 0);
	fprintf(f, "\nsweep: %.0f of %.0f cells measured%s",
		sb_jv_num(sb_jv_get(s, "cells_done"), 0),
		sb_jv_num(sb_jv_get(s, "cells_planned"), 0),
		sb_jv_bool(sb_jv_get(s, "interrupted"), 0) ? " (interrupted)" : "");
	if (sb_jv_len(sb_jv_get(s, "ranks")))
		fprintf(f,
			"; All clients of %.0f ranks (each cell the ranks' bytes over the time "
			"from the earliest start to the latest end)",
			n);
	fputc('\n', f);
	for (size_t i = 0; i < sb_jv_len(tests); i++)
		matrix(f, s, sb_jv_at(tests, i));
	ranks(f, s);
}
