/*
 * storbench compare A B [C...]: every figure the results share (per test or
 * job and direction: bandwidth, IOPS, mean and p99 latency), the difference
 * to A in percent, and whether it is larger than the run-to-run spread: a
 * difference inside the min..max of either side's repeats is "within
 * noise". Conditions that differ (block size, queue depth, jobs, direct
 * I/O, engine, device) are named first, not silently compared.
 */
#include "cli/report_files.h"
#include "report/compare.h"

#include <math.h>

const char *const cmp_metric_names[CMP_NMETRICS] = { "bandwidth", "IOPS", "mean latency",
						     "p99 latency" };
const char *const cmp_metric_keys[CMP_NMETRICS] = { "bw_bytes", "iops", "lat_mean_ns",
						    "lat_p99_ns" };
const char *const cmp_verdict_names[] = { "within noise", "better", "worse" };

enum { O_OUTPUT, O_FORMAT };
static const struct cli_opt compare_opts[] = {
	{ "output", OPT_ARG, O_OUTPUT, "FILE", "write to FILE (-o FILE): .html, .json or .txt "
	  "[text on stdout]" },
	{ "format", OPT_ARG, O_FORMAT, "text|json|html", "the format, whatever the extension" },
	{ NULL, 0, 0, NULL, NULL },
};

struct compare_ctx {
	const char *output;
	int format; /* 0 unset, 1 text, 2 json, 3 html */
};

static int compare_set(void *vc, int id, const char *v, char *hint, size_t hl)
{
	struct compare_ctx *c = vc;
	if (id == O_OUTPUT) {
		c->output = v;
		return *v ? 0 : (snprintf(hint, hl, "a file name"), -EINVAL);
	}
	c->format = !strcmp(v, "text") ? 1 : !strcmp(v, "json") ? 2 : !strcmp(v, "html") ? 3 : 0;
	return c->format ? 0 : (snprintf(hint, hl, "text, json or html"), -EINVAL);
}

/* ---- entries: a test in one direction, over its runs ---- */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void stat_of(struct cmp_stat *s, double *v, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	if (!k)
		return;
	qsort(v, k, sizeof(*v), cmp_double);
	s->have = 1;
	s->min = v[0];
	s->max = v[k - 1];
	s->med = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

static void label_of(const struct rep_job *j, int ddir, char *out, size_t len)
{
	const char *dn = sb_ddir_name(ddir);
	size_t gl = strlen(j->group), dl = strlen(dn);
	if (gl > dl + 1 && !strcmp(j->group + gl - dl, dn) && j->group[gl - dl - 1] == ' ')
		gl -= dl + 1; /* quick names its jobs "SEQ1M Q8T1 read" */
	snprintf(out, len, "%.*s", (int)gl, j->group);
}

static struct cmp_entry *find(const struct cmp_side *s, const char *label, int ddir)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->e[i].ddir == ddir && !strcmp(s->e[i].label, label))
			return &s->e[i];
	return NULL;
}

/* Repeats ("(run i of n)") of one test make one entry; any other job is its own. */
static int same_test(const struct rep_job *j, const struct rep_job *first)
{
	if (first->nruns <= 1)
		return j == first;
	return j->nruns == first->nruns && !strcmp(j->group, first->group);
}

/* Figures of the runs that make up entry e. */
static void fill_entry(struct cmp_entry *e, const struct rep_doc *d, size_t first)
{
	size_t n = d->njobs - first;
	double *v = calloc(n + 1, sizeof(double));
	if (!v)
		return;
	for (int m = 0; m < CMP_NMETRICS; m++) {
		size_t k = 0;
		for (size_t i = first; i < d->njobs; i++) {
			const struct rep_job *j = &d->jobs[i];
			if (!same_test(j, e->job))
				continue;
			const struct rep_dir *r = &j->dir[e->ddir];
			if (!r->used)
				continue;
			v[k++] = m == CMP_BW ? r->bw : m == CMP_IOPS ? r->iops
				 : m == CMP_LAT_MEAN ? (r->lat.n ? r->lat.mean : NAN)
						     : rep_pct(&r->lat, 99);
		}
		e->runs = (unsigned)k;
		stat_of(&e->m[m], v, k);
	}
	free(v);
	for (size_t i = 0; i < d->nsummary; i++) { /* the command's own summary, when there */
		const struct rep_summary *s = &d->summary[i];
		if (s->ddir != e->ddir || strcmp(s->test, e->label))
			continue;
		e->runs = s->runs;
		e->m[CMP_BW] = (struct cmp_stat){ 1, s->bw_median, s->bw_min, s->bw_max };
		e->m[CMP_IOPS] = (struct cmp_stat){ 1, s->iops_median, s->iops_min, s->iops_max };
	}
}

