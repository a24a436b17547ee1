/* needs: none */
/*
 * Write buffers: random data looks incompressible, the compressible share is
 * exactly the zeros asked for, scramble changes every sector and nothing
 * else, and allocations are aligned.
 */
#include "tests/lib/sbtest.h"
#include "lib/job/buffer.h"

#include <math.h>

#define LEN (1024 * 1024 + 1000) /* a partial 4 KiB segment at the end */
#define GUARD 64

/* Shannon entropy in bits per byte. */
static double entropy(const uint8_t *p, size_t len, unsigned *distinct)
{
	size_t count[256] = { 0 };
	double h = 0;

	*distinct = 0;
	for (size_t i = 0; i < len; i++)
		count[p[i]]++;
	for (int v = 0; v < 256; v++) {
		const double f = (double)count[v] / (double)len;

		if (count[v]) {
			h -= f * log2(f);
			++*distinct;
		}
	}
	return h;
}

static void test_random_incompressible(void **state)
{
	uint8_t *buf = malloc(LEN + 2 * GUARD);
	struct sb_rng rng;
	unsigned distinct;
	double h;

	(void)state;
	assert_non_null(buf);
	memset(buf, 0xa5, LEN + 2 * GUARD);
	sb_rng_seed(&rng, 1);
	/* an odd start and length: no alignment assumed */
	sb_buf_fill(buf + GUARD + 3, LEN - 3, &rng, 0);
	for (int i = 0; i < GUARD + 3; i++)
		assert_int_equal(buf[i], 0xa5);
	for (int i = 0; i < GUARD; i++)
		assert_int_equal(buf[GUARD + LEN + i], 0xa5);
	h = entropy(buf + GUARD + 3, LEN - 3, &distinct);
	assert_int_equal(distinct, 256);
	if (h < 7.999)
		fail_msg("entropy %.5f bits per byte, want > 7.999", h);
	free(buf);
}

static void test_fresh_data_each_fill(void **state)
{
	uint8_t *a = malloc(8192), *b = malloc(8192);
	struct sb_rng rng;
	size_t same = 0;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	sb_rng_seed(&rng, 2);
	sb_buf_fill(a, 8192, &rng, 0);
	sb_buf_fill(b, 8192, &rng, 0);
	for (size_t i = 0; i < 8192; i++)
		same += a[i] == b[i];
	assert_true(same < 8192 / 128); /* about 1/256 by chance */
	free(a);
	free(b);
}

static void check_compressible(unsigned pct)
{
	uint8_t *buf = malloc(LEN);
	struct sb_rng rng;
	size_t random_zeros = 0, random_len = 0;

	assert_non_null(buf);
	memset(buf, 0xff, LEN);
	sb_rng_seed(&rng, 3 + pct);
	sb_buf_fill(buf, LEN, &rng, pct);
	for (size_t off = 0; off < LEN; off += 4096) {
		const size_t seg = SB_MIN((size_t)LEN - off, (size_t)4096);
		const size_t zeros = seg * SB_MIN(pct, 100u) / 100;

		for (size_t i = seg - zeros; i < seg; i++)
			if (buf[off + i])
				fail_msg("pct %u: byte %zu of segment at %zu not zero", pct, i,
					 off);
		for (size_t i = 0; i < seg - zeros; i++)
			random_zeros += buf[off + i] == 0;
		random_len += seg - zeros;
		/* the zero run starts where asked: random data right before it */
		if (zeros < seg && zeros > 0)
			assert_false(buf[off + seg - zeros - 1] == 0 &&
				     buf[off + seg - zeros - 2] == 0 &&
				     buf[off + seg - zeros - 3] == 0);
	}
	if (random_len) {
		/* binomial(random_len, 1/256): well within 6 sigma */
		const double mean = random_len / 256.0, sd = sqrt(mean);

		if (fabs((double)random_zeros - mean) > 6 * sd)
			fail_msg("pct %u: %zu zeros in %zu random bytes", pct, random_zeros,
				 random_len);
	}
	free(buf);
}

static void test_compressible_share(void **state)
{
	static const unsigned pcts[] = { 0, 1, 25, 50, 99, 100, 150 /* clamped */ };

	(void)state;
	for (size_t i = 0; i < SB_ARRAY_SIZE(pcts); i++)
		check_compressible(pcts[i]);
}

static void test_scramble(void **state)
{
	const size_t len = 10 * 512 + 5; /* last sector shorter than 8 bytes */
	const uint64_t r = 0x0123456789abcdefull;
	uint8_t *buf = malloc(len), *orig = malloc(len);
	struct sb_rng rng;

	(void)state;
	assert_non_null(buf);
	assert_non_null(orig);
	sb_rng_seed(&rng, 4);
	sb_buf_fill(buf, len, &rng, 0);
	memcpy(orig, buf, len);
	sb_buf_scramble(buf, len, r);
	for (size_t off = 0; off < len; off += 512) {
		const size_t n = SB_MIN(len - off, (size_t)8);
		uint64_t a = 0, b = 0;

		memcpy(&a, orig + off, n);
		memcpy(&b, buf + off, n);
		assert_true(a != b);
		assert_true(((a ^ b) & (n < 8 ? (1ull << (8 * n)) - 1 : ~0ull)) ==
			    (r & (n < 8 ? (1ull << (8 * n)) - 1 : ~0ull)));
		assert_memory_equal(orig + off + n, buf + off + n,
				    SB_MIN(len - off, (size_t)512) - n);
	}
	sb_buf_scramble(buf, len, r);
	assert_memory_equal(orig, buf, len);
	free(buf);
	free(orig);
}

static void test_alloc_aligned(void **state)
{
	static const size_t aligns[] = { 1, 8, 512, 4096, 1 << 21 };

	(void)state;
	for (size_t i = 0; i < SB_ARRAY_SIZE(aligns); i++) {
		void *p = sb_buf_alloc(12345, aligns[i]);

		assert_non_null(p);
		assert_int_equal((uintptr_t)p % aligns[i], 0);
		memset(p, 1, 12345);
		free(p);
	}
	free(sb_buf_alloc(0, 4096));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_incompressible),
		cmocka_unit_test(test_fresh_data_each_fill),
		cmocka_unit_test(test_compressible_share),
		cmocka_unit_test(test_scramble),
		cmocka_unit_test(test_alloc_aligned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
