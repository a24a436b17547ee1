/*
 * The report as data (--format=json), for scripts and CI: per input what
 * was read (and what was left out, in notes), the repeat statistics of
 * every test (median and range over its runs, and each run's figure), and
 * for a soak per throughput metric its stability, outliers and change
 * points (rep_soak_anomalies: the soak's verdict or the same analysis),
 * and the soak's verdict with its reasons (report/soak_lead.c), which the
 * document tells at its top level too.
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

/* Why the verdict is what it is, line by line (report/soak_lead.c): each
 * with its kind, its iteration (null: of none) and its text. in: the
 * input's name, at the document's top level. */
static void reasons(struct sb_json *j, const struct rep_soak_lead *l, const char *in)
{
	for (size_t i = 0; i < l->nwhy; i++) {
		const struct rep_soak_why *w = &l->why[i];
		sb_json_obj_open(j, NULL);
		if (in)
			sb_json_str(j, "input", in);
		sb_json_str(j, "kind", rep_why_name(w->kind));
		if (isfinite(w->iteration))
			sb_json_u64(j, "iteration", (uint64_t)w->iteration);
		else
			sb_json_null(j, "iteration");
		sb_json_str(j, "text", w->text);
		sb_json_obj_close(j);
	}
}

static void soak(struct sb_json *j, const struct rep_doc *d, const struct rep_soak_lead *l)
{
	sb_json_obj_open(j, "soak");
	/* the soak's own word (lib/soak writes it); null: none written
	 * (killed, or still running) */
	if (l->has_verdict)
		sb_soak_verdict_json(j, &l->sum);
	else
		sb_json_null(j, "verdict");
	sb_json_arr_open(j, "reasons");
	reasons(j, l, NULL);
	sb_json_arr_close(j);
	if (l->set.known)
		sb_soak_settings_json(j, "settings", &l->set);
	sb_json_u64(j, "iterations", d->iters.n);
	sb_json_u64(j, "failed_iterations", d->iters.failed);
	sb_json_u64(j, "cut_short_iterations", d->iters.cut_short);
	sb_json_u64(j, "kmsg_other_lines", (uint64_t)d->iters.kother);
	sb_json_str(j, "anomalies_from", l->an[0].written ? "summary" : "analysis");
	const struct sb_soak_metric m[2] = { l->an[0].m, l->an[1].m };
	const struct sb_soak_judged judged[2] = { l->an[0].judged, l->an[1].judged };
	sb_soak_stability_members(j, m, judged); /* as the soak's summary writes it */
	sb_json_obj_open(j, "trend");
	sb_json_double(j, "write_bw", l->trend[0]);
	sb_json_double(j, "read_bw", l->trend[1]);
	sb_json_obj_close(j);
	events(j, &d->iters);
	sb_json_obj_close(j);
}

static int is_soak(const struct rep_doc *d)
{
	return !strcmp(d->command, "soak");
}

static int input(struct sb_json *j, const char *key, const struct rep_doc *d,
		 const struct rep_soak_lead *l)
{
	sb_json_obj_open(j, key);
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
	if (l)
		soak(j, d, l);
	sb_json_obj_close(j);
	return 0;
}

/* The worst of the soaks' verdicts (fail, aborted, interrupted, none, pass). */
static int worse(const struct rep_soak_lead *a, const struct rep_soak_lead *b)
{
	static const int rank[] = {
		[SB_SOAK_PASS] = 0, [SB_SOAK_INTERRUPTED] = 2, [SB_SOAK_ABORTED] = 3, [SB_SOAK_FAIL] = 4
	};
	const int x = a->has_verdict ? rank[a->sum.verdict] : 1;
	const int y = b->has_verdict ? rank[b->sum.verdict] : 1;
	return x > y;
}

/* A soak's verdict and its reasons at the top of the document, for a
 * script to read first (of several soaks the worst verdict, every one's
 * reasons named by its input). */
static void top(struct sb_json *j, struct rep_doc *const *docs, struct rep_soak_lead *const *l,
		size_t n)
{
	const struct rep_soak_lead *w = NULL;
	for (size_t i = 0; i < n; i++)
		if (l[i] && (!w || worse(l[i], w)))
			w = l[i];
	if (!w)
		return;
	if (w->has_verdict)
		sb_json_str(j, "verdict", sb_soak_verdict_name(w->sum.verdict));
	else
		sb_json_null(j, "verdict");
	sb_json_arr_open(j, "reasons");
	for (size_t i = 0; i < n; i++)
		if (l[i])
			reasons(j, l[i], docs[i]->name);
	sb_json_arr_close(j);
}

