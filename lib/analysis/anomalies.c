/* The anomaly policy: outliers against a rolling median with one robust
 * scale per segment, change points of the cleaned level (anomalies.h). */
#include "lib/analysis/anomalies.h"
#include "lib/analysis/robust.h"

#include <math.h>

struct series {
	size_t n;     /* finite values */
	int relative; /* y = log(v) */
	double *y;    /* the values analysed */
	size_t *at;   /* y[i] is v[at[i]] */
	double *level, *res, *clean, *tmp;
	double *s1, *s2; /* prefix sums of clean, centred */
	unsigned char *flag;
	size_t *bounds; /* 0, the change points, n */
	size_t nbounds;
};

/* |z| above which a standard normal value falls with chance ALPHA / n. */
static double threshold(size_t n)
{
	double p = SB_ANOMALY_ALPHA / (double)n, lo = 0, hi = 40;
	for (int i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;
		if (erfc(mid / M_SQRT2) > p)
			lo = mid;
		else
			hi = mid;
	}
	return SB_MAX(SB_ANOMALY_MIN_Z, hi);
}

/* 1.4826 x MAD of r[a..b), or for a MAD of 0 (more than half the values
 * alike) the mean absolute deviation scaled to a standard deviation. */
static double scale_of(const double *r, size_t a, size_t b, double *tmp)
{
	size_t len = b - a;
	double mean = 0;
	memcpy(tmp, r + a, len * sizeof(*tmp));
	double med = sb_median_inplace(tmp, len);
	for (size_t i = 0; i < len; i++) {
		tmp[i] = fabs(r[a + i] - med);
		mean += tmp[i];
	}
	double s = 1.4826 * sb_median_inplace(tmp, len);
	return s > 0 ? s : 1.2533 * mean / (double)len;
}

/* Median of y[a..b), b - a <= SB_ANOMALY_WINDOW; NAN when empty. */
static double median_of(const double *y, size_t a, size_t b)
{
	double w[SB_ANOMALY_WINDOW];
	memcpy(w, y + a, (b - a) * sizeof(*w));
	return sb_median_inplace(w, b - a);
}

/* The level of each value before changes are known: the median of the
 * h = (SB_ANOMALY_WINDOW - 1) / 2 values before it or of the h after it
 * (fewer near the ends), whichever is closer, so that a value next to a
 * step is measured against its own level, not one straddling the step. */
static int level_either_side(struct series *s)
{
	const size_t n = s->n, h = (SB_ANOMALY_WINDOW - 1) / 2, whole[] = { 0, n };
	double *m = s->clean; /* free until the outliers are known */
	/* m[j]: the median of y[j - h/2 .. j - h/2 + h), for whole windows */
	if (n >= h && sb_rolling_median(s->y, n, whole, 2, h, 1, m) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		double before = i >= h ? m[i - h + h / 2] : median_of(s->y, 0, i);
		double after = i + h < n ? m[i + 1 + h / 2] : median_of(s->y, i + 1, n);
		if (isnan(before) ||
		    (!isnan(after) && fabs(after - s->y[i]) < fabs(before - s->y[i])))
			s->level[i] = after;
		else
			s->level[i] = before;
	}
	return 0;
}

/* Levels (before changes are known, or within the segments between
 * s->bounds: the median of a value's neighbours), residuals, and the
 * values further than t scales from their level. Returns how many, or
 * -ENOMEM. */
static long flag_outliers(struct series *s, int in_segments, double t, double min_scale)
{
	const size_t n = s->n;
	int e = in_segments ? sb_rolling_median(s->y, n, s->bounds, s->nbounds, SB_ANOMALY_WINDOW,
						0, s->level)
			    : level_either_side(s);
	if (e < 0)
		return e;
	for (size_t i = 0; i < n; i++)
		s->res[i] = s->y[i] - s->level[i];
	const double pooled = scale_of(s->res, 0, n, s->tmp);
	long count = 0;
	for (size_t k = 0; k + 1 < s->nbounds; k++) {
		size_t a = s->bounds[k], b = s->bounds[k + 1];
		double sc = b - a >= SB_ANOMALY_SCALE_MIN ? scale_of(s->res, a, b, s->tmp) : pooled;
		sc = SB_MAX(sc, min_scale);
		for (size_t i = a; i < b; i++) {
			s->flag[i] = sc > 0 && fabs(s->res[i]) > t * sc;
			count += s->flag[i];
		}
	}
	return count;
}

