/*
 * The report as data (--format=json), for scripts and CI: per input what
 * was read (and what was left out, in notes), the repeat statistics of
 * every test (median and range over its runs, and each run's figure), and
 * for a soak per throughput metric its stability, outliers and change
 * points (rep_soak_anomalies: the soak's verdict or the same analysis).
 * What could not be judged (too few iterations) is null, never an empty
 * list that would read as "none found". The shape: docs/reports.md.
 */
#include "report/report.h"

#include <math.h>

enum { M_BW, M_IOPS, M_LAT_MEAN, M_LAT_P99, M_N };
static const char *const metric_keys[M_N] = { "bw_bytes", "iops", "lat_mean_ns", "lat_p99_ns" };

/* A test: the runs of one job name (without "(run i of n)" and a trailing
 * direction, as quick names its jobs) in one direction. */
static void label_of(const struct rep_job *j, int ddir, char *out, size_t len)
{
	const char *dn = sb_ddir_name(ddir);
	size_t gl = strlen(j->group), dl = strlen(dn);
	if (gl > dl + 1 && !strcmp(j->group + gl - dl, dn) && j->group[gl - dl - 1] == ' ')
		gl -= dl + 1;
	snprintf(out, len, "%.*s", (int)gl, j->group);
}

static double figure(const struct rep_job *j, int ddir, int m)
{
	const struct rep_dir *r = &j->dir[ddir];
	return m == M_BW	 ? r->bw
	       : m == M_IOPS	 ? r->iops
	       : m == M_LAT_MEAN ? (r->lat.n ? r->lat.mean : NAN)
				 : rep_pct(&r->lat, 99);
}

static void metric(struct sb_json *j, const struct rep_doc *d, const char *label, int ddir, int m,
		   const struct rep_summary *row)
{
	char l[96];
	size_t n = 0;
	double *v = calloc(d->njobs + 1, sizeof(*v));
	struct sb_spread sp = { NAN, NAN, NAN };
	sb_json_obj_open(j, metric_keys[m]);
	sb_json_arr_open(j, "values");
	for (size_t i = 0; v && i < d->njobs; i++) {
		label_of(&d->jobs[i], ddir, l, sizeof(l));
		if (!d->jobs[i].dir[ddir].used || strcmp(l, label))
			continue;
		v[n] = figure(&d->jobs[i], ddir, m);
		sb_json_double(j, NULL, v[n++]);
	}
	sb_json_arr_close(j);
	sb_spread_of(v, n, &sp);
	if (row && m == M_BW) /* the command's own summary (lib/analysis/repeats) */
		sp = (struct sb_spread){ row->bw_median, row->bw_min, row->bw_max };
	if (row && m == M_IOPS)
		sp = (struct sb_spread){ row->iops_median, row->iops_min, row->iops_max };
	sb_json_double(j, "median", sp.med);
	sb_json_double(j, "min", sp.min);
	sb_json_double(j, "max", sp.max);
	sb_json_obj_close(j);
	free(v);
}

static void tests(struct sb_json *j, const struct rep_doc *d)
{
	char label[96], other[96];
	sb_json_arr_open(j, "tests");
	for (size_t i = 0; i < d->njobs; i++) {
		for (int k = 0; k < SB_DDIR_N; k++) {
			size_t runs = 0, p;
			if (!d->jobs[i].dir[k].used)
				continue;
			label_of(&d->jobs[i], k, label, sizeof(label));
			for (p = 0; p < i; p++) { /* a test is told at its first run */
				label_of(&d->jobs[p], k, other, sizeof(other));
				if (d->jobs[p].dir[k].used && !strcmp(label, other))
					break;
			}
			if (p < i)
				continue;
			for (p = i; p < d->njobs; p++) {
				label_of(&d->jobs[p], k, other, sizeof(other));
				runs += d->jobs[p].dir[k].used && !strcmp(label, other);
			}
			const struct rep_summary *row = NULL;
			for (size_t s = 0; s < d->nsummary; s++)
				if (d->summary[s].ddir == k && !strcmp(d->summary[s].test, label))
					row = &d->summary[s];
			sb_json_obj_open(j, NULL);
			sb_json_str(j, "test", label);
			sb_json_str(j, "direction", sb_ddir_name(k));
			sb_json_u64(j, "runs", runs);
			for (int m = 0; m < M_N; m++)
				metric(j, d, label, k, m, row);
			sb_json_obj_close(j);
		}
	}
	sb_json_arr_close(j);
}

