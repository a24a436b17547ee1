/* needs: none */
/*
 * sb_hist_index never decreases as the value grows, stays inside the bucket
 * array for every uint64_t (every power of two boundary up to 2^63), and
 * puts each value below 2^43 in a bucket whose [low, high] holds it. The
 * buckets tile the range without gaps, each narrow enough for 1% error.
 */
#include "tests/lib/sbtest.h"
#include "lib/stats/hist.h"

#define RANGE (UINT64_C(1) << SB_HIST_MAX_BITS)
#define NRANDOM 1000000

static uint64_t rng_state = 0xfeedfacecafebeefull;

/* splitmix64: deterministic, so a failure reproduces */
static uint64_t rnd_u64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Sorted sweep: 0..2^16 in full, then around every power of two and every
 * sub-bucket boundary above, then random values of every magnitude. */
static uint64_t *make_sweep(size_t *n)
{
	size_t cap = 70000 + 64 * 64 * 3 + NRANDOM, k = 0;
	uint64_t *v = malloc(cap * sizeof(*v));
	assert_non_null(v);
	for (uint64_t x = 0; x <= 1u << 16; x++)
		v[k++] = x;
	for (unsigned b = 0; b < 64; b++) {
		uint64_t step = b > SB_HIST_SUB_BITS ? UINT64_C(1) << (b - SB_HIST_SUB_BITS) : 1;
		for (uint64_t j = 0; j < SB_HIST_SUB; j++) {
			/* at most 2^63 + 63 * 2^57 + 1: no wrap */
			uint64_t x = (UINT64_C(1) << b) + j * step;
			v[k++] = x - 1;
			v[k++] = x;
			v[k++] = x + 1;
		}
	}
	for (size_t i = 0; i < NRANDOM; i++)
		v[k++] = rnd_u64() >> (rnd_u64() % 64);
	assert_true(k <= cap);
	qsort(v, k, sizeof(*v), cmp_u64);
	*n = k;
	return v;
}

static void test_monotone(void **state)
{
	size_t n;
	uint64_t *v = make_sweep(&n);
	unsigned prev = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned idx = sb_hist_index(v[i]);
		assert_true(idx < SB_HIST_NBUCKETS);
		if (idx < prev) {
			print_error("index(%llu) = %u < index(%llu) = %u\n",
				    (unsigned long long)v[i], idx, (unsigned long long)v[i - 1],
				    prev);
			fail();
		}
		prev = idx;
	}
	assert_int_equal(sb_hist_index(UINT64_MAX), SB_HIST_NBUCKETS - 1);
	free(v);
}

static void test_value_in_its_bucket(void **state)
{
	size_t n;
	uint64_t *v = make_sweep(&n);
	for (size_t i = 0; i < n && v[i] < RANGE; i++) {
		unsigned idx = sb_hist_index(v[i]);
		if (sb_hist_bucket_low(idx) > v[i] || v[i] > sb_hist_bucket_high(idx)) {
			print_error("%llu in bucket %u = [%llu, %llu]\n", (unsigned long long)v[i],
				    idx, (unsigned long long)sb_hist_bucket_low(idx),
				    (unsigned long long)sb_hist_bucket_high(idx));
			fail();
		}
	}
	free(v);
}

static void test_exact_below_128(void **state)
{
	for (uint64_t x = 0; x < 2 * SB_HIST_SUB; x++) {
		assert_int_equal(sb_hist_index(x), x);
		assert_int_equal(sb_hist_bucket_low((unsigned)x), x);
		assert_int_equal(sb_hist_bucket_high((unsigned)x), x);
	}
}

/* Consecutive buckets meet; each holds its own ends; the width is at most
 * low / 64, so the midpoint is within 1/128 of anything inside. */
static void test_buckets_tile(void **state)
{
	assert_int_equal(sb_hist_bucket_low(0), 0);
	for (unsigned i = 0; i < SB_HIST_NBUCKETS; i++) {
		uint64_t low = sb_hist_bucket_low(i), high = sb_hist_bucket_high(i);
		assert_true(low <= high);
		assert_int_equal(sb_hist_index(low), i);
		assert_int_equal(sb_hist_index(high), i);
		if (i + 1 < SB_HIST_NBUCKETS) {
			assert_int_equal(sb_hist_bucket_low(i + 1), high + 1);
			assert_true(low < 2 * SB_HIST_SUB || (high - low + 1) * SB_HIST_SUB <= low);
		}
	}
	assert_int_equal(sb_hist_bucket_low(SB_HIST_NBUCKETS - 1), RANGE - RANGE / 128);
	assert_int_equal(sb_hist_bucket_high(SB_HIST_NBUCKETS - 1), UINT64_MAX);
	assert_int_equal(sb_hist_index(RANGE - 1), SB_HIST_NBUCKETS - 1);
	assert_int_equal(sb_hist_index(RANGE), SB_HIST_NBUCKETS - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_monotone),
		cmocka_unit_test(test_value_in_its_bucket),
		cmocka_unit_test(test_exact_below_128),
		cmocka_unit_test(test_buckets_tile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
