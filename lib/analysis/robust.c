/* Robust statistics: median, MAD, quantiles, selection, rolling medians,
 * PELT change points. */
#include "lib/analysis/robust.h"

#include <math.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void swap(double *a, size_t i, size_t j)
{
	double t = a[i];
	a[i] = a[j];
	a[j] = t;
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

/* k-th smallest of a[0..n) (0-based), reordering a: Wirth's selection
 * (Hoare's partition around the current k-th element), O(n) on average. */
double sb_select(double *a, size_t n, size_t k)
{
	ptrdiff_t l = 0, m = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
	while (l < m) {
		double x = a[kk];
		ptrdiff_t i = l, j = m;
		do {
			while (a[i] < x)
				i++;
			while (x < a[j])
				j--;
			if (i <= j)
				swap(a, (size_t)i++, (size_t)j--);
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			m = j;
	}
	return a[k];
}

double sb_median_inplace(double *a, size_t n)
{
	if (!n)
		return NAN;
	double hi = sb_select(a, n, n / 2);
	if (n % 2)
		return hi;
	/* the largest of the lower half: a[0..n/2) holds the n/2 smallest */
	double lo = a[0];
	for (size_t i = 1; i < n / 2; i++)
		lo = SB_MAX(lo, a[i]);
	return (lo + hi) / 2;
}

/* Where x goes in the sorted s[0..n): the first element not below it. */
static size_t lower_bound(const double *s, size_t n, double x)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Replace old (present) by new in the sorted window s[0..n), kept sorted. */
static void window_replace(double *s, size_t n, double old, double new)
{
	size_t at = lower_bound(s, n, old);
	if (new >= old) {
		while (at + 1 < n && s[at + 1] < new) {
			s[at] = s[at + 1];
			at++;
		}
	} else {
		while (at > 0 && s[at - 1] > new) {
			s[at] = s[at - 1];
			at--;
		}
	}
	s[at] = new;
}

/* The median of the sorted s[0..n) without its element at position skip
 * (skip >= n: with every element). */
static double median_without(const double *s, size_t n, size_t skip)
{
	size_t m = skip < n ? n - 1 : n;
	if (!m)
		return s[0];
	size_t k = (m - 1) / 2;
	double a = s[k < skip ? k : k + 1];
	if (m % 2)
		return a;
	return (a + s[k + 1 < skip ? k + 1 : k + 2]) / 2;
}

static void rolling_segment(const double *y, size_t a, size_t b, size_t w, int self, double *s,
			    double *out)
{
	size_t len = SB_MIN(w, b - a), lo = a;
	memcpy(s, y + a, len * sizeof(*s));
	qsort(s, len, sizeof(*s), cmp_double);
	for (size_t i = a; i < b; i++) {
		size_t want = i >= a + w / 2 ? i - w / 2 : a;
		want = SB_MIN(want, b - len);
		for (; lo < want; lo++)
			window_replace(s, len, y[lo], y[lo + len]);
		out[i] = median_without(s, len, self ? len : lower_bound(s, len, y[i]));
	}
}

int sb_rolling_median(const double *y, size_t n, const size_t *bounds, size_t nbounds, size_t w,
		      int self, double *out)
{
	double *s = malloc(SB_MAX(w, 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (size_t k = 0; k + 1 < nbounds; k++) {
		size_t a = bounds[k], b = SB_MIN(bounds[k + 1], n);
		if (a < b)
			rolling_segment(y, a, b, SB_MAX(w, 1), self, s, out);
	}
	free(s);
	return 0;
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
	return sb_changepoints_grid(y, n, 1, min_seg, beta, cps, max);
}

/* The grid's k-th position: k * grid, the last one n. */
static size_t grid_pos(size_t k, size_t grid, size_t n)
{
	return SB_MIN(k * grid, n);
}

long sb_changepoints_grid(const double *y, size_t n, size_t grid, size_t min_seg, double beta,
			  size_t *cps, size_t max)
{
	min_seg = SB_MAX(min_seg, 1);
	grid = SB_MAX(grid, 1);
	if (n < 2 * min_seg)
		return 0;
	if (beta <= 0)
		beta = sb_changepoint_penalty(y, n);
	const size_t m = (n + grid - 1) / grid; /* positions 0..m */
	double *s1 = calloc(n + 1, sizeof(double)), *s2 = calloc(n + 1, sizeof(double));
	double *F = malloc((m + 1) * sizeof(double));
	size_t *last = calloc(m + 1, sizeof(size_t)), *cand = calloc(m + 1, sizeof(size_t));
	long ret = -ENOMEM;
	if (!s1 || !s2 || !F || !last || !cand)
		goto out;
	for (size_t i = 0; i < n; i++) {
		s1[i + 1] = s1[i] + y[i];
		s2[i + 1] = s2[i] + y[i] * y[i];
	}
	/* F[t]: best cost of y up to position t; candidates tau (positions
	 * that can end the segment before the last one) */
	size_t ncand = 0, next = 0;
	F[0] = -beta;
	for (size_t t = 1; t <= m; t++) {
		const size_t pt = grid_pos(t, grid, n);
		for (; next < t && pt - grid_pos(next, grid, n) >= min_seg; next++)
			if (isfinite(F[next]))
				cand[ncand++] = next; /* now at least min_seg before t */
		double best = INFINITY;
		size_t arg = 0;
		for (size_t k = 0; k < ncand; k++) {
			double v = F[cand[k]] + seg_cost(s1, s2, grid_pos(cand[k], grid, n), pt) +
				   beta;
			if (v < best) {
				best = v;
				arg = cand[k];
			}
		}
		F[t] = best;
		last[t] = arg;
		/* prune: tau that cannot be optimal for any later t */
		size_t keep = 0;
		for (size_t k = 0; k < ncand; k++)
			if (F[cand[k]] + seg_cost(s1, s2, grid_pos(cand[k], grid, n), pt) <= F[t])
				cand[keep++] = cand[k];
		ncand = keep;
	}
	/* walk back from n */
	size_t found = 0;
	for (size_t t = last[m]; t > 0; t = last[t])
		cand[found++] = grid_pos(t, grid, n);
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