/* ---- soak ---- */
/* Iterations where something went wrong, by what. */
static void events(struct sb_json *j, const struct rep_iters *it)
{
	static const char *const kinds[] = { "io_errors", "bad_blocks", "kmsg" };
	sb_json_obj_open(j, "events");
	for (int k = 0; k < 3; k++) {
		const double *v = k == 0 ? it->errors : k == 1 ? it->bad : it->kmsg;
		sb_json_arr_open(j, kinds[k]);
		for (size_t e = 0; e < it->nev; e++)
			if (v[it->ev[e].i] > 0)
				sb_json_u64(j, NULL, (uint64_t)it->x[it->ev[e].i]);
		sb_json_arr_close(j);
	}
	sb_json_obj_close(j);
}

static int soak(struct sb_json *j, const struct rep_doc *d)
{
	struct rep_anomalies a[2];
	for (int k = 0; k < 2; k++)
		if (rep_soak_anomalies(d, k, &a[k]) < 0)
			return -ENOMEM;
	sb_json_obj_open(j, "soak");
	sb_json_u64(j, "iterations", d->iters.n);
	sb_json_u64(j, "failed_iterations", d->iters.failed);
	sb_json_u64(j, "cut_short_iterations", d->iters.cut_short);
	sb_json_u64(j, "kmsg_other_lines", (uint64_t)d->iters.kother);
	/* the soak's own word; null: none written (killed, or still running) */
	struct sb_soak_summary sum;
	if (rep_soak_verdict(d, &sum) == 0) {
		sb_json_str(j, "verdict", sb_soak_verdict_name(sum.verdict));
		if (sum.stopped)
			sb_json_str(j, "stopped_early", sum.reason);
		if (sum.stopped && sum.resume[0])
			sb_json_str(j, "resume", sum.resume);
	} else {
		sb_json_null(j, "verdict");
	}
	sb_json_str(j, "anomalies_from", a[0].written ? "summary" : "analysis");
	sb_soak_metric_json(j, "write_bw", &a[0].m, &a[0].judged);
	sb_soak_metric_json(j, "read_bw", &a[1].m, &a[1].judged);
	events(j, &d->iters);
	sb_json_obj_close(j);
	return 0;
}

static int input(struct sb_json *j, const struct rep_doc *d)
{
	int e = 0;
	sb_json_obj_open(j, NULL);
	sb_json_str(j, "path", d->path);
	sb_json_str(j, "kind", d->is_fio ? "fio" : d->is_log ? "log" : "result");
	sb_json_str(j, "command", d->command);
	sb_json_str(j, "producer", d->producer);
	sb_json_str(j, "target", d->target.path);
	sb_json_bool(j, "interrupted", d->interrupted);
	sb_json_arr_open(j, "notes");
	for (size_t i = 0; i < d->nnotes; i++)
		sb_json_str(j, NULL, d->notes[i]);
	sb_json_arr_close(j);
	sb_json_arr_open(j, "warnings");
	for (size_t i = 0; i < d->nwarnings; i++)
		sb_json_str(j, NULL, d->warnings[i]);
	sb_json_arr_close(j);
	tests(j, d);
	if (!strcmp(d->command, "soak"))
		e = soak(j, d);
	sb_json_obj_close(j);
	return e;
}

int rep_json(FILE *f, struct rep_doc *const *docs, size_t n)
{
	struct sb_json j;
	int e = 0;
	sb_json_begin(&j, f, 0);
	sb_json_obj_open(&j, NULL);
	sb_json_obj_open(&j, "storbench");
	sb_json_u64(&j, "schema_version", SB_SCHEMA_VERSION);
	sb_json_str(&j, "version", sb_version());
	sb_json_str(&j, "command", "report");
	sb_json_obj_close(&j);
	sb_json_arr_open(&j, "inputs");
	for (size_t i = 0; i < n && !e; i++)
		e = input(&j, docs[i]);
	sb_json_arr_close(&j);
	sb_json_obj_close(&j);
	int w = sb_json_end(&j);
	return e ? e : w;
}
