/*
 * Internal to lib/run: random offsets of a job with several block sizes
 * (bssplit), each pass visiting every piece of the region once without
 * drawing and rejecting.
 *
 * The region is cut in chunks of the largest block; in each pass a chunk
 * is cut into blocks of one size (sb_chunk_bs: bssplit's shares of
 * requests, so size s with a chance proportional to share x s; every piece
 * of the chunk agrees, which verify relies on), ceil(chunk bytes / size)
 * pieces. A pass numbers its pieces chunk by chunk (a prefix sum per group
 * of chunks) and a uniform generator walks those numbers in a keyed order:
 * one draw per request, a binary search for the group and a scan of its
 * chunks. With a split for each direction (fio's bssplit=READ,WRITE) a
 * chunk's pieces are one direction's and one of its sizes, direction d and
 * size s with a chance proportional to d's rwmix share x s's share x s: a
 * pass then issues each direction its share of the requests, each of its
 * sizes its share of them, and its pieces say their direction.
 * The prefix sums are at most SB_PIECES_GROUPS entries a
 * generator (8 bytes each: 1 MiB), so a larger region groups its chunks
 * and scans up to region / chunk / SB_PIECES_GROUPS of them.
 */
#ifndef SB_PIECES_H
#define SB_PIECES_H

#include "lib/sb.h"
#include "lib/base/rng.h"
#include "lib/base/u128.h"
#include "lib/job/job.h"
#include "lib/job/offsets.h"

#define SB_PIECES_GROUPS (1u << 17)

/* Which of bssplit's sizes chunk c has in the pass keyed by key and pass:
 * a keyed hash of c, so that every piece of the chunk agrees, scaled to
 * [0, weight) (weight: the sum of bssplit's share x size) by a multiply,
 * not a division; the size whose share x size holds the draw. */
static inline uint64_t sb_chunk_draw(uint64_t weight, uint64_t c, uint64_t key, uint64_t pass)
{
	uint64_t h = (c + 1) * 0x9e3779b97f4a7c15ull ^ key ^ (pass << 32);
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 29;
	return sb_u128_hi(sb_u128_mul(h, weight));
}

static inline unsigned sb_chunk_split(const struct sb_job_opts *o, uint64_t weight, uint64_t c,
				      uint64_t key, uint64_t pass)
{
	uint64_t x = sb_chunk_draw(weight, c, key, pass);
	for (unsigned i = 0; i < o->nbssplit; i++) {
		const uint64_t wt = (uint64_t)o->bssplit[i].pct * o->bssplit[i].bs;
		if (x < wt)
			return i;
		x -= wt;
	}
	return o->nbssplit - 1;
}

/* The block size of chunk c in that pass. */
static inline uint32_t sb_chunk_bs(const struct sb_job_opts *o, uint64_t weight, uint64_t c,
				   uint64_t key, uint64_t pass)
{
	if (!o->nbssplit)
		return o->bs;
	return o->bssplit[sb_chunk_split(o, weight, c, key, pass)].bs;
}

#define SB_PIECES_SIZES (2 * SB_BSSPLIT_MAX)

struct sb_pieces {
	unsigned nsizes;		/* entries of bs, dir, full, upto */
	uint32_t bs[SB_PIECES_SIZES];	/* the block sizes */
	int8_t dir[SB_PIECES_SIZES];	/* their direction, -1: any */
	uint64_t weight;		/* sum of (rwmix share x) share x size */
	uint64_t size, chunk;		/* the region's bytes, a chunk's */
	uint64_t nchunks, group;	/* chunks, chunks per group */
	uint64_t ngroups;		/* entries of sum, less one */
	uint64_t *sum;			/* pieces before each group, then all */
	uint64_t left;			/* pieces this pass has left */
	uint64_t key, pass;		/* the pass's chunk sizes */
	uint64_t full[SB_PIECES_SIZES]; /* pieces of a whole chunk, by size */
	uint64_t upto[SB_PIECES_SIZES]; /* the weights up to each, summed */
	struct sb_rng rng;		/* each pass's key and order */
	struct sb_offgen gen;		/* over the pass's pieces */
};

/* A piece: its offset in the region, its chunk's block size, the bytes
 * from it to its chunk's end and its direction (-1: the job's draw). */
struct sb_piece {
	uint64_t off, room;
	uint32_t bs;
	int ddir;
};

/* Whether a job's random offsets go through sb_pieces: several block
 * sizes or a split for each direction, the uniform distribution, no
 * blockalign. */
int sb_pieces_apply(const struct sb_job_opts *o);
/* Set p up over size bytes in chunks of chunk bytes, at most
 * SB_PIECES_GROUPS / share groups (share: how many generators divide the
 * budget, 1 or a job's files). 0 or -ENOMEM/-EINVAL. */
int sb_pieces_init(struct sb_pieces *p, const struct sb_job_opts *o, uint64_t size, uint64_t chunk,
		   uint64_t share);
/* A first pass with seed: 0 or -EINVAL. */
int sb_pieces_start(struct sb_pieces *p, uint64_t seed);
/* The next piece; a new pass when this one is done. */
void sb_pieces_next(struct sb_pieces *p, struct sb_piece *out);
void sb_pieces_free(struct sb_pieces *p);

#endif
