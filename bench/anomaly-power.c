/*
 * What the soak anomaly detector (sb_series_anomalies) sees, measured on
 * synthetic series with a known truth: v = 100 x (1 + CV x z), z standard
 * normal (xoshiro256** and Box-Muller, fixed seeds), plus what is put in.
 * Built and run by bench/anomaly-power; docs/methodology.md quotes it.
 *
 *   false   stationary noise: share of values flagged, series with any
 *           outlier, series with any change point
 *   steps   the smallest step (at the middle of the series) found with a
 *           change point within 5 iterations in >= 90% of the series
 *   dips    the smallest single-iteration dip (at the middle) flagged in
 *           >= 90% of the series, in noise sigmas and in percent
 *   drift   a linear drift over the whole series: outliers, change points
 *   issue   the issue's cases: 2000 iterations, 2% CV; ten 8-sigma dips;
 *           a 10% step
 *   time    run time on 100,000 values
 */
#include "lib/sb.h"
#include "lib/base/rng.h"
#include "lib/analysis/anomalies.h"

#include <math.h>

static int trials = 200;

static double gauss(struct sb_rng *r)
{
	double u = sb_rng_double(r) + 1e-300, v = sb_rng_double(r);
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static void noise(double *v, size_t n, double cv, uint64_t seed)
{
	struct sb_rng r;
	sb_rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++)
		v[i] = 100 * (1 + cv * gauss(&r));
}

static void run(const double *v, size_t n, struct sb_anomalies *a)
{
	if (sb_series_anomalies(v, n, a) < 0) {
		fprintf(stderr, "anomaly-power: out of memory\n");
		exit(1);
	}
}

static int found_change(const struct sb_anomalies *a, size_t at)
{
	for (size_t c = 0; c < a->nchanges; c++)
		if (a->changes[c].at + 5 >= at && a->changes[c].at <= at + 5)
			return 1;
	return 0;
}

static int flagged(const struct sb_anomalies *a, size_t at)
{
	for (size_t o = 0; o < a->noutliers; o++)
		if (a->outliers[o] == at)
			return 1;
	return 0;
}

static const size_t lengths[] = { 100, 1000, 10000 };
static const double cvs[] = { 0.01, 0.02, 0.05, 0.10 };

static void false_alarms(void)
{
	static const size_t ns[] = { 20, 100, 1000, 2000, 10000, 100000 };
	static const double cv[] = { 0.02, 0.10 };
	printf("stationary noise, %d series each (%d of 100,000)\n", trials, (trials + 3) / 4);
	printf("%8s %5s %10s %18s %17s %9s\n", "n", "CV", "flagged", "series w/ outlier",
	       "series w/ change", "threshold");
	for (size_t c = 0; c < SB_ARRAY_SIZE(cv); c++)
		for (size_t k = 0; k < SB_ARRAY_SIZE(ns); k++) {
			size_t n = ns[k], flags = 0, any = 0, changes = 0;
			int t = n >= 100000 ? (trials + 3) / 4 : trials;
			double *v = malloc(n * sizeof(*v)), thr = 0;
			struct sb_anomalies a;
			for (int s = 0; s < t; s++) {
				noise(v, n, cv[c], 1000 + (uint64_t)s);
				run(v, n, &a);
				flags += a.outliers_total;
				any += a.outliers_total > 0;
				changes += a.nchanges > 0;
				thr = a.threshold;
			}
			printf("%8zu %4.0f%% %9.4f%% %17.1f%% %16.1f%% %9.2f\n", n, 100 * cv[c],
			       100.0 * (double)flags / (double)(n * (size_t)t),
			       100.0 * (double)any / t, 100.0 * (double)changes / t, thr);
			free(v);
		}
}

