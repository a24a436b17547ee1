/*
 * flashbench -s (METHODS.md 1.5): a read-time map. 2^order positions j x
 * bs from offset, visited in LFSR order so that no read-ahead or locality
 * helps, span x bs bytes each, the minimum of count tries kept. The map
 * shows segment boundaries, erased against written segments and MLC
 * fast/slow page pairs as separate lines.
 */
#include "lib/flash/flash_int.h"
#include "lib/analysis/robust.h"

#include <math.h>

int sb_flash_scatter(const struct sb_flash_dev *dev, const struct sb_flash_scatter_params *p,
		     const struct sb_flash_hooks *h, struct sb_flash_scatter *out,
		     uint64_t *fail_offset)
{
	memset(out, 0, sizeof(*out));
	out->p = *p;
	if (sb_flash_bs_ok(p->bs, dev->lbs) || p->order > 20 || !p->span || p->span > 64 ||
	    !p->count || p->offset % dev->lbs)
		return -EINVAL;
	const uint32_t n = 1u << p->order;
	const uint64_t len = (uint64_t)p->span * p->bs;
	if (p->offset > dev->size || dev->size - p->offset < len ||
	    (dev->size - p->offset - len) / p->bs + 1 < n)
		return -EINVAL;
	out->off = malloc(n * sizeof(*out->off));
	out->ns = malloc(n * sizeof(*out->ns));
	void *buf = sb_flash_buffer(len, 0);
	if (!out->off || !out->ns || !buf) {
		free(buf);
		sb_flash_scatter_free(out);
		return -ENOMEM;
	}
	for (uint32_t j = 0; j < n; j++) {
		out->off[j] = p->offset + (uint64_t)j * p->bs;
		out->ns[j] = INFINITY;
	}
	out->n = n;
	int e = 0;
	struct sb_lfsr l;
	sb_lfsr_init(&l, n);
	for (unsigned t = 0; t < p->count && !e; t++)
		for (uint32_t i = 0; i < n && !e; i++) {
			const uint32_t j = sb_lfsr_next(&l);
			uint64_t ns;
			if (sb_flash_stopped(h)) {
				e = -EINTR;
				break;
			}
			e = sb_flash_time_io(dev->fd, buf, len, out->off[j], 0, &ns);
			if (e)
				*fail_offset = out->off[j];
			else if ((double)ns < out->ns[j])
				out->ns[j] = (double)ns;
			sb_flash_tell(h, (uint64_t)t * n + i + 1, (uint64_t)p->count * n);
		}
	free(buf);
	return e;
}

void sb_flash_scatter_free(struct sb_flash_scatter *s)
{
	free(s->off);
	free(s->ns);
	s->off = NULL;
	s->ns = NULL;
	s->n = 0;
}

void sb_flash_scatter_sum(const struct sb_flash_scatter *s, struct sb_flash_scatter_sum *out)
{
	memset(out, 0, sizeof(*out));
	out->min_ns = INFINITY;
	double *v = malloc((s->n ? s->n : 1) * sizeof(*v));
	size_t nv = 0;
	for (uint32_t j = 0; j < s->n; j++) {
		if (!isfinite(s->ns[j]))
			continue;
		out->min_ns = fmin(out->min_ns, s->ns[j]);
		out->max_ns = fmax(out->max_ns, s->ns[j]);
		if (v)
			v[nv++] = s->ns[j];
		/* insert j among the slowest, slowest first */
		unsigned k = out->nslowest < SB_FLASH_SLOWEST ? out->nslowest++ : SB_FLASH_SLOWEST;
		while (k > 0 && s->ns[out->slowest[k - 1]] < s->ns[j]) {
			if (k < SB_FLASH_SLOWEST)
				out->slowest[k] = out->slowest[k - 1];
			k--;
		}
		if (k < SB_FLASH_SLOWEST)
			out->slowest[k] = j;
	}
	out->median_ns = v && nv ? sb_median(v, nv) : NAN;
	if (!nv)
		out->min_ns = NAN;
	free(v);
}
