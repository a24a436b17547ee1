/* compare's rule for a real difference (lib/analysis/difference.c): the
 * spread of repeats, and a difference that is noise exactly when one
 * median lies inside the other side's min..max, worked out by hand. */
#include "tests/lib/sbtest.h"

#include <math.h>

#include "lib/analysis/difference.h"

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

static void judge(double am, double alo, double ahi, double bm, double blo, double bhi,
		  int higher_better, enum sb_diff_verdict want, double pct)
{
	struct sb_spread a = { am, alo, ahi }, b = { bm, blo, bhi };
	struct sb_difference d;
	assert_int_equal(sb_difference(&a, &b, higher_better, &d), 0);
	assert_int_equal(d.verdict, want);
	if (isnan(pct))
		assert_true(isnan(d.pct));
	else
		NEAR(d.pct, pct);
}

static void test_verdict(void **state)
{
	(void)state;
	/* b's median inside a's range, or a's inside b's: noise */
	judge(100, 90, 110, 105, 104, 106, 1, SB_DIFF_NOISE, 5);
	judge(100, 99, 101, 108, 95, 120, 1, SB_DIFF_NOISE, 8);
	/* the ranges overlap but neither median lies in the other's: real */
	judge(100, 90, 110, 115, 108, 120, 1, SB_DIFF_BETTER, 15);
	judge(100, 90, 110, 115, 108, 120, 0, SB_DIFF_WORSE, 15); /* latency up */
	judge(100, 95, 105, 80, 78, 82, 0, SB_DIFF_BETTER, -20);
	/* one run each: the ranges are points, any difference counts */
	judge(50, 50, 50, 50, 50, 50, 1, SB_DIFF_NOISE, 0);
	judge(50, 50, 50, 49, 49, 49, 1, SB_DIFF_WORSE, -2);
	/* a baseline of 0 has no percentage; a negative one is taken by size */
	judge(0, 0, 0, 3, 3, 3, 1, SB_DIFF_BETTER, NAN);
	judge(-4, -4, -4, -2, -2, -2, 1, SB_DIFF_BETTER, 50);
	struct sb_spread a = { 1, 1, 1 };
	struct sb_difference d;
	assert_int_equal(sb_difference(&a, NULL, 1, &d), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_verdict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
