/*
 * flashbench -f (METHODS.md 1.4): the rate of writing each of the first
 * erase blocks whole in chunks of every size from the erase block down to
 * the block size. A block the controller manages differently (the factory
 * FAT area, often remapped at a finer grain or SLC) writes small chunks at
 * a different rate from the others. Unlike flashbench, the blocks that
 * differ are named: at the two smallest chunk sizes, a rate at least twice
 * (or at most half) the median of the other blocks.
 */
#include "lib/flash/flash_int.h"
#include "lib/analysis/robust.h"

#define DIFFERS 2.0

static int one_block(const struct sb_flash_dev *dev, void *buf, uint64_t erase, uint64_t chunk,
		     unsigned b, const struct sb_flash_hooks *h, uint64_t *done, uint64_t total,
		     double *bps, uint64_t *fail_offset)
{
	double sum = 0;
	const uint64_t n = erase / chunk;
	for (uint64_t i = 0; i < n; i++) {
		if (sb_flash_stopped(h))
			return -EINTR;
		const uint64_t off = b * erase + i * chunk;
		uint64_t ns;
		const int e = sb_flash_time_io(dev->fd, buf, chunk, off, 1, &ns);
		if (e) {
			*fail_offset = off;
			return e;
		}
		sum += (double)ns;
		*done += chunk;
		sb_flash_tell(h, *done, total);
	}
	*bps = sum > 0 ? (double)chunk * 1e9 / (sum / (double)n) : 0;
	return 0;
}

/* +1 faster, -1 slower than the median of the other blocks in every one of
 * the last (up to two) rows; 0 otherwise */
static void decide(struct sb_flash_fat *out)
{
	const unsigned from = out->nrows >= 2 ? out->nrows - 2 : 0;
	for (unsigned b = 0; b < out->nblocks; b++) {
		int faster = out->nrows > 0 && out->nblocks > 2, slower = faster;
		for (unsigned r = from; r < out->nrows; r++) {
			double others[SB_FLASH_MAX_FAT];
			size_t n = 0;
			for (unsigned k = 0; k < out->nblocks; k++)
				if (k != b)
					others[n++] = out->rows[r].bps[k];
			const double m = sb_median(others, n), v = out->rows[r].bps[b];
			faster &= v >= DIFFERS * m;
			slower &= v * DIFFERS <= m;
		}
		out->differs[b] = faster ? 1 : slower ? -1 : 0;
	}
}

int sb_flash_find_fat(const struct sb_flash_dev *dev, uint64_t erase, uint32_t bs, unsigned nblocks,
		      const struct sb_flash_hooks *h, struct sb_flash_fat *out,
		      uint64_t *fail_offset)
{
	memset(out, 0, sizeof(*out));
	out->erase = erase;
	out->bs = bs;
	out->nblocks = nblocks;
	if (!erase || (erase & (erase - 1)) || sb_flash_bs_ok(bs, dev->lbs) || bs > erase ||
	    !nblocks || nblocks > SB_FLASH_MAX_FAT)
		return -EINVAL;
	if (dev->size / erase < nblocks)
		return -ENOSPC;
	void *buf = sb_flash_buffer(erase, 0x5a);
	if (!buf)
		return -ENOMEM;
	unsigned rows = 0;
	for (uint64_t c = erase; c >= bs && rows < SB_FLASH_MAX_CHUNKS; c /= 2)
		rows++;
	const uint64_t total = (uint64_t)rows * nblocks * erase;
	uint64_t done = 0;
	int e = 0;
	for (uint64_t c = erase; c >= bs && out->nrows < SB_FLASH_MAX_CHUNKS && !e; c /= 2) {
		struct sb_flash_fat_row *row = &out->rows[out->nrows];
		row->chunk = c;
		for (unsigned b = 0; b < nblocks && !e; b++)
			e = one_block(dev, buf, erase, c, b, h, &done, total, &row->bps[b],
				      fail_offset);
		if (!e)
			out->nrows++;
	}
	free(buf);
	decide(out);
	return e;
}
