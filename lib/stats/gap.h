/* The gaps between the requests of fio's rate_process=poisson. */
#ifndef SB_GAP_H
#define SB_GAP_H

#include "lib/sb.h"

/* The time to the next arrival of a Poisson process whose arrivals are
 * mean apart on average, from u, uniform in [0, 1): -ln(1 - u) * mean,
 * fio's usec_for_io (which draws u in (0, 1] and takes -ln(u)). An
 * exponential gap: its mean is mean, its standard deviation too. */
double sb_exp_gap(double mean, double u);

#endif
