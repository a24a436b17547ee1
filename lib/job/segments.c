/*
 * Active-range segments placed at random (METHODS.md 3.7: "generate 2048
 * segment start LBAs by sampling without overlap in [AR_start, AR_end -
 * seg_size], aligned"). In units of align: each segment takes S units and
 * the gap after it at least one, so n segments take n * S + (n - 1) units
 * and F units are free. n draws uniform in [0, F], sorted, give the extra
 * room before each segment (order statistics of uniform points): segment
 * i starts at g_i + i * (S + 1) units. Consecutive starts are then at least
 * S + 1 units apart (never touching) and the last ends by the region's end.
 */
#include "lib/job/segments.h"
#include "lib/base/rng.h"

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int sb_segments_place(struct sb_segments *s, uint64_t region_bytes, unsigned n, uint64_t seg_bytes,
		      uint64_t align, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	if (!n || !seg_bytes || !align || seg_bytes % align)
		return -EINVAL;
	const uint64_t units = region_bytes / align, seg = seg_bytes / align;
	if (seg > (units + 1) / n || (uint64_t)n * (seg + 1) - 1 > units)
		return -EINVAL;
	const uint64_t free_units = units - ((uint64_t)n * (seg + 1) - 1);
	uint64_t *g = malloc(n * sizeof(*g));
	if (!g)
		return -ENOMEM;
	struct sb_rng rng;
	sb_rng_seed(&rng, seed);
	for (unsigned i = 0; i < n; i++)
		g[i] = free_units == UINT64_MAX ? sb_rng_next(&rng)
						: sb_rng_below(&rng, free_units + 1);
	qsort(g, n, sizeof(*g), cmp_u64);
	for (unsigned i = 0; i < n; i++)
		g[i] = (g[i] + i * (seg + 1)) * align;
	s->n = n;
	s->seg_bytes = seg_bytes;
	s->seg_shift = (seg_bytes & (seg_bytes - 1)) ? 0 : (unsigned)__builtin_ctzll(seg_bytes);
	s->align = align;
	s->seed = seed;
	s->start = g;
	return 0;
}

void sb_segments_free(struct sb_segments *s)
{
	if (!s)
		return;
	free(s->start);
	s->start = NULL;
	s->n = 0;
}

int sb_segments_check(const struct sb_segments *s, uint64_t chunk, uint64_t region_bytes)
{
	if (!s->n || !s->start || !chunk || s->seg_bytes % chunk)
		return -EINVAL;
	for (unsigned i = 0; i < s->n; i++)
		if (s->start[i] % chunk || s->start[i] + s->seg_bytes > region_bytes ||
		    (i && s->start[i] < s->start[i - 1] + s->seg_bytes))
			return -EINVAL;
	return 0;
}
