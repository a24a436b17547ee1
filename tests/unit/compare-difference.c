/* needs: none */
/* compare's rule for a real difference (lib/analysis/difference.c): the
 * spread of repeats; a verdict from the rank test only where the runs are
 * enough for it, the shift and its interval worked out by hand; and the
 * goals on samples with a known truth: same-distribution runs with 5% noise
 * called changed rarely, a 30% slowdown found nearly always. */
#include "tests/lib/sbtest.h"

#include <math.h>

#include "lib/analysis/difference.h"
#include "lib/base/rng.h"

#define NEAR(a, b) assert_true(fabs((a) - (double)(b)) < 1e-9 * (fabs((double)(b)) + 1))

static void test_spread(void **state)
{
	(void)state;
	double v[] = { 30, NAN, 10, INFINITY, 20, 40 }; /* finite: 10 20 30 40 */
	struct sb_spread s = { -1, -1, -1 };
	assert_int_equal(sb_spread_of(v, 6, &s), 4);
	NEAR(s.med, 25);
	NEAR(s.min, 10);
	NEAR(s.max, 40);
	double one[] = { 7 };
	assert_int_equal(sb_spread_of(one, 1, &s), 1);
	assert_true(s.med == 7 && s.min == 7 && s.max == 7);
	double none[] = { NAN, -INFINITY };
	s = (struct sb_spread){ 1, 2, 3 };
	assert_int_equal(sb_spread_of(none, 2, &s), 0);
	assert_true(s.med == 1 && s.min == 2 && s.max == 3); /* left alone */
}

static void test_needed(void **state)
{
	(void)state;
	/* 2 / C(6, 3) = 0.1 > 0.05; 2 / C(8, 4) = 0.029 */
	assert_int_equal(sb_diff_runs_needed(), 4);
	assert_true(SB_DIFF_RUNS_ADVISED >= sb_diff_runs_needed());
}

/* Too few runs: no verdict, whatever the size of the difference; the
 * estimate is still there, without an interval. */
static void test_inconclusive(void **state)
{
	(void)state;
	struct sb_difference d;
	double a1[] = { 100 }, b1[] = { 50 };
	assert_int_equal(sb_difference(a1, 1, b1, 1, 1, &d), 0);
	assert_int_equal(d.verdict, SB_DIFF_INCONCLUSIVE);
	NEAR(d.pct, -50);
	assert_true(isnan(d.lo_pct) && isnan(d.hi_pct) && isnan(d.p) && isnan(d.confidence));
	assert_true(d.na == 1 && d.nb == 1 && d.needed == 4);
	double a2[] = { 100, 101 }, b2[] = { 10, 11 }; /* ten times slower, 2 runs */
	assert_int_equal(sb_difference(a2, 2, b2, 2, 1, &d), 0);
	assert_int_equal(d.verdict, SB_DIFF_INCONCLUSIVE);
	double a3[] = { 100, 101, 102 }, b3[] = { 10, 11, 12 };
	assert_int_equal(sb_difference(a3, 3, b3, 3, 1, &d), 0);
	assert_int_equal(d.verdict, SB_DIFF_INCONCLUSIVE);
	/* one run against many: the test could speak, but a side of one run
	 * says nothing of its own spread */
	double many[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };
	assert_int_equal(sb_difference(a1, 1, many, 20, 1, &d), 0);
	assert_int_equal(d.verdict, SB_DIFF_INCONCLUSIVE);
	/* 3 against 5 can reach 5% (2/56): a verdict */
	double b5[] = { 10, 11, 12, 13, 14 };
	assert_int_equal(sb_difference(a3, 3, b5, 5, 1, &d), 0);
	assert_int_equal(d.verdict, SB_DIFF_WORSE);
	NEAR(d.p, 2.0 / 56);
	/* runs that are not finite do not count */
	double an[] = { 100, NAN, 101, INFINITY, 102, 103 }, bn[] = { 50, 51, 52, 53, NAN };
	assert_int_equal(sb_difference(an, 6, bn, 5, 1, &d), 0);
	assert_true(d.na == 4 && d.nb == 4);
	assert_int_equal(d.verdict, SB_DIFF_WORSE);
	NEAR(d.p, 2.0 / 70);
	double nan1[] = { NAN };
	assert_int_equal(sb_difference(nan1, 1, b1, 1, 1, &d), -EINVAL);
	assert_int_equal(sb_difference(a1, 1, NULL, 1, 1, &d), -EINVAL);
}

/* 5 runs, b = 0.7 a: every ratio b_j / a_i is 0.7 a_j / a_i, a set closed
 * under a_j / a_i -> a_i / a_j, so the median is 0.7 (-30%). k = 3 (P(U <=
 * 2) = 4/252): the third smallest a_j / a_i is 101/104, the third largest
 * 104/101. p = 2/252. */
