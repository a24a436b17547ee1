/*
 * Latency histogram: log-linear buckets (HDR style) over nanoseconds with at
 * most 1% relative error on any percentile, a range beyond one hour
 * (2^43 ns = 2.4 h; larger values land in the last bucket and max stays exact),
 * mergeable by adding buckets. Fixed size, no allocation: embed it.
 */
#ifndef SB_HIST_H
#define SB_HIST_H

#include "lib/sb.h"

#define SB_HIST_SUB_BITS 6 /* 64 sub-buckets per octave */
#define SB_HIST_SUB (1u << SB_HIST_SUB_BITS)
#define SB_HIST_MAX_BITS 43 /* range 2^43 ns */
#define SB_HIST_NBUCKETS ((SB_HIST_MAX_BITS - SB_HIST_SUB_BITS + 1) * SB_HIST_SUB)

struct sb_hist {
	uint64_t count;
	uint64_t min, max;
	double sum;	/* of v - shift */
	double sumsq;	/* of (v - shift)^2: variance without cancellation */
	uint64_t shift; /* first value recorded */
	uint64_t bucket[SB_HIST_NBUCKETS];
};

void sb_hist_init(struct sb_hist *h);

/* Bucket index of v; inline so the hot path is a few instructions. */
static inline unsigned sb_hist_index(uint64_t v)
{
	if (v < 2 * SB_HIST_SUB)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb >= SB_HIST_MAX_BITS)
		return SB_HIST_NBUCKETS - 1;
	unsigned shift = msb - SB_HIST_SUB_BITS;
	/* octave msb starts at index (shift + 1) * SUB; top SUB_BITS bits below
	 * the leading one select the sub-bucket */
	return (shift + 1) * SB_HIST_SUB + (unsigned)((v >> shift) & (SB_HIST_SUB - 1));
}

static inline void sb_hist_add(struct sb_hist *h, uint64_t v)
{
	if (SB_UNLIKELY(h->count == 0)) {
		h->shift = v;
		h->min = v;
		h->max = v;
	}
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	double d = (double)v - (double)h->shift;
	h->sum += d;
	h->sumsq += d * d;
	h->count++;
	h->bucket[sb_hist_index(v)]++;
}

/* dst += src (count, min, max, mean and variance combine exactly). */
void sb_hist_merge(struct sb_hist *dst, const struct sb_hist *src);
/* Value at percentile pct in [0,100]: the sample of rank ceil(pct/100 * N)
 * (rank 1 for pct 0) within 1%; 0 when empty. Clamped to [min, max]. */
uint64_t sb_hist_percentile(const struct sb_hist *h, double pct);
/* That rank, 1..n, for n samples (0 when n is 0): the 1-based position in
 * the sorted samples, for code that computes exact percentiles to compare. */
uint64_t sb_hist_rank(uint64_t n, double pct);
double sb_hist_mean(const struct sb_hist *h);
/* Sample stddev (divides by N - 1, as fio does); 0 below two samples. */
double sb_hist_stddev(const struct sb_hist *h);
/* How many samples lie below v: whole buckets, and of the one v cuts a
 * share proportional to the part below v (within [min, max]); so exact
 * below 128 ns and within one bucket (1/64 of an octave) above. */
double sb_hist_count_below(const struct sb_hist *h, uint64_t v);
/* Lowest and highest value a bucket holds (for histogram charts). */
uint64_t sb_hist_bucket_low(unsigned idx);
uint64_t sb_hist_bucket_high(unsigned idx);

/* The percentiles every report lists (fio's set plus 99.95). */
extern const double sb_percentiles[];
extern const unsigned sb_npercentiles;

#endif
