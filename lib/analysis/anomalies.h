/*
 * The one policy for anomalies of a per-iteration series (a soak's
 * throughput): which values are outliers and where the level changes.
 * The soak's verdict and the report's chart both take their anomalies from
 * here, so the chart marks what the verdict counted, no more, no less.
 * docs/methodology.md ("Soak anomalies") says what it can and cannot see,
 * measured by bench/anomaly-power.
 */
#ifndef SB_ANOMALIES_H
#define SB_ANOMALIES_H

#include "lib/sb.h"

#define SB_ANOMALY_MAX_OUTLIERS 64 /* the first ones are kept, all counted */
#define SB_ANOMALY_MAX_CHANGES 32  /* the strongest are kept */
#define SB_ANOMALY_MIN_OUTLIER_N 5 /* fewer values: no outliers */
#define SB_ANOMALY_WINDOW 21	   /* a value and its 20 neighbours */
#define SB_ANOMALY_ALPHA 0.01	   /* chance of any false outlier in a series */
#define SB_ANOMALY_MIN_Z 3.5	   /* ... but never a threshold below 3.5 */
#define SB_ANOMALY_SCALE_MIN 50	   /* a segment this long has a scale of its own */
#define SB_ANOMALY_MIN_SEGMENT 5   /* values on each side of a change */
#define SB_ANOMALY_MIN_STEP 0.05   /* a change moves the level by 5% or more */
#define SB_ANOMALY_PENALTY 3.0	   /* beta = PENALTY sigma^2 ln n */
#define SB_ANOMALY_GRID 2000	   /* longer series: changes searched on a grid */

struct sb_change {
	size_t at;	      /* index of the first value of the new level */
	double before, after; /* medians of the segments either side */
	double step;	      /* (after - before) / before: -0.5 is a fall by half */
};

struct sb_anomalies {
	size_t noutliers;			  /* how many outliers[] holds */
	size_t outliers_total;			  /* every value flagged */
	size_t outliers[SB_ANOMALY_MAX_OUTLIERS]; /* the first ones, ascending */
	size_t nchanges;
	struct sb_change changes[SB_ANOMALY_MAX_CHANGES]; /* ascending */
	double threshold; /* outliers: |residual| > threshold x scale */
	double sigma;	  /* noise of the level, as analysed (see below) */
	int relative;	  /* 1: analysed as log(v), every value being > 0 */
};

/*
 * Outliers and change points of v[0..n). Values that are not finite are
 * left out (indices still count them). A series whose values are all > 0
 * (a throughput) is analysed as log(v): its noise and its steps are ratios,
 * the same at any level. O(n) memory and about O(n) time (sorting and
 * selecting aside; PELT's work is bounded by SB_ANOMALY_GRID^2).
 *
 * 1. Candidates: each value's level is the median of the h =
 *    (SB_ANOMALY_WINDOW - 1) / 2 values before it or of the h after it
 *    (fewer at the ends), whichever is closer to it; a value is a candidate
 *    outlier when its residual exceeds `threshold` scales (1.4826 x MAD of
 *    every residual), threshold = max(SB_ANOMALY_MIN_Z, the two-sided
 *    normal quantile of SB_ANOMALY_ALPHA / n): a stationary Gaussian
 *    series gets a false outlier anywhere with chance about
 *    SB_ANOMALY_ALPHA, at any length.
 * 2. Change points: PELT (L2 cost) on the series with the candidates
 *    replaced by their level, penalty SB_ANOMALY_PENALTY sigma^2 ln n,
 *    sigma = 1.4826 x median |first difference| / sqrt 2, segments of
 *    SB_ANOMALY_MIN_SEGMENT or more; over SB_ANOMALY_GRID values, changes
 *    are searched at every ceil(n / SB_ANOMALY_GRID)-th value, then placed
 *    exactly. A change is kept when the cost it saves exceeds the penalty
 *    with the noise of the two segments it separates (theirs, not the
 *    whole series') and it moves the level by SB_ANOMALY_MIN_STEP of the
 *    larger level or more; the weakest is dropped first, and while there
 *    are more than SB_ANOMALY_MAX_CHANGES.
 * 3. Outliers: each value's level is the median of its SB_ANOMALY_WINDOW
 *    - 1 neighbours within its segment (itself left out); a segment of
 *    SB_ANOMALY_SCALE_MIN values or more has a scale of its own, a shorter
 *    one the whole series'; the threshold is the same.
 *
 * 0 or -ENOMEM (out is then empty).
 */
int sb_series_anomalies(const double *v, size_t n, struct sb_anomalies *out);

#endif
