/* The Mann-Whitney U test and the Hodges-Lehmann interval (lib/analysis/ranksum.h). */
#include "lib/analysis/ranksum.h"

#include <math.h>

#define PAIRS_MAX (16u << 20) /* pairwise values held at once: 128 MiB */

struct item {
	double v;
	int in_y;
};

static int cmp_item(const void *a, const void *b)
{
	double x = ((const struct item *)a)->v, y = ((const struct item *)b)->v;
	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Doubled midranks of the sorted pooled sample s (integers: a tie group over
 * ranks a..b gets a + b), and the ties' sum of t^3 - t for the variance. */
static void midranks2(const struct item *s, size_t n, unsigned *r2, double *ties)
{
	*ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && s[j + 1].v == s[i].v)
			j++;
		for (size_t k = i; k <= j; k++)
			r2[k] = (unsigned)(i + j + 2);
		double t = (double)(j - i + 1);
		*ties += t * t * t - t;
		i = j + 1;
	}
}

/* How many k-subsets of the n values r2 have each sum s (0 <= s < *len): the
 * exact distribution of a rank sum under no difference, every subset as
 * likely. Counts in doubles (C(60, 30) is past 2^53, which costs no more
 * than a rounding in the 16th digit). NULL when out of memory. */
static double *subset_sums(const unsigned *r2, size_t n, size_t k, size_t *len)
{
	size_t total = 0, reach = 0;
	for (size_t i = 0; i < n; i++)
		total += r2[i];
	size_t w = total + 1;
	double *c = calloc((k + 1) * w, sizeof(*c));
	if (!c)
		return NULL;
	c[0] = 1;
	for (size_t i = 0; i < n; i++) {
		reach += r2[i];
		for (size_t j = SB_MIN(i + 1, k); j >= 1; j--) {
			double *to = c + j * w;
			const double *from = c + (j - 1) * w;
			for (size_t s = reach; s >= r2[i]; s--)
				to[s] += from[s - r2[i]];
		}
	}
	memmove(c, c + k * w, w * sizeof(*c));
	*len = w;
	return c;
}

static int exact_p(const unsigned *r2, size_t n, size_t k, long wk2, double *p)
{
	size_t len;
	double *c = subset_sums(r2, n, k, &len), all = 0, hit = 0;
	if (!c)
		return -ENOMEM;
	long mean2 = (long)(k * (n + 1)), dev = labs(wk2 - mean2);
	for (size_t s = 0; s < len; s++) {
		all += c[s];
		if (labs((long)s - mean2) >= dev)
			hit += c[s];
	}
	free(c);
	*p = all > 0 ? hit / all : 1;
	return 0;
}

int sb_ranksum(const double *x, size_t nx, const double *y, size_t ny, struct sb_ranksum *out)
{
	if (!x || !y || !out || !nx || !ny)
		return -EINVAL;
	size_t n = nx + ny;
	struct item *s = malloc(n * sizeof(*s));
	unsigned *r2 = malloc(n * sizeof(*r2));
	int rc = 0;
	if (!s || !r2) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		s[i] = i < nx ? (struct item){ x[i], 0 } : (struct item){ y[i - nx], 1 };
		if (!isfinite(s[i].v))
			rc = -EINVAL;
	}
	if (rc)
		goto out;
	qsort(s, n, sizeof(*s), cmp_item);
	double ties;
	midranks2(s, n, r2, &ties);
	long wy2 = 0;
	for (size_t i = 0; i < n; i++)
		wy2 += s[i].in_y ? (long)r2[i] : 0;
	out->u = (double)wy2 / 2 - (double)ny * (double)(ny + 1) / 2;
	out->exact = n <= SB_RANKSUM_EXACT_MAX;
	if (out->exact) {
		/* the smaller side's sum: the same p, a smaller table */
		size_t k = SB_MIN(nx, ny);
		long wk2 = k == ny ? wy2 : (long)(n * (n + 1)) - wy2;
		rc = exact_p(r2, n, k, wk2, &out->p);
	} else {
		double m = (double)nx * (double)ny, nn = (double)n;
		double var = m / 12 * ((nn + 1) - ties / (nn * (nn - 1)));
		double z = var > 0 ? (fabs(out->u - m / 2) - 0.5) / sqrt(var) : 0;
		out->p = var > 0 ? erfc(SB_MAX(z, 0) / sqrt(2)) : 1;
	}
	out->p = SB_MIN(out->p, 1);
out:
	free(s);
	free(r2);
	return rc;
}

double sb_ranksum_min_p(size_t nx, size_t ny)
{
	double c = 1; /* C(nx + ny, nx), built up factor by factor */
	for (size_t i = 1; i <= SB_MIN(nx, ny) && c < 1e30; i++)
		c = c * (double)(SB_MAX(nx, ny) + i) / (double)i;
	return SB_MIN(1, 2 / c);
}

