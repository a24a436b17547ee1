/*
 * fio's rate_process=poisson: requests at the arrivals of a Poisson
 * process of the job's rate, so the gaps between them are exponential
 * with the mean the even pace (fio's linear) would have.
 */
#include "lib/stats/gap.h"

#include <math.h>

double sb_exp_gap(double mean, double u)
{
	if (!(u >= 0) || u >= 1 || !(mean > 0))
		return 0;
	return -log1p(-u) * mean;
}
