/*
 * Write buffers: incompressible random data by default, or a given
 * percentage compressible (each 4 KiB segment has that share of zeros), and a
 * cheap per-write scramble so consecutive writes never carry identical data
 * (defeats dedupe without regenerating the whole buffer).
 */
#ifndef SB_BUFFER_H
#define SB_BUFFER_H

#include "lib/sb.h"
#include "lib/base/rng.h"

/* Allocate len bytes aligned to align (a power of two >= 8); NULL on failure.
 * Free with free(). */
void *sb_buf_alloc(size_t len, size_t align);
/* Fill with random data, compress_pct percent of each 4 KiB zeroed (0..100). */
void sb_buf_fill(void *buf, size_t len, struct sb_rng *rng, unsigned compress_pct);
/* XOR r into the first 8 bytes of every 512-byte sector of buf. */
void sb_buf_scramble(void *buf, size_t len, uint64_t r);

#endif
