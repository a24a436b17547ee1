/* needs: none */
/*
 * PELT change points against series whose answer is known by construction
 * and small ones checked by hand (exhaustive search of one split), on
 * every position and on a grid.
 */
#include "tests/lib/sbtest.h"

#include <math.h>

#include "lib/base/rng.h"
#include "lib/analysis/robust.h"

static double noise(struct sb_rng *r, double sd)
{
	/* Box-Muller */
	double u = sb_rng_double(r) + 1e-12, v = sb_rng_double(r);
	return sd * sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static void test_step(void **state)
{
	(void)state;
	double y[60];
	size_t cps[8];
	struct sb_rng r;
	sb_rng_seed(&r, 7);
	for (int i = 0; i < 60; i++)
		y[i] = (i < 35 ? 500 : 300) + noise(&r, 10);
	long n = sb_changepoints(y, 60, 3, 0, cps, 8);
	assert_int_equal(n, 1);
	assert_int_equal(cps[0], 35);
}

static void test_two_steps(void **state)
{
	(void)state;
	double y[90];
	size_t cps[8];
	struct sb_rng r;
	sb_rng_seed(&r, 11);
	for (int i = 0; i < 90; i++)
		y[i] = (i < 30 ? 900 : i < 60 ? 400 : 250) + noise(&r, 15);
	long n = sb_changepoints(y, 90, 5, 0, cps, 8);
	assert_true(n >= 2);
	/* PELT may also split a level on noise; a 10% step filter keeps the
	 * real ones only */
	n = (long)sb_changepoints_filter(y, 90, cps, (size_t)n, 0.10);
	assert_int_equal(n, 2);
	assert_int_equal(cps[0], 30);
	assert_int_equal(cps[1], 60);
}

static void test_flat_noise(void **state)
{
	(void)state;
	double y[200];
	size_t cps[8];
	struct sb_rng r;
	sb_rng_seed(&r, 3);
	for (int i = 0; i < 200; i++)
		y[i] = 100 + noise(&r, 5);
	assert_int_equal(sb_changepoints(y, 200, 3, 0, cps, 8), 0);
	/* constant: no change, and no division by zero */
	for (int i = 0; i < 200; i++)
		y[i] = 42;
	assert_int_equal(sb_changepoints(y, 200, 3, 0, cps, 8), 0);
}

/* By hand: y = 1 1 1 9 9 9, beta 1: one split at 3 costs 0 + 2 beta... */
static void test_hand(void **state)
{
	(void)state;
	const double y[] = { 1, 1, 1, 9, 9, 9 };
	size_t cps[4];
	/* no split: SSE = 6 * 16 = 96; split at 3: 0 + beta. beta 1 -> split */
	assert_int_equal(sb_changepoints(y, 6, 1, 1.0, cps, 4), 1);
	assert_int_equal(cps[0], 3);
	/* beta 200 > 96: a split costs more than it saves */
	assert_int_equal(sb_changepoints(y, 6, 1, 200.0, cps, 4), 0);
	/* min_seg 4 forbids the split (each side needs 4 of 6) */
	assert_int_equal(sb_changepoints(y, 6, 4, 1.0, cps, 4), 0);
	/* too short for two segments */
	assert_int_equal(sb_changepoints(y, 1, 1, 1.0, cps, 4), 0);
}

/* Changes on a grid: y = 1 1 1 1 9 9, beta 1. Grid 2 or 4 has position 4:
 * the split costs nothing. Grid 3 has only 3: 1 1 1 | 1 9 9 costs
 * 0 + 128/3 = 42.7 + beta, less than the 85.3 of no split. Grid 5 has 5
 * (the end is always one): 1 1 1 1 9 | 9 costs 51.2 + beta. Grid 6 has
 * no position inside: no split. */
static void test_grid_by_hand(void **state)
{
	(void)state;
	const double y[] = { 1, 1, 1, 1, 9, 9 };
	size_t cps[4];
	assert_int_equal(sb_changepoints_grid(y, 6, 2, 1, 1.0, cps, 4), 1);
	assert_int_equal(cps[0], 4);
	assert_int_equal(sb_changepoints_grid(y, 6, 4, 1, 1.0, cps, 4), 1);
	assert_int_equal(cps[0], 4);
	assert_int_equal(sb_changepoints_grid(y, 6, 3, 1, 1.0, cps, 4), 1);
	assert_int_equal(cps[0], 3);
	assert_int_equal(sb_changepoints_grid(y, 6, 5, 1, 1.0, cps, 4), 1);
	assert_int_equal(cps[0], 5);
	assert_int_equal(sb_changepoints_grid(y, 6, 6, 1, 1.0, cps, 4), 0);
	/* min_seg counts values, not grid steps: 4 | 2 is too short a tail */
	assert_int_equal(sb_changepoints_grid(y, 6, 2, 3, 1.0, cps, 4), 0);
}

/* On a grid of 50, steps at multiples of 50 are found where they are, and
 * grid 1 finds the same as plain PELT. */
static void test_grid_steps(void **state)
{
	(void)state;
	enum { N = 5000 };
	static double y[N];
	size_t a[8], b[8];
	struct sb_rng r;
	sb_rng_seed(&r, 21);
	for (int i = 0; i < N; i++)
		y[i] = (i < 1500 ? 100 : i < 1550 ? 60 : i < 4000 ? 90 : 95) + noise(&r, 2);
	long n = sb_changepoints_grid(y, N, 50, 5, 0, a, 8);
	assert_int_equal(n, 3);
	assert_int_equal(a[0], 1500);
	assert_int_equal(a[1], 1550);
	assert_int_equal(a[2], 4000);
	n = sb_changepoints_grid(y, N, 1, 5, 0, a, 8);
	assert_int_equal(sb_changepoints(y, N, 5, 0, b, 8), n);
	for (long k = 0; k < n; k++)
		assert_int_equal(a[k], b[k]);
}

static void test_filter_by_hand(void **state)
{
	(void)state;
	/* means 10 | 10.5 | 20: the step at 2 is 4.8%, at 4 it is 47.5% */
	const double y[] = { 10, 10, 10.5, 10.5, 20, 20 };
	size_t cps[] = { 2, 4 };
	assert_int_equal(sb_changepoints_filter(y, 6, cps, 2, 0.10), 1);
	/* after the drop: 10.25 | 20 */
	assert_int_equal(cps[0], 4);
	assert_int_equal(sb_changepoints_filter(y, 6, cps, 1, 0.6), 0);
}

static void test_penalty(void **state)
{
	(void)state;
	/* differences alternate +-2: MAD of differences = 2 (median of |d - 0|
	 * when the median difference is 0) -> sigma = 2 / sqrt 2 / 0.6745 */
	double y[11];
	for (int i = 0; i < 11; i++)
		y[i] = i % 2 ? 2 : 0;
	double sigma = 2 / sqrt(2.0) / 0.6745;
	double want = 2 * sigma * sigma * log(11.0);
	double d[10];
	for (int i = 0; i < 10; i++)
		d[i] = y[i + 1] - y[i];
	/* median of d (five 2s, five -2s) is 0, |d| all 2: MAD 2 */
	assert_true(fabs(sb_mad(d, 10) - 2) < 1e-12);
	assert_true(fabs(sb_changepoint_penalty(y, 11) - want) < 1e-9 * want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step),	   cmocka_unit_test(test_two_steps),
		cmocka_unit_test(test_flat_noise), cmocka_unit_test(test_hand),
		cmocka_unit_test(test_penalty),	   cmocka_unit_test(test_grid_by_hand),
		cmocka_unit_test(test_grid_steps), cmocka_unit_test(test_filter_by_hand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
