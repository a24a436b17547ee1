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
 * SB_DIST_ZONED (fio's zoned and zoned_abs) picks a zone by its share of
 * the accesses (whole percents, as fio), then a block uniformly at random
 * within the zone (with replacement, as fio's non-uniform models).
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
	SB_DIST_ZONED,
};

/* fio's random_distribution=zoned:60/10:40/90 (access %/size %) and
 * zoned_abs:60/20G:40/100G (access %/size): zones from the start of the
 * region, in order. Access shares add up to 100; the sizes to at most
 * 100% (zoned) or the region (zoned_abs); what lies past the last zone is
 * never accessed, as in fio. */
#define SB_ZONES_MAX 64
struct sb_zones {
	unsigned n;
	int abs; /* sizes in bytes, not percent */
	struct {
		unsigned access_pct;
		uint64_t size; /* percent of the region, or bytes when abs */
	} z[SB_ZONES_MAX];
};
/* "zoned:..." or "zoned_abs:..." into z; -EINVAL when malformed. */
int sb_parse_zones(const char *s, struct sb_zones *z);
/* The bytes the zones cover when abs, else 0. */
uint64_t sb_zones_abs_bytes(const struct sb_zones *z);

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
	/* SB_DIST_ZONED: the zone of each whole percent of the accesses,
	 * and each zone's first block and number of blocks */
	uint8_t zone_of[100];
	uint64_t zstart[SB_ZONES_MAX], zcount[SB_ZONES_MAX];
};

/* -EINVAL for nblocks 0 or a bad param. */
int sb_offgen_init(struct sb_offgen *g, uint64_t nblocks, enum sb_dist dist, double param,
		   uint64_t seed);
/* SB_DIST_ZONED over nblocks blocks of unit bytes each (unit turns
 * zoned_abs sizes into blocks; zones past the end are cut to it). */
int sb_offgen_init_zoned(struct sb_offgen *g, uint64_t nblocks, const struct sb_zones *z,
			 uint64_t unit, uint64_t seed);
/* Next block index in [0, nblocks). */
uint64_t sb_offgen_next(struct sb_offgen *g);

#endif
