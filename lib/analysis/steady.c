/*
 * SNIA PTS steady state (METHODS.md 3.1), as CloudHarmony's isSteadyState
 * and TKperf's checkSteadyState compute it: the criteria compare with <=,
 * and the fit uses the round numbers as x so that its formula a*R + b can
 * be reported as PTS reports it.
 */
#include "lib/analysis/steady.h"

#include <math.h>

void sb_steady_window(const double *y, unsigned first, unsigned n, struct sb_steady *s)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, lo = INFINITY, hi = -INFINITY;
	memset(s, 0, sizeof(*s));
	s->first = first;
	s->last = first + n - 1;
	for (unsigned i = 0; i < n; i++) {
		const double x = first + i, v = y[first - 1 + i];
		sx += x;
		sy += v;
		sxx += x * x;
		sxy += x * v;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (!n)
		return;
	s->average = sy / n;
	s->data_excursion = hi - lo;
	const double den = n * sxx - sx * sx;
	if (den != 0) {
		s->slope = (n * sxy - sx * sy) / den;
		s->intercept = (sy * sxx - sx * sxy) / den;
	} else {
		s->intercept = s->average; /* one round: a flat line through it */
	}
	s->slope_excursion = fabs(s->slope) * (double)(n - 1);
	s->data_allowed = SB_SS_DATA_LIMIT * fabs(s->average);
	s->slope_allowed = SB_SS_SLOPE_LIMIT * fabs(s->average);
	s->data_ok = s->data_excursion <= s->data_allowed;
	s->slope_ok = s->slope_excursion <= s->slope_allowed;
	s->reached = n == SB_SS_WINDOW && s->data_ok && s->slope_ok;
}

int sb_steady_find(const double *y, unsigned n, struct sb_steady *s)
{
	if (!n) {
		memset(s, 0, sizeof(*s));
		return -EINVAL;
	}
	for (unsigned x = SB_SS_WINDOW; x <= n; x++) {
		sb_steady_window(y, x - SB_SS_WINDOW + 1, SB_SS_WINDOW, s);
		if (s->reached)
			return 1;
	}
	const unsigned w = SB_MIN(n, (unsigned)SB_SS_WINDOW);
	sb_steady_window(y, n - w + 1, w, s);
	return 0;
}
