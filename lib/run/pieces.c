/*
 * Random pieces of a region cut in chunks of per-chunk block sizes:
 * pieces.h says how and why.
 */
#include "lib/run/pieces.h"

int sb_pieces_apply(const struct sb_job_opts *o)
{
	if (o->dist != SB_DIST_UNIFORM || o->blockalign)
		return 0;
	if (o->nwbssplit)
		return 1;
	for (unsigned i = 1; i < o->nbssplit; i++)
		if (o->bssplit[i].bs != o->bssplit[0].bs)
			return 1;
	return 0;
}

int sb_pieces_init(struct sb_pieces *p, const struct sb_job_opts *o, uint64_t size, uint64_t chunk,
		   uint64_t share)
{
	memset(p, 0, sizeof(*p));
	if (!size || !chunk || !o->nbssplit)
		return -EINVAL;
	const int dirs = o->nwbssplit ? 2 : 1;
	for (int d = 0; d < dirs; d++) {
		unsigned k;
		const struct sb_bssplit *s = sb_job_split(o, d, &k);
		/* each direction's sizes weighed by its share of the requests */
		const uint64_t mix = dirs == 1 ? 1 : d ? 100 - o->rwmixread : o->rwmixread;
		for (unsigned i = 0; i < k; i++) {
			const unsigned e = p->nsizes++;
			p->bs[e] = s[i].bs;
			p->dir[e] = (int8_t)(dirs == 1 ? -1 : d);
			p->full[e] = (chunk + s[i].bs - 1) / s[i].bs;
			p->weight += mix * s[i].pct * s[i].bs;
			p->upto[e] = p->weight;
		}
	}
	if (!p->weight)
		return -EINVAL;
	p->size = size;
	p->chunk = chunk;
	p->nchunks = (size + chunk - 1) / chunk;
	const uint64_t cap = SB_MAX(SB_PIECES_GROUPS / SB_MAX(share, 1), 1);
	p->group = (p->nchunks + cap - 1) / cap;
	p->ngroups = (p->nchunks + p->group - 1) / p->group;
	p->sum = malloc((p->ngroups + 1) * sizeof(*p->sum));
	return p->sum ? 0 : -ENOMEM;
}

/* The pieces of chunk c in this pass, and its block size: a whole
 * chunk's from the table (no division), the tail's counted. */
static uint64_t chunk_pieces(const struct sb_pieces *p, uint64_t c, unsigned *e)
{
	/* sb_chunk_split's choice, against the sums made once */
	const uint64_t x = sb_chunk_draw(p->weight, c, p->key, p->pass);
	unsigned i = 0;
	while (i + 1 < p->nsizes && x >= p->upto[i])
		i++;
	*e = i;
	if (SB_LIKELY(c + 1 < p->nchunks))
		return p->full[i];
	const uint64_t clen = p->size - c * p->chunk;
	return (clen + p->bs[i] - 1) / p->bs[i];
}

/* A new pass: its chunks' sizes, their pieces numbered, a fresh order. */
static int new_pass(struct sb_pieces *p)
{
	uint64_t total = 0;
	unsigned e;
	p->key = sb_rng_next(&p->rng);
	for (uint64_t g = 0, c = 0; g < p->ngroups; g++) {
		p->sum[g] = total;
		for (const uint64_t end = SB_MIN(c + p->group, p->nchunks); c < end; c++)
			total += chunk_pieces(p, c, &e);
	}
	p->sum[p->ngroups] = total;
	p->left = total;
	return sb_offgen_init(&p->gen, total, SB_DIST_UNIFORM, 0, sb_rng_next(&p->rng));
}

int sb_pieces_start(struct sb_pieces *p, uint64_t seed)
{
	sb_rng_seed(&p->rng, seed);
	p->pass = 0;
	return new_pass(p);
}

void sb_pieces_next(struct sb_pieces *p, struct sb_piece *out)
{
	if (SB_UNLIKELY(!p->left)) {
		p->pass++;
		new_pass(p); /* cannot fail: the region has pieces */
	}
	p->left--;
	uint64_t k = sb_offgen_next(&p->gen);
	/* the last group whose first piece is at or before k */
	uint64_t lo = 0, hi = p->ngroups;
	while (hi - lo > 1) {
		const uint64_t mid = lo + (hi - lo) / 2;
		if (p->sum[mid] <= k)
			lo = mid;
		else
			hi = mid;
	}
	k -= p->sum[lo];
	uint64_t c = lo * p->group;
	unsigned e;
	for (uint64_t n; k >= (n = chunk_pieces(p, c, &e)); c++)
		k -= n;
	const uint64_t off = c * p->chunk + k * p->bs[e];
	out->off = off;
	out->bs = p->bs[e];
	out->ddir = p->dir[e];
	out->room = SB_MIN((c + 1) * p->chunk, p->size) - off;
}

void sb_pieces_free(struct sb_pieces *p)
{
	free(p->sum);
	p->sum = NULL;
}
