/*
 * Verify results: counts per class, and the bad blocks merged into ranges.
 * Contiguous blocks of one class merge (misplaced ones only when the
 * offsets they were written for are contiguous too, stale ones of one
 * generation, unreadable ones of one errno), so a wrapped-around half of a
 * fake card is one line, not millions. The list is capped: ranges past the
 * cap are only counted. Nothing is kept per block.
 *
 * One accumulator per thread, fed in offset order (a sequential pass or a
 * worker retiring its requests in order); sb_verify_acc_merge combines
 * accumulators afterwards.
 */
#ifndef SB_VERIFY_RANGES_H
#define SB_VERIFY_RANGES_H

#include "lib/sb.h"
#include "lib/verify/block.h"

struct sb_verify_range {
	uint64_t offset;	  /* bytes from the target's start */
	uint64_t length;	  /* bytes */
	uint64_t expected_offset; /* misplaced: where the data found at offset belongs */
	uint64_t generation;	  /* stale, newer, misplaced: the generation found */
	int cls;		  /* enum sb_verify_class, never intact */
	int err;		  /* unreadable: positive errno */
};

struct sb_verify_acc {
	uint32_t block_size;
	uint64_t blocks;		  /* blocks checked */
	uint64_t count[SB_VERIFY_NCLASS]; /* blocks per class */
	struct sb_verify_range *ranges;	  /* closed ranges, in the order they ended */
	size_t nranges, max_ranges;
	uint64_t omitted;	     /* ranges left out of the list */
	struct sb_verify_range open; /* the range still growing */
	int have_open;
};

/* Allocates room for max_ranges (may be 0: counts only). 0 or -ENOMEM. */
int sb_verify_acc_init(struct sb_verify_acc *a, uint32_t block_size, size_t max_ranges);
void sb_verify_acc_free(struct sb_verify_acc *a);

void sb_verify_acc_add_bad(struct sb_verify_acc *a, uint64_t offset, uint64_t nblocks,
			   const struct sb_verify_finding *f);

/* nblocks blocks from byte offset `offset` on, all found as f says. */
static inline void sb_verify_acc_add(struct sb_verify_acc *a, uint64_t offset, uint64_t nblocks,
				     const struct sb_verify_finding *f)
{
	a->blocks += nblocks;
	a->count[f->cls] += nblocks;
	if (SB_UNLIKELY(f->cls != SB_VERIFY_INTACT))
		sb_verify_acc_add_bad(a, offset, nblocks, f);
}

/* Check len bytes (a multiple of the block size) read from absolute offset
 * `offset` (sb_verify_check_block), adding every block to acc. Returns the
 * number not intact. */
uint64_t sb_verify_check(const struct sb_verify_fmt *f, const void *buf, size_t len,
			 uint64_t offset, struct sb_verify_acc *acc);

/* Close the growing range: call before reading ranges (again harmless). */
void sb_verify_acc_finish(struct sb_verify_acc *a);

/* Blocks not intact. */
uint64_t sb_verify_acc_bad(const struct sb_verify_acc *a);

/* dst += src: counts add, ranges are sorted by offset and merged where they
 * touch, then capped at dst's max_ranges. Both are finished first. 0 or
 * -ENOMEM (dst unchanged). */
int sb_verify_acc_merge(struct sb_verify_acc *dst, struct sb_verify_acc *src);

#endif
