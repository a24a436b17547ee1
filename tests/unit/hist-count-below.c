/* needs: none */
/*
 * sb_hist_count_below (fio's latency_ns/us/ms shares come from it): exact
 * for values below 128 ns, where every bucket holds one value; above, off
 * from the true count by at most the samples of the one bucket v cuts;
 * 0 at or below min, everything above max.
 */
#include "tests/lib/sbtest.h"
#include "lib/stats/hist.h"

#include <math.h>

#define NSAMPLES 20000

static uint64_t rng_state = 0x243f6a8885a308d3ull;

static uint64_t rnd_u64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t samples[NSAMPLES];

static uint64_t true_below(uint64_t v)
{
	uint64_t n = 0;
	for (size_t i = 0; i < NSAMPLES; i++)
		n += samples[i] < v;
	return n;
}

static void test_exact_small(void **state)
{
	static struct sb_hist h;
	(void)state;
	sb_hist_init(&h);
	for (size_t i = 0; i < NSAMPLES; i++)
		sb_hist_add(&h, samples[i] = 3 + rnd_u64() % 120);
	for (uint64_t v = 0; v <= 130; v++)
		assert_true(sb_hist_count_below(&h, v) == (double)true_below(v));
}

static void test_within_a_bucket(void **state)
{
	static struct sb_hist h;
	(void)state;
	sb_hist_init(&h);
	for (size_t i = 0; i < NSAMPLES; i++) {
		double u = (double)(rnd_u64() >> 11) * 0x1p-53;
		sb_hist_add(&h, samples[i] = (uint64_t)exp(u * log(1e10)) + 1);
	}
	/* fio's edges: 2, 4, 10, ... 750, 1000 times 1, 1e3, 1e6 */
	static const uint64_t ends[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000 };
	for (uint64_t scale = 1; scale <= 1000000; scale *= 1000) {
		for (size_t k = 0; k < SB_ARRAY_SIZE(ends); k++) {
			uint64_t v = ends[k] * scale;
			double got = sb_hist_count_below(&h, v);
			double want = (double)true_below(v);
			double slack = (double)h.bucket[sb_hist_index(v)];
			if (fabs(got - want) > slack) {
				print_error("below %llu: %.1f, truly %.0f (bucket %.0f)\n",
					    (unsigned long long)v, got, want, slack);
				fail();
			}
		}
	}
	assert_true(sb_hist_count_below(&h, h.min) == 0);
	assert_true(sb_hist_count_below(&h, h.max + 1) == (double)NSAMPLES);
	assert_true(sb_hist_count_below(&h, UINT64_MAX) == (double)NSAMPLES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_small),
		cmocka_unit_test(test_within_a_bucket),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
