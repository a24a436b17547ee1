/* needs: none */
/* The two-halves 128-bit arithmetic that 32-bit ARM builds use agrees with
 * the compiler's unsigned __int128 on edge values and a million random ones
 * (where the compiler has __int128; elsewhere, with values worked by hand). */
#define SB_U128_PORTABLE 1
#include "tests/lib/sbtest.h"
#include "lib/base/u128.h"

#ifdef __SIZEOF_INT128__
static const uint64_t edges[] = {
	0,
	1,
	2,
	3,
	9,
	10,
	1000000000u,
	0xffffffffu,
	0x100000000ull,
	0x100000001ull,
	10000000000000000000ull,
	1ull << 63,
	(1ull << 63) + 1,
	UINT64_MAX - 1,
	UINT64_MAX,
};

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* a * b + c, divided by d: both ways */
static void check(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	const unsigned __int128 n = (unsigned __int128)a * b + c;
	const sb_u128 p = sb_u128_add(sb_u128_mul(a, b), sb_u128_from(c));
	uint64_t rem;

	assert_int_equal(sb_u128_hi(p), (uint64_t)(n >> 64));
	assert_int_equal(sb_u128_lo(p), (uint64_t)n);
	if (!d)
		return;
	const sb_u128 q = sb_u128_div(p, d, &rem);
	assert_int_equal(sb_u128_hi(q), (uint64_t)((n / d) >> 64));
	assert_int_equal(sb_u128_lo(q), (uint64_t)(n / d));
	assert_int_equal(rem, (uint64_t)(n % d));
	const unsigned __int128 m = (unsigned __int128)b * c;
	assert_int_equal(sb_u128_cmp(p, sb_u128_mul(b, c)), n < m ? -1 : n > m);
}

static void agrees_with_int128(void **state)
{
	(void)state;
	const size_t ne = SB_ARRAY_SIZE(edges);
	for (size_t i = 0; i < ne; i++)
		for (size_t j = 0; j < ne; j++)
			for (size_t k = 0; k < ne; k++)
				check(edges[i], edges[j], edges[k], edges[(i + j + k) % ne]);
	uint64_t s = 42;
	for (int i = 0; i < 1000000; i++) {
		const uint64_t a = splitmix(&s), b = splitmix(&s), c = splitmix(&s);
		/* divisors of every width: a short one exercises the long quotients */
		const uint64_t d = splitmix(&s) >> (splitmix(&s) & 63);
		check(a, b, c, d);
	}
}
#endif

static void by_hand(void **state)
{
	(void)state;
	uint64_t rem;
	/* (2^64 - 1)^2 = 2^128 - 2^65 + 1 */
	sb_u128 p = sb_u128_mul(UINT64_MAX, UINT64_MAX);
	assert_int_equal(sb_u128_hi(p), UINT64_MAX - 1);
	assert_int_equal(sb_u128_lo(p), 1);
	/* 10^19 * 10^9 / 3 = 3333333333333333333333333333 r 1 */
	sb_u128 q = sb_u128_div(sb_u128_mul(10000000000000000000ull, 1000000000u), 3, &rem);
	assert_int_equal(sb_u128_hi(q), 0xac544caull);
	assert_int_equal(sb_u128_lo(q), 0x14b700cb05555555ull);
	assert_int_equal(rem, 1);
	/* a carry from the low half into the high one */
	p = sb_u128_add(sb_u128_from(UINT64_MAX), sb_u128_from(1));
	assert_int_equal(sb_u128_hi(p), 1);
	assert_int_equal(sb_u128_lo(p), 0);
	assert_int_equal(sb_u128_cmp(p, sb_u128_from(UINT64_MAX)), 1);
	assert_int_equal(sb_u128_cmp(sb_u128_from(7), sb_u128_from(7)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(by_hand),
#ifdef __SIZEOF_INT128__
		cmocka_unit_test(agrees_with_int128),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
