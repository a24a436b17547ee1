/*
 * Offset generators. The region is nblocks blocks of one unit; the caller
 * multiplies by the unit (bs, aligned to the device's logical block size).
 *
 * SB_DIST_SEQ walks 0..nblocks-1. SB_DIST_UNIFORM visits every block exactly
 * once per pass in a pseudo-random order: a keyed bijection on [0, 2^k)
 * (k = bits of nblocks) applied to a counter, with values >= nblocks skipped
 * (cycle walking); no per-block memory. Each pass uses a fresh key.
 * SB_DIST_ZIPF (param theta > 0, != 1) and SB_DIST_PARETO (param h in (0,1))
 * draw skewed ranks in O(1) and scatter them over the region with a fixed
 * bijection, so hot blocks are spread out, as fio does.
 */
#ifndef SB_OFFSETS_H
#define SB_OFFSETS_H

#include "lib/sb.h"
#include "lib/base/rng.h"

enum sb_dist {
	SB_DIST_SEQ,
	SB_DIST_UNIFORM,
	SB_DIST_ZIPF,
	SB_DIST_PARETO,
};

struct sb_offgen {
	enum sb_dist dist;
	uint64_t nblocks;
	uint64_t pos;  /* next counter value within the pass */
	uint64_t pass; /* completed passes */
	uint64_t mask; /* 2^k - 1 */
	unsigned bits; /* k */
	uint64_t key[4];
	struct sb_rng rng;
	double param;
	double z[6]; /* precomputed constants of the skewed samplers */
};

/* -EINVAL for nblocks 0 or a bad param. */
int sb_offgen_init(struct sb_offgen *g, uint64_t nblocks, enum sb_dist dist, double param,
		   uint64_t seed);
/* Next block index in [0, nblocks). */
uint64_t sb_offgen_next(struct sb_offgen *g);

#endif
