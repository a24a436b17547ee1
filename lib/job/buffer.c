/*
 * Write buffers. Random data comes 8 bytes per generator call; the
 * compressible share is zeros at the end of each 4 KiB segment, which is
 * what a block compressor (zram, a flash controller) sees per page.
 */
#include "lib/job/buffer.h"

#include <assert.h>

#define SEGMENT 4096
#define SECTOR 512

void *sb_buf_alloc(size_t len, size_t align)
{
	void *p;
	int err;

	if (align < sizeof(void *))
		align = sizeof(void *); /* posix_memalign's minimum */
	err = posix_memalign(&p, align, len ? len : 1);
	if (err) {
		errno = err;
		return NULL;
	}
	return p;
}

static void fill_random(unsigned char *p, size_t len, struct sb_rng *rng)
{
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		const uint64_t r = sb_rng_next(rng);
		memcpy(p + i, &r, 8);
	}
	if (i < len) {
		const uint64_t r = sb_rng_next(rng);
		memcpy(p + i, &r, len - i);
	}
}

void sb_buf_fill(void *buf, size_t len, struct sb_rng *rng, unsigned compress_pct)
{
	unsigned char *p = buf;

	assert(buf || !len);
	if (compress_pct > 100)
		compress_pct = 100;
	for (size_t off = 0; off < len; off += SEGMENT) {
		const size_t seg = SB_MIN(len - off, (size_t)SEGMENT);
		const size_t zeros = seg * compress_pct / 100;

		fill_random(p + off, seg - zeros, rng);
		memset(p + off + seg - zeros, 0, zeros);
	}
}

void sb_buf_scramble(void *buf, size_t len, uint64_t r)
{
	unsigned char *p = buf;

	for (size_t off = 0; off < len; off += SECTOR) {
		const size_t n = SB_MIN(len - off, sizeof(r));
		uint64_t v = 0;

		memcpy(&v, p + off, n);
		v ^= r;
		memcpy(p + off, &v, n);
	}
}
