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
	a->judged.outliers = a->m.st.n >= SB_ANOMALY_MIN_OUTLIER_N;
	a->judged.changes = a->m.st.n >= CHANGES_MIN;
}

int rep_soak_verdict(const struct rep_doc *d, struct sb_soak_summary *sum)
{
	const struct sb_jv *v = d->soak_summary;
	struct sb_soak_result r;
	struct sb_error err;
	if (!v || (d->soak_summary_at != SIZE_MAX && d->soak_summary_at != d->iters.n) ||
	    sb_soak_read_summary(v, &r, &err) < 0)
		return -ENOENT;
	*sum = r.sum;
	sb_soak_result_free(&r);
	return sum->iterations != d->iters.n ? -ENOENT : 0;
}

/* The verdict written, when it covers every iteration read. */
static int written(const struct rep_doc *d, int k, struct rep_anomalies *a)
{
	struct sb_soak_summary sum;
	if (rep_soak_verdict(d, &sum) < 0)
		return -ENOENT;
	a->written = 1;
	a->m = sum.m[k];
	judged(a);
	return 0;
}

/* The soak's own analysis (sb_soak_metric): an interrupted iteration
 * measured only part of the work; values not > 0 are no figure. */
static int analysed(const struct rep_iters *it, const double *v, struct rep_anomalies *a)
{
	double *y = malloc((it->n ? it->n : 1) * sizeof(*y));
	uint64_t *at = malloc((it->n ? it->n : 1) * sizeof(*at));
	int e = -ENOMEM;
	if (y && at) {
		for (size_t i = 0; i < it->n; i++) {
			y[i] = it->flags[i] & REP_IT_INTERRUPTED ? NAN : v[i];
			at[i] = (uint64_t)it->x[i];
		}
		e = sb_soak_metric(y, at, it->n, &a->m);
		judged(a);
	}
	free(y);
	free(at);
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
