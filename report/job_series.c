/*
 * A job's intervals (storbench.series) as the charts draw them: one array
 * per figure, grown as the intervals are read, so a day of per-second
 * intervals costs the doubles drawn and nothing of the JSON they came in.
 */
#include "report/report.h"

#include <math.h>

int rep_interval_kept(const struct sb_interval_doc *iv, size_t i, size_t n, double interval_s,
		      double *t1, double *len)
{
	*t1 = iv->t_ns / 1e9;
	*len = iv->len_ns / 1e9;
	if (!isfinite(*t1) || !(*len > 0))
		return 0;
	/* the stop leaves a last sliver of an interval: its rate means nothing */
	return !(n && i == n - 1 && i > 0 && interval_s > 0 && *len < interval_s / 4);
}

static int grow(double **p, size_t cap)
{
	double *v = realloc(*p, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	*p = v;
	return 0;
}

static int room(struct rep_series *s)
{
	if (s->n < s->cap)
		return 0;
	size_t cap = s->cap ? s->cap * 2 : 256;
	if (grow(&s->t, cap) < 0)
		return -ENOMEM;
	for (int d = 0; d < SB_DDIR_N; d++)
		if (s->bw[d] && (grow(&s->bw[d], cap) < 0 || grow(&s->iops[d], cap) < 0))
			return -ENOMEM;
	s->cap = cap;
	return 0;
}

/* The arrays of direction d, from the first interval that has it: 0 before. */
static int open_dir(struct rep_series *s, int d)
{
	if (s->bw[d])
		return 0;
	s->bw[d] = calloc(s->cap, sizeof(double));
	s->iops[d] = calloc(s->cap, sizeof(double));
	return s->bw[d] && s->iops[d] ? 0 : -ENOMEM;
}

int rep_series_add(struct rep_series *s, const struct sb_interval_doc *iv)
{
	double t1, len;
	s->nraw++;
	s->last_kept = 0;
	if (!rep_interval_kept(iv, 0, 0, 0, &t1, &len))
		return 0;
	if (room(s) < 0)
		return -ENOMEM;
	size_t i = s->n;
	s->t[i] = t1;
	for (int d = 0; d < SB_DDIR_N; d++) {
		if (iv->has[d] && open_dir(s, d) < 0)
			return -ENOMEM;
		if (!s->bw[d])
			continue;
		s->bw[d][i] = iv->has[d] ? iv->bw[d] : 0;
		s->iops[d][i] = iv->has[d] ? iv->iops[d] : 0;
	}
	s->n++;
	s->last_kept = 1;
	s->last_len = len;
	return 0;
}

void rep_series_end(struct rep_series *s, double interval_s)
{
	if (s->last_kept && s->nraw > 1 && interval_s > 0 && s->last_len < interval_s / 4)
		s->n--;
}

void rep_series_free(struct rep_series *s)
{
	free(s->t);
	for (int d = 0; d < SB_DDIR_N; d++) {
		free(s->bw[d]);
		free(s->iops[d]);
	}
	memset(s, 0, sizeof(*s));
}
