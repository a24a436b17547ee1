/*
 * flashbench -a (METHODS.md 1.2): read timing across power-of-two
 * boundaries. Unlike flashbench, the largest boundary is chosen so that all
 * seven positions lie inside the device (no offset wraps around its end,
 * where a wrapped position would no longer sit on the boundary it names).
 */
#include "lib/flash/flash_int.h"

#include <math.h>

static int pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int sb_flash_bs_ok(uint32_t bs, uint32_t lbs)
{
	if (!pow2(bs) || bs > (64u << 20))
		return -EINVAL;
	return bs < 2ull * (lbs ? lbs : 512) ? -EINVAL : 0;
}

uint64_t sb_flash_maxalign(uint64_t size, uint32_t bs)
{
	if (!bs || size / 32 < bs)
		return 0;
	uint64_t a = 4ull * bs;
	while (a * 2 <= size / 8)
		a *= 2;
	return a;
}

static unsigned levels(uint64_t maxalign, uint32_t bs)
{
	unsigned n = 0;
	for (uint64_t a = maxalign; a >= 2ull * bs; a /= 2)
		n++;
	return n;
}

uint64_t sb_flash_align_reads(uint64_t size, uint32_t bs, unsigned count)
{
	const uint64_t m = sb_flash_maxalign(size, bs);
	return m ? (uint64_t)levels(m, bs) * count * SB_FLASH_POSITIONS * 3 : 0;
}

struct align_ctx {
	const struct sb_flash_dev *dev;
	void *buf;
	uint32_t bs;
	unsigned count;
	const struct sb_flash_hooks *h;
	uint64_t done, total;
	uint64_t *fail_offset;
};

/* the three minima over the tries at each position of one boundary */
static int one_boundary(struct align_ctx *c, uint64_t align, uint64_t maxalign,
			struct sb_flash_align_row *row)
{
	double min[3][SB_FLASH_POSITIONS];
	const uint64_t at[3] = { align - c->bs, align - c->bs / 2, align };
	for (unsigned k = 0; k < 3; k++)
		for (unsigned i = 0; i < SB_FLASH_POSITIONS; i++)
			min[k][i] = INFINITY;
	for (unsigned t = 0; t < c->count; t++) {
		for (unsigned i = 0; i < SB_FLASH_POSITIONS; i++) {
			if (sb_flash_stopped(c->h))
				return -EINTR;
			for (unsigned k = 0; k < 3; k++) {
				const uint64_t off = at[k] + i * maxalign;
				uint64_t ns;
				const int e = sb_flash_time_io(c->dev->fd, c->buf, c->bs, off, 0,
							       &ns);
				if (e) {
					*c->fail_offset = off;
					return e;
				}
				if ((double)ns < min[k][i])
					min[k][i] = (double)ns;
			}
			c->done += 3;
			sb_flash_tell(c->h, c->done, c->total);
		}
	}
	double sum[3] = { 0, 0, 0 }, spread = 0;
	for (unsigned i = 0; i < SB_FLASH_POSITIONS; i++) {
		for (unsigned k = 0; k < 3; k++)
			sum[k] += min[k][i];
		spread = fmax(spread, fabs(min[0][i] - min[2][i]));
	}
	row->align = align;
	row->pre_ns = sum[0] / SB_FLASH_POSITIONS;
	row->on_ns = sum[1] / SB_FLASH_POSITIONS;
	row->post_ns = sum[2] / SB_FLASH_POSITIONS;
	row->diff_ns = row->on_ns - (row->pre_ns + row->post_ns) / 2;
	row->pre_post_spread_ns = spread;
	row->positions = SB_FLASH_POSITIONS;
	return 0;
}

int sb_flash_align(const struct sb_flash_dev *dev, uint32_t bs, unsigned count,
		   const struct sb_flash_hooks *h, struct sb_flash_profile *out,
		   uint64_t *fail_offset)
{
	memset(out, 0, sizeof(*out));
	const uint64_t maxalign = sb_flash_maxalign(dev->size, bs);
	if (sb_flash_bs_ok(bs, dev->lbs) || !maxalign || !count ||
	    levels(maxalign, bs) > SB_FLASH_MAX_ROWS)
		return -EINVAL;
	struct align_ctx c = { dev, sb_flash_buffer(bs, 0), bs, count, h, 0, 0, fail_offset };
	if (!c.buf)
		return -ENOMEM;
	c.total = sb_flash_align_reads(dev->size, bs, count);
	out->bs = bs;
	out->count = count;
	out->maxalign = maxalign;
	int e = 0;
	for (uint64_t a = maxalign; a >= 2ull * bs && !e; a /= 2) {
		e = one_boundary(&c, a, maxalign, &out->rows[out->nrows]);
		if (!e)
			out->nrows++;
	}
	free(c.buf);
	return e;
}
