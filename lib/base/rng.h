/* Fast PRNG: xoshiro256** seeded through splitmix64. Inline: hot path. */
#ifndef SB_RNG_H
#define SB_RNG_H

#include "lib/sb.h"
#include "lib/base/u128.h"

struct sb_rng {
	uint64_t s[4];
};

static inline uint64_t sb_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void sb_rng_seed(struct sb_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = sb_splitmix64(&seed);
}

static inline uint64_t sb_rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t sb_rng_next(struct sb_rng *r)
{
	uint64_t *s = r->s;
	const uint64_t result = sb_rotl64(s[1] * 5, 7) * 9;
	const uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = sb_rotl64(s[3], 45);
	return result;
}

/* Uniform in [0, n), n > 0 (Lemire's multiply-shift, bias < n/2^64). */
static inline uint64_t sb_rng_below(struct sb_rng *r, uint64_t n)
{
	return sb_u128_hi(sb_u128_mul(sb_rng_next(r), n));
}

/* Uniform double in [0, 1). */
static inline double sb_rng_double(struct sb_rng *r)
{
	return (double)(sb_rng_next(r) >> 11) * 0x1.0p-53;
}

#endif
