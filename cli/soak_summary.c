/*
 * The soak's verdict and its anomalies: per-metric stability (median, p5,
 * p95, coefficient of variation), outliers against a rolling median (in
 * units of MAD), and change points of the throughput series (PELT with a
 * minimum 10% step), told as "write throughput fell from X to Y at
 * iteration N".
 */
#include "cli/soak.h"

#include <math.h>

#define MIN_STEP 0.10	  /* a change point must move the level by 10% */
#define MIN_SEGMENT 5	  /* iterations on each side of a change */
#define SMOOTH 5	  /* running median before change detection: one bad
			   * iteration is an outlier, not a new level */

/* Running median of width w (shrinking at the ends). */
static void running_median(const double *y, size_t n, size_t w, double *out)
{
	for (size_t i = 0; i < n; i++) {
		size_t lo = i >= w / 2 ? i - w / 2 : 0, hi = SB_MIN(n, i + w / 2 + 1);
		out[i] = sb_median(y + lo, hi - lo);
	}
}

int soak_iter_failed(const struct soak_iter *it)
{
	uint64_t bad = 0;
	for (int c = 1; c < SB_VERIFY_NCLASS; c++)
		bad += it->count[c];
	return bad || it->io_errors || it->nkmsg || it->kmsg_omitted;
}

static void metric(const struct soak_state *s, int which, struct soak_metric_summary *m)
{
	size_t n = 0;
	double *y = calloc(s->nit ? s->nit : 1, sizeof(*y));
	size_t *idx = malloc((s->nit ? s->nit : 1) * sizeof(*idx));
	unsigned char *flags = malloc(s->nit ? s->nit : 1);
	memset(m, 0, sizeof(*m));
	m->name = which ? "read_bw" : "write_bw";
	if (!y || !idx || !flags)
		goto out;
	/* interrupted iterations measured only part of the work: left out */
	for (size_t i = 0; i < s->nit; i++) {
		double v = which ? s->it[i].read_bw : s->it[i].write_bw;
		if (s->it[i].interrupted || !(v > 0))
			continue;
		idx[n] = i;
		y[n++] = v;
	}
	sb_stability(y, n, &m->st);
	if (n >= 5 && sb_outliers(y, n, SB_OUTLIER_WINDOW, SB_OUTLIER_THRESHOLD, flags) > 0)
		for (size_t i = 0; i < n && m->noutliers < SB_ARRAY_SIZE(m->outliers); i++)
			if (flags[i])
				m->outliers[m->noutliers++] = s->it[idx[i]].n;
	size_t cps[8];
	double *sm = malloc((n ? n : 1) * sizeof(*sm));
	long k = 0;
	if (sm) {
		running_median(y, n, SMOOTH, sm);
		k = sb_changepoints(sm, n, MIN_SEGMENT, 0, cps, SB_ARRAY_SIZE(cps));
		if (k > 0)
			k = (long)sb_changepoints_filter(sm, n, cps, (size_t)k, MIN_STEP);
		free(sm);
	}
	for (long c = 0; c < k; c++) {
		size_t a = c ? cps[c - 1] : 0, b = (size_t)c + 1 < (size_t)k ? cps[c + 1] : n;
		m->changes[c].at = s->it[idx[cps[c]]].n;
		m->changes[c].before = sb_median(y + a, cps[c] - a);
		m->changes[c].after = sb_median(y + cps[c], b - cps[c]);
	}
	m->nchanges = k > 0 ? (size_t)k : 0;
out:
	free(y);
	free(idx);
	free(flags);
}

void soak_summarize(const struct soak_state *s, struct soak_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->iterations = s->nit;
	for (size_t i = 0; i < s->nit; i++) {
		const struct soak_iter *it = &s->it[i];
		for (int c = 1; c < SB_VERIFY_NCLASS; c++)
			out->verify_bad += it->count[c];
		out->io_errors += it->io_errors;
		out->kmsg_lines += it->nkmsg + it->kmsg_omitted;
		out->failed += soak_iter_failed(it);
	}
	metric(s, 0, &out->m[0]);
	metric(s, 1, &out->m[1]);
	for (int k = 0; k < 2; k++)
		out->anomalies += (int)(out->m[k].noutliers + out->m[k].nchanges);
	out->pass = !out->failed && (!s->o->fail_on_anomaly || !out->anomalies);
}

