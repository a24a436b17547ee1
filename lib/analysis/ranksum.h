/*
 * The Mann-Whitney U test (Wilcoxon rank-sum) of two samples, and the
 * Hodges-Lehmann confidence interval of the shift between them: what
 * compare uses to decide whether a difference between repeated runs is
 * real (lib/analysis/difference.h). Distribution-free: it assumes only that
 * under "no change" every run of either side is as likely to be the
 * fastest, which holds for any noise shape.
 *
 * p-values are exact (the permutation distribution of the rank sum, with
 * midranks for ties) up to SB_RANKSUM_EXACT_MAX runs in all, and from the
 * normal approximation with tie and continuity corrections beyond.
 */
#ifndef SB_RANKSUM_H
#define SB_RANKSUM_H

#include "lib/sb.h"

#define SB_RANKSUM_EXACT_MAX 60

struct sb_ranksum {
	double u;  /* U of y: the pairs (x_i, y_j) with y_j > x_i, plus half the ties */
	double p;  /* two-sided: P(|W - E[W]| >= |w - E[W]|) under no difference */
	int exact; /* p from the exact distribution (1) or the normal approximation (0) */
};

/* The test of y against x (nx, ny >= 1, finite values). 0, -EINVAL for an
 * empty or non-finite sample, or -ENOMEM. */
int sb_ranksum(const double *x, size_t nx, const double *y, size_t ny, struct sb_ranksum *out);

/* The smallest two-sided p-value samples of nx and ny can give: 2 / C(nx +
 * ny, nx), when one sample lies wholly beyond the other without ties (ties
 * only raise it); 1 when that is more than 1. Below alpha, the test can
 * find a difference; above, it never can, however large the difference. */
double sb_ranksum_min_p(size_t nx, size_t ny);

/*
 * The confidence interval of the shift (Hodges-Lehmann, after Bauer 1972):
 * sort the nx * ny pairwise differences y_j - x_i; the k-th smallest and the
 * k-th largest bound an interval that holds the true shift with probability
 * at least 1 - alpha, where k - 1 is the largest U with P(U <= k - 1) <=
 * alpha / 2 (exact up to SB_RANKSUM_EXACT_MAX runs, normal beyond). Returns
 * k, and the interval's confidence (1 - 2 P(U <= k - 1)) in *coverage; 0 when
 * the samples are too small for any interval at that level. -ENOMEM.
 */
long sb_ranksum_ci_rank(size_t nx, size_t ny, double alpha, double *coverage);

/* The k-th smallest (k from 1) of the nx * ny values y_j / x_i (ratio = 1,
 * every x_i > 0) or y_j - x_i (ratio = 0) in out[0], the k-th largest in
 * out[1], and their median (the Hodges-Lehmann estimate; of an even count,
 * the middle two's mean, geometric for ratios as on the log scale) in
 * out[2]. k = 0 gives NaN for the bounds. 0, -EINVAL (empty, x_i <= 0 for
 * ratios, or k past the middle), -E2BIG (more than 16 Mi pairs), -ENOMEM. */
int sb_pairwise_bounds(const double *x, size_t nx, const double *y, size_t ny, int ratio, long k,
		       double out[3]);

#endif
