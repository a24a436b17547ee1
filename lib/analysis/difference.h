/*
 * Whether a difference between two results is real: compare's rule. A
 * figure measured over repeated runs (--repeat) is a sample on each side;
 * b differs from the baseline a when the Mann-Whitney U test
 * (lib/analysis/ranksum.h) finds a difference at the 5% level (two-sided).
 * The size of the difference is the Hodges-Lehmann estimate of the shift,
 * in percent of a, with its confidence interval. Samples too small for the
 * test ever to reach 5% (fewer than 4 runs a side with equal counts) get no
 * verdict: "inconclusive", with the runs they have and the runs they need.
 * docs/methodology.md says why this test and what it can see.
 */
#ifndef SB_DIFFERENCE_H
#define SB_DIFFERENCE_H

#include "lib/sb.h"

#define SB_DIFF_ALPHA 0.05 /* two-sided significance level of every verdict */
/* Runs a side that compare advises (--repeat): with 4 a side the test
 * speaks only when every run of one side beats every run of the other;
 * with 5 it allows for overlap, and finds a shift of 2.5 standard
 * deviations of the run-to-run noise about 9 times in 10. */
#define SB_DIFF_RUNS_ADVISED 5

/* A figure over its runs; one run: all three equal. */
struct sb_spread {
	double med, min, max;
};

/* The median, min and max of the finite values of v (reordered in place).
 * Returns how many there were; out is left alone when there was none. */
size_t sb_spread_of(double *v, size_t n, struct sb_spread *out);

enum sb_diff_verdict { SB_DIFF_NOISE, SB_DIFF_BETTER, SB_DIFF_WORSE, SB_DIFF_INCONCLUSIVE };

struct sb_difference {
	enum sb_diff_verdict verdict;
	/* the shift of b against a in percent of a: the median of the ratios
	 * b_j / a_i over all pairs of runs, less 1 (of the differences b_j - a_i
	 * over a's median when a value is 0 or less); when inconclusive, the
	 * ratio of the medians instead; NaN when a's median is 0 */
	double pct;
	/* its confidence interval, of at least 95% (exactly `confidence`);
	 * NaN when the runs are too few for one */
	double lo_pct, hi_pct, confidence;
	double p;	 /* two-sided p-value of the test; NaN when inconclusive */
	unsigned na, nb; /* runs on each side with a finite value */
	unsigned needed; /* runs a side the test needs at least (4) */
};

/* The runs a side needs at least, with as many on both sides, for the test
 * ever to find a difference at SB_DIFF_ALPHA. */
unsigned sb_diff_runs_needed(void);

/* b's runs against the baseline a's for a figure where higher is better
 * (bandwidth, IOPS) or worse (latency). Values that are not finite are left
 * out. 0; -EINVAL for a missing argument or a side with no finite value;
 * -ENOMEM. */
int sb_difference(const double *a, size_t na, const double *b, size_t nb, int higher_better,
		  struct sb_difference *out);

#endif
