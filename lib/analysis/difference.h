/*
 * Whether a difference between two results is real: compare's rule. A
 * figure measured over repeated runs is summarised by its median and its
 * range; b differs from the baseline a when neither median lies inside the
 * other's min..max, that is, when the difference exceeds the run-to-run
 * spread of both sides. With one run a side's range is its one value, so
 * any difference counts: the caller says the spread is unknown then.
 */
#ifndef SB_DIFFERENCE_H
#define SB_DIFFERENCE_H

#include "lib/sb.h"

/* A figure over its runs; one run: all three equal. */
struct sb_spread {
	double med, min, max;
};

/* The median, min and max of the finite values of v (reordered in place).
 * Returns how many there were; out is left alone when there was none. */
size_t sb_spread_of(double *v, size_t n, struct sb_spread *out);

enum sb_diff_verdict { SB_DIFF_NOISE, SB_DIFF_BETTER, SB_DIFF_WORSE };

struct sb_difference {
	double pct; /* (b - a) / |a| in percent; NaN when a's median is 0 */
	enum sb_diff_verdict verdict;
};

/* b against the baseline a for a figure where higher is better (bandwidth,
 * IOPS) or worse (latency). 0, or -EINVAL for a missing argument. */
int sb_difference(const struct sb_spread *a, const struct sb_spread *b, int higher_better,
		  struct sb_difference *out);

#endif
