/*
 * fio's steady state, as fio 3.33's steadystate.c: over the window of the
 * last n one-second figures, either the least squares slope
 * (sum_xy - sum_x * sum_y / n) / (sum_x2 - sum_x^2 / n), x = 0..n-1 oldest
 * first, or the largest distance of a figure from the window's mean; in
 * percent of that mean with a % limit. fio updates its sums as the window
 * rolls; the same sums computed afresh give the same figures.
 */
#include "lib/stats/fio_ss.h"

#include <math.h>

void sb_ss_evaluate(const uint64_t *y, unsigned n, unsigned flags, double limit,
		    struct sb_ss_eval *out)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	/* fio's sums are integers: sum_x, sum_x_sq, sum_y, sum_xy */
	const double sum_x = (double)n * (n - 1) / 2;
	const double sum_x_sq = (double)(n - 1) * n * (2.0 * n - 1) / 6;
	uint64_t sum_y = 0, sum_xy = 0;
	for (unsigned i = 0; i < n; i++) {
		sum_y += y[i];
		sum_xy += (uint64_t)i * y[i];
	}
	out->mean = (double)sum_y / n;
	if (flags & SB_SS_SLOPE) {
		const double den = sum_x_sq - sum_x * sum_x / n;
		/* one interval: no slope (fio divides by 0 there) */
		out->slope = den > 0 ? ((double)sum_xy - sum_x * (double)sum_y / n) / den : 0;
		out->criterion = out->slope;
	} else {
		for (unsigned i = 0; i < n; i++)
			out->deviation = SB_MAX(out->deviation, fabs((double)y[i] - out->mean));
		out->criterion = out->deviation;
	}
	if (flags & SB_SS_PCT) {
		/* fio's slope is in percent of the integer mean (sum_y / n in
		 * integers), the deviation of the mean itself; a mean of 0 has
		 * no percent, never attained (fio's NaN or infinity) */
		const double m = flags & SB_SS_SLOPE ? (double)(sum_y / n) : out->mean;
		out->criterion = m > 0 ? 100.0 * out->criterion / m : NAN;
	}
	out->attained = !isnan(out->criterion) && fabs(out->criterion) < limit;
}

int sb_ss_init(struct sb_ss *s, unsigned flags, double limit, unsigned n)
{
	memset(s, 0, sizeof(*s));
	if (!n)
		return -EINVAL;
	s->flags = flags;
	s->limit = limit;
	s->n = n;
	s->iops = calloc(n, sizeof(*s->iops));
	s->bw = calloc(n, sizeof(*s->bw));
	if (!s->iops || !s->bw) {
		sb_ss_free(s);
		return -ENOMEM;
	}
	return 0;
}

void sb_ss_free(struct sb_ss *s)
{
	free(s->iops);
	free(s->bw);
	s->iops = s->bw = NULL;
}

void sb_ss_window(const struct sb_ss *s, uint64_t *iops, uint64_t *bw)
{
	const uint64_t first = s->count > s->n ? s->count - s->n : 0;
	for (unsigned i = 0; i < s->n; i++) {
		const uint64_t k = first + i;
		iops[i] = k < s->count ? s->iops[k % s->n] : 0;
		bw[i] = k < s->count ? s->bw[k % s->n] : 0;
	}
}

int sb_ss_add(struct sb_ss *s, uint64_t iops, uint64_t bw)
{
	if (s->attained || !s->n)
		return s->attained;
	s->iops[s->count % s->n] = iops;
	s->bw[s->count % s->n] = bw;
	s->count++;
	if (s->count < s->n)
		return 0;
	uint64_t *a = malloc(2 * s->n * sizeof(*a));
	if (!a)
		return 0; /* judged at the next sample */
	sb_ss_window(s, a, a + s->n);
	sb_ss_evaluate(s->flags & SB_SS_IOPS ? a : a + s->n, s->n, s->flags, s->limit, &s->last);
	free(a);
	s->attained = s->last.attained;
	return s->attained;
}

uint64_t sb_ss_sample(uint64_t delta, uint64_t elapsed_ms, uint64_t interval_ms)
{
	const uint64_t div = interval_ms * interval_ms / 1000;
	return div ? elapsed_ms * delta / div : delta;
}
