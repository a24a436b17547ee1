/*
 * 128-bit unsigned arithmetic for the few places that need it (products of
 * two 64-bit numbers, divided back down). Compilers for 64-bit machines have
 * unsigned __int128; 32-bit ARM has not, and gets two halves instead.
 */
#ifndef SB_U128_H
#define SB_U128_H

#include <stdint.h>

/* SB_U128_PORTABLE: the halves everywhere (the unit test compares the two) */
#if defined(__SIZEOF_INT128__) && !defined(SB_U128_PORTABLE)
typedef unsigned __int128 sb_u128;

static inline sb_u128 sb_u128_mul(uint64_t a, uint64_t b)
{
	return (sb_u128)a * b;
}
static inline sb_u128 sb_u128_add(sb_u128 a, sb_u128 b)
{
	return a + b;
}
static inline sb_u128 sb_u128_from(uint64_t a)
{
	return a;
}
/* a / d, the remainder in *rem; d > 0 */
static inline sb_u128 sb_u128_div(sb_u128 a, uint64_t d, uint64_t *rem)
{
	*rem = (uint64_t)(a % d);
	return a / d;
}
static inline int sb_u128_cmp(sb_u128 a, sb_u128 b)
{
	return a < b ? -1 : a > b;
}
static inline uint64_t sb_u128_hi(sb_u128 a)
{
	return (uint64_t)(a >> 64);
}
static inline uint64_t sb_u128_lo(sb_u128 a)
{
	return (uint64_t)a;
}
#else
typedef struct {
	uint64_t hi, lo;
} sb_u128;

static inline sb_u128 sb_u128_mul(uint64_t a, uint64_t b)
{
	const uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
	const uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	const uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
	sb_u128 r = { hh + (lh >> 32) + (hl >> 32) + (mid >> 32), (mid << 32) | (uint32_t)ll };
	return r;
}
static inline sb_u128 sb_u128_add(sb_u128 a, sb_u128 b)
{
	sb_u128 r = { a.hi + b.hi, a.lo + b.lo };
	r.hi += r.lo < a.lo;
	return r;
}
static inline sb_u128 sb_u128_from(uint64_t a)
{
	sb_u128 r = { 0, a };
	return r;
}
/* a / d by shift and subtract, one bit at a time; d > 0 */
static inline sb_u128 sb_u128_div(sb_u128 a, uint64_t d, uint64_t *rem)
{
	sb_u128 q = { 0, 0 };
	uint64_t r = 0;
	for (int i = 127; i >= 0; i--) {
		const uint64_t bit = (i >= 64 ? a.hi >> (i - 64) : a.lo >> i) & 1;
		const int carry = r >> 63; /* r * 2 + bit needs 65 bits */
		r = r << 1 | bit;
		if (carry || r >= d) {
			r -= d;
			if (i >= 64)
				q.hi |= 1ull << (i - 64);
			else
				q.lo |= 1ull << i;
		}
	}
	*rem = r;
	return q;
}
static inline int sb_u128_cmp(sb_u128 a, sb_u128 b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	return a.lo < b.lo ? -1 : a.lo > b.lo;
}
static inline uint64_t sb_u128_hi(sb_u128 a)
{
	return a.hi;
}
static inline uint64_t sb_u128_lo(sb_u128 a)
{
	return a.lo;
}
#endif

#endif
