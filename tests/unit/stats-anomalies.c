/*
 * The one anomaly policy (sb_series_anomalies) and the soak verdict built
 * on it, against series worked out by hand: a clean step, one outlier, a
 * flat series, series too short for either, and the verdict's choice of
 * iterations (an interrupted one is left out) and its iteration numbers.
 */
#include "tests/lib/sbtest.h"

#include <math.h>

#include "lib/analysis/anomalies.h"
#include "lib/analysis/soak_verdict.h"

#define NEAR(a, b) assert_true(fabs((a) - (double)(b)) < 1e-9 * (fabs((double)(b)) + 1))

/* 10 x 100 then 10 x 50. The running median of width 5 keeps the step
 * where it is (index 9: 100 100 100 50 50 -> 100; index 10: 100 100 50 50
 * 50 -> 50). The differences are all 0 but one: sigma falls back to 1e-3
 * of the range, beta = 2 * 0.05^2 * ln 20, far below the 20 * 25^2 that
 * the split saves. Each value equals the median of the 11 around it:
 * no outlier. */
static void test_step(void **state)
{
	(void)state;
	double v[20];
	struct sb_anomalies a;
	for (int i = 0; i < 20; i++)
		v[i] = i < 10 ? 100 : 50;
	assert_int_equal(sb_series_anomalies(v, 20, &a), 0);
	assert_int_equal(a.noutliers, 0);
	assert_int_equal(a.nchanges, 1);
	assert_int_equal(a.changes[0].at, 10);
	NEAR(a.changes[0].before, 100);
	NEAR(a.changes[0].after, 50);
	NEAR(a.changes[0].step, -0.5);
}

/* 99 100 101 repeated, v[8] = 40. The window of 11 around 8 (3..13) holds
 * 40, four 99, four 100, two 101: median 100; deviations from it four
 * 0s, six 1s and 60: MAD 1, z = 60 / 1.4826 = 40.5.
 * Everything else is at most 2 from its window's median (z <= 1.35).
 * The running median drops the 40 (6..10: 99 100 40 99 100 -> 99); any
 * split of a 99..101 ripple moves the level by less than 10%. */
static void test_outlier(void **state)
{
	(void)state;
	double v[20];
	struct sb_anomalies a;
	for (int i = 0; i < 20; i++)
		v[i] = 99 + i % 3;
	v[8] = 40;
	assert_int_equal(sb_series_anomalies(v, 20, &a), 0);
	assert_int_equal(a.noutliers, 1);
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
	assert_int_equal(a.noutliers, 0);
	assert_int_equal(a.nchanges, 0);
	assert_int_equal(sb_series_anomalies(v, 0, &a), 0);
	assert_int_equal(a.noutliers + a.nchanges, 0);
}

/* Outliers need 5 values, a change 5 on each side. */
static void test_too_short(void **state)
{
	(void)state;
	const double four[] = { 100, 100, 1, 100 };
	double nine[9];
	struct sb_anomalies a;
	assert_int_equal(sb_series_anomalies(four, 4, &a), 0);
	assert_int_equal(a.noutliers, 0);
	for (int i = 0; i < 9; i++)
		nine[i] = i < 5 ? 100 : 50;
	assert_int_equal(sb_series_anomalies(nine, 9, &a), 0);
	assert_int_equal(a.nchanges, 0);
	/* ten: 5 + 5 is enough */
	double ten[10];
	for (int i = 0; i < 10; i++)
		ten[i] = i < 5 ? 100 : 50;
	assert_int_equal(sb_series_anomalies(ten, 10, &a), 0);
	assert_int_equal(a.nchanges, 1);
	assert_int_equal(a.changes[0].at, 5);
}

/* Iterations 1..21, write 100 MB/s then 50 from iteration 12; iteration 3
 * interrupted with a tiny figure (left out: the step stays at series index
 * 10, which is iteration 12, not an outlier at 3); iteration 7 has two
 * corrupted blocks (failed). Read is flat. */
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
	it[6].count[SB_VERIFY_CORRUPTED] = 2;
	assert_int_equal(sb_soak_summarize(it, 21, 0, &s), 0);
	assert_int_equal(s.iterations, 21);
	assert_int_equal(s.failed, 1);
	assert_int_equal(s.verify_bad, 2);
	assert_int_equal(s.m[0].st.n, 20);
	assert_int_equal(s.m[0].noutliers, 0);
	assert_int_equal(s.m[0].nchanges, 1);
	assert_int_equal(s.m[0].changes[0].at, 12);
	NEAR(s.m[0].changes[0].before, 100e6);
	NEAR(s.m[0].changes[0].after, 50e6);
	assert_int_equal(s.m[1].st.n, 20);
	assert_int_equal(s.m[1].noutliers + s.m[1].nchanges, 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step),	cmocka_unit_test(test_outlier),
		cmocka_unit_test(test_flat),	cmocka_unit_test(test_too_short),
		cmocka_unit_test(test_verdict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
