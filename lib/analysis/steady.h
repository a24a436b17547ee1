/*
 * SNIA PTS steady state (METHODS.md 3.1): over a window of 5 consecutive
 * rounds of a tracking variable y, the data excursion max(y) - min(y) must
 * be at most 20% of the window's average, and the excursion of the
 * least-squares line y = a*x + b across the window (x the round numbers,
 * so |a| * 4) at most 10% of it. The measurement window is the first
 * window of rounds x-4..x (x >= 5) that meets both.
 */
#ifndef SB_STEADY_H
#define SB_STEADY_H

#include "lib/sb.h"

#define SB_SS_WINDOW 5
#define SB_SS_DATA_LIMIT 0.20  /* of the average: max(y) - min(y) */
#define SB_SS_SLOPE_LIMIT 0.10 /* of the average: |a| * (last - first) */

struct sb_steady {
	int reached;	      /* both criteria held over the window */
	unsigned first, last; /* round numbers (from 1) of the window */
	double average;
	double data_excursion, data_allowed;   /* max - min; 20% of the average */
	double slope_excursion, slope_allowed; /* |a| * (last - first); 10% of it */
	double slope, intercept;	       /* y = slope * round + intercept */
	int data_ok, slope_ok;
};

/* The figures of rounds first..first+n-1 (y holds rounds 1..): average,
 * excursions and the fit, and whether each criterion holds. reached is
 * set when both hold and n is SB_SS_WINDOW. */
void sb_steady_window(const double *y, unsigned first, unsigned n, struct sb_steady *s);
/* The measurement window of the rounds y[0..n) (round i+1 is y[i]): the
 * first steady window; else, not reached, the last SB_SS_WINDOW rounds
 * (all of them when there are fewer). Returns 1 when reached, 0 when not,
 * -EINVAL without a round. */
int sb_steady_find(const double *y, unsigned n, struct sb_steady *s);

#endif
