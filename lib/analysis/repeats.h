/*
 * Repeated runs (--repeat N, quick's repeats): one summary row per
 * direction with the median and min..max of the runs' figures.
 */
#ifndef SB_REPEATS_H
#define SB_REPEATS_H

#include "lib/sb.h"
#include "lib/results/results.h"

/* Add to r a summary row named test for each direction that did I/O in the
 * jobs [first, first + n) of r (the runs of one workload; at most the first
 * 1000 count). 0, or -ENOMEM. */
int sb_repeats_summarize(struct sb_results *r, size_t first, unsigned n, const char *test);

#endif
