/*
 * Active-range segments (SNIA PTS-C, METHODS.md 3.7): the random stimulus
 * confined to n equal segments of seg_bytes each, placed at random inside a
 * region, aligned and never touching. The runner sees them as one virtual
 * region of n * seg_bytes bytes (its offset generator draws there as it
 * does over any region) and sb_segments_map turns a virtual offset into a
 * real one: segment index v / seg_bytes, then v % seg_bytes inside it. A
 * request never crosses a segment's end as long as seg_bytes is a multiple
 * of its size and of the region's chunk (the largest block size), which
 * sb_segments_check asks.
 */
#ifndef SB_SEGMENTS_H
#define SB_SEGMENTS_H

#include "lib/sb.h"

#define SB_PTS_SEGMENTS 2048 /* PTS-C's ActiveRange segments */

struct sb_segments {
	unsigned n;
	uint64_t seg_bytes; /* each segment's size */
	unsigned seg_shift; /* log2(seg_bytes) when a power of two, else 0 */
	uint64_t align;	    /* every start is a multiple of this */
	uint64_t seed;	    /* of the placement */
	uint64_t *start;    /* n ascending starts, relative to the region's start */
};

/* n segments of seg_bytes (a multiple of align) at random in a region of
 * region_bytes: starts multiples of align, at least align apart from the
 * previous segment's end. -EINVAL when they do not fit (region_bytes <
 * n * seg_bytes + (n - 1) * align) or a size is 0; -ENOMEM. */
int sb_segments_place(struct sb_segments *s, uint64_t region_bytes, unsigned n, uint64_t seg_bytes,
		      uint64_t align, uint64_t seed);
void sb_segments_free(struct sb_segments *s);
/* The bytes the segments hold: n * seg_bytes (the virtual region). */
static inline uint64_t sb_segments_bytes(const struct sb_segments *s)
{
	return (uint64_t)s->n * s->seg_bytes;
}
/* A virtual offset in [0, n * seg_bytes) to an offset in the region. */
static inline uint64_t sb_segments_map(const struct sb_segments *s, uint64_t v)
{
	if (s->seg_shift)
		return s->start[v >> s->seg_shift] + (v & (s->seg_bytes - 1));
	return s->start[v / s->seg_bytes] + v % s->seg_bytes;
}
/* Whether requests of up to max_bs bytes at multiples of chunk bytes stay
 * inside one segment and the segments inside region_bytes: 0 or -EINVAL. */
int sb_segments_check(const struct sb_segments *s, uint64_t chunk, uint64_t region_bytes);

#endif
