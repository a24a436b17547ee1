/* needs: none */
/*
 * The one anomaly policy (sb_series_anomalies) and the soak verdict built
 * on it: small series worked out by hand, and synthetic series with a
 * known truth (v = 100 x (1 + CV x z), z standard normal from the
 * project's PRNG, several fixed seeds each): stationary noise, single
 * dips, a step, a drift, two levels of different noise with outliers in
 * both, long series, values left out, and the verdict's iteration numbers.
 */
#include "tests/lib/sbtest.h"

#include <math.h>

#include "lib/analysis/anomalies.h"
#include "lib/soak/soak_verdict.h"
#include "lib/base/rng.h"

#define NEAR(a, b) assert_true(fabs((a) - (double)(b)) < 1e-9 * (fabs((double)(b)) + 1))
#define SEEDS 5

static double gauss(struct sb_rng *r)
{
	double u = sb_rng_double(r) + 1e-300, v = sb_rng_double(r);
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* v[a..b) = level x (1 + cv z) */
static void noise(double *v, size_t a, size_t b, double level, double cv, struct sb_rng *r)
{
	for (size_t i = a; i < b; i++)
		v[i] = level * (1 + cv * gauss(r));
}

static int flagged(const struct sb_anomalies *a, size_t at)
{
	for (size_t o = 0; o < a->noutliers; o++)
		if (a->outliers[o] == at)
			return 1;
	return 0;
}

static void check_sorted(const struct sb_anomalies *a)
{
	assert_true(a->noutliers <= a->outliers_total);
	assert_true(a->noutliers <= SB_ANOMALY_MAX_OUTLIERS);
	for (size_t o = 1; o < a->noutliers; o++)
		assert_true(a->outliers[o - 1] < a->outliers[o]);
	for (size_t c = 1; c < a->nchanges; c++)
		assert_true(a->changes[c - 1].at < a->changes[c].at);
}

/* 10 x 100 then 10 x 50, analysed as logarithms (all values > 0). The
 * first level (one window: all 20 values) is halfway, log 100 - log 50 / 2
 * = 0.347 from every value: all residuals alike, nothing stands out. The
 * first differences are all 0 but one: sigma = mean |d| sqrt(pi) / 2 =
 * (ln 2 / 19) 0.886, beta = 3 sigma^2 ln 20 = 0.009, far below the
 * 20 x 0.347^2 = 2.4 that the split saves. Then each segment is constant:
 * no outlier. */
static void test_step(void **state)
{
	(void)state;
	double v[20];
	struct sb_anomalies a;
	for (int i = 0; i < 20; i++)
		v[i] = i < 10 ? 100 : 50;
	assert_int_equal(sb_series_anomalies(v, 20, &a), 0);
	assert_true(a.relative);
	assert_int_equal(a.outliers_total, 0);
	assert_int_equal(a.nchanges, 1);
	assert_int_equal(a.changes[0].at, 10);
	NEAR(a.changes[0].before, 100);
	NEAR(a.changes[0].after, 50);
	NEAR(a.changes[0].step, -0.5);
	NEAR(a.sigma, log(2.0) / 19 * sqrt(M_PI) / 2);
}

/* 99 100 101 repeated, v[8] = 40 (seven 99s, seven 100s, five 101s): the
 * median of the 19 others of v[8] is 100, residual ln 0.4 = -0.92; the
 * other residuals are 0 or +-0.01, their MAD 0.01 (scale 0.0148): z = 62
 * against a threshold of 3.5 (n = 20: the normal quantile of 0.01 / 20 is
 * 3.48). The ripple moves no level by 5%: no change. */
static void test_outlier(void **state)
{
	(void)state;
	double v[20];
	struct sb_anomalies a;
	for (int i = 0; i < 20; i++)
		v[i] = 99 + i % 3;
	v[8] = 40;
	assert_int_equal(sb_series_anomalies(v, 20, &a), 0);
	NEAR(a.threshold, 3.5);
	assert_int_equal(a.noutliers, 1);
	assert_int_equal(a.outliers_total, 1);
	assert_int_equal(a.outliers[0], 8);
	assert_int_equal(a.nchanges, 0);
}

/* Constant: MAD and mean deviation 0, nothing stands out; no split saves
 * anything. */
static void test_flat(void **state)
{
	(void)state;
	double v[20];
	struct sb_anomalies a;
	for (int i = 0; i < 20; i++)
		v[i] = 42;
	assert_int_equal(sb_series_anomalies(v, 20, &a), 0);
	assert_int_equal(a.outliers_total, 0);
	assert_int_equal(a.nchanges, 0);
}

/* n = 0, 1, 2, 4: nothing. n = 5: 100 100 100 100 1: the level of the
 * last is 100 (its four neighbours), residual ln 0.01 = -4.6; the others'
 * residuals are 0, so the scale is 1.2533 x the mean deviation 4.6 / 5:
 * z = 4 > 3.5. A change needs 5 values on each side: 9 values are too
 * few, 10 enough. */
static void test_short(void **state)
{
	(void)state;
	const double v[] = { 100, 100, 100, 100, 1 };
	double nine[10];
	struct sb_anomalies a;
	for (size_t n = 0; n < 5; n++) {
		assert_int_equal(sb_series_anomalies(v, n, &a), 0);
		assert_int_equal(a.outliers_total + a.nchanges, 0);
	}
	assert_int_equal(sb_series_anomalies(v, 5, &a), 0);
	assert_int_equal(a.outliers_total, 1);
	assert_int_equal(a.outliers[0], 4);
	for (int i = 0; i < 10; i++)
		nine[i] = i < 5 ? 100 : 50;
	assert_int_equal(sb_series_anomalies(nine, 9, &a), 0);
	assert_int_equal(a.nchanges, 0);
	assert_int_equal(sb_series_anomalies(nine, 10, &a), 0);
	assert_int_equal(a.nchanges, 1);
	assert_int_equal(a.changes[0].at, 5);
}

/* The first goal: 2000 iterations of Gaussian noise at 2% CV are
 * stationary: at most 0.2% flagged (4 values), no change point. */
static void test_stationary(void **state)
{
	(void)state;
	enum { N = 2000 };
	static double v[N];
	struct sb_anomalies a;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct sb_rng r;
		sb_rng_seed(&r, seed);
		noise(v, 0, N, 100, 0.02, &r);
		assert_int_equal(sb_series_anomalies(v, N, &a), 0);
		assert_true(a.outliers_total <= N / 500);
		assert_int_equal(a.nchanges, 0);
		/* the noise as estimated: 2% (of log values) */
		assert_true(fabs(a.sigma - 0.02) < 0.002);
	}
}

