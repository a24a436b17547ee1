/* Time series of per-interval figures: a growable array, merged by index. */
#include "lib/sb.h"
#include "lib/stats/series.h"

#include <math.h>

void sb_series_init(struct sb_series *s, uint64_t interval_ns)
{
	memset(s, 0, sizeof(*s));
	s->interval_ns = interval_ns;
}

/* Make room for n intervals; leaves s unchanged on failure. */
static int reserve(struct sb_series *s, size_t n)
{
	if (n <= s->cap)
		return 0;
	size_t cap = s->cap ? s->cap : 64;
	while (cap < n) {
		if (cap > SIZE_MAX / 2 / sizeof(*s->v))
			return -ENOMEM;
		cap *= 2;
	}
	struct sb_interval *v = realloc(s->v, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->v = v;
	s->cap = cap;
	return 0;
}

int sb_series_add(struct sb_series *s, const struct sb_interval *iv)
{
	int ret = reserve(s, s->n + 1);
	if (ret < 0)
		return ret;
	s->v[s->n++] = *iv;
	return 0;
}

/* Mean of two means weighted by their counts; 0 when both counts are 0. */
static double weighted_mean(double a, uint64_t na, double b, uint64_t nb)
{
	uint64_t n = na + nb;
	if (n == 0)
		return 0;
	return (a * (double)na + b * (double)nb) / (double)n;
}

static void merge_interval(struct sb_interval *dst, const struct sb_interval *src)
{
	/* the workers' boundaries agree but for their last, partial interval */
	dst->t_ns = SB_MAX(dst->t_ns, src->t_ns);
	for (int d = 0; d < SB_DDIR_N; d++) {
		dst->lat_mean_ns[d] = weighted_mean(dst->lat_mean_ns[d], dst->ios[d],
						    src->lat_mean_ns[d], src->ios[d]);
		dst->bytes[d] += src->bytes[d];
		dst->ios[d] += src->ios[d];
		dst->lat_p99_ns[d] = SB_MAX(dst->lat_p99_ns[d], src->lat_p99_ns[d]);
	}
}

int sb_series_merge(struct sb_series *dst, const struct sb_series *src)
{
	/* src's count is read before dst changes: merging a series into itself works */
	size_t n = src->n;
	size_t common = SB_MIN(dst->n, n);
	int ret = reserve(dst, n);
	if (ret < 0)
		return ret;
	if (dst->interval_ns == 0)
		dst->interval_ns = src->interval_ns;
	for (size_t i = 0; i < common; i++)
		merge_interval(&dst->v[i], &src->v[i]);
	for (size_t i = common; i < n; i++)
		dst->v[i] = src->v[i];
	if (n > dst->n)
		dst->n = n;
	return 0;
}

void sb_series_free(struct sb_series *s)
{
	if (!s)
		return;
	free(s->v);
	s->v = NULL;
	s->n = 0;
	s->cap = 0;
}

/* Interval i's rate in *x when it is a whole interval: it lasts its nominal
 * length, less a slack of a thousandth (fio's 1 ms at its usual interval).
 * Without a nominal length every interval is whole. */
static int whole_rate(const struct sb_series *s, size_t i, int ddir, int iops, double *x)
{
	const struct sb_interval *iv = &s->v[i];
	const uint64_t prev = i ? s->v[i - 1].t_ns : 0;
	const uint64_t len = iv->t_ns > prev ? iv->t_ns - prev : 0;
	if (!len || len + s->interval_ns / 1000 < s->interval_ns)
		return 0;
	*x = (double)(iops ? iv->ios[ddir] : iv->bytes[ddir]) * 1e9 / (double)len;
	return 1;
}

void sb_series_rate_stats(const struct sb_series *s, int ddir, int iops, struct sb_rate_stats *out)
{
	double x, sum = 0, sumsq = 0;
	uint64_t any = 0;
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < s->n; i++)
		any |= s->v[i].ios[ddir];
	if (!any) /* as fio: a direction without I/O has no samples */
		return;
	for (size_t i = 0; i < s->n; i++) {
		if (!whole_rate(s, i, ddir, iops, &x))
			continue;
		if (!out->samples || x < out->min)
			out->min = x;
		if (!out->samples || x > out->max)
			out->max = x;
		sum += x;
		out->samples++;
	}
	if (!out->samples)
		return;
	out->mean = sum / (double)out->samples;
	/* squares of the deviations in a second pass: no cancellation */
	for (size_t i = 0; i < s->n; i++)
		if (whole_rate(s, i, ddir, iops, &x))
			sumsq += (x - out->mean) * (x - out->mean);
	if (out->samples > 1)
		out->dev = sqrt(sumsq / (double)(out->samples - 1));
}

void sb_rate_sample(struct sb_rate_stats *s, double x)
{
	if (!s->samples || x < s->min)
		s->min = x;
	if (!s->samples || x > s->max)
		s->max = x;
	const double delta = x - s->mean;
	s->mean += delta / ((double)s->samples + 1.0);
	s->m2 += delta * (x - s->mean);
	s->samples++;
	s->dev = s->samples > 1 ? sqrt(s->m2 / (double)(s->samples - 1)) : 0;
}