static int build_side(struct cmp_side *s)
{
	const struct rep_doc *d = s->doc;
	s->e = calloc(d->njobs * SB_DDIR_N + 1, sizeof(*s->e));
	if (!s->e)
		return -ENOMEM;
	for (size_t i = 0; i < d->njobs; i++) {
		const struct rep_job *j = &d->jobs[i];
		for (int k = 0; k < SB_DDIR_N; k++) {
			char base[96], label[96];
			if (!j->dir[k].used)
				continue;
			label_of(j, k, base, sizeof(base));
			if (j->nruns > 1 && find(s, base, k))
				continue; /* a repeat of a test already taken */
			snprintf(label, sizeof(label), "%s", base);
			for (unsigned dup = 2; find(s, label, k); dup++) /* fio's clones share a name */
				snprintf(label, sizeof(label), "%.80s #%u", base, dup);
			struct cmp_entry *e = &s->e[s->n++];
			snprintf(e->label, sizeof(e->label), "%s", label);
			e->ddir = k;
			e->job = j;
			fill_entry(e, d, i);
		}
	}
	return 0;
}

/* ---- judging the differences ---- */
static int add_row(struct cmp *c, const struct cmp_entry *a, const struct cmp_entry *b, int m)
{
	const struct cmp_stat *x = &a->m[m], *y = &b->m[m];
	struct cmp_row *v = realloc(c->rows, (c->nrows + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	c->rows = v;
	struct cmp_row *r = &c->rows[c->nrows++];
	r->a = a;
	r->b = b;
	r->metric = (enum cmp_metric)m;
	r->diff_pct = x->med != 0 ? 100 * (y->med - x->med) / fabs(x->med) : NAN;
	r->spread_known = a->runs > 1 || b->runs > 1;
	int within = (y->med >= x->min && y->med <= x->max) || (x->med >= y->min && x->med <= y->max);
	int higher_better = m == CMP_BW || m == CMP_IOPS;
	r->verdict = within ? CMP_NOISE : (y->med > x->med) == higher_better ? CMP_BETTER : CMP_WORSE;
	return 0;
}

static int unmatched(struct cmp *c, char tag, const struct cmp_entry *e)
{
	char buf[160], **v = realloc(c->unmatched, (c->nunmatched + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	c->unmatched = v;
	snprintf(buf, sizeof(buf), "only in %c: %s %s", tag, e->label, sb_ddir_name(e->ddir));
	return (c->unmatched[c->nunmatched] = strdup(buf)) ? (c->nunmatched++, 0) : -ENOMEM;
}

/* Records that condition `what` is a in A and b in the other result, for test `where`. */
static int mismatch(struct cmp *c, char tag, const char *what, const char *a, const char *b,
		    const char *where)
{
	if (!strcmp(a, b))
		return 0;
	struct cmp_mismatch *m = NULL;
	for (size_t i = 0; i < c->nmis && !m; i++)
		if (c->mis[i].tag == tag && !strcmp(c->mis[i].what, what) && !strcmp(c->mis[i].a, a) &&
		    !strcmp(c->mis[i].b, b))
			m = &c->mis[i];
	if (!m) {
		struct cmp_mismatch *v = realloc(c->mis, (c->nmis + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		c->mis = v;
		m = memset(&c->mis[c->nmis++], 0, sizeof(*m));
		m->tag = tag;
		snprintf(m->what, sizeof(m->what), "%s", what);
		snprintf(m->a, sizeof(m->a), "%s", a);
		snprintf(m->b, sizeof(m->b), "%s", b);
	}
	if (where && m->ntests < 3) {
		size_t l = strlen(m->tests);
		snprintf(m->tests + l, sizeof(m->tests) - l, "%s%s", l ? ", " : "", where);
	}
	m->ntests += !!where;
	return 0;
}

static void conditions(struct cmp *c, char tag, const struct cmp_entry *a, const struct cmp_entry *b)
{
	const struct rep_job *x = a->job, *y = b->job;
	char where[128], s[2][32];
	snprintf(where, sizeof(where), "%s %s", a->label, sb_ddir_name(a->ddir));
	mismatch(c, tag, "bs", x->bs, y->bs, where);
	snprintf(s[0], sizeof(s[0]), "%u", x->iodepth);
	snprintf(s[1], sizeof(s[1]), "%u", y->iodepth);
	mismatch(c, tag, "iodepth", s[0], s[1], where);
	snprintf(s[0], sizeof(s[0]), "%u", x->numjobs);
	snprintf(s[1], sizeof(s[1]), "%u", y->numjobs);
	mismatch(c, tag, "numjobs", s[0], s[1], where);
	mismatch(c, tag, "direct", x->direct < 0 ? "?" : x->direct ? "direct" : "buffered",
		 y->direct < 0 ? "?" : y->direct ? "direct" : "buffered", where);
	mismatch(c, tag, "engine", x->engine, y->engine, where);
}

static int match(struct cmp *c)
{
	const struct cmp_side *a = &c->sides[0];
	for (size_t k = 1; k < c->nsides; k++) {
		const struct cmp_side *b = &c->sides[k];
		const struct rep_target *ta = &a->doc->target, *tb = &b->doc->target;
		mismatch(c, b->tag, "command", a->doc->command, b->doc->command, NULL);
		mismatch(c, b->tag, "device", rep_or(ta->device, "?"), rep_or(tb->device, "?"), NULL);
		mismatch(c, b->tag, "model", rep_or(ta->model, "?"), rep_or(tb->model, "?"), NULL);
		for (size_t i = 0; i < a->n; i++) {
			const struct cmp_entry *ea = &a->e[i], *eb = find(b, ea->label, ea->ddir);
			if (!eb) {
				if (unmatched(c, 'A', ea) < 0)
					return -ENOMEM;
				continue;
			}
			conditions(c, b->tag, ea, eb);
			for (int m = 0; m < CMP_NMETRICS; m++)
				if (ea->m[m].have && eb->m[m].have && add_row(c, ea, eb, m) < 0)
					return -ENOMEM;
		}
		for (size_t i = 0; i < b->n; i++)
			if (!find(a, b->e[i].label, b->e[i].ddir) && unmatched(c, b->tag, &b->e[i]) < 0)
				return -ENOMEM;
	}
	return 0;
}

static void cmp_free(struct cmp *c)
{
	for (size_t i = 0; i < c->nsides; i++) {
		free(c->sides[i].e);
		rep_free((struct rep_doc *)c->sides[i].doc);
	}
	for (size_t i = 0; i < c->nunmatched; i++)
		free(c->unmatched[i]);
	free(c->sides);
	free(c->rows);
	free(c->mis);
	free(c->unmatched);
}

/* ---- the command ---- */
static int pick_format(struct compare_ctx *c)
{
	const char *dot = c->output ? strrchr(c->output, '.') : NULL;
	if (c->format)
		return 0;
	c->format = !c->output ? 1 : !dot ? 0 : !strcmp(dot, ".html") || !strcmp(dot, ".htm") ? 3
		    : !strcmp(dot, ".json") ? 2 : !strcmp(dot, ".txt") ? 1 : 0;
	if (c->format)
		return 0;
	sb_err("--output: '%s' has no extension that names a format (.html, .json or .txt); "
	       "add --format", c->output);
	return SB_EXIT_USAGE;
}

static int run_compare(struct compare_ctx *o, char **pos, int npos)
{
	struct cmp c;
	int rc = 0;
	memset(&c, 0, sizeof(c));
	c.sides = calloc((size_t)npos, sizeof(*c.sides));
	if (!c.sides)
		return sb_err("out of memory"), SB_EXIT_ENV;
	for (int i = 0; i < npos && !rc; i++) {
		struct rep_doc *d;
		rc = cli_load_result(pos[i], &d);
		if (rc)
			break;
		c.sides[c.nsides].doc = d;
		c.sides[c.nsides].tag = (char)('A' + i);
		if (build_side(&c.sides[c.nsides++]) < 0 || (i == npos - 1 && match(&c) < 0))
			rc = (sb_err("out of memory"), SB_EXIT_ENV);
	}
	if (!rc && !c.nrows) {
		sb_err("'%s' and '%s' share no test in the same direction: nothing to compare",
		       pos[0], pos[1]);
		rc = SB_EXIT_USAGE;
	}
	if (!rc) {
		int (*w)(FILE *, const void *) = o->format == 2 ? cmp_json
					       : o->format == 3 ? cmp_html : cmp_text;
		rc = cli_write_file(o->output, w, &c);
	}
	cmp_free(&c);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_ctx o = { NULL, 0 };
	struct cli_cmd_opts co = { compare_opts, compare_set, 0, NULL, &o };
	char **args = cli_expand_short(argc, argv), **pos = calloc((size_t)argc + 1, sizeof(*pos));
	int npos, rc = 0;
	if (!args || !pos) {
		free(args);
		free(pos);
		return sb_err("out of memory"), SB_EXIT_ENV;
	}
	int p = cli_parse(argc, args, &co, pos, argc, &npos);
	if (p == 1) {
		printf("usage: storbench compare [options] A B [C...] [-o FILE]\n\n"
		       "Compares results (storbench or fio JSON) with the first, A: for every test and\n"
		       "direction they share, bandwidth, IOPS, mean and p99 latency, the difference in\n"
		       "percent, and whether it is within the run-to-run spread (\"within noise\": inside\n"
		       "the min..max of either side's repeats). Conditions that differ are named first.\n\n"
		       "options:\n");
		cli_print_opts(stdout, &co);
		printf("\nexamples:\n  storbench compare before.json after.json\n"
		       "  storbench compare a.json b.json -o ab.html\n");
	} else if (p < 0) {
		rc = SB_EXIT_USAGE;
	} else if (npos < 2) {
		sb_err("compare needs two or more RESULT files (see --help)");
		rc = SB_EXIT_USAGE;
	} else if (!(rc = pick_format(&o))) {
		rc = run_compare(&o, pos, npos);
	}
	free(args);
	free(pos);
	return rc;
}