/* Ten single-iteration dips of 8 sigmas (16% at 2% CV), 150 apart: all
 * ten flagged, hardly anything else, no change point. */
static void test_dips(void **state)
{
	(void)state;
	enum { N = 2000 };
	static double v[N];
	struct sb_anomalies a;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct sb_rng r;
		sb_rng_seed(&r, 100 + seed);
		noise(v, 0, N, 100, 0.02, &r);
		for (size_t d = 0; d < 10; d++)
			v[137 + 150 * d] = 100 * (1 - 8 * 0.02);
		assert_int_equal(sb_series_anomalies(v, N, &a), 0);
		check_sorted(&a);
		for (size_t d = 0; d < 10; d++)
			assert_true(flagged(&a, 137 + 150 * d));
		assert_true(a.outliers_total <= 10 + N / 500);
		assert_int_equal(a.nchanges, 0);
	}
}

/* A 10% fall at iteration 1234 of 2000 (2% CV): exactly one change point,
 * within 5 iterations of it, with the levels either side. */
static void test_ten_percent_step(void **state)
{
	(void)state;
	enum { N = 2000, AT = 1234 };
	static double v[N];
	struct sb_anomalies a;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct sb_rng r;
		sb_rng_seed(&r, 200 + seed);
		noise(v, 0, AT, 100, 0.02, &r);
		noise(v, AT, N, 90, 0.02, &r);
		assert_int_equal(sb_series_anomalies(v, N, &a), 0);
		assert_int_equal(a.nchanges, 1);
		assert_true(a.changes[0].at + 5 >= AT && a.changes[0].at <= AT + 5);
		assert_true(fabs(a.changes[0].before - 100) < 1);
		assert_true(fabs(a.changes[0].after - 90) < 1);
		assert_true(fabs(a.changes[0].step + 0.1) < 0.01);
		assert_true(a.outliers_total <= N / 500);
	}
}

