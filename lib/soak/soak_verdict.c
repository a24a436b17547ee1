/*
 * The soak's verdict: every iteration must verify without I/O or kernel
 * storage errors (of the target's own devices); a soak that stopped before
 * its end never passes; outliers and throughput changes are anomalies,
 * which fail the soak only with --fail-on-anomaly.
 */
#include "lib/soak/soak_verdict.h"

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
		m->changes[c].step = an.changes[c].step;
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

static const char *const verdict_names[] = { "pass", "fail", "interrupted", "aborted" };

const char *sb_soak_verdict_name(enum sb_soak_verdict v)
{
	return (unsigned)v < SB_ARRAY_SIZE(verdict_names) ? verdict_names[v] : "?";
}

int sb_soak_verdict_by_name(const char *s)
{
	for (size_t i = 0; s && i < SB_ARRAY_SIZE(verdict_names); i++)
		if (!strcmp(s, verdict_names[i]))
			return (int)i;
	return -EINVAL;
}

/* The one rule (soak_verdict.h): failures, then an early stop, then the
 * anomalies when they count. */
static void decide(struct sb_soak_summary *s)
{
	if (s->failed)
		s->verdict = SB_SOAK_FAIL;
	else if (s->stopped)
		s->verdict = (enum sb_soak_verdict)s->stopped;
	else
		s->verdict = s->fail_on_anomaly && s->anomalies ? SB_SOAK_FAIL : SB_SOAK_PASS;
	s->pass = s->verdict == SB_SOAK_PASS;
}

/* The other devices' lines of an iteration, counted by device. */
static void count_other(struct sb_soak_summary *out, const struct sb_soak_iter *it)
{
	out->kmsg_other_lines += it->nkother + it->kother_omitted;
	for (size_t k = 0; k < it->nkother; k++) {
		const struct sb_soak_kline *l = &it->kother[k];
		size_t d = 0;
		while (d < out->nother && strcmp(out->other[d].device, l->device))
			d++;
		if (d == out->nother) {
			if (d == SB_SOAK_MAX_OTHER)
				continue;
			out->nother++;
			snprintf(out->other[d].device, sizeof(out->other[d].device), "%s",
				 l->device);
			snprintf(out->other[d].first, sizeof(out->other[d].first), "%s", l->text);
		}
		out->other[d].lines++;
	}
}

int sb_soak_summarize(const struct sb_soak_iter *it, size_t n, int fail_on_anomaly,
		      struct sb_soak_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->iterations = n;
	out->fail_on_anomaly = fail_on_anomaly;
	for (size_t i = 0; i < n; i++) {
		out->verify_bad += sb_soak_iter_bad(&it[i]);
		out->io_errors += it[i].io_errors;
		out->kmsg_lines += it[i].nkmsg + it[i].kmsg_omitted;
		out->failed += sb_soak_iter_failed(&it[i]);
		out->cut_short += !!it[i].interrupted;
		count_other(out, &it[i]);
	}
	for (int k = 0; k < 2; k++) {
		int e = metric(it, n, k, &out->m[k]);
		if (e < 0)
			return e;
		out->anomalies += (int)(out->m[k].outliers_total + out->m[k].nchanges);
	}
	decide(out);
	return 0;
}

void sb_soak_stop(struct sb_soak_summary *sum, enum sb_soak_verdict how, const char *reason,
		  const char *resume)
{
	sum->stopped = how == SB_SOAK_INTERRUPTED ? SB_SOAK_INTERRUPTED : SB_SOAK_ABORTED;
	snprintf(sum->reason, sizeof(sum->reason), "%s", reason && *reason ? reason : "unknown");
	snprintf(sum->resume, sizeof(sum->resume), "%s", resume ? resume : "");
	decide(sum);
}

static int same_cell(const struct sb_soak_cell *c, const struct sb_soak_cell_metric *m)
{
	return c->test == m->test && c->file_size == m->file_size &&
	       c->record_size == m->record_size;
}

/* The distinct cells of it[0..n), in the order they first appear. */
static int distinct_cells(const struct sb_soak_iter *it, size_t n, struct sb_soak_cell_metric **out,
			  size_t *nout)
{
	size_t cap = 0;
	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < it[i].ncells; k++) {
			const struct sb_soak_cell *c = &it[i].cells[k];
			size_t j = 0;
			while (j < *nout && !same_cell(c, &(*out)[j]))
				j++;
			if (j < *nout)
				continue;
			if (*nout == cap) {
				cap = cap ? cap * 2 : 16;
				struct sb_soak_cell_metric *v = realloc(*out, cap * sizeof(*v));
				if (!v)
					return -ENOMEM;
				*out = v;
			}
			struct sb_soak_cell_metric *m = &(*out)[(*nout)++];
			memset(m, 0, sizeof(*m));
			m->test = c->test;
			m->file_size = c->file_size;
			m->record_size = c->record_size;
		}
	return 0;
}

/* The value of cell m in iteration it (NAN: not measured there). */
static double cell_value(const struct sb_soak_iter *it, size_t hint,
			 const struct sb_soak_cell_metric *m)
{
	if (it->interrupted)
		return NAN;
	if (hint < it->ncells && same_cell(&it->cells[hint], m))
		return it->cells[hint].kibps;
	for (size_t k = 0; k < it->ncells; k++)
		if (same_cell(&it->cells[k], m))
			return it->cells[k].kibps;
	return NAN;
}

int sb_soak_summarize_cells(const struct sb_soak_iter *it, size_t n, int fail_on_anomaly,
			    struct sb_soak_summary *sum, struct sb_soak_cell_metric **out,
			    size_t *nout)
{
	double *v = malloc((n ? n : 1) * sizeof(*v));
	uint64_t *at = malloc((n ? n : 1) * sizeof(*at));
	int e = v && at ? distinct_cells(it, n, out, nout) : -ENOMEM;
	for (size_t j = 0; !e && j < *nout; j++) {
		struct sb_soak_cell_metric *m = &(*out)[j];
		for (size_t i = 0; i < n; i++) {
			v[i] = cell_value(&it[i], j, m);
			at[i] = it[i].n;
		}
		e = sb_soak_metric(v, at, n, &m->m);
		sum->anomalies += (int)(m->m.outliers_total + m->m.nchanges);
	}
	free(v);
	free(at);
	if (e < 0) {
		free(*out);
		*out = NULL;
		*nout = 0;
		return e;
	}
	sum->fail_on_anomaly = fail_on_anomaly;
	decide(sum);
	return 0;
}
