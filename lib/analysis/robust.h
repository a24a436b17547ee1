/*
 * Robust statistics of a series (per-iteration throughput of a soak):
 * medians, MAD, quantiles, outliers against a rolling median, and change
 * points (PELT). Inputs are small arrays (iterations, not I/Os); functions
 * allocate scratch space and return -ENOMEM when they cannot.
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

/*
 * Outliers: x[i] is an outlier when its distance from the median of the
 * window of up to `window` values centred on it, in units of that window's
 * MAD scaled to a standard deviation (1.4826 * MAD), exceeds `threshold`
 * (3.5 by default, after Iglewicz and Hoaglin's modified z-score). Windows
 * with MAD 0 use 1.4826 * mean absolute deviation, and when that is 0 too,
 * no point is an outlier. flags[i] gets 1 or 0; returns the count.
 */
#define SB_OUTLIER_WINDOW 11
#define SB_OUTLIER_THRESHOLD 3.5
long sb_outliers(const double *x, size_t n, size_t window, double threshold, unsigned char *flags);

/*
 * Change points in the mean (PELT, Killick, Fearnhead and Eckley 2012) with
 * the L2 cost C(seg) = sum (y - mean)^2 and penalty beta; segments at least
 * min_seg long. beta <= 0 picks 2 sigma^2 ln n, sigma estimated robustly as
 * MAD(first differences) / sqrt(2) / 0.6745. cps gets the indices where new
 * segments start (ascending, 0 < cp < n), at most max; returns the count.
 */
long sb_changepoints(const double *y, size_t n, size_t min_seg, double beta, size_t *cps,
		     size_t max);
/* Drop change points whose segments' means differ by less than min_rel of
 * the larger mean (the weakest first, means recomputed after each drop):
 * a real step in throughput, not a statistically detectable ripple.
 * Returns the new count. */
size_t sb_changepoints_filter(const double *y, size_t n, size_t *cps, size_t k, double min_rel);
/* The penalty sb_changepoints uses when given beta <= 0. */
double sb_changepoint_penalty(const double *y, size_t n);

#endif
