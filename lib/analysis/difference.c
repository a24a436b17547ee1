/* compare's rule for a real difference (lib/analysis/difference.h). */
#include "lib/analysis/difference.h"
#include "lib/analysis/ranksum.h"

#include <math.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

size_t sb_spread_of(double *v, size_t n, struct sb_spread *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	if (!k)
		return 0;
	qsort(v, k, sizeof(*v), cmp_double);
	out->min = v[0];
	out->max = v[k - 1];
	out->med = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	return k;
}

unsigned sb_diff_runs_needed(void)
{
	unsigned n = 1;
	while (sb_ranksum_min_p(n, n) > SB_DIFF_ALPHA)
		n++;
	return n;
}

/* The finite values of v in a new array; *k of them. */
static double *finite_copy(const double *v, size_t n, size_t *k)
{
	double *c = malloc((n ? n : 1) * sizeof(*c));
	*k = 0;
	for (size_t i = 0; c && i < n; i++)
		if (isfinite(v[i]))
			c[(*k)++] = v[i];
	return c;
}

/* The median of the n values of v (a copy is sorted). */
static int median_of(const double *v, size_t n, double *out)
{
	struct sb_spread sp;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, v, n * sizeof(*s));
	sb_spread_of(s, n, &sp);
	free(s);
	*out = sp.med;
	return 0;
}

/* The shift and its interval (rank k) in percent of a: from the ratios
 * b_j / a_i when every value is positive (performance changes by a factor),
 * else from the differences over |median of a|. Without a test (k < 0) the
 * medians' ratio: the pairwise estimate of one or two runs a side swings
 * with every outlier, and the medians are what the tables show. */
static int shift(const double *a, size_t na, const double *b, size_t nb, long k,
		 struct sb_difference *out)
{
	double q[3], ma, mb, one = 1, base = 1;
	int ratio = 1, rc;
	for (size_t i = 0; i < na; i++)
		ratio &= a[i] > 0;
	for (size_t i = 0; i < nb; i++)
		ratio &= b[i] > 0;
	if ((rc = median_of(a, na, &ma)) < 0 || (rc = median_of(b, nb, &mb)) < 0)
		return rc;
	if (!ratio) {
		base = fabs(ma);
		one = 0;
	}
	if (k < 0) {
		q[2] = ratio ? mb / ma : mb - ma;
	} else if ((rc = sb_pairwise_bounds(a, na, b, nb, ratio, k, q)) < 0) {
		return rc;
	}
	out->pct = base > 0 ? 100 * (q[2] - one) / base : NAN;
	out->lo_pct = k > 0 && base > 0 ? 100 * (q[0] - one) / base : NAN;
	out->hi_pct = k > 0 && base > 0 ? 100 * (q[1] - one) / base : NAN;
	return 0;
}

static int judge(const double *a, size_t na, const double *b, size_t nb, int higher_better,
		 struct sb_difference *out)
{
	struct sb_ranksum t;
	double cover;
	int conclusive = na >= 2 && nb >= 2 && sb_ranksum_min_p(na, nb) <= SB_DIFF_ALPHA;
	long k = conclusive ? sb_ranksum_ci_rank(na, nb, SB_DIFF_ALPHA, &cover) : -1;
	if (conclusive && k < 0)
		return (int)k;
	int rc = shift(a, na, b, nb, k, out);
	if (rc < 0)
		return rc;
	out->confidence = k > 0 ? cover : NAN;
	if (!conclusive) {
		out->verdict = SB_DIFF_INCONCLUSIVE;
		return 0;
	}
	if ((rc = sb_ranksum(a, na, b, nb, &t)) < 0)
		return rc;
	out->p = t.p;
	/* which way: b's U above half the pairs means b tends higher */
	int b_higher = t.u > (double)na * (double)nb / 2;
	out->verdict = t.p > SB_DIFF_ALPHA	     ? SB_DIFF_NOISE
		       : b_higher == !!higher_better ? SB_DIFF_BETTER
						     : SB_DIFF_WORSE;
	return 0;
}

int sb_difference(const double *a, size_t na, const double *b, size_t nb, int higher_better,
		  struct sb_difference *out)
{
	if (!a || !b || !out)
		return -EINVAL;
	size_t ka, kb;
	double *fa = finite_copy(a, na, &ka), *fb = finite_copy(b, nb, &kb);
	int rc = !fa || !fb ? -ENOMEM : !ka || !kb ? -EINVAL : 0;
	*out = (struct sb_difference){ .verdict = SB_DIFF_INCONCLUSIVE,
				       .pct = NAN,
				       .lo_pct = NAN,
				       .hi_pct = NAN,
				       .confidence = NAN,
				       .p = NAN,
				       .na = (unsigned)ka,
				       .nb = (unsigned)kb,
				       .needed = sb_diff_runs_needed() };
	if (!rc)
		rc = judge(fa, ka, fb, kb, higher_better, out);
	free(fa);
	free(fb);
	return rc;
}
