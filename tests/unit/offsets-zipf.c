/* needs: none */
/*
 * Skewed offsets: zipf block shares match p(k) = k^-theta / H(n, theta);
 * pareto h=0.2 puts about 80% of the I/O on 20% of the blocks; hot blocks
 * are scattered; bad parameters are refused.
 */
#include "tests/lib/sbtest.h"
#include "lib/job/offsets.h"

#include <math.h>

#define NBLOCKS 1000
#define SAMPLES 1000000

static int by_count_desc(const void *a, const void *b)
{
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Per-block counts of SAMPLES draws, sorted hottest first. */
static void draw(struct sb_offgen *g, uint32_t *count)
{
	memset(count, 0, NBLOCKS * sizeof(*count));
	for (int i = 0; i < SAMPLES; i++) {
		const uint64_t b = sb_offgen_next(g);

		if (b >= NBLOCKS)
			fail_msg("block %llu out of range", (unsigned long long)b);
		count[b]++;
	}
	qsort(count, NBLOCKS, sizeof(*count), by_count_desc);
}

static double share(const uint32_t *sorted, int top)
{
	uint64_t sum = 0;

	for (int i = 0; i < top; i++)
		sum += sorted[i];
	return (double)sum / SAMPLES;
}

static void expect_close(const char *what, double got, double want, double rel)
{
	if (fabs(got - want) > rel * want)
		fail_msg("%s: got %.4f, want %.4f within %.0f%%", what, got, want, rel * 100);
}

static void check_zipf(double theta, uint64_t seed)
{
	uint32_t count[NBLOCKS];
	double h = 0, top10 = 0;
	struct sb_offgen g;
	char what[64];

	for (int k = NBLOCKS; k >= 1; k--)
		h += pow(k, -theta);
	for (int k = 1; k <= 10; k++)
		top10 += pow(k, -theta) / h;
	assert_int_equal(sb_offgen_init(&g, NBLOCKS, SB_DIST_ZIPF, theta, seed), 0);
	draw(&g, count);
	snprintf(what, sizeof(what), "theta %.1f hottest block", theta);
	expect_close(what, share(count, 1), 1 / h, 0.03);
	snprintf(what, sizeof(what), "theta %.1f top 10 blocks", theta);
	expect_close(what, share(count, 10), top10, 0.03);
}

static void test_zipf_shares(void **state)
{
	(void)state;
	check_zipf(1.2, 1);
	check_zipf(0.8, 2);
	check_zipf(2.0, 3);
}

/* The hottest ranks are scattered over the region, not packed at its start. */
static void test_zipf_scattered(void **state)
{
	struct sb_offgen g;
	uint32_t count[NBLOCKS] = { 0 };
	uint64_t lo = NBLOCKS, hi = 0;

	(void)state;
	assert_int_equal(sb_offgen_init(&g, NBLOCKS, SB_DIST_ZIPF, 1.2, 4), 0);
	for (int i = 0; i < 100000; i++)
		count[sb_offgen_next(&g)]++;
	/* rank k has share k^-1.2 / 4.34: ranks 1..5 hold more than 4000 each */
	for (uint64_t b = 0; b < NBLOCKS; b++) {
		if (count[b] > 4000) {
			lo = SB_MIN(lo, b);
			hi = SB_MAX(hi, b);
		}
	}
	assert_true(lo < hi);
	if (hi - lo < NBLOCKS / 10)
		fail_msg("hot blocks packed in [%llu, %llu]", (unsigned long long)lo,
			 (unsigned long long)hi);
}

static void test_pareto_80_20(void **state)
{
	uint32_t count[NBLOCKS];
	struct sb_offgen g;

	(void)state;
	assert_int_equal(sb_offgen_init(&g, NBLOCKS, SB_DIST_PARETO, 0.2, 5), 0);
	draw(&g, count);
	expect_close("pareto 0.2: share of the hottest 20% of blocks", share(count, NBLOCKS / 5),
		     0.80, 0.03);
}

static void test_large_region(void **state)
{
	/* 4 PiB of 4 KiB blocks; the largest count, where (double)n rounds up */
	static const uint64_t sizes[] = { 1000000000000ull + 7, UINT64_MAX };
	struct sb_offgen z, p;

	(void)state;
	for (size_t s = 0; s < SB_ARRAY_SIZE(sizes); s++) {
		const uint64_t n = sizes[s];

		assert_int_equal(sb_offgen_init(&z, n, SB_DIST_ZIPF, 0.5, 6), 0);
		assert_int_equal(sb_offgen_init(&p, n, SB_DIST_PARETO, 0.45, 7), 0);
		for (int i = 0; i < 100000; i++) {
			assert_true(sb_offgen_next(&z) < n);
			assert_true(sb_offgen_next(&p) < n);
		}
	}
}

static void test_tiny_region(void **state)
{
	struct sb_offgen g;

	(void)state;
	for (enum sb_dist d = SB_DIST_ZIPF; d <= SB_DIST_PARETO; d++) {
		assert_int_equal(sb_offgen_init(&g, 1, d, 0.5, 8), 0);
		for (int i = 0; i < 100; i++)
			assert_int_equal(sb_offgen_next(&g), 0);
	}
}

static void test_bad_params(void **state)
{
	static const double bad_theta[] = { 0, -1, 1, NAN, INFINITY, -INFINITY };
	static const double bad_h[] = { 0, 1, -0.5, 1.5, NAN, INFINITY };
	struct sb_offgen g;

	(void)state;
	for (size_t i = 0; i < SB_ARRAY_SIZE(bad_theta); i++)
		assert_int_equal(sb_offgen_init(&g, 100, SB_DIST_ZIPF, bad_theta[i], 1), -EINVAL);
	for (size_t i = 0; i < SB_ARRAY_SIZE(bad_h); i++)
		assert_int_equal(sb_offgen_init(&g, 100, SB_DIST_PARETO, bad_h[i], 1), -EINVAL);
	assert_int_equal(sb_offgen_init(&g, 0, SB_DIST_ZIPF, 1.2, 1), -EINVAL);
	assert_int_equal(sb_offgen_init(&g, 0, SB_DIST_PARETO, 0.2, 1), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zipf_shares),  cmocka_unit_test(test_zipf_scattered),
		cmocka_unit_test(test_pareto_80_20), cmocka_unit_test(test_large_region),
		cmocka_unit_test(test_tiny_region),  cmocka_unit_test(test_bad_params),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
