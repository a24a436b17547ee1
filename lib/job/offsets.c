/*
 * Offset generators.
 *
 * Uniform: a keyed permutation of [0, 2^k) applied to a counter, values
 * >= nblocks skipped (cycle walking): a few nanoseconds per block and no
 * per-block memory. 2^k < 2 * nblocks, so fewer than half the values are
 * skipped. A pass ends when the counter reaches 2^k; the next pass draws
 * new keys.
 *
 * Zipf: rejection-inversion sampling (W. Hormann, G. Derflinger, "Rejection-
 * inversion to generate variates from monotone discrete distributions", ACM
 * TOMACS 6(3), 1996), following Apache Commons RNG's
 * RejectionInversionZipfSampler: O(1) per sample, no O(n) zeta table.
 * Pareto: as fio, rank = n * u^(log h / log(1 - h)).
 * Both scatter the rank over the region with a fixed keyed permutation, so
 * the hot blocks are not all at the start of the region.
 */
#include "lib/job/offsets.h"
#include "lib/base/units.h"
#include "lib/base/u128.h"

#include <assert.h>
#include <limits.h>
#include <math.h>

/* Indices into g->z. */
enum {
	ZIPF_HX1, /* H(1.5) - 1 */
	ZIPF_HN,  /* H(n + 0.5) */
	ZIPF_S,	  /* 2 - H^-1(H(2.5) - h(2)): the squeeze bound */
	PARETO_POW = 0,
};

static void draw_keys(struct sb_offgen *g)
{
	for (int i = 0; i < 4; i++)
		g->key[i] = sb_rng_next(&g->rng);
	g->key[0] |= 1; /* multipliers must be odd to be invertible */
	g->key[2] |= 1;
}

/*
 * A bijection of [0, 2^bits) chosen by g->key. Affine maps with odd
 * multipliers and x ^= x >> s are invertible mod 2^bits; so is the
 * Klimov-Shamir T-function x + (x^2 | 5). Multiplication only carries
 * upwards and the shift brings high bits down; the quadratic step breaks the
 * near-linearity that otherwise leaves a few recurring differences between
 * consecutive outputs (measured: consecutive differences as uniform as a
 * Fisher-Yates shuffle's).
 */
static inline uint64_t permute(const struct sb_offgen *g, uint64_t x)
{
	const uint64_t m = g->mask;
	const unsigned s = g->bits / 2 + 1;

	x = (x * g->key[0] + g->key[1]) & m;
	x ^= x >> s;
	x = (x + ((x * x) | 5)) & m;
	x ^= x >> s;
	x = (x * g->key[2] + g->key[3]) & m;
	x ^= x >> s;
	x = (x * 0xd6e8feb86659fd93ull) & m;
	x ^= x >> s;
	return x;
}

/* Maps [0, nblocks) onto itself one to one, scattering neighbours. */
static inline uint64_t scatter(const struct sb_offgen *g, uint64_t x)
{
	do
		x = permute(g, x);
	while (x >= g->nblocks);
	return x;
}

static uint64_t next_seq(struct sb_offgen *g)
{
	if (g->pos >= g->nblocks) {
		g->pos = 0;
		g->pass++;
	}
	return g->pos++;
}

static uint64_t next_uniform(struct sb_offgen *g)
{
	for (;;) {
		uint64_t x;

		if (SB_UNLIKELY(g->pos > g->mask)) {
			g->pos = 0;
			g->pass++;
			draw_keys(g);
		}
		x = permute(g, g->pos++);
		if (x < g->nblocks)
			return x;
	}
}