static void test_shift(void **state)
{
	(void)state;
	double a[] = { 100, 101, 102, 103, 104 }, b[5];
	struct sb_difference d;
	for (int i = 0; i < 5; i++)
		b[i] = 0.7 * a[i];
	assert_int_equal(sb_difference(a, 5, b, 5, 1, &d), 0);
	assert_int_equal(d.verdict, SB_DIFF_WORSE);
	NEAR(d.pct, -30);
	NEAR(d.lo_pct, 100 * (0.7 * 101 / 104 - 1));
	NEAR(d.hi_pct, 100 * (0.7 * 104 / 101 - 1));
	NEAR(d.confidence, 1 - 8.0 / 252);
	NEAR(d.p, 2.0 / 252);
	/* latency: lower is better */
	assert_int_equal(sb_difference(a, 5, b, 5, 0, &d), 0);
	assert_int_equal(d.verdict, SB_DIFF_BETTER);
	assert_int_equal(sb_difference(b, 5, a, 5, 0, &d), 0);
	assert_int_equal(d.verdict, SB_DIFF_WORSE);
	NEAR(d.pct, 100 * (1 / 0.7 - 1));
	/* the same runs on both sides: no change, p = 1, estimate 0 */
	assert_int_equal(sb_difference(a, 5, a, 5, 1, &d), 0);
	assert_int_equal(d.verdict, SB_DIFF_NOISE);
	NEAR(d.pct, 0);
	NEAR(d.p, 1);
	assert_true(d.lo_pct < 0 && d.hi_pct > 0);
	/* interleaved: 100 102 104 against 101 103 105 107 109 */
	double x[] = { 100, 102, 104, 106, 108 }, y[] = { 101, 103, 105, 107, 109 };
	assert_int_equal(sb_difference(x, 5, y, 5, 1, &d), 0);
	assert_int_equal(d.verdict, SB_DIFF_NOISE);
	assert_true(d.p > 0.5 && d.lo_pct < 0 && d.hi_pct > 0);
	/* a value of 0 (a direction that moved nothing in a run): differences
	 * over a's median 20: b - a over all pairs of {0, 10, 20, 30, 40} and
	 * {5, 15, 25, 35, 45}: median 5, so +25% */
	double z[] = { 0, 10, 20, 30, 40 }, w[] = { 5, 15, 25, 35, 45 };
	assert_int_equal(sb_difference(z, 5, w, 5, 1, &d), 0);
	NEAR(d.pct, 5.0 / 20 * 100);
	assert_int_equal(d.verdict, SB_DIFF_NOISE);
	double zz[] = { 0, 0, 0, 0 }, ww[] = { 1, 1, 1, 1 };
	assert_int_equal(sb_difference(zz, 4, ww, 4, 1, &d), 0);
	assert_true(isnan(d.pct)); /* no percent of nothing */
	assert_int_equal(d.verdict, SB_DIFF_BETTER);
}

/* ---- the goals, on samples with a known truth ---- */
static double gauss(struct sb_rng *r)
{
	double u = 1 - sb_rng_double(r), v = sb_rng_double(r);
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* Share of `trials` comparisons of n runs a side, noise cv, b's true level
 * `factor` times a's, that get a verdict other than "within noise" (or, with
 * want_worse, that are called worse). */
static double rate(uint64_t seed, int trials, int n, double cv, double factor, int want_worse)
{
	struct sb_rng r;
	int hits = 0;
	sb_rng_seed(&r, seed);
	for (int t = 0; t < trials; t++) {
		double a[16], b[16];
		struct sb_difference d;
		for (int i = 0; i < n; i++) {
			a[i] = 1000 * (1 + cv * gauss(&r));
			b[i] = 1000 * factor * (1 + cv * gauss(&r));
		}
		assert_int_equal(sb_difference(a, (size_t)n, b, (size_t)n, 1, &d), 0);
		hits += want_worse ? d.verdict == SB_DIFF_WORSE
				   : d.verdict == SB_DIFF_BETTER || d.verdict == SB_DIFF_WORSE;
	}
	return (double)hits / trials;
}

static void test_goals(void **state)
{
	(void)state;
	double fp5 = rate(1, 4000, 5, 0.05, 1, 0), fp2 = rate(2, 4000, 2, 0.05, 1, 0);
	double fp10 = rate(3, 4000, 10, 0.05, 1, 0);
	double pow5 = rate(4, 4000, 5, 0.05, 0.7, 1), pow4 = rate(5, 4000, 4, 0.05, 0.7, 1);
	print_message("same distribution, 5%% noise: changed in %.2f%% (5 runs), %.2f%% (2 runs), "
		      "%.2f%% (10 runs)\n",
		      100 * fp5, 100 * fp2, 100 * fp10);
	print_message("30%% slower, 5%% noise: worse in %.2f%% (5 runs), %.2f%% (4 runs)\n",
		      100 * pow5, 100 * pow4);
	assert_true(fp5 <= 0.10 && fp2 <= 0.10 && fp10 <= 0.10);
	assert_true(fp2 == 0);	 /* 2 runs: never a verdict */
	assert_true(fp5 > 0.01); /* the test does speak at 5 runs: about 3% (2 * 4/252) */
	assert_true(pow5 >= 0.95 && pow4 >= 0.95);
	/* a smaller step, 2.5 noise sigmas, at the advised count: most of the time */
	double pow_small = rate(6, 4000, SB_DIFF_RUNS_ADVISED, 0.04, 0.9, 1);
	print_message("10%% slower, 4%% noise, %d runs: worse in %.2f%%\n", SB_DIFF_RUNS_ADVISED,
		      100 * pow_small);
	assert_true(pow_small >= 0.5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread),	     cmocka_unit_test(test_needed),
		cmocka_unit_test(test_inconclusive), cmocka_unit_test(test_shift),
		cmocka_unit_test(test_goals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