static void metric_text(FILE *f, const struct soak_metric_summary *m, const char *what)
{
	char a[32], b[32], c[32];
	if (!m->st.n)
		return;
	fprintf(f, "  %s: median %s, p5 %s, p95 %s, cv %.1f%%\n", what,
		sb_fmt_rate(m->st.median, a, sizeof(a)), sb_fmt_rate(m->st.p5, b, sizeof(b)),
		sb_fmt_rate(m->st.p95, c, sizeof(c)), m->st.cv * 100);
	for (size_t i = 0; i < m->nchanges; i++)
		fprintf(f, "    %s %s from %s to %s at iteration %zu\n", what,
			m->changes[i].after < m->changes[i].before ? "fell" : "rose",
			sb_fmt_rate(m->changes[i].before, a, sizeof(a)),
			sb_fmt_rate(m->changes[i].after, b, sizeof(b)), m->changes[i].at);
	if (m->noutliers) {
		fprintf(f, "    outliers at iteration%s", m->noutliers > 1 ? "s" : "");
		for (size_t i = 0; i < m->noutliers; i++)
			fprintf(f, "%s %zu", i ? "," : "", m->outliers[i]);
		fputc('\n', f);
	}
}

void soak_summary_text(FILE *f, const struct soak_state *s, const struct soak_summary *sum)
{
	fprintf(f, "\nsoak: %zu iteration%s, %zu failed: %s\n", sum->iterations,
		sum->iterations == 1 ? "" : "s", sum->failed, sum->pass ? "PASS" : "FAIL");
	if (sum->verify_bad)
		fprintf(f, "  %llu blocks did not verify\n", (unsigned long long)sum->verify_bad);
	if (sum->io_errors)
		fprintf(f, "  %llu I/O errors\n", (unsigned long long)sum->io_errors);
	if (sum->kmsg_lines)
		fprintf(f, "  %llu kernel messages about storage trouble\n",
			(unsigned long long)sum->kmsg_lines);
	metric_text(f, &sum->m[0], "write throughput");
	metric_text(f, &sum->m[1], "read throughput");
	if (sum->anomalies && !s->o->fail_on_anomaly)
		fprintf(f, "  anomalies are warnings (--fail-on-anomaly makes them fail the soak)\n");
	if (!s->kmsg_ok)
		fprintf(f, "  kernel messages were not watched (/dev/kmsg not readable)\n");
}

static void stability_json(struct sb_json *j, const struct soak_metric_summary *m)
{
	sb_json_obj_open(j, m->name);
	sb_json_u64(j, "n", m->st.n);
	sb_json_double(j, "median", m->st.median);
	sb_json_double(j, "p5", m->st.p5);
	sb_json_double(j, "p95", m->st.p95);
	sb_json_double(j, "mean", m->st.mean);
	sb_json_double(j, "cv", m->st.cv);
	sb_json_double(j, "min", m->st.min);
	sb_json_double(j, "max", m->st.max);
	sb_json_arr_open(j, "outliers");
	for (size_t i = 0; i < m->noutliers; i++)
		sb_json_u64(j, NULL, m->outliers[i]);
	sb_json_arr_close(j);
	sb_json_arr_open(j, "change_points");
	for (size_t i = 0; i < m->nchanges; i++) {
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "iteration", m->changes[i].at);
		sb_json_double(j, "before", m->changes[i].before);
		sb_json_double(j, "after", m->changes[i].after);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	sb_json_obj_close(j);
}

/* The log's summary line. */
void soak_summary_json(struct sb_json *j, const void *ctx)
{
	const struct soak_state *s = ctx;
	struct soak_summary sum;
	soak_summarize(s, &sum);
	sb_json_u64(j, "iterations", sum.iterations);
	sb_json_u64(j, "failed_iterations", sum.failed);
	sb_json_u64(j, "verify_bad_blocks", sum.verify_bad);
	sb_json_u64(j, "io_errors", sum.io_errors);
	sb_json_u64(j, "kmsg_lines", sum.kmsg_lines);
	sb_json_bool(j, "kmsg_watched", s->kmsg_ok);
	sb_json_u64(j, "anomalies", (uint64_t)sum.anomalies);
	sb_json_str(j, "verdict", sum.pass ? "pass" : "fail");
	sb_json_obj_open(j, "stability");
	stability_json(j, &sum.m[0]);
	stability_json(j, &sum.m[1]);
	sb_json_obj_close(j);
	if (s->health_ok[0] && s->health_ok[1])
		sb_health_pair_json(j, "health", &s->health[0], &s->health[1]);
}

/* The "soak" section of the results: the summary and every iteration. */
void soak_results_json(struct sb_json *j, const void *ctx)
{
	const struct soak_state *s = ctx;
	soak_summary_json(j, ctx);
	sb_json_arr_open(j, "iteration_records");
	for (size_t i = 0; i < s->nit; i++) {
		sb_json_obj_open(j, NULL);
		soak_iter_json(j, &s->it[i]);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}
