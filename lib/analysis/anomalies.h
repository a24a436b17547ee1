/*
 * The one policy for anomalies of a per-iteration series (a soak's
 * throughput): which values are outliers and where the level changes.
 * The soak's verdict and the report's chart both take their anomalies from
 * here, so the chart marks what the verdict counted, no more, no less.
 */
#ifndef SB_ANOMALIES_H
#define SB_ANOMALIES_H

#include "lib/sb.h"

#define SB_ANOMALY_MAX_OUTLIERS 32 /* the first ones are kept, the rest dropped */
#define SB_ANOMALY_MAX_CHANGES 8
#define SB_ANOMALY_MIN_OUTLIER_N 5 /* fewer values: no outliers */
#define SB_ANOMALY_SMOOTH \
	5			 /* running median before change detection: one
					 * bad iteration is an outlier, not a new level */
#define SB_ANOMALY_MIN_SEGMENT 5 /* values on each side of a change */
#define SB_ANOMALY_MIN_STEP 0.10 /* a change must move the level by 10% */

struct sb_change {
	size_t at;	      /* index of the first value of the new level */
	double before, after; /* medians of the segments either side */
	double step;	      /* (after - before) / before: -0.5 is a fall by half */
};

struct sb_anomalies {
	size_t noutliers;
	size_t outliers[SB_ANOMALY_MAX_OUTLIERS]; /* indices, ascending */
	size_t nchanges;
	struct sb_change changes[SB_ANOMALY_MAX_CHANGES]; /* ascending */
};

/*
 * Outliers of v[0..n) (sb_outliers: window SB_OUTLIER_WINDOW, threshold
 * SB_OUTLIER_THRESHOLD; from SB_ANOMALY_MIN_OUTLIER_N values on) and its
 * change points (PELT on the running median of width SB_ANOMALY_SMOOTH,
 * segments of SB_ANOMALY_MIN_SEGMENT or more, steps of SB_ANOMALY_MIN_STEP
 * or more). Every value counts: leave out unusable ones before. 0 or
 * -ENOMEM.
 */
int sb_series_anomalies(const double *v, size_t n, struct sb_anomalies *out);

#endif
