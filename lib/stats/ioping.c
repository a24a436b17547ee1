/* Latency probe statistics with ioping's definitions (see ioping.h). */
#include "lib/stats/ioping.h"

#include <math.h>

void sb_ioping_init(struct sb_ioping *s, uint32_t size)
{
	memset(s, 0, sizeof(*s));
	s->size = size;
	sb_hist_init(&s->hist);
}

void sb_ioping_free(struct sb_ioping *s)
{
	if (!s)
		return;
	free(s->samples);
	s->samples = NULL;
	s->nsamples = s->cap = 0;
}

static void keep_sample(struct sb_ioping *s, uint64_t ns)
{
	if (s->samples_lost)
		return;
	if (s->nsamples == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		uint64_t *v = cap <= SB_IOPING_MAX_SAMPLES ? realloc(s->samples, cap * sizeof(*v))
							   : NULL;
		if (!v) {
			/* the histogram still has every sample, within 1% */
			free(s->samples);
			s->samples = NULL;
			s->nsamples = s->cap = 0;
			s->samples_lost = 1;
			return;
		}
		s->samples = v;
		s->cap = cap;
	}
	s->samples[s->nsamples++] = ns;
	s->sorted = 0;
}

void sb_ioping_add(struct sb_ioping *s, uint64_t ns, int valid)
{
	s->count++;
	if (!valid)
		return;
	s->valid++;
	s->sum_ns += ns;
	sb_hist_add(&s->hist, ns);
	keep_sample(s, ns);
}

void sb_ioping_set_wall(struct sb_ioping *s, uint64_t wall_ns)
{
	s->wall_ns = wall_ns;
}

uint64_t sb_ioping_min(const struct sb_ioping *s)
{
	return s->valid ? s->hist.min : 0;
}

uint64_t sb_ioping_max(const struct sb_ioping *s)
{
	return s->valid ? s->hist.max : 0;
}

double sb_ioping_avg(const struct sb_ioping *s)
{
	return s->valid ? (double)s->sum_ns / (double)s->valid : 0;
}

double sb_ioping_mdev(const struct sb_ioping *s)
{
	if (s->valid < 2)
		return 0;
	/* sum t^2/n - avg^2 on values shifted by the first one: the same
	 * quantity as ioping's, without its cancellation on large times */
	const double n = (double)s->valid, m = s->hist.sum / n;
	const double var = s->hist.sumsq / n - m * m;
	return var > 0 ? sqrt(var) : 0;
}

double sb_ioping_iops(const struct sb_ioping *s)
{
	return s->sum_ns ? 1e9 * (double)s->valid / (double)s->sum_ns : 0;
}

double sb_ioping_speed(const struct sb_ioping *s)
{
	return sb_ioping_iops(s) * s->size;
}

double sb_ioping_load_iops(const struct sb_ioping *s)
{
	return s->wall_ns ? 1e9 * (double)s->count / (double)s->wall_ns : 0;
}

double sb_ioping_load_speed(const struct sb_ioping *s)
{
	return sb_ioping_load_iops(s) * s->size;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int sb_ioping_exact(const struct sb_ioping *s)
{
	return !s->samples_lost;
}

uint64_t sb_ioping_percentile(struct sb_ioping *s, double pct)
{
	if (!s->valid)
		return 0;
	if (s->samples_lost)
		return sb_hist_percentile(&s->hist, pct);
	if (!s->sorted) {
		qsort(s->samples, s->nsamples, sizeof(*s->samples), cmp_u64);
		s->sorted = 1;
	}
	return s->samples[sb_hist_rank(s->nsamples, pct) - 1];
}

int sb_ioping_mark(const struct sb_ioping *s, uint64_t ns)
{
	const uint64_t lo = s->hist.min, hi = s->hist.max;
	if (s->valid <= 5 || lo >= hi || ns < lo || ns > hi)
		return 0;
	const uint64_t pct = (ns - lo) * 100 / (hi - lo);
	return pct < 5 ? -1 : pct > 95 ? 1 : 0;
}
