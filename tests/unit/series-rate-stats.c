/* needs: none */
/*
 * fio's bw_* and iops_* figures from a time series: min, max, mean and
 * sample standard deviation over whole intervals only. The partial last
 * interval of a run (a few microseconds with nothing in it, or with one
 * completion) is left out as fio leaves it out, so it can neither pull the
 * minimum to 0 nor push the maximum far above the real rate. Synthetic
 * series with figures worked by hand.
 */
#include "tests/lib/sbtest.h"
#include "lib/stats/series.h"

#include <math.h>

#define R SB_DDIR_READ
#define W SB_DDIR_WRITE
#define MS 1000000ull
#define SEC 1000000000ull
#define MIB 1048576.0

static void near(double got, double want, const char *what)
{
	if (fabs(got - want) > 1e-9 * (fabs(want) + 1)) {
		print_error("%s: got %.17g, want %.17g\n", what, got, want);
		fail();
	}
}

/* An interval ending at t_ns with ios requests of bs bytes in ddir. */
static void add(struct sb_series *s, uint64_t t_ns, int ddir, uint64_t ios, uint64_t bs)
{
	struct sb_interval iv = { .t_ns = t_ns };
	iv.ios[ddir] = ios;
	iv.bytes[ddir] = ios * bs;
	assert_int_equal(sb_series_add(s, &iv), 0);
}

/* 3 s at 50 MiB/s (800 x 64 KiB per second), then a tail of 5 us. */
static void steady_with_tail(struct sb_series *s, uint64_t tail_ios)
{
	sb_series_init(s, SEC);
	for (uint64_t i = 1; i <= 3; i++)
		add(s, i * SEC, W, 800, 65536);
	add(s, 3 * SEC + 5000, W, tail_ios, 65536);
}

static void test_empty_tail_is_not_a_minimum(void **state)
{
	struct sb_series s;
	struct sb_rate_stats b, io;
	steady_with_tail(&s, 0);
	sb_series_rate_stats(&s, W, 0, &b);
	sb_series_rate_stats(&s, W, 1, &io);
	assert_int_equal(b.samples, 3);
	near(b.min, 50 * MIB, "bw min");
	near(b.max, 50 * MIB, "bw max");
	near(b.mean, 50 * MIB, "bw mean");
	near(b.dev, 0, "bw dev");
	assert_int_equal(io.samples, 3);
	near(io.min, 800, "iops min");
	near(io.max, 800, "iops max");
	sb_series_free(&s);
}

static void test_busy_tail_is_not_a_maximum(void **state)
{
	struct sb_series s;
	struct sb_rate_stats b, io;
	/* one 64 KiB completion in 5 us would be 12.5 GiB/s */
	steady_with_tail(&s, 1);
	sb_series_rate_stats(&s, W, 0, &b);
	sb_series_rate_stats(&s, W, 1, &io);
	assert_int_equal(b.samples, 3);
	near(b.max, 50 * MIB, "bw max");
	near(io.max, 800, "iops max");
	sb_series_free(&s);
}

/* 10, 20, 30 and 40 MiB/s, then 0.4 s at 1 MiB/s: mean 25; deviations
 * 15, 5, 5, 15: sample variance 500 / 3 (MiB/s)^2. */
static void test_figures_by_hand(void **state)
{
	struct sb_series s;
	struct sb_rate_stats b, io;
	sb_series_init(&s, SEC);
	for (uint64_t i = 1; i <= 4; i++)
		add(&s, i * SEC, R, 10 * i, MIB);
	struct sb_interval tail = { .t_ns = 4 * SEC + 400 * MS };
	tail.ios[R] = 1;
	tail.bytes[R] = 419430; /* 0.4 MiB */
	assert_int_equal(sb_series_add(&s, &tail), 0);
	sb_series_rate_stats(&s, R, 0, &b);
	sb_series_rate_stats(&s, R, 1, &io);
	assert_int_equal(b.samples, 4);
	near(b.min, 10 * MIB, "min");
	near(b.max, 40 * MIB, "max");
	near(b.mean, 25 * MIB, "mean");
	near(b.dev, sqrt(500.0 / 3) * MIB, "dev");
	assert_int_equal(io.samples, 4);
	near(io.min, 10, "iops min");
	near(io.mean, 25, "iops mean");
	near(io.dev, sqrt(500.0 / 3), "iops dev");
	sb_series_free(&s);
}

/* A direction without I/O has no samples, as in fio's JSON; a stall (a whole
 * interval without a completion) is a sample of 0. */
static void test_unused_direction_and_stall(void **state)
{
	struct sb_series s;
	struct sb_rate_stats b;
	sb_series_init(&s, SEC);
	add(&s, 1 * SEC, W, 100, 4096);
	add(&s, 2 * SEC, W, 0, 4096);
	add(&s, 3 * SEC, W, 200, 4096);
	sb_series_rate_stats(&s, R, 0, &b);
	assert_int_equal(b.samples, 0);
	near(b.min, 0, "unused min");
	near(b.max, 0, "unused max");
	near(b.mean, 0, "unused mean");
	near(b.dev, 0, "unused dev");
	sb_series_rate_stats(&s, W, 1, &b);
	assert_int_equal(b.samples, 3);
	near(b.min, 0, "stall min");
	near(b.max, 200, "stall max");
	near(b.mean, 100, "stall mean");
	near(b.dev, 100, "stall dev"); /* (100^2 + 100^2 + 0) / 2 */
	sb_series_free(&s);
}

