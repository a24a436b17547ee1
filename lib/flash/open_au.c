/*
 * flashbench -O (METHODS.md 1.3): how many allocation units a device keeps
 * open for writing. For N = 1, 2, ... AUs, 12 erase blocks apart, each
 * chunk size from the erase size down to the block size writes every chunk
 * of the N AUs, the AUs visited in LFSR order for each chunk index. While N
 * stays within what the device keeps open, the rate holds as the chunks
 * shrink; past it every write forces a garbage collection and the rate
 * collapses. Unlike flashbench, the sweep decides: two chunk sizes in a row
 * (or the smallest) where most writes run at under half the one-AU rate,
 * by more than the writes vary on their own (sb_flash_au_slow), in each of
 * three passes (the fastest kept), end N, and the first N that collapses
 * ends the order. A device that shows no collapse (a RAM disk, most SSDs)
 * has no effect to name.
 */
#include "lib/flash/flash_int.h"
#include "lib/stats/hist.h"

#define AU_SPACING 12 /* erase blocks between two AUs, as flashbench */
#define COLLAPSE 0.5  /* under half the one-AU rate */
#define SLOW_PASSES 3 /* a slow chunk size is measured up to this often */

uint64_t sb_flash_au_offset(uint64_t erase)
{
	const uint64_t m = 16ull << 20;
	return erase ? (m + erase - 1) / erase * erase : m;
}

struct au_ctx {
	const struct sb_flash_dev *dev;
	const struct sb_flash_au_params *p;
	const struct sb_flash_hooks *h;
	void *buf;
	uint64_t done, total;
	uint64_t *fail_offset;
};

/* every chunk of nau AUs once; the mean time per write */
static int one_chunk(struct au_ctx *c, unsigned nau, int random, uint64_t chunk,
		     struct sb_flash_au_row *row)
{
	const uint32_t n = (uint32_t)(c->p->erase / chunk);
	struct sb_lfsr order, aus;
	if (sb_lfsr_init(&order, n) || sb_lfsr_init(&aus, nau))
		return -EINVAL;
	struct sb_hist *h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	sb_hist_init(h);
	double sum = 0;
	int e = 0;
	for (uint32_t i = 0; i < n && !e; i++) {
		const uint32_t idx = random ? sb_lfsr_next(&order) : i;
		for (unsigned a = 0; a < nau && !e; a++) {
			if (sb_flash_stopped(c->h)) {
				e = -EINTR;
				break;
			}
			const uint64_t off = c->p->offset +
					     sb_lfsr_next(&aus) * AU_SPACING * c->p->erase +
					     idx * chunk;
			uint64_t ns;
			e = sb_flash_time_io(c->dev->fd, c->buf, chunk, off, 1, &ns);
			if (e) {
				*c->fail_offset = off;
				break;
			}
			sum += (double)ns;
			sb_hist_add(h, ns);
			c->done += chunk;
			/* a slow size measured again may go past the total */
			sb_flash_tell(c->h, SB_MIN(c->done, c->total), c->total);
		}
	}
	row->median_ns = (double)sb_hist_percentile(h, 50);
	row->noise_ns = (double)(sb_hist_percentile(h, 75) - sb_hist_percentile(h, 25)) / 1.349;
	free(h);
	if (e)
		return e;
	row->chunk = chunk;
	row->writes = (uint64_t)n * nau;
	row->mean_ns = sum / (double)row->writes;
	row->bps = row->mean_ns > 0 ? (double)chunk * 1e9 / row->mean_ns : 0;
	return 0;
}

/* one N in one order: chunks from erase down to bs until a collapse
 * against ref (the one-AU run of this order; NULL for that run itself,
 * which is the reference and never collapses) */
