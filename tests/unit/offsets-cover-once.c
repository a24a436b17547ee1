/* needs: none */
/*
 * Uniform offsets visit every block exactly once per pass, each pass in a
 * new order; sequential offsets walk and wrap; bad parameters are refused.
 */
#include "tests/lib/sbtest.h"
#include "lib/job/offsets.h"

static const uint64_t sizes[] = { 1, 2, 3, 7, 64, 1000, 65537, 1 << 20, 999983 };

/* One pass of g into order[]; fails unless each block comes exactly once. */
static void one_pass(struct sb_offgen *g, uint32_t *order, uint8_t *seen)
{
	const uint64_t n = g->nblocks;

	memset(seen, 0, (n + 7) / 8);
	for (uint64_t i = 0; i < n; i++) {
		const uint64_t b = sb_offgen_next(g);

		if (b >= n)
			fail_msg("n=%llu: block %llu out of range", (unsigned long long)n,
				 (unsigned long long)b);
		if (seen[b / 8] & (1u << (b % 8)))
			fail_msg("n=%llu: block %llu twice in one pass (at %llu)",
				 (unsigned long long)n, (unsigned long long)b,
				 (unsigned long long)i);
		seen[b / 8] |= (uint8_t)(1u << (b % 8));
		order[i] = (uint32_t)b;
	}
}

static void test_uniform_cover_once(void **state)
{
	(void)state;
	for (size_t t = 0; t < SB_ARRAY_SIZE(sizes); t++) {
		const uint64_t n = sizes[t];
		uint32_t *first = malloc(n * sizeof(*first));
		uint32_t *again = malloc(n * sizeof(*again));
		uint8_t *seen = malloc((n + 7) / 8);
		struct sb_offgen g;
		int differs = 0;

		assert_non_null(first);
		assert_non_null(again);
		assert_non_null(seen);
		assert_int_equal(sb_offgen_init(&g, n, SB_DIST_UNIFORM, 0, 1234 + t), 0);
		one_pass(&g, first, seen);
		/* a few more passes: each covers once; orders differ (for n = 3..63 a
		 * repeat is possible by chance, so only ask that some pass differ) */
		for (int pass = 1; pass < 8 && !(pass > 1 && n >= 64); pass++) {
			one_pass(&g, again, seen);
			if (memcmp(first, again, n * sizeof(*first)))
				differs++;
			else if (n >= 64)
				fail_msg("n=%llu: pass %d repeats the first", (unsigned long long)n,
					 pass);
		}
		if (n >= 3 && !differs)
			fail_msg("n=%llu: every pass in the same order", (unsigned long long)n);
		free(first);
		free(again);
		free(seen);
	}
}

/* Consecutive blocks land far apart with no recurring stride: the most common
 * difference between neighbours is as rare as in a random shuffle (about 9
 * of 2^20 there; a stride shows up as hundreds). */
static void test_uniform_no_stride(void **state)
{
	const uint64_t n = 1 << 20;
	uint32_t *hist = calloc(n, sizeof(*hist));
	uint64_t prev, max = 0;
	double sum = 0;
	struct sb_offgen g;

	(void)state;
	assert_non_null(hist);
	for (uint64_t seed = 0; seed < 4; seed++) {
		memset(hist, 0, n * sizeof(*hist));
		assert_int_equal(sb_offgen_init(&g, n, SB_DIST_UNIFORM, 0, seed), 0);
		prev = sb_offgen_next(&g);
		for (uint64_t i = 1; i < n; i++) {
			const uint64_t b = sb_offgen_next(&g);
			const uint64_t d = (b - prev) & (n - 1);

			sum += b > prev ? (double)(b - prev) : (double)(prev - b);
			if (++hist[d] > max)
				max = hist[d];
			prev = b;
		}
	}
	if (max > 20)
		fail_msg("a difference between neighbours recurs %llu times",
			 (unsigned long long)max);
	/* mean |b[i+1] - b[i]| of a random order is n/3 */
	sum /= 4.0 * (double)(n - 1) * (double)n;
	if (sum < 0.33 || sum > 0.337)
		fail_msg("mean jump %.4f of the region, want 1/3", sum);
	free(hist);
}

static void test_seq(void **state)
{
	struct sb_offgen g;

	(void)state;
	assert_int_equal(sb_offgen_init(&g, 5, SB_DIST_SEQ, 0, 1), 0);
	for (int pass = 0; pass < 3; pass++)
		for (uint64_t i = 0; i < 5; i++)
			assert_int_equal(sb_offgen_next(&g), i);
}

static void test_huge_region(void **state)
{
	struct sb_offgen g;

	(void)state;
	for (int shift = 62; shift <= 64; shift++) {
		const uint64_t n = shift == 64 ? UINT64_MAX : (1ull << shift) + 3;

		assert_int_equal(sb_offgen_init(&g, n, SB_DIST_UNIFORM, 0, 9), 0);
		for (int i = 0; i < 1000; i++)
			assert_true(sb_offgen_next(&g) < n);
	}
}

static void test_bad_params(void **state)
{
	struct sb_offgen g;

	(void)state;
	assert_int_equal(sb_offgen_init(&g, 0, SB_DIST_UNIFORM, 0, 1), -EINVAL);
	assert_int_equal(sb_offgen_init(&g, 0, SB_DIST_SEQ, 0, 1), -EINVAL);
	assert_int_equal(sb_offgen_init(&g, 10, (enum sb_dist)99, 0, 1), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniform_cover_once),
		cmocka_unit_test(test_uniform_no_stride),
		cmocka_unit_test(test_seq),
		cmocka_unit_test(test_huge_region),
		cmocka_unit_test(test_bad_params),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