/* Shorter than one interval: no whole interval, no samples; one whole
 * interval: one sample and a deviation of 0 (fio's n - 1 rule). */
static void test_short_runs(void **state)
{
	struct sb_series s;
	struct sb_rate_stats b;
	sb_series_init(&s, SEC);
	add(&s, 700 * MS, R, 70, 4096);
	sb_series_rate_stats(&s, R, 1, &b);
	assert_int_equal(b.samples, 0);
	near(b.mean, 0, "mean");
	add(&s, 1700 * MS, R, 90, 4096); /* lasts one second: whole */
	sb_series_rate_stats(&s, R, 1, &b);
	/* the first interval lasted 700 ms of 1 s: still not whole */
	assert_int_equal(b.samples, 1);
	near(b.min, 90, "min");
	near(b.dev, 0, "dev");
	sb_series_free(&s);
}

/* A thousandth of slack, as fio's 1 ms at 1 s; other interval lengths. */
static void test_slack_and_interval(void **state)
{
	struct sb_series s;
	struct sb_rate_stats b;
	sb_series_init(&s, 500 * MS);
	add(&s, 500 * MS, R, 50, 4096);
	add(&s, 1000 * MS, R, 60, 4096);
	add(&s, 1499600 * 1000ull, R, 40, 4096); /* 499.6 ms: within 0.5 ms */
	add(&s, 1998 * MS, R, 10, 4096);	 /* 498.4 ms: a tail */
	sb_series_rate_stats(&s, R, 1, &b);
	assert_int_equal(b.samples, 3);
	near(b.min, 40 / 0.4996, "min");
	near(b.max, 120, "max");
	sb_series_free(&s);

	/* without a nominal length, every interval counts */
	sb_series_init(&s, 0);
	add(&s, 300 * MS, R, 3, 4096);
	add(&s, 500 * MS, R, 4, 4096);
	sb_series_rate_stats(&s, R, 1, &b);
	assert_int_equal(b.samples, 2);
	near(b.min, 10, "min");
	near(b.max, 20, "max");
	sb_series_free(&s);
}

/* Two workers of one job stop at different times: a's last interval ends at
 * 2.2 s, b runs whole seconds to 3 s and stops at 3.5 s. The merged third
 * interval spans 2 s..3 s (a's 0.2 s and b's whole second): whole, with
 * both workers' bytes; the merged tail is 3 s..3.5 s. */
static void test_workers_with_different_tails(void **state)
{
	struct sb_series a, b;
	struct sb_rate_stats st;
	sb_series_init(&a, SEC);
	sb_series_init(&b, SEC);
	add(&a, 1 * SEC, R, 100, 4096);
	add(&a, 2 * SEC, R, 100, 4096);
	add(&a, 2200 * MS, R, 20, 4096);
	add(&b, 1 * SEC, R, 100, 4096);
	add(&b, 2 * SEC, R, 100, 4096);
	add(&b, 3 * SEC, R, 100, 4096);
	add(&b, 3500 * MS, R, 50, 4096);
	assert_int_equal(sb_series_merge(&a, &b), 0);
	assert_int_equal(a.n, 4);
	assert_int_equal(a.v[2].t_ns, 3 * SEC);
	assert_int_equal(a.v[3].t_ns, 3500 * MS);
	sb_series_rate_stats(&a, R, 1, &st);
	assert_int_equal(st.samples, 3);
	near(st.min, 120, "min");
	near(st.max, 200, "max");
	sb_series_free(&a);
	sb_series_free(&b);
}

/* fio's add_stat_sample, one sample at a time: 2, 4, 4, 4, 5, 5, 7, 9
 * have mean 5 and sample deviation sqrt(32 / 7) */
static void test_running_samples(void **state)
{
	(void)state;
	static const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct sb_rate_stats st;
	memset(&st, 0, sizeof(st));
	sb_rate_sample(&st, x[0]);
	near(st.dev, 0, "one sample's deviation");
	for (size_t i = 1; i < SB_ARRAY_SIZE(x); i++)
		sb_rate_sample(&st, x[i]);
	assert_int_equal(st.samples, 8);
	near(st.min, 2, "min");
	near(st.max, 9, "max");
	near(st.mean, 5, "mean");
	near(st.dev, sqrt(32.0 / 7.0), "dev");
	near(st.m2, 32, "squares of the deviations");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_tail_is_not_a_minimum),
		cmocka_unit_test(test_busy_tail_is_not_a_maximum),
		cmocka_unit_test(test_figures_by_hand),
		cmocka_unit_test(test_unused_direction_and_stall),
		cmocka_unit_test(test_short_runs),
		cmocka_unit_test(test_slack_and_interval),
		cmocka_unit_test(test_workers_with_different_tails),
		cmocka_unit_test(test_running_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