static int one_run(struct au_ctx *c, unsigned nau, int random, const struct sb_flash_au_run *ref,
		   struct sb_flash_au_run *run)
{
	memset(run, 0, sizeof(*run));
	run->nau = nau;
	run->random = random;
	unsigned slow = 0; /* rows in a row under half the reference */
	for (uint64_t chunk = c->p->erase; chunk >= c->p->bs && run->nrows < SB_FLASH_MAX_CHUNKS;
	     chunk /= 2) {
		struct sb_flash_au_row *row = &run->rows[run->nrows];
		int e = one_chunk(c, nau, random, chunk, row);
		if (e)
			return e;
		run->nrows++;
		if (!ref)
			continue; /* one AU is the reference */
		const struct sb_flash_au_row *against = ref->nrows >= run->nrows
								? &ref->rows[run->nrows - 1]
								: NULL;
		row->collapsed = against && sb_flash_au_slow(against, row);
		/* a slow size is measured again, the pass with the fastest
		 * median kept: a busy machine's burst that slowed a whole pass
		 * does not come back each time, a device past its open AUs does */
		for (int t = 1; row->collapsed && t < SLOW_PASSES; t++) {
			struct sb_flash_au_row again;
			if ((e = one_chunk(c, nau, random, chunk, &again)))
				return e;
			if (again.median_ns < row->median_ns)
				*row = again;
			row->collapsed = sb_flash_au_slow(against, row);
		}
		slow = row->collapsed ? slow + 1 : 0;
		/* one slow row may be a hiccup: a collapse is two in a row, or
		 * the smallest chunk */
		if (slow >= 2 || (slow && chunk / 2 < c->p->bs)) {
			run->collapsed = 1;
			break;
		}
	}
	return 0;
}

int sb_flash_au_slow(const struct sb_flash_au_row *ref, const struct sb_flash_au_row *row)
{
	const double base = ref->median_ns;
	return row->median_ns * COLLAPSE > base &&
	       row->median_ns - base > sb_flash_threshold(ref->noise_ns, base);
}

static int params_ok(const struct sb_flash_dev *dev, const struct sb_flash_au_params *p,
		     unsigned *fits)
{
	const uint64_t e = p->erase;
	if (!e || (e & (e - 1)) || sb_flash_bs_ok(p->bs, dev->lbs) || p->bs > e ||
	    e / p->bs > (1u << 24) || !p->max_au || p->max_au > SB_FLASH_MAX_AU || !p->orders ||
	    p->offset % dev->lbs)
		return -EINVAL;
	if (p->offset > dev->size || dev->size - p->offset < e)
		return -EINVAL;
	*fits = (unsigned)SB_MIN((dev->size - p->offset - e) / (AU_SPACING * e) + 1,
				 (uint64_t)SB_FLASH_MAX_AU);
	return 0;
}

/* the bytes one order writes at most (for the progress line) */
static uint64_t order_bytes(const struct sb_flash_au_params *p, unsigned maxn)
{
	unsigned chunks = 0;
	for (uint64_t c = p->erase; c >= p->bs; c /= 2)
		chunks++;
	return (uint64_t)chunks * p->erase * maxn * (maxn + 1) / 2;
}

int sb_flash_open_au(const struct sb_flash_dev *dev, const struct sb_flash_au_params *p,
		     const struct sb_flash_hooks *h, struct sb_flash_au_result *out,
		     uint64_t *fail_offset)
{
	memset(out, 0, sizeof(*out));
	out->p = *p;
	if (params_ok(dev, p, &out->fits))
		return -EINVAL;
	const unsigned maxn = SB_MIN(p->max_au, out->fits);
	struct au_ctx c = { dev, p, h, sb_flash_buffer(p->erase, 0x5a), 0, 0, fail_offset };
	if (!c.buf)
		return -ENOMEM;
	c.total = order_bytes(p, maxn) * (unsigned)__builtin_popcount((unsigned)p->orders & 3u);
	int e = 0;
	for (int random = 0; random < 2 && !e; random++) {
		if (!(p->orders & (1 << random)))
			continue;
		const struct sb_flash_au_run *ref = NULL;
		for (unsigned n = 1; n <= maxn && !e; n++) {
			struct sb_flash_au_run *run = &out->runs[out->nruns];
			e = one_run(&c, n, random, ref, run);
			if (e && e != -EINTR)
				break;
			out->nruns++;
			if (!ref)
				ref = run;
			if (e)
				break;
			if (run->collapsed)
				break;
			out->best[random] = n;
		}
		out->limited[random] = !e && out->nruns && !out->runs[out->nruns - 1].collapsed;
	}
	free(c.buf);
	return e;
}
