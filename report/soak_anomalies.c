/*
 * The anomalies of a soak's throughput as every renderer shows them: the
 * verdict the soak wrote when it covers the iterations read, or the same
 * analysis the soak makes (lib/analysis) when it does not (a killed soak,
 * a resumed one killed after more iterations). With too few iterations to
 * look for outliers or change points, the report says so instead of
 * telling none were found.
 */
#include "report/report.h"

#include <math.h>

#define CHANGES_MIN (2 * SB_ANOMALY_MIN_SEGMENT) /* a level on each side */

static void judged(struct rep_anomalies *a)
{
	a->outliers_judged = a->n >= SB_ANOMALY_MIN_OUTLIER_N;
	a->changes_judged = a->n >= CHANGES_MIN;
}

int rep_soak_verdict(const struct rep_doc *d, struct sb_soak_summary *sum)
{
	const struct sb_jv *v = d->soak_summary;
	if (!v || (d->soak_summary_at != SIZE_MAX && d->soak_summary_at != d->iters.n) ||
	    sb_soak_summary_from_json(v, sum) < 0 || sum->iterations != d->iters.n)
		return -ENOENT;
	return 0;
}

/* The verdict written, when it covers every iteration read. */
static int written(const struct rep_doc *d, int k, struct rep_anomalies *a)
{
	static const char *const names[2] = { "write_bw", "read_bw" };
	struct sb_soak_summary sum;
	const struct sb_jv *v = d->soak_summary;
	if (rep_soak_verdict(d, &sum) < 0)
		return -ENOENT;
	const struct sb_soak_metric *m = &sum.m[k];
	const struct sb_jv *st = sb_jv_get(sb_jv_get(v, "stability"), names[k]);
	a->written = 1;
	a->st = m->st;
	a->n = m->st.n;
	a->noutliers = SB_MIN(m->noutliers, SB_ARRAY_SIZE(a->outliers));
	memcpy(a->outliers, m->outliers, a->noutliers * sizeof(a->outliers[0]));
	/* a summary written before the total was told has only the list */
	a->outliers_total = (size_t)sb_jv_num(sb_jv_get(st, "outliers_total"),
					      (double)m->noutliers);
	if (a->outliers_total < a->noutliers)
		a->outliers_total = a->noutliers;
	a->nchanges = SB_MIN(m->nchanges, SB_ARRAY_SIZE(a->changes));
	for (size_t c = 0; c < a->nchanges; c++) {
		a->changes[c].at = m->changes[c].at;
		a->changes[c].before = m->changes[c].before;
		a->changes[c].after = m->changes[c].after;
		a->changes[c].step = m->changes[c].before != 0
					     ? (m->changes[c].after - m->changes[c].before) /
						       m->changes[c].before
					     : 0;
	}
	judged(a);
	return 0;
}

/* The soak's own analysis (sb_soak_metric's rule): an interrupted
 * iteration measured only part of the work; values not > 0 are no figure. */
static int analysed(const struct rep_iters *it, const double *v, struct rep_anomalies *a)
{
	struct sb_anomalies an;
	double *y = malloc((it->n ? it->n : 1) * sizeof(*y));
	size_t *idx = malloc((it->n ? it->n : 1) * sizeof(*idx));
	int e = -ENOMEM;
	if (!y || !idx)
		goto out;
	for (size_t i = 0; i < it->n; i++) {
		if ((it->flags[i] & REP_IT_INTERRUPTED) || !(v[i] > 0))
			continue;
		idx[a->n] = i;
		y[a->n++] = v[i];
	}
	judged(a);
	if (a->n && (e = sb_stability(y, a->n, &a->st)) < 0)
		goto out;
	if ((e = sb_series_anomalies(y, a->n, &an)) < 0)
		goto out;
	a->noutliers = SB_MIN(an.noutliers, SB_ARRAY_SIZE(a->outliers));
	/* sb_anomalies lists at most SB_ANOMALY_MAX_OUTLIERS; it counts all */
	a->outliers_total = SB_MAX(an.outliers_total, an.noutliers);
	for (size_t o = 0; o < a->noutliers; o++)
		a->outliers[o] = (uint64_t)it->x[idx[an.outliers[o]]];
	a->nchanges = SB_MIN(an.nchanges, SB_ARRAY_SIZE(a->changes));
	for (size_t c = 0; c < a->nchanges; c++) {
		a->changes[c].at = (uint64_t)it->x[idx[an.changes[c].at]];
		a->changes[c].before = an.changes[c].before;
		a->changes[c].after = an.changes[c].after;
		a->changes[c].step = an.changes[c].step;
	}
out:
	free(y);
	free(idx);
	return e;
}

int rep_soak_anomalies(const struct rep_doc *d, int k, struct rep_anomalies *out)
{
	memset(out, 0, sizeof(*out));
	if (written(d, k, out) == 0)
		return 0;
	memset(out, 0, sizeof(*out));
	int e = analysed(&d->iters, d->iters.bw[k], out);
	if (e < 0)
		memset(out, 0, sizeof(*out));
	return e;
}

int rep_cell_anomalies(const struct rep_doc *d, size_t j, struct rep_anomalies *out)
{
	memset(out, 0, sizeof(*out));
	int e = analysed(&d->iters, d->iters.cs[j].v, out);
	if (e < 0)
		memset(out, 0, sizeof(*out));
	return e;
}
