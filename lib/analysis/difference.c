/* compare's rule for a real difference (lib/analysis/difference.h). */
#include "lib/analysis/difference.h"

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

int sb_difference(const struct sb_spread *a, const struct sb_spread *b, int higher_better,
		  struct sb_difference *out)
{
	if (!a || !b || !out)
		return -EINVAL;
	out->pct = a->med != 0 ? 100 * (b->med - a->med) / fabs(a->med) : NAN;
	int within = (b->med >= a->min && b->med <= a->max) ||
		     (a->med >= b->min && a->med <= b->max);
	out->verdict = within				      ? SB_DIFF_NOISE
		       : (b->med > a->med) == !!higher_better ? SB_DIFF_BETTER
							      : SB_DIFF_WORSE;
	return 0;
}