/* Share of series where a step of `step` (relative) at the middle is found. */
static double step_power(size_t n, double cv, double step)
{
	double *v = malloc(n * sizeof(*v));
	struct sb_anomalies a;
	int hit = 0;
	for (int s = 0; s < trials; s++) {
		noise(v, n, cv, 5000 + (uint64_t)s);
		for (size_t i = n / 2; i < n; i++)
			v[i] *= 1 - step;
		run(v, n, &a);
		hit += found_change(&a, n / 2);
	}
	free(v);
	return (double)hit / trials;
}

static void steps(void)
{
	printf("\nsmallest fall (step at the middle) found within 5 iterations in >= 90%% of %d "
	       "series\n",
	       trials);
	printf("%8s", "CV \\ n");
	for (size_t k = 0; k < SB_ARRAY_SIZE(lengths); k++)
		printf(" %18zu", lengths[k]);
	printf("\n");
	for (size_t c = 0; c < SB_ARRAY_SIZE(cvs); c++) {
		printf("%7.0f%%", 100 * cvs[c]);
		for (size_t k = 0; k < SB_ARRAY_SIZE(lengths); k++) {
			/* steps of 0.5%, by bisection: power grows with the step */
			int lo = 0, hi = 120; /* 0% misses, 60% is found */
			double p = 1;
			while (hi - lo > 1) {
				int mid = (lo + hi) / 2;
				double q = step_power(lengths[k], cvs[c], 0.005 * mid);
				if (q >= 0.9)
					hi = mid, p = q;
				else
					lo = mid;
			}
			printf(" %9.1f%% (%3.0f%%)", 0.5 * hi, 100 * p);
		}
		printf("\n");
	}
}

static double dip_power(size_t n, double cv, double sigmas)
{
	double *v = malloc(n * sizeof(*v));
	struct sb_anomalies a;
	int hit = 0;
	for (int s = 0; s < trials; s++) {
		noise(v, n, cv, 9000 + (uint64_t)s);
		v[n / 2] = 100 * (1 - sigmas * cv);
		run(v, n, &a);
		hit += flagged(&a, n / 2);
	}
	free(v);
	return (double)hit / trials;
}

static void dips(void)
{
	printf("\nsmallest single-iteration dip (at the middle) flagged in >= 90%% of %d series: "
	       "sigmas, and %% of the level\n",
	       trials);
	printf("%8s", "CV \\ n");
	for (size_t k = 0; k < SB_ARRAY_SIZE(lengths); k++)
		printf(" %18zu", lengths[k]);
	printf("\n");
	for (size_t c = 0; c < SB_ARRAY_SIZE(cvs); c++) {
		printf("%7.0f%%", 100 * cvs[c]);
		for (size_t k = 0; k < SB_ARRAY_SIZE(lengths); k++) {
			/* quarter sigmas, by bisection */
			int lo = 4, hi = 64; /* 1 sigma is missed, 16 flagged */
			while (hi - lo > 1) {
				int mid = (lo + hi) / 2;
				if (dip_power(lengths[k], cvs[c], mid / 4.0) >= 0.9)
					hi = mid;
				else
					lo = mid;
			}
			double d = hi / 4.0;
			printf("   %5.2f s = %5.1f%%", d, 100 * d * cvs[c]);
		}
		printf("\n");
	}
}

static void drift(void)
{
	static const double total[] = { 0.1, 0.2, 0.5 };
	printf("\nlinear drift (a fall of D over the series), 2%% CV, %d series: mean outliers, "
	       "mean change points\n",
	       trials);
	for (size_t k = 0; k < SB_ARRAY_SIZE(lengths); k++)
		for (size_t d = 0; d < SB_ARRAY_SIZE(total); d++) {
			size_t n = lengths[k], out = 0, cps = 0;
			double *v = malloc(n * sizeof(*v));
			struct sb_anomalies a;
			for (int s = 0; s < trials; s++) {
				noise(v, n, 0.02, 13000 + (uint64_t)s);
				for (size_t i = 0; i < n; i++)
					v[i] *= 1 - total[d] * (double)i / (double)n;
				run(v, n, &a);
				out += a.outliers_total;
				cps += a.nchanges;
			}
			printf("  n %6zu  D %3.0f%%: %5.2f outliers, %5.2f change points\n", n,
			       100 * total[d], (double)out / trials, (double)cps / trials);
			free(v);
		}
}

