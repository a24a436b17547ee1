/*
 * Latency histogram: merging, percentiles, mean and deviation. Recording
 * (sb_hist_add, sb_hist_index) is inline in hist.h.
 *
 * Bucket layout: values below 2 * SUB have a bucket each. Above that, octave
 * [2^m, 2^(m+1)) starts at index (m - SUB_BITS + 1) * SUB and is split into SUB
 * buckets of width 2^(m - SUB_BITS); a bucket's low end is at least SUB times
 * its width, so its midpoint is within 1/(2 * SUB) = 1/128 of any value in it.
 */
#include "lib/sb.h"
#include "lib/stats/hist.h"

#include <assert.h>
#include <math.h>

const double sb_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};
const unsigned sb_npercentiles = SB_ARRAY_SIZE(sb_percentiles);

void sb_hist_init(struct sb_hist *h)
{
	memset(h, 0, sizeof(*h));
}

/* log2 of the width of bucket idx (0 for the exact buckets). */
static unsigned bucket_width_bits(unsigned idx)
{
	return idx < 2 * SB_HIST_SUB ? 0 : idx / SB_HIST_SUB - 1;
}

uint64_t sb_hist_bucket_low(unsigned idx)
{
	assert(idx < SB_HIST_NBUCKETS);
	if (idx < 2 * SB_HIST_SUB)
		return idx;
	uint64_t sub = idx % SB_HIST_SUB;
	return (SB_HIST_SUB + sub) << bucket_width_bits(idx);
}

uint64_t sb_hist_bucket_high(unsigned idx)
{
	assert(idx < SB_HIST_NBUCKETS);
	/* the last bucket also takes everything beyond the range */
	if (idx == SB_HIST_NBUCKETS - 1)
		return UINT64_MAX;
	return sb_hist_bucket_low(idx) + (UINT64_C(1) << bucket_width_bits(idx)) - 1;
}

double sb_hist_count_below(const struct sb_hist *h, uint64_t v)
{
	if (!h->count || v <= h->min)
		return 0;
	if (v > h->max)
		return (double)h->count;
	double n = 0;
	for (unsigned b = 0; b < SB_HIST_NBUCKETS; b++) {
		if (!h->bucket[b])
			continue;
		uint64_t lo = SB_MAX(sb_hist_bucket_low(b), h->min);
		uint64_t hi = SB_MIN(sb_hist_bucket_high(b), h->max);
		if (lo >= v)
			break;
		if (hi < v)
			n += (double)h->bucket[b];
		else
			n += (double)h->bucket[b] * (double)(v - lo) / (double)(hi - lo + 1);
	}
	return n;
}

/* Midpoint of the bucket's nominal range (for the last bucket, the range it
 * would have without the overflow; the caller clamps to max). */
static uint64_t bucket_mid(unsigned idx)
{
	uint64_t width = UINT64_C(1) << bucket_width_bits(idx);
	return sb_hist_bucket_low(idx) + (width - 1) / 2;
}

/* Re-base sum and sumsq of h from h->shift to shift: with d = v - old and
 * delta = old - shift, v - shift = d + delta. */
static void rebase(const struct sb_hist *h, uint64_t shift, double *sum, double *sumsq)
{
	/* the difference of two uint64_t as a signed value, exact below 2^53 */
	double delta = h->shift >= shift ? (double)(h->shift - shift) : -(double)(shift - h->shift);
	double n = (double)h->count;

	*sum = h->sum + n * delta;
	*sumsq = h->sumsq + 2.0 * delta * h->sum + n * delta * delta;
}

void sb_hist_merge(struct sb_hist *dst, const struct sb_hist *src)
{
	if (src->count == 0)
		return;
	if (dst->count == 0) {
		*dst = *src;
		return;
	}
	double sum, sumsq;
	rebase(src, dst->shift, &sum, &sumsq);
	dst->sum += sum;
	dst->sumsq += sumsq;
	dst->count += src->count;
	dst->min = SB_MIN(dst->min, src->min);
	dst->max = SB_MAX(dst->max, src->max);
	for (unsigned i = 0; i < SB_HIST_NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

uint64_t sb_hist_rank(uint64_t n, double pct)
{
	if (n == 0)
		return 0;
	if (!(pct > 0)) /* also NaN */
		return 1;
	if (pct >= 100)
		return n;
	/* x is off by at most 3 roundings (pct itself, *, /): 1.12% of 625
	 * comes out a hair above 7, which ceil would make 8. The slack of 1e-15 relative covers them
	 * and stays below any true fraction pct of hundredths can give (1e-4)
	 * up to 1e11 samples. */
	double x = pct * (double)n / 100.0;
	double r = ceil(x - x * 1e-15);
	if (r < 1)
		return 1;
	if (r > (double)n)
		return n;
	return (uint64_t)r;
}

uint64_t sb_hist_percentile(const struct sb_hist *h, double pct)
{
	uint64_t rank = sb_hist_rank(h->count, pct);

	if (rank == 0)
		return 0;
	/* the extremes are known exactly */
	if (rank == 1)
		return h->min;
	if (rank == h->count)
		return h->max;
	uint64_t seen = 0;
	unsigned i;
	for (i = 0; i < SB_HIST_NBUCKETS - 1; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	uint64_t v = bucket_mid(i);
	return v < h->min ? h->min : v > h->max ? h->max : v;
}

double sb_hist_mean(const struct sb_hist *h)
{
	if (h->count == 0)
		return 0;
	return (double)h->shift + h->sum / (double)h->count;
}

double sb_hist_stddev(const struct sb_hist *h)
{
	if (h->count < 2)
		return 0;
	double n = (double)h->count;
	double m = h->sum / n;
	double var = (h->sumsq - m * h->sum) / (n - 1);
	return var > 0 ? sqrt(var) : 0;
}
