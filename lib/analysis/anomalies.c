/* The anomaly policy: outliers against a rolling median, change points of
 * the smoothed level with a minimum step. */
#include "lib/analysis/anomalies.h"
#include "lib/analysis/robust.h"

/* Running median of width w (shrinking at the ends). */
static void running_median(const double *y, size_t n, size_t w, double *out)
{
	for (size_t i = 0; i < n; i++) {
		size_t lo = i >= w / 2 ? i - w / 2 : 0, hi = SB_MIN(n, i + w / 2 + 1);
		out[i] = sb_median(y + lo, hi - lo);
	}
}

static int outliers(const double *v, size_t n, struct sb_anomalies *out)
{
	if (n < SB_ANOMALY_MIN_OUTLIER_N)
		return 0;
	unsigned char *flags = malloc(n);
	if (!flags)
		return -ENOMEM;
	long k = sb_outliers(v, n, SB_OUTLIER_WINDOW, SB_OUTLIER_THRESHOLD, flags);
	for (size_t i = 0; k > 0 && i < n && out->noutliers < SB_ANOMALY_MAX_OUTLIERS; i++)
		if (flags[i])
			out->outliers[out->noutliers++] = i;
	free(flags);
	return k < 0 ? (int)k : 0;
}

static int changes(const double *v, size_t n, struct sb_anomalies *out)
{
	size_t cps[SB_ANOMALY_MAX_CHANGES];
	double *sm = malloc((n ? n : 1) * sizeof(*sm));
	if (!sm)
		return -ENOMEM;
	running_median(v, n, SB_ANOMALY_SMOOTH, sm);
	long k = sb_changepoints(sm, n, SB_ANOMALY_MIN_SEGMENT, 0, cps, SB_ARRAY_SIZE(cps));
	if (k > 0)
		k = (long)sb_changepoints_filter(sm, n, cps, (size_t)k, SB_ANOMALY_MIN_STEP);
	free(sm);
	if (k < 0)
		return (int)k;
	/* the levels told are the medians of the values themselves, between
	 * the neighbouring changes */
	for (size_t c = 0; c < (size_t)k; c++) {
		size_t a = c ? cps[c - 1] : 0, b = c + 1 < (size_t)k ? cps[c + 1] : n;
		struct sb_change *ch = &out->changes[c];
		ch->at = cps[c];
		ch->before = sb_median(v + a, cps[c] - a);
		ch->after = sb_median(v + cps[c], b - cps[c]);
		ch->step = ch->before != 0 ? (ch->after - ch->before) / ch->before : 0;
	}
	out->nchanges = (size_t)k;
	return 0;
}

int sb_series_anomalies(const double *v, size_t n, struct sb_anomalies *out)
{
	memset(out, 0, sizeof(*out));
	int e = outliers(v, n, out);
	return e < 0 ? e : changes(v, n, out);
}
