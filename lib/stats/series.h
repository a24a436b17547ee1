/* Time series of per-interval figures, one growable array per worker,
 * merged by interval index after the run. */
#ifndef SB_SERIES_H
#define SB_SERIES_H

#include "lib/sb.h"

struct sb_interval {
	uint64_t t_ns; /* end of the interval, from the start of measurement */
	uint64_t bytes[SB_DDIR_N];
	uint64_t ios[SB_DDIR_N];
	double lat_mean_ns[SB_DDIR_N];	/* mean total latency */
	uint64_t lat_p99_ns[SB_DDIR_N]; /* merged across workers: the largest */
};

struct sb_series {
	struct sb_interval *v;
	size_t n, cap;
	uint64_t interval_ns;
};

void sb_series_init(struct sb_series *s, uint64_t interval_ns);
/* Append (copies iv); -ENOMEM on failure. */
int sb_series_add(struct sb_series *s, const struct sb_interval *iv);
/* dst gets src added interval by interval (sums of bytes and ios, weighted
 * mean latency, max of p99, the later end: one worker's partial last
 * interval merged with another's whole one spans the whole one); dst grows
 * as needed. */
int sb_series_merge(struct sb_series *dst, const struct sb_series *src);
void sb_series_free(struct sb_series *s);

/* One direction's rate per interval summarised as fio's bw_* and iops_*:
 * min, max, mean and sample standard deviation (fio's n - 1) in bytes/s or
 * I/Os per second, over whole intervals only. The last interval of a run is
 * usually a fraction of one; fio never samples it, and neither do we, so a
 * tail of a few microseconds cannot give a minimum of 0 nor a huge maximum.
 * A direction without any I/O in the series has no samples (all 0). */
struct sb_rate_stats {
	double min, max, mean, dev;
	uint64_t samples;
	double m2; /* sb_rate_sample's running sum of squared deviations (fio's S) */
};
void sb_series_rate_stats(const struct sb_series *s, int ddir, int iops, struct sb_rate_stats *out);
/* One sample x into s as fio's add_stat_sample takes it (a running mean
 * and sum of squared deviations, Welford's); dev kept up to date. */
void sb_rate_sample(struct sb_rate_stats *s, double x);

#endif