/* Below |x| = 1e-8 the series is exact to double precision and avoids 0/0. */
static double log1p_over_x(double x)
{
	if (fabs(x) > 1e-8)
		return log1p(x) / x;
	return 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double expm1_over_x(double x)
{
	if (fabs(x) > 1e-8)
		return expm1(x) / x;
	return 1 + x * 0.5 * (1 + x * (1.0 / 3) * (1 + 0.25 * x));
}

/* h(x) = x^-theta, the unnormalised density. */
static double zipf_h(double theta, double x)
{
	return exp(-theta * log(x));
}

/* H(x) = (x^(1-theta) - 1) / (1 - theta), an integral of h. */
static double zipf_hint(double theta, double x)
{
	const double lx = log(x);

	return expm1_over_x((1 - theta) * lx) * lx;
}

static double zipf_hint_inv(double theta, double x)
{
	double t = x * (1 - theta);

	if (t < -1)
		t = -1; /* rounding near the lower end */
	return exp(log1p_over_x(t) * x);
}

static void zipf_init(struct sb_offgen *g)
{
	const double theta = g->param;

	g->z[ZIPF_HX1] = zipf_hint(theta, 1.5) - 1;
	g->z[ZIPF_HN] = zipf_hint(theta, (double)g->nblocks + 0.5);
	g->z[ZIPF_S] = 2 - zipf_hint_inv(theta, zipf_hint(theta, 2.5) - zipf_h(theta, 2));
}

/* floor(r) for r >= 0 as a rank in [0, n): (double)n may round above n. */
static uint64_t clamp_rank(double r, uint64_t n)
{
	const uint64_t k = r < 0x1p64 ? (uint64_t)r : UINT64_MAX;

	return k < n ? k : n - 1;
}

/* Rank k - 1 for k in [1, n] drawn with P(k) proportional to k^-theta. */
static uint64_t zipf_rank0(struct sb_offgen *g)
{
	const double theta = g->param, n = (double)g->nblocks;

	for (;;) {
		const double u = g->z[ZIPF_HN] +
				 sb_rng_double(&g->rng) * (g->z[ZIPF_HX1] - g->z[ZIPF_HN]);
		const double x = zipf_hint_inv(theta, u);
		double k = floor(x + 0.5);

		if (k < 1)
			k = 1;
		else if (k > n)
			k = n;
		if (k - x <= g->z[ZIPF_S] || u >= zipf_hint(theta, k + 0.5) - zipf_h(theta, k))
			return clamp_rank(k - 1, g->nblocks);
	}
}

/* Rank in [0, n): n * u^(log h / log(1 - h)), as fio. */
static uint64_t pareto_rank0(struct sb_offgen *g)
{
	const double u = sb_rng_double(&g->rng);

	return clamp_rank((double)g->nblocks * pow(u, g->z[PARETO_POW]), g->nblocks);
}

static unsigned bits_for(uint64_t n)
{
	return n > 1 ? 64 - (unsigned)__builtin_clzll(n - 1) : 0;
}

static uint64_t next_zoned(struct sb_offgen *g)
{
	const unsigned z = g->zone_of[sb_rng_next(&g->rng) % 100];

	return g->zstart[z] + sb_rng_next(&g->rng) % g->zcount[z];
}

int sb_parse_zones(const char *s, struct sb_zones *z)
{
	memset(z, 0, sizeof(*z));
	if (!strncmp(s, "zoned_abs:", 10)) {
		z->abs = 1;
		s += 10;
	} else if (!strncmp(s, "zoned:", 6)) {
		s += 6;
	} else {
		return -EINVAL;
	}
	unsigned access = 0, amiss = 0, smiss = 0;
	uint64_t size = 0;
	for (;;) {
		const char *colon = strchr(s, ':');
		const size_t len = colon ? (size_t)(colon - s) : strlen(s);
		char one[64], *slash;
		uint64_t a = 0, b = 0;
		if (!len || len >= sizeof(one) || z->n == SB_ZONES_MAX)
			return -EINVAL;
		memcpy(one, s, len);
		one[len] = 0;
		slash = strchr(one, '/');
		if (!slash)
			return -EINVAL;
		*slash = 0;
		/* as fio, a share or a zoned size left out is what the others
		 * leave of 100, split evenly (marked UINT64_MAX until then) */
		if (!one[0])
			amiss++, a = UINT64_MAX;
		else if (sb_parse_u64(one, &a) < 0 || a > 100)
			return -EINVAL;
		if (!slash[1] && !z->abs)
			smiss++, b = UINT64_MAX;
		else if (z->abs ? sb_parse_size(slash + 1, &b) < 0
				: sb_parse_u64(slash + 1, &b) < 0)
			return -EINVAL;
		else if (!b || (!z->abs && b > 100) || b > (UINT64_MAX >> 2) - size)
			return -EINVAL;
		if (a != UINT64_MAX)
			access += (unsigned)a;
		if (b != UINT64_MAX)
			size += b;
		z->z[z->n].access_pct = a == UINT64_MAX ? UINT_MAX : (unsigned)a;
		z->z[z->n].size = b;
		z->n++;
		if (!colon)
			break;
		s = colon + 1;
	}
	if (access > 100 || (!z->abs && size > 100))
		return -EINVAL;
	for (unsigned i = 0; i < z->n; i++) {
		if (z->z[i].access_pct == UINT_MAX)
			z->z[i].access_pct = (100 - access) / amiss;
		if (z->z[i].size == UINT64_MAX) {
			z->z[i].size = (100 - size) / smiss;
			if (!z->z[i].size)
				return -EINVAL;
		}
	}
	access = 0;
	for (unsigned i = 0; i < z->n; i++)
		access += z->z[i].access_pct;
	return access == 100 ? 0 : -EINVAL;
}

uint64_t sb_zones_abs_bytes(const struct sb_zones *z)
{
	uint64_t n = 0;
	for (unsigned i = 0; z->abs && i < z->n; i++)
		n += z->z[i].size;
	return n;
}

int sb_offgen_init_zoned(struct sb_offgen *g, uint64_t nblocks, const struct sb_zones *z,
			 uint64_t unit, uint64_t seed)
{
	int e = sb_offgen_init(g, nblocks, SB_DIST_UNIFORM, 0, seed);
	if (e < 0 || !z->n || !unit)
		return e < 0 ? e : -EINVAL;
	g->dist = SB_DIST_ZONED;
	unsigned pct = 0;
	uint64_t at = 0; /* percent, or bytes, before zone i */
	for (unsigned i = 0; i < z->n; i++) {
		uint64_t lo, hi;
		if (z->abs) {
			lo = at / unit;
			hi = (at + z->z[i].size) / unit;
		} else {
			/* as fio: stotal * lastb / 100 */
			uint64_t rem;
			lo = sb_u128_lo(sb_u128_div(sb_u128_mul(nblocks, at), 100, &rem));
			hi = sb_u128_lo(
				sb_u128_div(sb_u128_mul(nblocks, at + z->z[i].size), 100, &rem));
		}
		at += z->z[i].size;
		/* cut to the region; a zone left empty keeps one block */
		lo = SB_MIN(lo, nblocks - 1);
		hi = SB_MIN(SB_MAX(hi, lo + 1), nblocks);
		g->zstart[i] = lo;
		g->zcount[i] = hi - lo;
		for (unsigned k = 0; k < z->z[i].access_pct; k++)
			g->zone_of[pct++] = (uint8_t)i;
	}
	return pct == 100 ? 0 : -EINVAL;
}

int sb_offgen_init(struct sb_offgen *g, uint64_t nblocks, enum sb_dist dist, double param,
		   uint64_t seed)
{
	assert(g);
	if (nblocks == 0)
		return -EINVAL;
	switch (dist) {
	case SB_DIST_SEQ:
	case SB_DIST_UNIFORM: break;
	case SB_DIST_ZIPF:
		if (!(param > 0) || param == 1 || !isfinite(param))
			return -EINVAL;
		break;
	case SB_DIST_PARETO:
		if (!(param > 0 && param < 1))
			return -EINVAL;
		break;
	default: return -EINVAL;
	}
	memset(g, 0, sizeof(*g));
	g->dist = dist;
	g->nblocks = nblocks;
	g->bits = bits_for(nblocks);
	g->mask = g->bits >= 64 ? UINT64_MAX : (1ull << g->bits) - 1;
	g->param = param;
	sb_rng_seed(&g->rng, seed);
	draw_keys(g);
	if (dist == SB_DIST_ZIPF)
		zipf_init(g);
	else if (dist == SB_DIST_PARETO)
		g->z[PARETO_POW] = log(param) / log(1 - param);
	return 0;
}

uint64_t sb_offgen_next(struct sb_offgen *g)
{
	switch (g->dist) {
	case SB_DIST_UNIFORM: return next_uniform(g);
	case SB_DIST_SEQ: return next_seq(g);
	case SB_DIST_ZIPF: return scatter(g, zipf_rank0(g));
	case SB_DIST_PARETO: return scatter(g, pareto_rank0(g));
	case SB_DIST_ZONED: return next_zoned(g);
	}
	assert(!"bad distribution");
	return 0;
}
