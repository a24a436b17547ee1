/* needs: none */
/* SNIA PTS steady state (METHODS.md 3.1) on hand-made series: the first
 * window of 5 rounds whose data excursion is at most 20% of its average
 * and whose fitted line moves at most 10% of it across the window; each
 * criterion can fail alone; not reached, the last 5 rounds. Figures worked
 * out by hand in the comments. */
#include "tests/lib/sbtest.h"
#include "lib/storbench.h"

#include <math.h>

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* 100 101 99 100 100: avg 100, range 2; x-dev -2..2, y-dev 0 1 -1 0 0:
 * a = -1/10, b = 100 - a*3 = 100.3, slope excursion 0.4 */
static void reached_at_round_5(void **state)
{
	(void)state;
	const double y[] = { 100, 101, 99, 100, 100, 300, 10 };
	struct sb_steady s;
	assert_int_equal(sb_steady_find(y, 7, &s), 1);
	assert_true(s.reached);
	assert_int_equal(s.first, 1);
	assert_int_equal(s.last, 5);
	NEAR(s.average, 100);
	NEAR(s.data_excursion, 2);
	NEAR(s.data_allowed, 20);
	NEAR(s.slope, -0.1);
	NEAR(s.intercept, 100.3);
	NEAR(s.slope_excursion, 0.4);
	NEAR(s.slope_allowed, 10);
}

/* Rounds 8..12 = 104 98 101 97 100: avg 100, range 7; y-dev 4 -2 1 -3 0
 * against x-dev -2..2: a = -9/10, b = 100 + 0.9*10 = 109, excursion 3.6.
 * Window 7..11 (130 104 98 101 97): avg 106, range 33 > 21.2: not yet. */
static void reached_at_round_12(void **state)
{
	(void)state;
	const double y[] = { 300, 250, 200, 170, 150, 140, 130, 104, 98, 101, 97, 100, 50 };
	struct sb_steady s;
	assert_int_equal(sb_steady_find(y, 13, &s), 1);
	assert_int_equal(s.first, 8);
	assert_int_equal(s.last, 12);
	NEAR(s.average, 100);
	NEAR(s.data_excursion, 7);
	NEAR(s.slope, -0.9);
	NEAR(s.intercept, 109);
	NEAR(s.slope_excursion, 3.6);
	sb_steady_window(y, 7, 5, &s);
	assert_false(s.reached);
	assert_false(s.data_ok);
	NEAR(s.average, 106);
	NEAR(s.data_excursion, 33);
}

/* y = 100 + 10 R for 25 rounds: the last window 21..25 is 310..350, avg
 * 330, range 40 <= 66 (data holds), but the line climbs 40 > 33 across
 * it. Never reached: the last 5 rounds, flagged. */
static void never_reached(void **state)
{
	(void)state;
	double y[25];
	for (int i = 0; i < 25; i++)
		y[i] = 100 + 10.0 * (i + 1);
	struct sb_steady s;
	assert_int_equal(sb_steady_find(y, 25, &s), 0);
	assert_false(s.reached);
	assert_int_equal(s.first, 21);
	assert_int_equal(s.last, 25);
	NEAR(s.average, 330);
	NEAR(s.slope, 10);
	NEAR(s.intercept, 100);
	NEAR(s.slope_excursion, 40);
	assert_true(s.data_ok);
	assert_false(s.slope_ok);
}

/* 100 130 100 130 100: the zigzag has no slope (y-dev -12 18 -12 18 -12
 * against -2..2 sums to 0) but spans 30 > 20% of 112 = 22.4 */
static void data_excursion_fails_alone(void **state)
{
	(void)state;
	const double y[] = { 100, 130, 100, 130, 100 };
	struct sb_steady s;
	assert_int_equal(sb_steady_find(y, 5, &s), 0);
	NEAR(s.average, 112);
	NEAR(s.slope, 0);
	NEAR(s.data_excursion, 30);
	assert_false(s.data_ok);
	assert_true(s.slope_ok);
}

/* 100 103 106 109 112: span 12 <= 21.2 but the line rises 12 > 10.6 */
static void slope_excursion_fails_alone(void **state)
{
	(void)state;
	const double y[] = { 100, 103, 106, 109, 112 };
	struct sb_steady s;
	assert_int_equal(sb_steady_find(y, 5, &s), 0);
	assert_true(s.data_ok);
	assert_false(s.slope_ok);
	NEAR(s.slope, 3);
	NEAR(s.slope_excursion, 12);
	NEAR(s.slope_allowed, 10.6);
}

/* The limits are inclusive: 90 110 100 100 100 spans exactly 20% of 100
 * (a = 10/10 = 1, excursion 4) */
static void limits_inclusive(void **state)
{
	(void)state;
	const double y[] = { 90, 110, 100, 100, 100 };
	struct sb_steady s;
	assert_int_equal(sb_steady_find(y, 5, &s), 1);
	NEAR(s.data_excursion, 20);
	NEAR(s.slope, 1);
}

/* Fewer rounds than a window: not reached, the figures of what there is */
static void too_few_rounds(void **state)
{
	(void)state;
	const double y[] = { 100, 100, 100 };
	struct sb_steady s;
	assert_int_equal(sb_steady_find(y, 3, &s), 0);
	assert_false(s.reached);
	assert_int_equal(s.first, 1);
	assert_int_equal(s.last, 3);
	NEAR(s.average, 100);
	assert_int_equal(sb_steady_find(y, 0, &s), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reached_at_round_5),
		cmocka_unit_test(reached_at_round_12),
		cmocka_unit_test(never_reached),
		cmocka_unit_test(data_excursion_fails_alone),
		cmocka_unit_test(slope_excursion_fails_alone),
		cmocka_unit_test(limits_inclusive),
		cmocka_unit_test(too_few_rounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