/* A slow linear fall of 20% over 2000 iterations (2% CV): the level
 * follows it, so no storm of outliers; what changes are told move the
 * level by 5% or more each (a staircase of at most 4 steps for 20%). */
static void test_drift(void **state)
{
	(void)state;
	enum { N = 2000 };
	static double v[N];
	struct sb_anomalies a;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct sb_rng r;
		sb_rng_seed(&r, 300 + seed);
		noise(v, 0, N, 100, 0.02, &r);
		for (size_t i = 0; i < N; i++)
			v[i] *= 1 - 0.2 * (double)i / N;
		assert_int_equal(sb_series_anomalies(v, N, &a), 0);
		assert_true(a.outliers_total <= N / 500);
		assert_true(a.nchanges <= 4);
		for (size_t c = 0; c < a.nchanges; c++)
			assert_true(a.changes[c].step <= -0.045);
	}
}

/* Two levels with different noise: 1500 iterations at 400 (1% CV), then
 * 500 at 150 (6% CV: after a write cache fills, a device is often
 * noisier), with five 8-sigma dips and five 8-sigma spikes in each, sigma
 * being each level's own. The change is found where it is; every dip and
 * spike is flagged (each segment has a scale of its own), and the noisier
 * segment is not a storm of outliers. */
static void test_two_levels(void **state)
{
	(void)state;
	enum { N = 2000, AT = 1500 };
	static double v[N];
	struct sb_anomalies a;
	size_t at[20];
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct sb_rng r;
		sb_rng_seed(&r, 400 + seed);
		noise(v, 0, AT, 400, 0.01, &r);
		noise(v, AT, N, 150, 0.06, &r);
		for (size_t k = 0; k < 10; k++) {
			at[k] = 50 + 140 * k; /* 50 .. 1310 */
			v[at[k]] = 400 * (1 + (k % 2 ? 8 : -8) * 0.01);
			at[10 + k] = AT + 20 + 45 * k; /* 1520 .. 1925 */
			v[at[10 + k]] = 150 * (1 + (k % 2 ? 8 : -8) * 0.06);
		}
		assert_int_equal(sb_series_anomalies(v, N, &a), 0);
		assert_int_equal(a.nchanges, 1);
		assert_true(a.changes[0].at + 5 >= AT && a.changes[0].at <= AT + 5);
		for (size_t k = 0; k < 20; k++)
			assert_true(flagged(&a, at[k]));
		assert_true(a.outliers_total <= 20 + 4);
	}
}

/* Values that are not finite are left out, their indices still counted:
 * the same anomalies as without them, at the same positions. */
