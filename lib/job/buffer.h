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

/* fio's buffer_pattern, at most this many bytes (fio's own limit). */
#define SB_BUF_PATTERN_MAX 512
/* Parse fio's buffer_pattern syntax into out (cap bytes): a sequence of
 * "STRING" (the bytes between the quotes), 0xHEX (the bytes as written, an
 * odd first digit a byte of its own) and DECIMAL (INT_MIN..INT_MAX, its
 * bytes least significant first up to the last non-zero one, 0 one zero
 * byte; a decimal ends where a 0x follows). 'FILE' and %o are refused.
 * Returns the number of bytes (>= 1) or -EINVAL. */
int sb_buf_parse_pattern(const char *s, uint8_t *out, size_t cap);
/* buf filled with pat repeated from its start (plen >= 1). */
void sb_buf_fill_pattern(void *buf, size_t len, const uint8_t *pat, size_t plen);

#endif
