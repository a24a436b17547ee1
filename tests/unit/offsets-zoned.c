/* needs: none */
/*
 * fio's zoned distributions: the share of accesses each zone gets matches
 * its access percentage (binomial tolerance), every access falls inside
 * its zone, blocks within a zone are spread evenly, zoned_abs turns sizes
 * into blocks with the block size, and malformed specs are refused.
 */
#include "tests/lib/sbtest.h"
#include "lib/job/offsets.h"
#include "lib/base/units.h"

#include <math.h>

#define DRAWS 1000000

/* Draws from g, counted per zone given by bounds[0..nz] (block indices). */
static void count(struct sb_offgen *g, const uint64_t *bounds, unsigned nz, uint64_t *hits,
		  uint64_t nblocks, uint64_t *per_block)
{
	for (unsigned i = 0; i < DRAWS; i++) {
		const uint64_t b = sb_offgen_next(g);
		unsigned z = 0;
		assert_true(b < nblocks);
		while (z < nz && b >= bounds[z + 1])
			z++;
		if (z == nz)
			fail_msg("block %llu lies past the last zone", (unsigned long long)b);
		hits[z]++;
		if (per_block)
			per_block[b]++;
	}
}

/* Within 5 standard deviations of a binomial count. */
static void near(uint64_t got, double p, const char *what, unsigned i)
{
	const double mean = DRAWS * p, sd = sqrt(DRAWS * p * (1 - p));
	if (fabs((double)got - mean) > 5 * sd + 1)
		fail_msg("%s zone %u: %llu accesses, expected %.0f +- %.0f", what, i,
			 (unsigned long long)got, mean, 5 * sd);
}

/* JESD219's: 50% of accesses to the first 5%, 30% to the next 15%, 20% to
 * the last 80%. */
static void test_jesd219(void **state)
{
	struct sb_zones z;
	struct sb_offgen g;
	const uint64_t n = 100000;
	const uint64_t bounds[] = { 0, 5000, 20000, 100000 };
	const double share[] = { 0.5, 0.3, 0.2 };
	uint64_t hits[3] = { 0 };
	uint64_t *per = calloc(n, sizeof(*per));

	(void)state;
	assert_non_null(per);
	assert_int_equal(sb_parse_zones("zoned:50/5:30/15:20/80", &z), 0);
	assert_int_equal(z.n, 3);
	assert_int_equal(sb_offgen_init_zoned(&g, n, &z, 4096, 7), 0);
	count(&g, bounds, 3, hits, n, per);
	for (unsigned i = 0; i < 3; i++)
		near(hits[i], share[i], "jesd219", i);
	/* inside the hot zone, blocks evenly hit: 100 expected each */
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint64_t b = 0; b < 5000; b++) {
		lo = per[b] < lo ? per[b] : lo;
		hi = per[b] > hi ? per[b] : hi;
	}
	if (lo < 50 || hi > 160)
		fail_msg("hot zone blocks hit %llu..%llu times, expected about 100",
			 (unsigned long long)lo, (unsigned long long)hi);
	free(per);
}

/* Sizes adding up to less than 100%: the rest of the region is never
 * accessed, as in fio. */
static void test_partial(void **state)
{
	struct sb_zones z;
	struct sb_offgen g;
	const uint64_t n = 1000;
	const uint64_t bounds[] = { 0, 100, 500 };
	uint64_t hits[2] = { 0 };

	(void)state;
	assert_int_equal(sb_parse_zones("zoned:60/10:40/40", &z), 0);
	assert_int_equal(sb_offgen_init_zoned(&g, n, &z, 512, 1), 0);
	count(&g, bounds, 2, hits, n, NULL);
	near(hits[0], 0.6, "partial", 0);
	near(hits[1], 0.4, "partial", 1);
}

/* zoned_abs: 1M of 4 KiB blocks is 256 of them. */
static void test_abs(void **state)
{
	struct sb_zones z;
	struct sb_offgen g;
	const uint64_t n = 4096; /* 16 MiB of 4 KiB blocks */
	const uint64_t bounds[] = { 0, 256, 256 + 768 };
	uint64_t hits[2] = { 0 };

	(void)state;
	assert_int_equal(sb_parse_zones("zoned_abs:70/1M:30/3m", &z), 0);
	assert_int_equal(z.abs, 1);
	assert_int_equal(sb_zones_abs_bytes(&z), 4ull << 20);
	assert_int_equal(sb_offgen_init_zoned(&g, n, &z, 4096, 3), 0);
	count(&g, bounds, 2, hits, n, NULL);
	near(hits[0], 0.7, "abs", 0);
	near(hits[1], 0.3, "abs", 1);
}

static void test_bad(void **state)
{
	static const char *const bad[] = {
		"zoned:50/5:30/15",  /* accesses add up to 80 */
		"zoned:50/60:50/60", /* sizes over 100% */
		"zoned:50/5:50",     /* no size */
		"zoned:",
		"zoned:101/10",
		"zoned:50/0:50/10",
		"zoned:x/10:100/5",
		"zoned_abs:100/0",
		"zoned:/10:/20:/30", /* 33+33+33 */
		"zoned:60/100:40/",  /* no size left */
		"zoned_abs:100/1Q",
		"zone:100/10",
		"zoned:50/5::50/5",
	};
	struct sb_zones z;

	(void)state;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (sb_parse_zones(bad[i], &z) == 0)
			fail_msg("'%s' accepted", bad[i]);
	assert_int_equal(sb_parse_zones("zoned:100/100", &z), 0);
	/* fio's jesd219.fio leaves the last size out: the rest of 100 */
	assert_int_equal(sb_parse_zones("zoned:50/5:30/15:20/", &z), 0);
	assert_int_equal(z.z[2].size, 80);
	/* shares left out split what remains */
	assert_int_equal(sb_parse_zones("zoned:50/10:/20:/70", &z), 0);
	assert_int_equal(z.z[1].access_pct, 25);
	assert_int_equal(z.z[2].access_pct, 25);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jesd219),
		cmocka_unit_test(test_partial),
		cmocka_unit_test(test_abs),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
