/* needs: none */
/*
 * fio's latency_target search (lib/stats/lat_target.c) step by step, the
 * depths worked out by hand from fio 3.33's io_u.c: doubling while the
 * windows succeed, bisecting once one failed, the final window at the
 * depth that no longer changes and the end after it; percentile 100's
 * failure at once, fatal at depth 1; a window of no requests.
 */
#include "tests/lib/sbtest.h"
#include "lib/stats/lat_target.h"

#define MS 1000000ull

/* a window of n requests, bad of them over the target, then its check */
static enum sb_lat_act window(struct sb_lat_target *s, uint64_t *now, unsigned n, unsigned bad)
{
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(sb_lat_target_io(s, i < bad ? 2000 : 500, *now), SB_LAT_NONE);
	*now += 100 * MS;
	return sb_lat_target_check(s, *now);
}

static void test_all_good(void **state)
{
	struct sb_lat_target s;
	uint64_t now = 0;
	(void)state;
	sb_lat_target_init(&s, 1000, 100 * MS, 99.9, 16, 0, now);
	assert_int_equal(s.qd, 1);
	/* not a whole window yet: nothing */
	assert_int_equal(sb_lat_target_check(&s, 50 * MS), SB_LAT_NONE);
	const unsigned want[] = { 2, 4, 8, 16 };
	for (unsigned k = 0; k < 4; k++) {
		assert_int_equal(window(&s, &now, 1000, 0), SB_LAT_NONE);
		assert_int_equal(s.qd, want[k]);
	}
	assert_int_equal(window(&s, &now, 1000, 0), SB_LAT_FINAL); /* 16 again: settled */
	assert_int_equal(s.qd, 16);
	assert_int_equal(window(&s, &now, 1000, 0), SB_LAT_DONE);
}

static void test_bisect(void **state)
{
	struct sb_lat_target s;
	uint64_t now = 0;
	(void)state;
	sb_lat_target_init(&s, 1000, 100 * MS, 99, 16, 0, now);
	for (unsigned k = 0; k < 3; k++)
		assert_int_equal(window(&s, &now, 1000, 0), SB_LAT_NONE); /* 2, 4, 8 */
	assert_int_equal(s.qd, 8);
	/* 2% over at 8: down to (8 + 4) / 2 */
	assert_int_equal(window(&s, &now, 1000, 20), SB_LAT_QUIESCE);
	assert_int_equal(s.qd, 6);
	assert_int_equal(window(&s, &now, 1000, 10), SB_LAT_NONE); /* 1%: good, (6 + 8) / 2 */
	assert_int_equal(s.qd, 7);
	assert_int_equal(window(&s, &now, 1000, 0), SB_LAT_FINAL); /* (7 + 8) / 2 = 7 */
	assert_int_equal(window(&s, &now, 1000, 0), SB_LAT_DONE);
	assert_int_equal(s.qd, 7);
}

static void test_percentile_100(void **state)
{
	struct sb_lat_target s;
	uint64_t now = 0;
	(void)state;
	sb_lat_target_init(&s, 1000, 100 * MS, 100, 8, 0, now);
	/* at depth 1 one request over is fatal (fio's max latency exceeded) */
	assert_int_equal(sb_lat_target_io(&s, 1001, now), SB_LAT_FATAL);
	sb_lat_target_init(&s, 1000, 100 * MS, 100, 8, 0, now);
	assert_int_equal(sb_lat_target_io(&s, 1000, now), SB_LAT_NONE); /* at it: not over */
	assert_int_equal(window(&s, &now, 10, 0), SB_LAT_NONE);		/* 2 */
	assert_int_equal(window(&s, &now, 10, 0), SB_LAT_NONE);		/* 4 */
	assert_int_equal(s.qd, 4);
	/* at once, mid-window: down to (4 + 2) / 2 */
	assert_int_equal(sb_lat_target_io(&s, 5000, now), SB_LAT_QUIESCE);
	assert_int_equal(s.qd, 3);
	assert_int_equal(s.qd_high, 4);
}

static void test_empty_window_and_run(void **state)
{
	struct sb_lat_target s;
	uint64_t now = 0;
	(void)state;
	sb_lat_target_init(&s, 1000, 100 * MS, 90, 4, 0, now);
	/* no request: not a success; at depth 1 fio lets the window go on */
	now += 100 * MS;
	assert_int_equal(sb_lat_target_check(&s, now), SB_LAT_NONE);
	assert_int_equal(s.qd, 1);
	assert_int_equal(window(&s, &now, 10, 0), SB_LAT_NONE);
	assert_int_equal(s.qd, 2);
	now += 100 * MS;
	assert_int_equal(sb_lat_target_check(&s, now), SB_LAT_QUIESCE); /* at 2: down */
	assert_int_equal(s.qd, 1);
	/* latency_run: never settles */
	sb_lat_target_init(&s, 1000, 100 * MS, 90, 2, 1, 0);
	now = 0;
	for (unsigned k = 0; k < 10; k++)
		assert_int_equal(window(&s, &now, 10, 0), SB_LAT_NONE);
	assert_int_equal(s.qd, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_good),
		cmocka_unit_test(test_bisect),
		cmocka_unit_test(test_percentile_100),
		cmocka_unit_test(test_empty_window_and_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
