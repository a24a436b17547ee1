/* needs: none */
/*
 * Samples split over several histograms and merged give the histogram of all
 * samples: identical buckets, count, min and max; mean and stddev within
 * 1e-9, although each part has its own shift. Merging into an empty
 * histogram copies; merging an empty one changes nothing.
 */
#include "tests/lib/sbtest.h"
#include "lib/stats/hist.h"

#include <math.h>

#define NSAMPLES 100000
#define NPARTS 7
#define MOMENT_REL_ERR 1e-9

static uint64_t rng_state = 0x0123456789abcdefull;

/* splitmix64: deterministic, so a failure reproduces */
static uint64_t rnd_u64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Log-uniform over 1 ns .. 4e12 ns, with a cluster around 80 us. */
static uint64_t rnd_latency(void)
{
	if (rnd_u64() % 2)
		return 80000 + rnd_u64() % 2000;
	double u = (double)(rnd_u64() >> 11) * 0x1p-53;
	return (uint64_t)exp(u * log(4e12)) + 1;
}

static void assert_close(double got, double want, const char *what)
{
	if (fabs(got - want) <= MOMENT_REL_ERR * fabs(want))
		return;
	print_error("%s: got %.17g, want %.17g\n", what, got, want);
	fail();
}

static void assert_same_hist(const struct sb_hist *got, const struct sb_hist *want)
{
	assert_int_equal(got->count, want->count);
	assert_int_equal(got->min, want->min);
	assert_int_equal(got->max, want->max);
	assert_memory_equal(got->bucket, want->bucket, sizeof(got->bucket));
	assert_close(sb_hist_mean(got), sb_hist_mean(want), "mean");
	assert_close(sb_hist_stddev(got), sb_hist_stddev(want), "stddev");
	for (unsigned i = 0; i < sb_npercentiles; i++)
		assert_int_equal(sb_hist_percentile(got, sb_percentiles[i]),
				 sb_hist_percentile(want, sb_percentiles[i]));
}

/* part_of(i) says which part sample i goes to. */
static void split_and_merge(unsigned (*part_of)(size_t i))
{
	static struct sb_hist parts[NPARTS], all, merged;
	sb_hist_init(&all);
	sb_hist_init(&merged);
	for (unsigned p = 0; p < NPARTS; p++)
		sb_hist_init(&parts[p]);
	for (size_t i = 0; i < NSAMPLES; i++) {
		uint64_t v = rnd_latency();
		sb_hist_add(&all, v);
		sb_hist_add(&parts[part_of(i)], v);
	}
	/* in reverse, so that merged's shift is not all's */
	for (unsigned p = NPARTS; p-- > 0;)
		sb_hist_merge(&merged, &parts[p]);
	assert_same_hist(&merged, &all);
}

/* uneven contiguous runs; part 3 stays empty */
static unsigned part_contiguous(size_t i)
{
	static const size_t ends[NPARTS] = { 1, 10, 1000, 1000, 30000, 99999, NSAMPLES };
	unsigned p = 0;
	while (i >= ends[p])
		p++;
	return p;
}

static unsigned part_random(size_t i)
{
	return (unsigned)(rnd_u64() % NPARTS);
}

static void test_merge_contiguous(void **state)
{
	split_and_merge(part_contiguous);
}

static void test_merge_random(void **state)
{
	split_and_merge(part_random);
}

/* Two shifts 990 apart, worked by hand. */
static void test_rebase_by_hand(void **state)
{
	struct sb_hist a, b, ab;
	sb_hist_init(&a);
	sb_hist_init(&b);
	sb_hist_add(&a, 10);
	sb_hist_add(&a, 20);
	sb_hist_add(&b, 1000);
	sb_hist_add(&b, 1003);

	ab = a;
	sb_hist_merge(&ab, &b);
	/* relative to 10: 0 + 10 + 990 + 993, and 0 + 100 + 980100 + 986049 */
	assert_int_equal(ab.shift, 10);
	assert_true(ab.sum == 1993);
	assert_true(ab.sumsq == 1966249);
	assert_int_equal(ab.count, 4);
	assert_int_equal(ab.min, 10);
	assert_int_equal(ab.max, 1003);
	/* mean 2033 / 4; squared deviations 248253.0625 + 238388.0625 +
	 * 241818.0625 + 244777.5625 = 973236.75, over 4 - 1 */
	assert_true(sb_hist_mean(&ab) == 508.25);
	assert_close(sb_hist_stddev(&ab) * sb_hist_stddev(&ab), 324412.25, "variance");

	/* the other way round: relative to 1000, 0 + 3 - 990 - 980 */
	struct sb_hist ba = b;
	sb_hist_merge(&ba, &a);
	assert_int_equal(ba.shift, 1000);
	assert_true(ba.sum == -1967);
	assert_true(ba.sumsq == 1940509);
	assert_true(sb_hist_mean(&ba) == 508.25);
	assert_close(sb_hist_stddev(&ba), sb_hist_stddev(&ab), "stddev");
}

static void test_merge_into_empty(void **state)
{
	static struct sb_hist src, dst;
	sb_hist_init(&src);
	sb_hist_init(&dst);
	for (int i = 0; i < 1000; i++)
		sb_hist_add(&src, rnd_latency());
	sb_hist_merge(&dst, &src);
	assert_memory_equal(&dst, &src, sizeof(dst));
}

static void test_merge_of_empty(void **state)
{
	static struct sb_hist empty, dst, before;
	sb_hist_init(&empty);
	sb_hist_init(&dst);
	for (int i = 0; i < 1000; i++)
		sb_hist_add(&dst, rnd_latency());
	before = dst;
	sb_hist_merge(&dst, &empty);
	assert_memory_equal(&dst, &before, sizeof(dst));

	struct sb_hist none;
	sb_hist_init(&none);
	sb_hist_merge(&none, &empty);
	assert_int_equal(none.count, 0);
	assert_int_equal(sb_hist_percentile(&none, 50), 0);
	assert_true(sb_hist_mean(&none) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rebase_by_hand), cmocka_unit_test(test_merge_contiguous),
		cmocka_unit_test(test_merge_random),   cmocka_unit_test(test_merge_into_empty),
		cmocka_unit_test(test_merge_of_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