static void test_not_finite(void **state)
{
	(void)state;
	enum { N = 600 };
	static double v[N], w[N + 4];
	struct sb_anomalies a, b;
	struct sb_rng r;
	sb_rng_seed(&r, 77);
	noise(v, 0, 300, 100, 0.02, &r);
	noise(v, 300, N, 70, 0.02, &r);
	v[100] = 60;
	const size_t holes[] = { 0, 100, 301, N };
	const double bad[] = { NAN, INFINITY, -INFINITY, NAN };
	/* w is v with a bad value before v[holes[k]] */
	for (size_t i = 0, j = 0, k = 0; i < N + 4; i++)
		w[i] = k < 4 && j == holes[k] ? bad[k++] : v[j++];
	assert_int_equal(sb_series_anomalies(v, N, &a), 0);
	assert_int_equal(sb_series_anomalies(w, N + 4, &b), 0);
	assert_true(b.relative);
	assert_int_equal(a.outliers_total, b.outliers_total);
	assert_true(flagged(&a, 100) && flagged(&b, 102));
	assert_int_equal(a.nchanges, 1);
	assert_int_equal(b.nchanges, 1);
	/* v[j] is w[j + the holes at or before j] */
	size_t j = a.changes[0].at, before = 0;
	for (size_t k = 0; k < 4; k++)
		before += holes[k] <= j;
	assert_int_equal(b.changes[0].at, j + before);
	NEAR(b.changes[0].before, a.changes[0].before);
	NEAR(b.changes[0].after, a.changes[0].after);
	/* nothing finite: nothing found */
	for (size_t i = 0; i < 10; i++)
		w[i] = NAN;
	assert_int_equal(sb_series_anomalies(w, 10, &b), 0);
	assert_int_equal(b.outliers_total + b.nchanges, 0);
}

/* A series with values <= 0 is analysed as it is (steps in its units). */
static void test_not_positive(void **state)
{
	(void)state;
	enum { N = 400 };
	double v[N];
	struct sb_anomalies a;
	struct sb_rng r;
	sb_rng_seed(&r, 8);
	noise(v, 0, 200, -100, 0.02, &r);
	noise(v, 200, N, -50, 0.04, &r);
	v[50] = -130;
	assert_int_equal(sb_series_anomalies(v, N, &a), 0);
	assert_false(a.relative);
	assert_int_equal(a.nchanges, 1);
	assert_true(a.changes[0].at + 5 >= 200 && a.changes[0].at <= 205);
	assert_true(fabs(a.changes[0].step + 0.5) < 0.02);
	assert_true(flagged(&a, 50));
}

/* 100,000 values (a day of 1 s iterations): changes are searched on a
 * grid of 50 and then placed exactly; 300 dips are all counted, the first
 * SB_ANOMALY_MAX_OUTLIERS kept. */
static void test_long(void **state)
{
	(void)state;
	enum { N = 100000 };
	double *v = malloc(N * sizeof(*v));
	struct sb_anomalies a;
	struct sb_rng r;
	assert_non_null(v);
	sb_rng_seed(&r, 99);
	noise(v, 0, 54321, 100, 0.02, &r);
	noise(v, 54321, 54400, 60, 0.02, &r); /* 79 slow iterations */
	noise(v, 54400, N, 93, 0.02, &r);
	for (size_t k = 0; k < 300; k++)
		v[7 + 331 * k] *= 0.7;
	assert_int_equal(sb_series_anomalies(v, N, &a), 0);
	check_sorted(&a);
	assert_int_equal(a.nchanges, 2);
	assert_true(a.changes[0].at + 5 >= 54321 && a.changes[0].at <= 54321 + 5);
	assert_true(a.changes[1].at + 5 >= 54400 && a.changes[1].at <= 54400 + 5);
	assert_true(fabs(a.changes[1].after - 93) < 1);
	assert_true(a.outliers_total >= 300 && a.outliers_total <= 300 + 4);
	assert_int_equal(a.noutliers, SB_ANOMALY_MAX_OUTLIERS);
	for (size_t o = 0; o < a.noutliers; o++)
		assert_int_equal(a.outliers[o], 7 + 331 * o);
	free(v);
}

/* More changes than are kept: 41 levels of 60 iterations, each 20% below
 * or above the one before; the SB_ANOMALY_MAX_CHANGES kept are real. */
static void test_many_changes(void **state)
{
	(void)state;
	enum { L = 60, K = 41 };
	static double v[L * K];
	struct sb_anomalies a;
	struct sb_rng r;
	sb_rng_seed(&r, 5);
	for (size_t k = 0; k < K; k++)
		noise(v, k * L, (k + 1) * L, k % 2 ? 80 : 100, 0.01, &r);
	assert_int_equal(sb_series_anomalies(v, L * K, &a), 0);
	assert_int_equal(a.nchanges, SB_ANOMALY_MAX_CHANGES);
	check_sorted(&a);
	for (size_t c = 0; c < a.nchanges; c++) {
		size_t near = (a.changes[c].at + L / 2) / L * L;
		assert_true(a.changes[c].at + 2 >= near && a.changes[c].at <= near + 2);
	}
}