/* Noise of the level: from first differences, which a step or a drift
 * hardly moves. 0 for a series without any. */
static double noise_of(const double *y, size_t n, double *tmp)
{
	double mean = 0;
	if (n < 2)
		return 0;
	for (size_t i = 0; i + 1 < n; i++) {
		tmp[i] = fabs(y[i + 1] - y[i]);
		mean += tmp[i];
	}
	double sigma = 1.4826 * sb_median_inplace(tmp, n - 1) / M_SQRT2;
	/* E|d| = 2 sigma / sqrt(pi) for Gaussian differences */
	return sigma > 0 ? sigma : mean / (double)(n - 1) * sqrt(M_PI) / 2;
}

static double cost(const struct series *s, size_t a, size_t b)
{
	double len = (double)(b - a), sum = s->s1[b] - s->s1[a];
	double c = (s->s2[b] - s->s2[a]) - sum * sum / len;
	return c > 0 ? c : 0;
}

/* Relative step between the cleaned means of [a, m) and [m, b), as a share
 * of the larger level. */
static double step_at(const struct series *s, size_t a, size_t m, size_t b, double centre)
{
	double l = (s->s1[m] - s->s1[a]) / (double)(m - a) + centre;
	double r = (s->s1[b] - s->s1[m]) / (double)(b - m) + centre;
	if (s->relative)
		return 1 - exp(-fabs(l - r));
	double big = SB_MAX(fabs(l), fabs(r));
	return big > 0 ? fabs(l - r) / big : 0;
}

/* Place each change found on the grid exactly: the best split between its
 * neighbours within a grid step of it. */
static void refine(struct series *s, size_t *cps, size_t k, size_t grid)
{
	const size_t n = s->n, ms = SB_ANOMALY_MIN_SEGMENT;
	for (size_t j = 0; j < k; j++) {
		size_t prev = j ? cps[j - 1] : 0, next = j + 1 < k ? cps[j + 1] : n;
		size_t lo = SB_MAX(prev + ms, cps[j] > grid ? cps[j] - grid : 0);
		size_t hi = SB_MIN(next - ms, cps[j] + grid);
		double best = INFINITY;
		for (size_t t = lo; t <= hi; t++) {
			double c = cost(s, prev, t) + cost(s, t, next);
			if (c < best) {
				best = c;
				cps[j] = t;
			}
		}
	}
}

/* The changes found and what judging them needs: the noise of each
 * segment PELT made (local noise: PELT's penalty takes the whole series'),
 * as running sums of length x sigma^2 over those segments. */
struct found {
	size_t k, *cps, *ix;	  /* the changes kept, and their number in PELT's list */
	size_t nseg;		  /* PELT's segments */
	double *w;		  /* w[i]: sum of len sigma^2 over PELT's segments < i */
	double centre, beta_unit; /* beta / sigma^2 */
};

/* How strong the change j is, 1 being just enough: its step against
 * SB_ANOMALY_MIN_STEP, and the cost it saves against the penalty with the
 * noise of the two segments it separates, whichever is weaker. */
