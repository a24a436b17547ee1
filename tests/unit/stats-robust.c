/* needs: none */
/* Median, MAD, quantiles, stability figures, selection and rolling medians
 * against values worked out by hand or against their definitions. */
#include "tests/lib/sbtest.h"

#include <math.h>

#include "lib/analysis/robust.h"
#include "lib/base/rng.h"

#define NEAR(a, b) assert_true(fabs((a) - (double)(b)) < 1e-9 * (fabs((double)(b)) + 1))

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

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

/* Selection against a sorted copy: every k of arrays with and without
 * ties, of odd and even lengths. */
static void test_select(void **state)
{
	(void)state;
	struct sb_rng r;
	double a[41], b[41], s[41];
	sb_rng_seed(&r, 5);
	for (size_t n = 1; n <= 41; n += 4) {
		for (int ties = 0; ties < 2; ties++) {
			for (size_t i = 0; i < n; i++)
				s[i] = ties ? (double)sb_rng_below(&r, 4) : sb_rng_double(&r);
			memcpy(b, s, n * sizeof(*s));
			qsort(s, n, sizeof(*s), cmp);
			for (size_t k = 0; k < n; k++) {
				memcpy(a, b, n * sizeof(*a));
				assert_true(sb_select(a, n, k) == s[k]);
			}
			memcpy(a, b, n * sizeof(*a));
			NEAR(sb_median_inplace(a, n), sb_median(b, n));
		}
	}
	assert_true(isnan(sb_median_inplace(a, 0)));
}

/* By hand: windows of 3 over 5 1 9 3 7 2 8, shifted inside at the ends. */
static void test_rolling_by_hand(void **state)
{
	(void)state;
	const double y[] = { 5, 1, 9, 3, 7, 2, 8 };
	const size_t one[] = { 0, 7 }, two[] = { 0, 3, 7 };
	const double with[] = { 5, 5, 3, 7, 3, 7, 7 };
	/* without the value itself: the median of the other two */
	const double without[] = { 5, 7, 2, 8, 2.5, 7.5, 4.5 };
	/* segments 5 1 9 | 3 7 2 8: the first is one window */
	const double split[] = { 5, 5, 5, 3, 3, 7, 7 };
	double out[7];
	assert_int_equal(sb_rolling_median(y, 7, one, 2, 3, 1, out), 0);
	for (int i = 0; i < 7; i++)
		NEAR(out[i], with[i]);
	assert_int_equal(sb_rolling_median(y, 7, one, 2, 3, 0, out), 0);
	for (int i = 0; i < 7; i++)
		NEAR(out[i], without[i]);
	assert_int_equal(sb_rolling_median(y, 7, two, 3, 3, 1, out), 0);
	for (int i = 0; i < 7; i++)
		NEAR(out[i], split[i]);
}

/* Against the definition, window by window: random values with ties, a
 * window of 21 and of 20, segments long and short, with and without the
 * value itself. */
static void test_rolling_reference(void **state)
{
	(void)state;
	enum { N = 300 };
	const size_t bounds[] = { 0, 4, 17, 40, 41, 200, N };
	double y[N], out[N], w[32];
	struct sb_rng r;
	sb_rng_seed(&r, 9);
	for (size_t i = 0; i < N; i++)
		y[i] = (double)sb_rng_below(&r, 50);
	for (size_t win = 20; win <= 21; win++)
		for (int self = 0; self < 2; self++) {
			assert_int_equal(sb_rolling_median(y, N, bounds, 7, win, self, out), 0);
			for (size_t k = 0; k + 1 < 7; k++) {
				size_t a = bounds[k], b = bounds[k + 1], len = SB_MIN(win, b - a);
				for (size_t i = a; i < b; i++) {
					size_t lo = i >= a + win / 2 ? i - win / 2 : a, m = 0;
					lo = SB_MIN(lo, b - len);
					for (size_t j = lo; j < lo + len; j++)
						if (self || j != i)
							w[m++] = y[j];
					NEAR(out[i], m ? sb_median(w, m) : y[i]);
				}
			}
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_mad_quantile),
		cmocka_unit_test(test_stability),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_rolling_by_hand),
		cmocka_unit_test(test_rolling_reference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