/* Documents by their address, then their place: which of the docs a
 * plan's step's result is, and whether a doc is a step's, each a binary
 * search (a plan of 10,000 steps is n log n, not n squared). */
struct at {
	const struct rep_doc *d;
	size_t i;
};

static int by_addr(const void *x, const void *y)
{
	const struct at *a = x, *b = y;
	const uintptr_t u = (uintptr_t)a->d, v = (uintptr_t)b->d;
	return u != v ? (u > v) - (u < v) : (a->i > b->i) - (a->i < b->i);
}

/* The place of the first of s[0..n) that is d, or n. */
static size_t find(const struct at *s, size_t n, const struct rep_doc *d)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;
		if ((uintptr_t)s[mid].d < (uintptr_t)d)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && s[lo].d == d ? s[lo].i : n;
}

/* a[0..n) sorted by address (NULL: out of memory) */
static struct at *sorted(struct rep_doc *const *a, size_t n)
{
	struct at *s = calloc(n + 1, sizeof(*s));
	for (size_t i = 0; s && i < n; i++)
		s[i] = (struct at){ a[i], i };
	if (s)
		qsort(s, n, sizeof(*s), by_addr);
	return s;
}

struct plan_ctx {
	struct rep_doc *const *docs;
	struct rep_soak_lead *const *l;
	const struct at *by; /* docs by address */
	struct rep_doc *const *steps;
	size_t n;
};

static void plan_step(void *vc, struct sb_json *j, size_t i)
{
	const struct plan_ctx *c = vc;
	const size_t k = c->steps[i] ? find(c->by, c->n, c->steps[i]) : c->n;
	if (k < c->n)
		input(j, "analysis", c->docs[k], c->l[k]);
	else
		sb_json_null(j, "analysis");
}

/* The plan's section as lib/plan writes it, each step's analysis in it,
 * and what the report could not use. */
static void plan(struct sb_json *j, const struct rep_plan *p, const struct at *by,
		 struct rep_doc *const *docs, struct rep_soak_lead *const *l, size_t n)
{
	struct plan_ctx c = { docs, l, by, p->steps, n };
	sb_plan_doc_section(j, "plan", &p->doc, plan_step, &c);
	sb_json_arr_open(j, "plan_notes");
	for (size_t i = 0; i < p->nnotes; i++)
		sb_json_str(j, NULL, p->notes[i]);
	sb_json_arr_close(j);
}

int rep_json(FILE *f, struct rep_doc *const *docs, size_t n)
{
	return rep_plan_json(f, NULL, docs, n);
}

int rep_plan_json(FILE *f, const struct rep_plan *p, struct rep_doc *const *docs, size_t n)
{
	struct sb_json j;
	int e = 0;
	struct rep_soak_lead **l = calloc(n + 1, sizeof(*l));
	/* the docs by address, and the plan's steps' results: a step's
	 * analysis is under the step, not among the inputs */
	struct at *by = p ? sorted(docs, n) : NULL;
	struct at *steps = p ? sorted(p->steps, p->doc.nsteps) : NULL;
	if (p && (!by || !steps))
		e = -ENOMEM;
	for (size_t i = 0; l && !e && i < n; i++)
		if (is_soak(docs[i]) &&
		    (!(l[i] = malloc(sizeof(*l[i]))) || rep_soak_lead(docs[i], l[i]) < 0))
			e = -ENOMEM;
	if (!l || e) {
		for (size_t i = 0; l && i < n; i++)
			free(l[i]);
		free(l);
		free(by);
		free(steps);
		return -ENOMEM;
	}
	sb_json_begin(&j, f, 0);
	sb_json_obj_open(&j, NULL);
	sb_json_obj_open(&j, "storbench");
	sb_json_u64(&j, "schema_version", SB_SCHEMA_VERSION);
	sb_json_str(&j, "version", sb_version());
	sb_json_str(&j, "command", "report");
	sb_json_obj_close(&j);
	if (p)
		plan(&j, p, by, docs, l, n);
	else
		top(&j, docs, l, n);
	sb_json_arr_open(&j, "inputs");
	for (size_t i = 0; i < n; i++)
		if (!p || find(steps, p->doc.nsteps, docs[i]) == p->doc.nsteps)
			input(&j, NULL, docs[i], l[i]);
	sb_json_arr_close(&j);
	sb_json_obj_close(&j);
	for (size_t i = 0; i < n; i++)
		free(l[i]);
	free(l);
	free(by);
	free(steps);
	return sb_json_end(&j);
}