static double strength(const struct series *s, const struct found *f, size_t j)
{
	size_t a = j ? f->cps[j - 1] : 0, m = f->cps[j], b = j + 1 < f->k ? f->cps[j + 1] : s->n;
	size_t ia = j ? f->ix[j - 1] + 1 : 0, ib = j + 1 < f->k ? f->ix[j + 1] + 1 : f->nseg;
	double var = (f->w[ib] - f->w[ia]) / (double)(b - a);
	double l = (s->s1[m] - s->s1[a]) / (double)(m - a);
	double r = (s->s1[b] - s->s1[m]) / (double)(b - m);
	double saved = (l - r) * (l - r) * (double)(m - a) * (double)(b - m) / (double)(b - a);
	double sig = var > 0 ? saved / (var * f->beta_unit) : saved > 0 ? INFINITY : 0;
	return SB_MIN(sig, step_at(s, a, m, b, f->centre) / SB_ANOMALY_MIN_STEP);
}

/* Drop the weakest change while it is too weak or there are too many;
 * st (room for f->k) keeps the strengths, of which a drop changes two. */
static void keep_changes(const struct series *s, struct found *f, double *st)
{
	for (size_t j = 0; j < f->k; j++)
		st[j] = strength(s, f, j);
	while (f->k) {
		size_t weakest = 0;
		for (size_t j = 1; j < f->k; j++)
			if (st[j] < st[weakest])
				weakest = j;
		if (st[weakest] >= 1 && f->k <= SB_ANOMALY_MAX_CHANGES)
			break;
		size_t tail = f->k - weakest - 1;
		memmove(f->cps + weakest, f->cps + weakest + 1, tail * sizeof(*f->cps));
		memmove(f->ix + weakest, f->ix + weakest + 1, tail * sizeof(*f->ix));
		memmove(st + weakest, st + weakest + 1, tail * sizeof(*st));
		f->k--;
		/* the changes either side now border the merged segment */
		if (weakest > 0)
			st[weakest - 1] = strength(s, f, weakest - 1);
		if (weakest < f->k)
			st[weakest] = strength(s, f, weakest);
	}
}

/* The noise of each of PELT's segments (the whole series' for one without
 * any), summed as f->w; f->ix numbers the changes. */
static void segment_noise(struct series *s, struct found *f, double sigma)
{
	f->nseg = f->k + 1;
	f->w[0] = 0;
	for (size_t i = 0; i < f->nseg; i++) {
		size_t a = i ? f->cps[i - 1] : 0, b = i < f->k ? f->cps[i] : s->n;
		double sg = noise_of(s->y + a, b - a, s->tmp);
		sg = sg > 0 ? sg : sigma;
		f->w[i + 1] = f->w[i] + (double)(b - a) * sg * sg;
		if (i < f->k)
			f->ix[i] = i;
	}
}

/* Change points of the cleaned series into s->bounds. */
static int changes(struct series *s, double *sigma)
{
	const size_t n = s->n;
	struct found f = { .cps = s->bounds + 1 };
	*sigma = noise_of(s->y, n, s->tmp);
	if (!(*sigma > 0) || n < 2 * SB_ANOMALY_MIN_SEGMENT)
		return 0;
	for (size_t i = 0; i < n; i++)
		f.centre += s->clean[i] / (double)n;
	for (size_t i = 0; i < n; i++) {
		s->tmp[i] = s->clean[i] - f.centre; /* sums of squares stay exact */
		s->s1[i + 1] = s->s1[i] + s->tmp[i];
		s->s2[i + 1] = s->s2[i] + s->tmp[i] * s->tmp[i];
	}
	f.beta_unit = SB_ANOMALY_PENALTY * log((double)n);
	const double beta = f.beta_unit * *sigma * *sigma;
	const size_t grid = (n + SB_ANOMALY_GRID - 1) / SB_ANOMALY_GRID;
	long k = sb_changepoints_grid(s->tmp, n, grid, SB_ANOMALY_MIN_SEGMENT, beta, f.cps, n);
	if (k <= 0)
		return (int)k;
	f.k = (size_t)k;
	if (grid > 1)
		refine(s, f.cps, f.k, grid);
	f.w = malloc((f.k + 2) * sizeof(*f.w));
	f.ix = malloc(f.k * sizeof(*f.ix));
	if (f.w && f.ix) {
		segment_noise(s, &f, *sigma);
		keep_changes(s, &f, s->tmp);
		s->bounds[f.k + 1] = n;
		s->nbounds = f.k + 2;
	}
	free(f.w);
	free(f.ix);
	return f.w && f.ix ? 0 : -ENOMEM;
}

