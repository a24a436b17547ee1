/*
 * Robust statistics of a series (per-iteration throughput of a soak):
 * medians, MAD, quantiles, rolling medians, and change points (PELT).
 * Inputs are series of iterations, not of I/Os; functions allocate scratch
 * space and return -ENOMEM when they cannot.
 */
#ifndef SB_ROBUST_H
#define SB_ROBUST_H

#include "lib/sb.h"

/* Median of n values (n > 0); v is not changed. NAN for n == 0. */
double sb_median(const double *v, size_t n);
/* Median absolute deviation from the median (unscaled). */
double sb_mad(const double *v, size_t n);
/* Quantile q in [0,1] with linear interpolation between order statistics
 * (numpy's default, "type 7"). */
double sb_quantile(const double *v, size_t n, double q);

/* The stability figures of one metric. */
struct sb_stability {
	size_t n;
	double median, p5, p95, mean, cv; /* cv: stddev / mean (sample stddev) */
	double min, max;
};
int sb_stability(const double *v, size_t n, struct sb_stability *out);

/* The k-th smallest of a[0..n) (k < n, counted from 0), in O(n) on
 * average; a is reordered. */
double sb_select(double *a, size_t n, size_t k);
/* Median of a[0..n) (NAN for n == 0); a is reordered. */
double sb_median_inplace(double *a, size_t n);

/*
 * Rolling median: out[i] is the median of the w values around y[i] (w/2 on
 * each side; a window that would cross a bound is shifted inside, a segment
 * shorter than w is one window). Windows never cross the bounds
 * (bounds[0] = 0 < bounds[1] < ... < bounds[nbounds - 1] = n: segments
 * between change points). self = 0 leaves y[i] out of its own window (the
 * level of its neighbours, which an outlier does not move). O(n w), one
 * window of scratch. 0 or -ENOMEM.
 */
int sb_rolling_median(const double *y, size_t n, const size_t *bounds, size_t nbounds, size_t w,
		      int self, double *out);

/*
 * Change points in the mean (PELT, Killick, Fearnhead and Eckley 2012) with
 * the L2 cost C(seg) = sum (y - mean)^2 and penalty beta; segments at least
 * min_seg long. beta <= 0 picks 2 sigma^2 ln n, sigma estimated robustly as
 * MAD(first differences) / sqrt(2) / 0.6745. cps gets the indices where new
 * segments start (ascending, 0 < cp < n), at most max; returns the count.
 */
long sb_changepoints(const double *y, size_t n, size_t min_seg, double beta, size_t *cps,
		     size_t max);
/* The same with changes only at multiples of grid: (n / grid)^2 work at
 * worst instead of n^2 (PELT prunes little on a series without changes),
 * the costs still those of every value. */
long sb_changepoints_grid(const double *y, size_t n, size_t grid, size_t min_seg, double beta,
			  size_t *cps, size_t max);
/* Drop change points whose segments' means differ by less than min_rel of
 * the larger mean (the weakest first, means recomputed after each drop):
 * a real step in throughput, not a statistically detectable ripple.
 * Returns the new count. */
size_t sb_changepoints_filter(const double *y, size_t n, size_t *cps, size_t k, double min_rel);
/* The penalty sb_changepoints uses when given beta <= 0. */
double sb_changepoint_penalty(const double *y, size_t n);

#endif
