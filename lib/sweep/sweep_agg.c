/*
 * A sweep of many ranks (mpirun): the All clients aggregate of each cell,
 * IOR's model (METHODS.md section 8): the ranks' bytes summed over the
 * time from the earliest start to the latest end of their timed passes,
 * on rank 0's clock. The ranks' own matrices stay beside it.
 */
#include "lib/sweep/sweep.h"

uint64_t sb_sweep_cell_bytes(const struct sb_sweep_result *r, unsigned fi, unsigned ri)
{
	const uint64_t rec = r->record_sizes[ri];
	return rec ? r->file_sizes[fi] / rec * rec : 0;
}

uint64_t sb_sweep_pass_bytes(const struct sb_sweep_result *r, int t, unsigned fi, unsigned ri)
{
	/* a result made by hand may leave bytes 0: then the whole file */
	return r->bytes[t][fi][ri] || r->ended_early[t][fi][ri] ? r->bytes[t][fi][ri]
								 : sb_sweep_cell_bytes(r, fi, ri);
}

static int same_shape(const struct sb_sweep_result *a, const struct sb_sweep_result *b)
{
	return a->nfile == b->nfile && a->nrec == b->nrec &&
	       !memcmp(a->file_sizes, b->file_sizes, sizeof(a->file_sizes)) &&
	       !memcmp(a->record_sizes, b->record_sizes, sizeof(a->record_sizes));
}

/* One cell of one test over the ranks: 1 when every rank measured it. */
static int cell_span(const struct sb_sweep_rank *ranks, unsigned n, int t, unsigned fi, unsigned ri,
		     double *first, double *last)
{
	for (unsigned k = 0; k < n; k++) {
		if (ranks[k].r.state[t][fi][ri] != SB_SWEEP_CELL_DONE)
			return 0;
		const double s = ranks[k].start_s[t][fi][ri], e = ranks[k].end_s[t][fi][ri];
		if (!k || s < *first)
			*first = s;
		if (!k || e > *last)
			*last = e;
	}
	return n > 0;
}

int sb_sweep_aggregate(struct sb_sweep_result *agg, const struct sb_sweep_rank *ranks, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		if (!same_shape(agg, &ranks[k].r))
			return -EINVAL;
	agg->cells_done = 0;
	agg->interrupted = 0;
	agg->cache_method = agg->cache_error = 0;
	for (unsigned k = 0; k < n; k++) {
		agg->interrupted |= ranks[k].r.interrupted;
		if (ranks[k].r.cache_error)
			agg->cache_error = ranks[k].r.cache_error;
		else if (!agg->cache_method)
			agg->cache_method = ranks[k].r.cache_method;
	}
	for (unsigned fi = 0; fi < agg->nfile; fi++)
		for (unsigned ri = 0; ri < agg->nrec; ri++) {
			int all = sb_sweep_cell_runs(agg, fi, ri);
			for (int t = 0; t < SB_SWEEP_NTESTS; t++) {
				double first = 0, last = 0;
				if (agg->state[t][fi][ri] == SB_SWEEP_CELL_SKIP)
					continue;
				agg->state[t][fi][ri] = SB_SWEEP_CELL_PLANNED;
				agg->kibps[t][fi][ri] = agg->elapsed_ns[t][fi][ri] = 0;
				agg->bytes[t][fi][ri] = 0;
				agg->ended_early[t][fi][ri] = 0;
				if (!cell_span(ranks, n, t, fi, ri, &first, &last)) {
					all = 0;
					continue;
				}
				uint64_t bytes = 0;
				unsigned char early = 0;
				for (unsigned k = 0; k < n; k++) {
					bytes += sb_sweep_pass_bytes(&ranks[k].r, t, fi, ri);
					early |= ranks[k].r.ended_early[t][fi][ri];
				}
				agg->bytes[t][fi][ri] = bytes;
				agg->ended_early[t][fi][ri] = early;
				const double ns = (last - first) * 1e9;
				const uint64_t span = ns < 1 ? 1 : (uint64_t)(ns + 0.5);
				agg->elapsed_ns[t][fi][ri] = span;
				agg->kibps[t][fi][ri] = (uint64_t)((double)bytes * 1e9 /
								   (double)span) >>
							10;
				agg->state[t][fi][ri] = SB_SWEEP_CELL_DONE;
			}
			agg->cells_done += (unsigned)all;
		}
	agg->ranks = ranks;
	agg->nranks = n;
	return 0;
}

void sb_sweep_spread(const struct sb_sweep_result *agg, int test, unsigned fi, unsigned ri,
		     double *start_spread, double *end_spread)
{
	*start_spread = *end_spread = 0;
	if (agg->nranks < 2 || agg->state[test][fi][ri] != SB_SWEEP_CELL_DONE)
		return;
	double s0 = 0, s1 = 0, e0 = 0, e1 = 0;
	for (unsigned k = 0; k < agg->nranks; k++) {
		const double s = agg->ranks[k].start_s[test][fi][ri];
		const double e = agg->ranks[k].end_s[test][fi][ri];
		if (!k || s < s0)
			s0 = s;
		if (!k || s > s1)
			s1 = s;
		if (!k || e < e0)
			e0 = e;
		if (!k || e > e1)
			e1 = e;
	}
	*start_spread = s1 - s0;
	*end_spread = e1 - e0;
}