/* Median of the values v[at[a..b)). */
static double level_between(const struct series *s, const double *v, size_t a, size_t b)
{
	for (size_t i = a; i < b; i++)
		s->tmp[i - a] = v[s->at[i]];
	return sb_median_inplace(s->tmp, b - a);
}

static void report(const struct series *s, const double *v, struct sb_anomalies *out)
{
	for (size_t i = 0; i < s->n; i++) {
		if (!s->flag[i])
			continue;
		if (out->noutliers < SB_ANOMALY_MAX_OUTLIERS)
			out->outliers[out->noutliers++] = s->at[i];
		out->outliers_total++;
	}
	for (size_t c = 1; c + 1 < s->nbounds; c++) {
		struct sb_change *ch = &out->changes[out->nchanges++];
		ch->at = s->at[s->bounds[c]];
		ch->before = level_between(s, v, s->bounds[c - 1], s->bounds[c]);
		ch->after = level_between(s, v, s->bounds[c], s->bounds[c + 1]);
		ch->step = ch->before != 0 ? (ch->after - ch->before) / ch->before : 0;
	}
}

/* The analysis once the finite values are in s->y. */
static int analyse(struct series *s, const double *v, struct sb_anomalies *out)
{
	const size_t n = s->n;
	out->threshold = threshold(n);
	/* a scale below this is rounding, not noise */
	double min_scale = 1e-9;
	if (!s->relative) {
		for (size_t i = 0; i < n; i++)
			s->tmp[i] = fabs(s->y[i]);
		min_scale *= sb_median_inplace(s->tmp, n);
	}
	s->bounds[0] = 0, s->bounds[1] = n, s->nbounds = 2;
	long k = flag_outliers(s, 0, out->threshold, min_scale);
	if (k < 0)
		return (int)k;
	for (size_t i = 0; i < n; i++)
		s->clean[i] = s->flag[i] ? s->level[i] : s->y[i];
	int e = changes(s, &out->sigma);
	if (e < 0 || (k = flag_outliers(s, 1, out->threshold, min_scale)) < 0)
		return e < 0 ? e : (int)k;
	report(s, v, out);
	return 0;
}

int sb_series_anomalies(const double *v, size_t n, struct sb_anomalies *out)
{
	struct series s = { .relative = 1 };
	int e = -ENOMEM;
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		s.n += isfinite(v[i]) != 0;
		s.relative &= !isfinite(v[i]) || v[i] > 0;
	}
	out->relative = s.relative;
	if (s.n < SB_ANOMALY_MIN_OUTLIER_N)
		return 0;
	const size_t m = s.n;
	double *d = malloc((7 * m + 2) * sizeof(double));
	s.at = malloc(m * sizeof(size_t));
	s.bounds = malloc((m + 2) * sizeof(size_t));
	s.flag = malloc(m);
	if (d && s.at && s.bounds && s.flag) {
		s.y = d, s.level = d + m, s.res = d + 2 * m, s.clean = d + 3 * m;
		s.tmp = d + 4 * m, s.s1 = d + 5 * m, s.s2 = d + 6 * m + 1;
		s.s1[0] = s.s2[0] = 0;
		for (size_t i = 0, k = 0; i < n; i++) {
			if (!isfinite(v[i]))
				continue;
			s.at[k] = i;
			s.y[k++] = s.relative ? log(v[i]) : v[i];
		}
		e = analyse(&s, v, out);
	}
	free(d);
	free(s.at);
	free(s.bounds);
	free(s.flag);
	if (e < 0)
		memset(out, 0, sizeof(*out));
	return e;
}