static void issue(void)
{
	const size_t n = 2000;
	double v[2000];
	struct sb_anomalies a;
	size_t flags = 0, cps = 0, dips = 0, steps_ok = 0, step_cps = 0;
	const int seeds = 100;
	for (int s = 0; s < seeds; s++) {
		noise(v, n, 0.02, 20000 + (uint64_t)s);
		run(v, n, &a);
		flags += a.outliers_total;
		cps += a.nchanges;
		for (size_t d = 0; d < 10; d++)
			v[100 + 180 * d] = 100 * (1 - 8 * 0.02);
		run(v, n, &a);
		for (size_t d = 0; d < 10; d++)
			dips += flagged(&a, 100 + 180 * d);
		noise(v, n, 0.02, 20000 + (uint64_t)s);
		for (size_t i = 1234; i < n; i++)
			v[i] *= 0.9;
		run(v, n, &a);
		steps_ok += a.nchanges == 1 && found_change(&a, 1234);
		step_cps += a.nchanges;
	}
	printf("\nthe issue's cases, 2000 iterations, 2%% CV, %d seeds\n", seeds);
	printf("  stationary: %.3f%% of values flagged, %zu change points in all\n",
	       100.0 * (double)flags / (double)(n * seeds), cps);
	printf("  ten 8-sigma dips: %zu of %d flagged\n", dips, 10 * seeds);
	printf("  a 10%% fall at 1234: exactly one change point within 5 in %zu of %d (%zu change "
	       "points in all)\n",
	       steps_ok, seeds, step_cps);
}

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void timing(void)
{
	const size_t n = 100000;
	double *v = malloc(n * sizeof(*v));
	struct sb_anomalies a;
	printf("\nrun time on %zu values (best of 5)\n", n);
	for (int kind = 0; kind < 2; kind++) {
		noise(v, n, 0.02, 42);
		if (kind)
			for (size_t i = 0; i < n; i++) {
				v[i] *= i < 30000 ? 1 : i < 30100 ? 0.5 : i < 70000 ? 0.9 : 0.7;
				if (i % 997 == 0)
					v[i] *= 0.6;
			}
		double best = INFINITY;
		for (int t = 0; t < 5; t++) {
			double t0 = seconds();
			run(v, n, &a);
			best = SB_MIN(best, seconds() - t0);
		}
		printf("  %s: %.1f ms (%zu outliers, %zu change points)\n",
		       kind ? "3 changes and 101 dips" : "stationary", 1e3 * best, a.outliers_total,
		       a.nchanges);
	}
	free(v);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} parts[] = { { "issue", issue }, { "false", false_alarms }, { "steps", steps },
		      { "dips", dips },	  { "drift", drift },	     { "time", timing } };
	int any = 0;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--trials=", 9)) {
			trials = atoi(argv[i] + 9);
			if (trials < 1) {
				fprintf(stderr, "anomaly-power: --trials: '%s' is not a count\n",
					argv[i] + 9);
				return 2;
			}
			continue;
		}
		size_t k = 0;
		while (k < SB_ARRAY_SIZE(parts) && strcmp(argv[i], parts[k].name))
			k++;
		if (k == SB_ARRAY_SIZE(parts)) {
			fprintf(stderr,
				"anomaly-power: '%s' is not a part (issue, false, steps, dips, "
				"drift, time)\n",
				argv[i]);
			return 2;
		}
		parts[k].fn();
		any = 1;
	}
	for (size_t k = 0; !any && k < SB_ARRAY_SIZE(parts); k++)
		parts[k].fn();
	return 0;
}