/* Iterations 1..21, write 100 MB/s then 50 from iteration 12; iteration 3
 * interrupted with a tiny figure (left out: the step stays at series index
 * 10, which is iteration 12, not an outlier at 3); iteration 7 has two
 * corrupted blocks (failed). Read is flat but for iteration 5, which
 * measured an infinite rate (left out too). */
static void test_verdict(void **state)
{
	(void)state;
	struct sb_soak_iter it[21];
	struct sb_soak_summary s;
	memset(it, 0, sizeof(it));
	for (int i = 0; i < 21; i++) {
		it[i].n = (uint64_t)i + 1;
		it[i].write_bw = i < 11 ? 100e6 : 50e6;
		it[i].read_bw = 200e6;
	}
	it[2].interrupted = 1;
	it[2].write_bw = 1;
	it[4].read_bw = INFINITY;
	it[6].count[SB_VERIFY_CORRUPTED] = 2;
	assert_int_equal(sb_soak_summarize(it, 21, 0, &s), 0);
	assert_int_equal(s.iterations, 21);
	assert_int_equal(s.failed, 1);
	assert_int_equal(s.verify_bad, 2);
	assert_int_equal(s.m[0].st.n, 20);
	assert_int_equal(s.m[0].outliers_total, 0);
	assert_int_equal(s.m[0].nchanges, 1);
	assert_int_equal(s.m[0].changes[0].at, 12);
	NEAR(s.m[0].changes[0].before, 100e6);
	NEAR(s.m[0].changes[0].after, 50e6);
	assert_int_equal(s.m[1].st.n, 19);
	NEAR(s.m[1].st.max, 200e6);
	assert_int_equal(s.m[1].outliers_total + s.m[1].nchanges, 0);
	assert_int_equal(s.anomalies, 1);
	assert_false(s.pass);
	assert_string_equal(s.m[0].name, "write_bw");
	/* without the failed iteration: an anomaly passes unless asked */
	it[6].count[SB_VERIFY_CORRUPTED] = 0;
	assert_int_equal(sb_soak_summarize(it, 21, 0, &s), 0);
	assert_true(s.pass);
	assert_int_equal(sb_soak_summarize(it, 21, 1, &s), 0);
	assert_false(s.pass);
}

/* The verdict counts every outlier, not only those it lists. */
static void test_verdict_counts_all(void **state)
{
	(void)state;
	enum { N = 2000 };
	static struct sb_soak_iter it[N];
	struct sb_soak_summary s;
	struct sb_rng r;
	sb_rng_seed(&r, 3);
	memset(it, 0, sizeof(it));
	for (size_t i = 0; i < N; i++) {
		it[i].n = i + 1;
		it[i].write_bw = 100e6 * (1 + 0.02 * gauss(&r));
		it[i].read_bw = 200e6 * (1 + 0.02 * gauss(&r));
		if (i % 20 == 10)
			it[i].write_bw /= 2;
	}
	assert_int_equal(sb_soak_summarize(it, N, 1, &s), 0);
	assert_true(s.m[0].outliers_total >= 100);
	assert_int_equal(s.m[0].noutliers, SB_ANOMALY_MAX_OUTLIERS);
	assert_int_equal(s.m[0].outliers[0], 11); /* iteration numbers */
	assert_int_equal(s.anomalies, (int)(s.m[0].outliers_total + s.m[0].nchanges +
					    s.m[1].outliers_total + s.m[1].nchanges));
	assert_false(s.pass);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_outlier),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_short),
		cmocka_unit_test(test_stationary),
		cmocka_unit_test(test_dips),
		cmocka_unit_test(test_ten_percent_step),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_two_levels),
		cmocka_unit_test(test_not_finite),
		cmocka_unit_test(test_not_positive),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_many_changes),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_verdict_counts_all),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
