/* Robust statistics: median, MAD, quantiles, outliers, PELT change points. */
#include "lib/analysis/robust.h"

#include <math.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double *sorted_copy(const double *v, size_t n)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));
	if (!s)
		return NULL;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

static double quantile_sorted(const double *s, size_t n, double q)
{
	if (!n)
		return NAN;
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return s[n - 1];
	return s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]);
}

double sb_quantile(const double *v, size_t n, double q)
{
	double *s = sorted_copy(v, n);
	if (!s)
		return NAN;
	double r = quantile_sorted(s, n, q);
	free(s);
	return r;
}

double sb_median(const double *v, size_t n)
{
	return sb_quantile(v, n, 0.5);
}

double sb_mad(const double *v, size_t n)
{
	double m = sb_median(v, n);
	double *d = malloc((n ? n : 1) * sizeof(*d));
	if (!d)
		return NAN;
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(v[i] - m);
	double r = sb_median(d, n);
	free(d);
	return r;
}

int sb_stability(const double *v, size_t n, struct sb_stability *out)
{
	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n)
		return 0;
	double *s = sorted_copy(v, n);
	if (!s)
		return -ENOMEM;
	double sum = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (s[i] - out->mean) * (s[i] - out->mean);
	out->median = quantile_sorted(s, n, 0.5);
	out->p5 = quantile_sorted(s, n, 0.05);
	out->p95 = quantile_sorted(s, n, 0.95);
	out->min = s[0];
	out->max = s[n - 1];
	out->cv = n > 1 && out->mean != 0 ? sqrt(ss / (double)(n - 1)) / fabs(out->mean) : 0;
	free(s);
	return 0;
}

long sb_outliers(const double *x, size_t n, size_t window, double threshold, unsigned char *flags)
{
	long count = 0;
	if (window < 3)
		window = 3;
	double *w = malloc(window * sizeof(*w));
	if (!w)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		/* a window of `window` values around i, shifted inside [0, n) */
		size_t len = SB_MIN(window, n);
		size_t lo = i >= len / 2 ? i - len / 2 : 0;
		if (lo + len > n)
			lo = n - len;
		memcpy(w, x + lo, len * sizeof(*w));
		double med = sb_median(w, len);
		double scale = 1.4826 * sb_mad(w, len);
		if (scale == 0) {
			double mean_dev = 0;
			for (size_t k = 0; k < len; k++)
				mean_dev += fabs(w[k] - med);
			scale = 1.4826 * mean_dev / (double)len;
		}
		flags[i] = scale > 0 && fabs(x[i] - med) / scale > threshold;
		count += flags[i];
	}
	free(w);
	return count;
}

double sb_changepoint_penalty(const double *y, size_t n)
{
	if (n < 3)
		return INFINITY;
	double *d = malloc((n - 1) * sizeof(*d));
	if (!d)
		return INFINITY;
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = y[i + 1] - y[i];
	double sigma = sb_mad(d, n - 1) / sqrt(2.0) / 0.6745;
	free(d);
	if (sigma == 0) {
		/* a series without noise: any real shift is a change */
		double range = 0;
		for (size_t i = 0; i < n; i++)
			range = SB_MAX(range, fabs(y[i] - y[0]));
		sigma = range > 0 ? range * 1e-3 : 1;
	}
	return 2 * sigma * sigma * log((double)n);
}

/* Cost of y[a..b) from prefix sums: sum of squares about the mean. */
static double seg_cost(const double *s1, const double *s2, size_t a, size_t b)
{
	double len = (double)(b - a), sum = s1[b] - s1[a];
	double c = (s2[b] - s2[a]) - sum * sum / len;
	return c > 0 ? c : 0;
}

long sb_changepoints(const double *y, size_t n, size_t min_seg, double beta, size_t *cps,
		     size_t max)
{
	if (min_seg < 1)
		min_seg = 1;
	if (n < 2 * min_seg)
		return 0;
	if (beta <= 0)
		beta = sb_changepoint_penalty(y, n);
	double *s1 = calloc(n + 1, sizeof(double)), *s2 = calloc(n + 1, sizeof(double));
	double *F = calloc(n + 1, sizeof(double));
	size_t *last = calloc(n + 1, sizeof(size_t)), *cand = calloc(n + 1, sizeof(size_t));
	long ret = -ENOMEM;
	if (!s1 || !s2 || !F || !last || !cand)
		goto out;
	for (size_t i = 0; i < n; i++) {
		s1[i + 1] = s1[i] + y[i];
		s2[i + 1] = s2[i] + y[i] * y[i];
	}
	/* F[t]: best cost of y[0..t); candidates tau for the last change */
	size_t ncand = 0;
	F[0] = -beta;
	for (size_t t = min_seg; t <= n; t++) {
		if (t >= 2 * min_seg || t == min_seg) {
			/* tau = t - min_seg becomes admissible now */
			size_t tau = t - min_seg;
			if (tau == 0 || tau >= min_seg)
				cand[ncand++] = tau;
		}
		double best = INFINITY;
		size_t arg = 0;
		for (size_t k = 0; k < ncand; k++) {
			size_t tau = cand[k];
			double v = F[tau] + seg_cost(s1, s2, tau, t) + beta;
			if (v < best) {
				best = v;
				arg = tau;
			}
		}
		F[t] = best;
		last[t] = arg;
		/* prune: tau that cannot be optimal for any later t */
		size_t keep = 0;
		for (size_t k = 0; k < ncand; k++) {
			size_t tau = cand[k];
			if (F[tau] + seg_cost(s1, s2, tau, t) <= F[t])
				cand[keep++] = tau;
		}
		ncand = keep;
	}
	/* walk back from n */
	size_t found = 0;
	for (size_t t = last[n]; t > 0; t = last[t])
		cand[found++] = t;
	ret = 0;
	for (size_t k = found; k-- > 0 && (size_t)ret < max;)
		cps[ret++] = cand[k];
out:
	free(s1);
	free(s2);
	free(F);
	free(last);
	free(cand);
	return ret;
}

static double mean_of(const double *y, size_t a, size_t b)
{
	double s = 0;
	for (size_t i = a; i < b; i++)
		s += y[i];
	return b > a ? s / (double)(b - a) : 0;
}

/* Relative step at change point k: |left mean - right mean| / larger. */
static double step_at(const double *y, size_t n, const size_t *cps, size_t k, size_t i)
{
	size_t a = i ? cps[i - 1] : 0, m = cps[i], b = i + 1 < k ? cps[i + 1] : n;
	double l = mean_of(y, a, m), r = mean_of(y, m, b);
	double big = SB_MAX(fabs(l), fabs(r));
	return big > 0 ? fabs(l - r) / big : 0;
}

size_t sb_changepoints_filter(const double *y, size_t n, size_t *cps, size_t k, double min_rel)
{
	while (k) {
		size_t weakest = 0;
		double w = INFINITY;
		for (size_t i = 0; i < k; i++) {
			double s = step_at(y, n, cps, k, i);
			if (s < w) {
				w = s;
				weakest = i;
			}
		}
		if (w >= min_rel)
			break;
		memmove(cps + weakest, cps + weakest + 1, (k - weakest - 1) * sizeof(*cps));
		k--;
	}
	return k;
}
