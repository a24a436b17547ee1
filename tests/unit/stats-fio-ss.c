/* needs: none */
/*
 * fio's steady-state criterion (lib/stats/fio_ss.c) on series fio 3.33
 * itself reported (its JSON's steadystate data with the criterion,
 * max_deviation and slope it printed), on made-up ones against the least
 * squares formula, and the rolling window: attained stops the sampling,
 * the window lists the last n samples oldest first, zeros after fewer.
 */
#include "tests/lib/sbtest.h"
#include "lib/stats/fio_ss.h"

#include <math.h>

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

/* fio 3.33, ss=iops:50%, ss_dur=3s on /dev/null: iops [227387, 231162,
 * 356667], max_deviation 84928.333333, criterion 31.253679%, attained */
static void test_fio_deviation(void **state)
{
	const uint64_t y[] = { 227387, 231162, 356667 };
	struct sb_ss_eval e;
	(void)state;
	sb_ss_evaluate(y, 3, SB_SS_IOPS | SB_SS_PCT, 50, &e);
	NEAR(e.deviation, 84928.333333, 1e-5);
	NEAR(e.criterion, 31.253679, 5e-6); /* fio prints it as a float */
	assert_true(e.slope == 0);
	assert_true(e.attained);
	sb_ss_evaluate(y, 3, SB_SS_IOPS | SB_SS_PCT, 31.25, &e);
	assert_false(e.attained);
	/* absolute: within 84929 of the mean, not 84928 */
	sb_ss_evaluate(y, 3, SB_SS_IOPS, 84929, &e);
	assert_true(e.attained);
	sb_ss_evaluate(y, 3, SB_SS_IOPS, 84928, &e);
	assert_false(e.attained);
}

/* fio 3.33, ss=bw_slope:0.001%, ss_dur=4s on /dev/zero: bw [1084074666,
 * 1096261632, 1074270208, 1243084748], slope 45503882.2, criterion
 * 4.046866% (of the integer mean 1124422813), not attained */
static void test_fio_slope(void **state)
{
	const uint64_t y[] = { 1084074666, 1096261632, 1074270208, 1243084748 };
	struct sb_ss_eval e;
	(void)state;
	sb_ss_evaluate(y, 4, SB_SS_SLOPE | SB_SS_PCT, 0.001, &e);
	NEAR(e.slope, 45503882.2, 1e-3);
	NEAR(e.criterion, 4.046866, 5e-6);
	assert_true(e.deviation == 0);
	assert_false(e.attained);
	sb_ss_evaluate(y, 4, SB_SS_SLOPE | SB_SS_PCT, 4.05, &e);
	assert_true(e.attained);
}

/* least squares by its definition: sum (x - mx)(y - my) / sum (x - mx)^2;
 * a falling series' negative slope is judged by its size */
static void test_slope_formula(void **state)
{
	const uint64_t y[] = { 900, 870, 880, 820, 800, 790, 760 };
	const unsigned n = 7;
	double mx = 3, my = 0, sxy = 0, sxx = 0;
	struct sb_ss_eval e;
	(void)state;
	for (unsigned i = 0; i < n; i++)
		my += (double)y[i] / n;
	for (unsigned i = 0; i < n; i++) {
		sxy += (i - mx) * ((double)y[i] - my);
		sxx += (i - mx) * (i - mx);
	}
	sb_ss_evaluate(y, n, SB_SS_SLOPE, 30, &e);
	NEAR(e.slope, sxy / sxx, 1e-9);
	assert_true(e.slope < 0);
	assert_true(e.attained == (fabs(sxy / sxx) < 30));
	sb_ss_evaluate(y, n, SB_SS_SLOPE, 20, &e);
	assert_false(e.attained);
	/* flat: slope 0, deviation 0 */
	const uint64_t flat[] = { 5, 5, 5, 5 };
	sb_ss_evaluate(flat, 4, SB_SS_SLOPE | SB_SS_PCT, 0.1, &e);
	assert_true(e.slope == 0 && e.attained);
	/* nothing moved: no percent of a mean of 0, never attained */
	const uint64_t zero[] = { 0, 0, 0 };
	sb_ss_evaluate(zero, 3, SB_SS_PCT, 10, &e);
	assert_false(e.attained);
	sb_ss_evaluate(zero, 0, SB_SS_PCT, 10, &e);
	assert_false(e.attained);
}

static void test_window(void **state)
{
	struct sb_ss s;
	uint64_t io[3], bw[3];
	(void)state;
	assert_int_equal(sb_ss_init(&s, 0, 1, 0), -EINVAL);
	assert_int_equal(sb_ss_init(&s, SB_SS_IOPS, 0.5, 3), 0);
	/* fewer than n: not judged, zeros after */
	assert_int_equal(sb_ss_add(&s, 100, 1000), 0);
	sb_ss_window(&s, io, bw);
	assert_true(io[0] == 100 && io[1] == 0 && io[2] == 0 && bw[0] == 1000);
	assert_int_equal(sb_ss_add(&s, 10, 1001), 0);
	assert_int_equal(sb_ss_add(&s, 11, 1002), 0); /* 100, 10, 11: not within 1 */
	assert_int_equal(sb_ss_add(&s, 10, 1003), 0); /* 10, 11, 10: 0.67 from 10.33, not 0.5 */
	assert_true(s.last.deviation > 0);	      /* judged on iops, bw ignored */
	/* the window rolled */
	sb_ss_window(&s, io, bw);
	assert_true(io[0] == 10 && io[1] == 11 && io[2] == 10);
	assert_true(bw[0] == 1001 && bw[2] == 1003);
	sb_ss_free(&s);

	assert_int_equal(sb_ss_init(&s, SB_SS_IOPS, 1.0, 3), 0);
	sb_ss_add(&s, 100, 0);
	sb_ss_add(&s, 10, 0);
	sb_ss_add(&s, 11, 0);
	assert_int_equal(sb_ss_add(&s, 10, 0), 1); /* 10, 11, 10 within 1 */
	assert_true(s.attained);
	assert_int_equal(sb_ss_add(&s, 500, 0), 1); /* no more samples */
	sb_ss_window(&s, io, bw);
	assert_true(io[0] == 10 && io[1] == 11 && io[2] == 10);
	sb_ss_free(&s);
}

/* fio's per-interval figure: elapsed_ms * delta / (interval_ms^2 / 1000) */
static void test_sample(void **state)
{
	(void)state;
	assert_int_equal(sb_ss_sample(5000, 1000, 1000), 5000);
	assert_int_equal(sb_ss_sample(5000, 1010, 1000), 5050);
	assert_int_equal(sb_ss_sample(999, 999, 1000), 998);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio_deviation), cmocka_unit_test(test_fio_slope),
		cmocka_unit_test(test_slope_formula), cmocka_unit_test(test_window),
		cmocka_unit_test(test_sample),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
