/*
 * How often compare's test (lib/analysis/difference.c) finds a change, by
 * simulation: runs with Gaussian noise of a 5% coefficient of variation on
 * both sides, B's level lower by a shift of 0 to 6 noise standard
 * deviations (6: a 30% slowdown), 4, 5 and 10 runs a side. Prints the share
 * of comparisons called worse (at shift 0: called changed either way, the
 * false-positive rate) as the table in docs/methodology.md. Fixed seed:
 * the same figures on every machine. Built and run by bench/compare-power.
 */
#include "lib/storbench.h"
#include "lib/base/rng.h"

#include <math.h>

#define TRIALS 20000
#define CV 0.05

static double gauss(struct sb_rng *r)
{
	double u = 1 - sb_rng_double(r), v = sb_rng_double(r);
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static double found(struct sb_rng *r, int n, double shift)
{
	int hits = 0;
	for (int t = 0; t < TRIALS; t++) {
		double a[16], b[16];
		struct sb_difference d;
		for (int i = 0; i < n; i++) {
			a[i] = 1 + CV * gauss(r);
			b[i] = (1 - shift * CV) * (1 + CV * gauss(r));
		}
		if (sb_difference(a, (size_t)n, b, (size_t)n, 1, &d) < 0)
			return NAN;
		hits += shift > 0 ? d.verdict == SB_DIFF_WORSE
				  : d.verdict == SB_DIFF_WORSE || d.verdict == SB_DIFF_BETTER;
	}
	return 100.0 * hits / TRIALS;
}

int main(void)
{
	static const int runs[] = { 2, 3, 4, 5, 10 };
	static const double shifts[] = { 0, 1, 2, 3, 4, 6 };
	struct sb_rng r;
	sb_rng_seed(&r, 1);
	printf("| shift (noise sd) |");
	for (size_t k = 0; k < SB_ARRAY_SIZE(runs); k++)
		printf(" %d runs |", runs[k]);
	printf("\n|---|");
	for (size_t k = 0; k < SB_ARRAY_SIZE(runs); k++)
		printf("---|");
	printf("\n");
	for (size_t s = 0; s < SB_ARRAY_SIZE(shifts); s++) {
		printf("| %g (%g%%) |", shifts[s], 100 * shifts[s] * CV);
		for (size_t k = 0; k < SB_ARRAY_SIZE(runs); k++)
			printf(" %.1f%% |", found(&r, runs[k], shifts[s]));
		printf("\n");
	}
	printf("\n%d comparisons per cell, Gaussian noise, %g%% CV; shift 0: called changed at "
	       "all (false positives), else called worse\n",
	       TRIALS, 100 * CV);
	return 0;
}
