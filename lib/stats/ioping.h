/*
 * Statistics of a latency probe, as ioping defines them (ioping.c:
 * add_statistics, finish_statistics). Over the valid requests (the warm-up
 * ones excluded):
 *
 *   min, max
 *   avg   = sum t / n
 *   mdev  = sqrt(sum t^2 / n - avg^2)   (population standard deviation)
 *   iops  = n / sum t                   (time spent in requests, not wall time)
 *   speed = iops * request size
 *
 * and the load actually generated, over every request (warm-up included):
 * load iops = count / wall time, load speed = load iops * request size.
 *
 * Percentiles are ours (ioping has none): the nearest-rank sample, rank
 * ceil(pct/100 * n) as sb_hist_rank defines it, exact while the samples fit
 * in SB_IOPING_MAX_SAMPLES, from the histogram (1% error) beyond.
 */
#ifndef SB_IOPING_H
#define SB_IOPING_H

#include "lib/sb.h"
#include "lib/stats/hist.h"

#define SB_IOPING_MAX_SAMPLES (1u << 21) /* 16 MiB of samples */

struct sb_ioping {
	uint64_t count;	     /* every request, warm-up included */
	uint64_t valid;	     /* requests in the statistics */
	uint64_t sum_ns;     /* sum of the valid request times */
	uint64_t wall_ns;    /* load time, set by sb_ioping_set_wall */
	uint32_t size;	     /* bytes per request */
	struct sb_hist hist; /* of the valid requests: min, max, moments */
	uint64_t *samples;   /* the valid request times, while they fit */
	size_t nsamples, cap;
	int samples_lost; /* out of memory or past the cap: hist only */
	int sorted;
};

void sb_ioping_init(struct sb_ioping *s, uint32_t size);
void sb_ioping_free(struct sb_ioping *s);
/* One request of ns nanoseconds; valid 0 for a warm-up request, counted
 * in the load only. Never fails: without memory for the sample, the
 * percentiles fall back to the histogram. */
void sb_ioping_add(struct sb_ioping *s, uint64_t ns, int valid);
/* Wall time from the first request's start to the end of the last. */
void sb_ioping_set_wall(struct sb_ioping *s, uint64_t wall_ns);

uint64_t sb_ioping_min(const struct sb_ioping *s);
uint64_t sb_ioping_max(const struct sb_ioping *s);
double sb_ioping_avg(const struct sb_ioping *s);
double sb_ioping_mdev(const struct sb_ioping *s);
double sb_ioping_iops(const struct sb_ioping *s);  /* 0 when nothing valid */
double sb_ioping_speed(const struct sb_ioping *s); /* bytes/s */
double sb_ioping_load_iops(const struct sb_ioping *s);
double sb_ioping_load_speed(const struct sb_ioping *s);
/* Nearest-rank percentile, pct in [0, 100]; 0 when nothing is valid.
 * Sorts the samples on first use after an add. */
uint64_t sb_ioping_percentile(struct sb_ioping *s, double pct);
/* 1 when the percentiles are exact (every sample kept). */
int sb_ioping_exact(const struct sb_ioping *s);

/* ioping's mark for a valid request of ns nanoseconds just added: once more
 * than 5 are valid and they differ, -1 ("fast") when it lies in the lowest
 * 5% of the [min, max] range so far, 1 ("slow") in the highest 5%, else 0. */
int sb_ioping_mark(const struct sb_ioping *s, uint64_t ns);

#endif
