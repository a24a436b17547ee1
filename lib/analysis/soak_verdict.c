/*
 * The soak's verdict: every iteration must verify without I/O or kernel
 * storage errors; outliers and throughput changes are anomalies, which
 * fail the soak only with --fail-on-anomaly.
 */
#include "lib/analysis/soak_verdict.h"

#include <math.h>

int sb_soak_metric(const double *v, const uint64_t *iteration, size_t n, struct sb_soak_metric *m)
{
	struct sb_anomalies an;
	size_t k = 0;
	double *y = malloc((n ? n : 1) * sizeof(*y));
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	int e = -ENOMEM;

	memset(m, 0, sizeof(*m));
	if (!y || !idx)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0) || !isfinite(v[i]))
			continue;
		idx[k] = i;
		y[k++] = v[i];
	}
	if ((e = sb_stability(y, k, &m->st)) < 0 || (e = sb_series_anomalies(y, k, &an)) < 0)
		goto out;
	for (size_t i = 0; i < an.noutliers; i++)
		m->outliers[i] = iteration[idx[an.outliers[i]]];
	m->noutliers = an.noutliers;
	m->outliers_total = an.outliers_total;
	for (size_t c = 0; c < an.nchanges; c++) {
		m->changes[c].at = iteration[idx[an.changes[c].at]];
		m->changes[c].before = an.changes[c].before;
		m->changes[c].after = an.changes[c].after;
	}
	m->nchanges = an.nchanges;
out:
	free(y);
	free(idx);
	return e;
}

static int metric(const struct sb_soak_iter *it, size_t n, int which, struct sb_soak_metric *m)
{
	double *v = malloc((n ? n : 1) * sizeof(*v));
	uint64_t *at = malloc((n ? n : 1) * sizeof(*at));
	int e = -ENOMEM;
	if (v && at) {
		for (size_t i = 0; i < n; i++) {
			v[i] = it[i].interrupted ? NAN : which ? it[i].read_bw : it[i].write_bw;
			at[i] = it[i].n;
		}
		e = sb_soak_metric(v, at, n, m);
	}
	m->name = which ? "read_bw" : "write_bw";
	free(v);
	free(at);
	return e;
}

int sb_soak_summarize(const struct sb_soak_iter *it, size_t n, int fail_on_anomaly,
		      struct sb_soak_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->iterations = n;
	for (size_t i = 0; i < n; i++) {
		out->verify_bad += sb_soak_iter_bad(&it[i]);
		out->io_errors += it[i].io_errors;
		out->kmsg_lines += it[i].nkmsg + it[i].kmsg_omitted;
		out->failed += sb_soak_iter_failed(&it[i]);
	}
	for (int k = 0; k < 2; k++) {
		int e = metric(it, n, k, &out->m[k]);
		if (e < 0)
			return e;
		out->anomalies += (int)(out->m[k].outliers_total + out->m[k].nchanges);
	}
	out->pass = !out->failed && (!fail_on_anomaly || !out->anomalies);
	return 0;
}

void sb_soak_abort(struct sb_soak_summary *sum, const char *reason)
{
	sum->aborted = 1;
	sum->pass = 0;
	snprintf(sum->reason, sizeof(sum->reason), "%s", reason && *reason ? reason : "unknown");
}
