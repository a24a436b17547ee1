/*
 * Verify blocks: what storbench writes when it must prove later that the
 * data came back intact. Every block (512 bytes to 16 MiB, a multiple of
 * 512; 4 KiB by default) starts with a 64-byte header, little-endian:
 *
 *    0  u64 magic "SBVERIFY"      32  u64 generation
 *    8  u16 format version (1)    40  u64 write time (ns since the epoch)
 *   10  u16 checksum algorithm    48  u64 region end (0: not recorded)
 *   12  u32 block size            56  u64 checksum
 *   16  u64 run seed
 *   24  u64 absolute offset (bytes from the target's start)
 *
 * and the rest is a PRNG stream derived from (seed, offset, generation), so
 * a checker regenerates nothing it must remember: no memory per block. The
 * region end (the target offset where the written region ends) lets a
 * check see data that is gone: a file cut short, a directory's last file
 * deleted. The
 * checksum covers the whole block but its own field: XXH3-64 (algorithm 1)
 * when built with xxHash, CRC32C (algorithm 2) otherwise; a checker that
 * lacks the block's algorithm compares the payload with the regenerated
 * stream instead. docs/verify.md describes the classes.
 */
#ifndef SB_VERIFY_BLOCK_H
#define SB_VERIFY_BLOCK_H

#include "lib/sb.h"

#define SB_VERIFY_MAGIC 0x5946495245564253ull /* "SBVERIFY" read little-endian */
#define SB_VERIFY_VERSION 1
#define SB_VERIFY_HDR_SIZE 64
#define SB_VERIFY_MIN_BS 512u
#define SB_VERIFY_MAX_BS (16u << 20)

enum sb_verify_csum {
	SB_VERIFY_CSUM_XXH3 = 1,
	SB_VERIFY_CSUM_CRC32C = 2,
};

enum sb_verify_class {
	SB_VERIFY_INTACT,     /* this run, this offset, this generation, checksum good */
	SB_VERIFY_CORRUPTED,  /* belongs here, but the checksum fails (bit flips, torn) */
	SB_VERIFY_MISPLACED,  /* a good block of this run written for another offset */
	SB_VERIFY_STALE,      /* a good block for this offset from an older generation */
	SB_VERIFY_FOREIGN,    /* no header of ours: zeros, erased flash, another run */
	SB_VERIFY_UNREADABLE, /* the read failed */
	SB_VERIFY_NEWER,      /* a good block for this offset from a newer generation */
	SB_VERIFY_MISSING,    /* not there: past the end of a file cut short, or of
				 * a file deleted, inside the region written */
	SB_VERIFY_NCLASS,
};

/* "intact", "corrupted", ... ("?" out of range). */
const char *sb_verify_class_name(int cls);
/* The class named name, or -EINVAL. */
int sb_verify_class_by_name(const char *name);

/* What one run writes: the identity every block carries. */
struct sb_verify_fmt {
	uint64_t seed;
	uint64_t generation;
	uint32_t block_size;
	uint16_t csum;	     /* algorithm for filling (sb_verify_fmt_init picks the best) */
	uint64_t region_end; /* written into every header; 0 (the default): not
				 * recorded. Not part of a block's identity. */
};

/* 0, or -EINVAL when block_size is not a multiple of 512 in 512..16 MiB. */
int sb_verify_fmt_init(struct sb_verify_fmt *f, uint64_t seed, uint64_t generation,
		       uint32_t block_size);
/* "xxh3", "crc32c". */
const char *sb_verify_csum_name(unsigned csum);
/* 1 when this build can compute the checksum algorithm csum. */
int sb_verify_csum_supported(unsigned csum);

/* A header as found on the medium, decoded (nothing is checked). */
struct sb_verify_header {
	uint64_t magic;
	uint16_t version, csum;
	uint32_t block_size;
	uint64_t seed, offset, generation, write_time, region_end, checksum;
};
void sb_verify_header_decode(const void *blk, struct sb_verify_header *h);

/* Fill len bytes (a multiple of the block size) with the blocks that belong
 * at absolute byte offset `offset` onward; time_ns goes into each header.
 * No allocation: safe in a worker's hot path. */
void sb_verify_fill(const struct sb_verify_fmt *f, void *buf, size_t len, uint64_t offset,
		    uint64_t time_ns);

/* What a check found in one block. */
struct sb_verify_finding {
	enum sb_verify_class cls;
	uint64_t expected_offset; /* misplaced: the offset the block was written for */
	uint64_t generation;	  /* stale, newer, misplaced: the generation it carries */
	int err;		  /* unreadable: positive errno */
};

/* Classify the block read from absolute offset `offset`. */
enum sb_verify_class sb_verify_check_block(const struct sb_verify_fmt *f, const void *blk,
					   uint64_t offset, struct sb_verify_finding *out);

/* 1 when blk holds a self-consistent block of any run (magic, version, a
 * block size that fits in len, and its checksum): h gets its header. For
 * learning the seed and block size of data written earlier. */
int sb_verify_block_valid(const void *blk, size_t len, struct sb_verify_header *h);

/* Blocks [first, first + n) of a map of blocks, a bit each, set (by any
 * thread: run --verify's workers, lib/verify/job_verify.h). */
static inline void sb_verify_mark_written(uint64_t *map, uint64_t first, uint64_t n)
{
	for (uint64_t b = first; b < first + n; b++)
		__atomic_fetch_or(&map[b / 64], 1ull << (b % 64), __ATOMIC_RELAXED);
}

#endif
