/* Median, MAD, quantiles, stability figures and outliers against values
 * worked out by hand. */
#include "tests/lib/sbtest.h"

#include <math.h>

#include "lib/analysis/robust.h"

#define NEAR(a, b) assert_true(fabs((a) - (double)(b)) < 1e-9 * (fabs((double)(b)) + 1))

static void test_median_mad_quantile(void **state)
{
	(void)state;
	const double v[] = { 7, 1, 3, 9, 5 }; /* sorted 1 3 5 7 9 */
	NEAR(sb_median(v, 5), 5);
	NEAR(sb_mad(v, 5), 2); /* |d| = 4 2 0 2 4 */
	NEAR(sb_quantile(v, 5, 0.25), 3);
	NEAR(sb_quantile(v, 5, 0.1), 1.8); /* h = 0.4: 1 + 0.4 * 2 */
	const double w[] = { 4, 2, 8, 6 }; /* sorted 2 4 6 8 */
	NEAR(sb_median(w, 4), 5);
	NEAR(sb_quantile(w, 4, 0.95), 7.7); /* h = 2.85: 6 + 0.85 * 2 */
	assert_true(isnan(sb_median(v, 0)));
}

static void test_stability(void **state)
{
	(void)state;
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 }; /* mean 5, sample var 32/7 */
	struct sb_stability s;
	assert_int_equal(sb_stability(v, 8, &s), 0);
	NEAR(s.mean, 5);
	NEAR(s.median, 4.5);
	NEAR(s.cv, sqrt(32.0 / 7) / 5);
	NEAR(s.p5, 2 + 0.35 * 2);  /* h = 0.35 */
	NEAR(s.p95, 7 + 0.65 * 2); /* h = 6.65 */
	NEAR(s.min, 2);
	NEAR(s.max, 9);
}

static void test_outliers(void **state)
{
	(void)state;
	double x[30];
	unsigned char f[30];
	for (int i = 0; i < 30; i++)
		x[i] = 100 + (i % 3) - 1; /* 99 100 101 ... */
	x[12] = 60;			  /* a dip */
	x[25] = 140;			  /* a spike */
	assert_int_equal(sb_outliers(x, 30, 11, 3.5, f), 2);
	assert_int_equal(f[12], 1);
	assert_int_equal(f[25], 1);
	/* a step is a change, not a run of outliers */
	for (int i = 0; i < 30; i++)
		x[i] = i < 15 ? 100 + (i % 3) : 50 + (i % 3);
	assert_int_equal(sb_outliers(x, 30, 11, 3.5, f), 0);
	/* constant: nothing stands out */
	for (int i = 0; i < 30; i++)
		x[i] = 5;
	assert_int_equal(sb_outliers(x, 30, 11, 3.5, f), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_mad_quantile),
		cmocka_unit_test(test_stability),
		cmocka_unit_test(test_outliers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
