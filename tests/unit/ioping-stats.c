/* needs: none */
/*
 * The latency probe's statistics against values computed by hand, with
 * ioping's definitions: a warm-up request counted in the load only;
 * avg = sum/n, mdev = sqrt(sum t^2/n - avg^2), iops = n/sum, speed =
 * iops * size, load iops = count / wall; nearest-rank percentiles; ioping's
 * fast/slow marks.
 */
#include "tests/lib/sbtest.h"
#include "lib/stats/ioping.h"

#include <math.h>

static void near(double got, double want)
{
	if (fabs(got - want) <= 1e-9 * fabs(want) + 1e-12)
		return;
	print_error("got %.17g, want %.17g\n", got, want);
	fail();
}

/* warm-up 5000 ns, then 300, 100, 1000, 200, 400 ns; 4 KiB each; 10 us wall */
static void fill(struct sb_ioping *s)
{
	static const uint64_t v[] = { 300, 100, 1000, 200, 400 };
	sb_ioping_init(s, 4096);
	sb_ioping_add(s, 5000, 0);
	for (size_t i = 0; i < 5; i++)
		sb_ioping_add(s, v[i], 1);
	sb_ioping_set_wall(s, 10000);
}

static void test_ioping_figures(void **state)
{
	(void)state;
	struct sb_ioping s;
	fill(&s);
	assert_int_equal(s.count, 6);
	assert_int_equal(s.valid, 5);
	assert_int_equal(s.sum_ns, 2000);
	assert_int_equal(sb_ioping_min(&s), 100);
	assert_int_equal(sb_ioping_max(&s), 1000);
	near(sb_ioping_avg(&s), 400);
	/* sum t^2 = 1 300 000; / 5 = 260 000; - 400^2 = 100 000 */
	near(sb_ioping_mdev(&s), sqrt(100000.0));
	near(sb_ioping_iops(&s), 5e9 / 2000); /* 2.5 M */
	near(sb_ioping_speed(&s), 5e9 / 2000 * 4096);
	near(sb_ioping_load_iops(&s), 6e9 / 10000); /* 600 k */
	near(sb_ioping_load_speed(&s), 6e9 / 10000 * 4096);
	sb_ioping_free(&s);
}

static void test_percentiles_nearest_rank(void **state)
{
	(void)state;
	struct sb_ioping s;
	fill(&s); /* sorted: 100 200 300 400 1000 */
	assert_true(sb_ioping_exact(&s));
	assert_int_equal(sb_ioping_percentile(&s, 0), 100);
	assert_int_equal(sb_ioping_percentile(&s, 20), 100);  /* rank 1 */
	assert_int_equal(sb_ioping_percentile(&s, 21), 200);  /* rank ceil(1.05) = 2 */
	assert_int_equal(sb_ioping_percentile(&s, 50), 300);  /* rank ceil(2.5) = 3 */
	assert_int_equal(sb_ioping_percentile(&s, 80), 400);  /* rank 4 */
	assert_int_equal(sb_ioping_percentile(&s, 90), 1000); /* rank ceil(4.5) = 5 */
	assert_int_equal(sb_ioping_percentile(&s, 100), 1000);
	/* an add after a percentile keeps them right */
	sb_ioping_add(&s, 50, 1);
	assert_int_equal(sb_ioping_percentile(&s, 0), 50);
	assert_int_equal(sb_ioping_percentile(&s, 50), 200); /* 6 samples: rank 3 */
	sb_ioping_free(&s);
}

static void test_marks(void **state)
{
	(void)state;
	struct sb_ioping s;
	fill(&s);
	/* five valid: no marks yet (ioping: more than 5) */
	assert_int_equal(sb_ioping_mark(&s, 1000), 0);
	sb_ioping_add(&s, 550, 1);		       /* six valid, range 100..1000 */
	assert_int_equal(sb_ioping_mark(&s, 100), -1); /* 0% of the range: fast */
	assert_int_equal(sb_ioping_mark(&s, 144), -1); /* 4%: fast */
	assert_int_equal(sb_ioping_mark(&s, 145), 0);  /* 5% */
	assert_int_equal(sb_ioping_mark(&s, 550), 0);
	assert_int_equal(sb_ioping_mark(&s, 963), 0); /* 95.9%, 95 in whole percent */
	assert_int_equal(sb_ioping_mark(&s, 964), 1); /* 96%: slow */
	assert_int_equal(sb_ioping_mark(&s, 1000), 1);
	sb_ioping_free(&s);
}

static void test_empty_and_warmup_only(void **state)
{
	(void)state;
	struct sb_ioping s;
	sb_ioping_init(&s, 512);
	sb_ioping_add(&s, 777, 0);
	sb_ioping_set_wall(&s, 1000);
	assert_int_equal(s.valid, 0);
	assert_int_equal(sb_ioping_min(&s), 0);
	assert_int_equal(sb_ioping_max(&s), 0);
	assert_int_equal(sb_ioping_percentile(&s, 50), 0);
	near(sb_ioping_avg(&s), 0);
	near(sb_ioping_mdev(&s), 0);
	near(sb_ioping_iops(&s), 0);
	near(sb_ioping_load_iops(&s), 1e6); /* 1 request in 1 us */
	sb_ioping_free(&s);
}

/* Large times: mdev without cancellation (ioping's sum of squares would
 * lose it): 1e12 and 1e12 + 2 ns have mdev 1. */
static void test_mdev_large_values(void **state)
{
	(void)state;
	struct sb_ioping s;
	sb_ioping_init(&s, 4096);
	sb_ioping_add(&s, 1000000000000ull, 1);
	sb_ioping_add(&s, 1000000000002ull, 1);
	near(sb_ioping_mdev(&s), 1.0);
	near(sb_ioping_avg(&s), 1000000000001.0);
	sb_ioping_free(&s);
}

/* Past the sample cap the percentiles come from the histogram, within 1%. */
static void test_past_the_cap(void **state)
{
	(void)state;
	struct sb_ioping s;
	sb_ioping_init(&s, 4096);
	const uint64_t n = SB_IOPING_MAX_SAMPLES + 1000;
	for (uint64_t i = 0; i < n; i++)
		sb_ioping_add(&s, 1000 + i % 1000, 1); /* 1000..1999 evenly */
	assert_false(sb_ioping_exact(&s));
	const double p50 = (double)sb_ioping_percentile(&s, 50);
	assert_true(fabs(p50 - 1499) <= 0.01 * 1499 + 1);
	assert_int_equal(sb_ioping_min(&s), 1000);
	assert_int_equal(sb_ioping_max(&s), 1999);
	near(sb_ioping_avg(&s), (double)s.sum_ns / (double)n);
	sb_ioping_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ioping_figures),
		cmocka_unit_test(test_percentiles_nearest_rank),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_empty_and_warmup_only),
		cmocka_unit_test(test_mdev_large_values),
		cmocka_unit_test(test_past_the_cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