/* z with P(Z > z) = q for a standard normal Z (0 < q < 1), by bisection. */
static double z_upper(double q)
{
	double lo = -40, hi = 40;
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;
		if (erfc(mid / sqrt(2)) / 2 > q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

long sb_ranksum_ci_rank(size_t nx, size_t ny, double alpha, double *coverage)
{
	size_t n = nx + ny, k = SB_MIN(nx, ny);
	double m = (double)nx * (double)ny;
	*coverage = NAN;
	if (!nx || !ny || !(alpha > 0 && alpha < 1))
		return 0;
	if (n > SB_RANKSUM_EXACT_MAX) {
		double sd = sqrt(m * (double)(n + 1) / 12), z = z_upper(alpha / 2);
		long r = (long)floor(m / 2 - z * sd + 0.5);
		if (r < 1)
			return 0;
		*coverage = 1 - erfc(-((double)r - 0.5 - m / 2) / sd / sqrt(2));
		return r;
	}
	unsigned r2[SB_RANKSUM_EXACT_MAX];
	size_t len;
	for (size_t i = 0; i < n; i++)
		r2[i] = (unsigned)(2 * (i + 1));
	double *c = subset_sums(r2, n, k, &len), all = 0, cum = 0;
	if (!c)
		return -ENOMEM;
	for (size_t s = 0; s < len; s++)
		all += c[s];
	/* U = W - k(k+1)/2 counts up from the lowest sum, k(k+1) doubled */
	long r = 0;
	for (size_t s = k * (k + 1); s < len; s += 2) {
		if ((cum + c[s]) / all > alpha / 2)
			break;
		cum += c[s];
		r++;
	}
	free(c);
	if (r)
		*coverage = 1 - 2 * cum / all;
	return r;
}

static void swap_d(double *a, double *b)
{
	double t = *a;
	*a = *b;
	*b = t;
}

/* The p-th smallest of d[0..n) (from 0) into d[p], smaller ones before it
 * and larger ones after (quickselect, a three-way partition about the
 * median of three: ties, which differences of rounded figures have many
 * of, cost no more). No NaN in d. */
static double select_nth(double *d, size_t n, size_t p)
{
	size_t lo = 0, hi = n; /* [lo, hi) holds the p-th */
	while (hi - lo > 1) {
		double a = d[lo], b = d[lo + (hi - lo) / 2], c = d[hi - 1];
		double pv = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		size_t lt = lo, i = lo, gt = hi; /* [lo,lt) < pv, [lt,i) == pv, [gt,hi) > pv */
		while (i < gt) {
			if (d[i] < pv)
				swap_d(&d[lt++], &d[i++]);
			else if (d[i] > pv)
				swap_d(&d[i], &d[--gt]);
			else
				i++;
		}
		if (p < lt)
			hi = lt;
		else if (p >= gt)
			lo = gt;
		else
			return d[p];
	}
	return d[p];
}

int sb_pairwise_bounds(const double *x, size_t nx, const double *y, size_t ny, int ratio, long k,
		       double out[3])
{
	size_t m = nx * ny;
	if (!x || !y || !nx || !ny || k < 0 || (size_t)k > (m + 1) / 2)
		return -EINVAL;
	if (m > PAIRS_MAX)
		return -E2BIG;
	for (size_t i = 0; ratio && i < nx; i++)
		if (!(x[i] > 0))
			return -EINVAL;
	double *d = malloc(m * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < nx; i++)
		for (size_t j = 0; j < ny; j++)
			d[i * ny + j] = ratio ? y[j] / x[i] : y[j] - x[i];
	/* only the order statistics asked for, each selected in O(m) (a sort
	 * of every pair was most of a grouped history query's time); a NaN,
	 * which has no place in an order, is sorted as before */
	int nan = 0;
	for (size_t i = 0; i < m && !nan; i++)
		nan = isnan(d[i]);
	if (nan)
		qsort(d, m, sizeof(*d), cmp_double);
	const double mid = nan ? d[m / 2] : select_nth(d, m, m / 2);
	/* below m / 2 now lies what is no larger than mid: its largest is the
	 * (m / 2 - 1)-th */
	double below = mid;
	if (m % 2 == 0) {
		below = d[0];
		for (size_t i = 1; i < m / 2; i++)
			below = d[i] > below ? d[i] : below;
	}
	out[0] = !k ? NAN : nan ? d[k - 1] : select_nth(d, m, (size_t)k - 1);
	out[1] = !k ? NAN : nan ? d[m - (size_t)k] : select_nth(d, m, m - (size_t)k);
	/* ratios: the median on the log scale (the middle two's geometric mean) */
	out[2] = m % 2 ? mid : ratio ? sqrt(below * mid) : (below + mid) / 2;
	free(d);
	return 0;
}
