/*
 * The comparison of results: the figures they share, matched per test or
 * job and direction over its runs, each difference to the first result
 * (A) judged by a rank test on the runs of both sides
 * (lib/analysis/difference.c), and the conditions that differ.
 */
#include "report/compare.h"

#include <math.h>

const char *const cmp_metric_names[CMP_NMETRICS] = { "bandwidth", "IOPS", "mean latency",
						     "p99 latency" };
const char *const cmp_metric_keys[CMP_NMETRICS] = { "bw_bytes", "iops", "lat_mean_ns",
						    "lat_p99_ns" };
const char *const cmp_verdict_names[] = { "within noise", "better", "worse", "inconclusive" };
const char *const cmp_metric_units[CMP_NMETRICS] = { "bytes/s", "IO/s", "ns", "ns" };

/* ---- entries: a test in one direction, over its runs ---- */
static void label_of(const struct rep_job *j, int ddir, char *out, size_t len)
{
	const char *dn = sb_ddir_name(ddir);
	size_t gl = strlen(j->group), dl = strlen(dn);
	if (gl > dl + 1 && !strcmp(j->group + gl - dl, dn) && j->group[gl - dl - 1] == ' ')
		gl -= dl + 1; /* quick names its jobs "SEQ1M Q8T1 read" */
	snprintf(out, len, "%.*s", (int)gl, j->group);
}

/* The slot of (label, ddir) in s's index: the entry's, or the empty one
 * where it would go (the index is never full). Results of thousands of
 * jobs are matched in linear time, not quadratic. */
static size_t *slot_of(const struct cmp_side *s, const char *label, int ddir)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)ddir; /* FNV-1a */
	for (const char *p = label; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	for (size_t i = h & (s->nslot - 1);; i = (i + 1) & (s->nslot - 1)) {
		const struct cmp_entry *e = s->slot[i] ? &s->e[s->slot[i] - 1] : NULL;
		if (!e || (e->ddir == ddir && !strcmp(e->label, label)))
			return &s->slot[i];
	}
}

static struct cmp_entry *find(const struct cmp_side *s, const char *label, int ddir)
{
	const size_t *k = slot_of(s, label, ddir);
	return *k ? &s->e[*k - 1] : NULL;
}

/* Repeats ("(run i of n)") of one test make one entry; any other job is its own. */
static int same_test(const struct rep_job *j, const struct rep_job *first)
{
	if (first->nruns <= 1)
		return j == first;
	return j->nruns == first->nruns && !strcmp(j->group, first->group);
}

/* The value of metric m in one run (NaN where the run has none). */
static double run_value(const struct rep_dir *r, int m)
{
	return m == CMP_BW	   ? r->bw
	       : m == CMP_IOPS	   ? r->iops
	       : m == CMP_LAT_MEAN ? (r->lat.n ? r->lat.mean : NAN)
				   : rep_pct(&r->lat, 99);
}

/* Figures of the runs that make up entry e: each run's value, kept for the
 * test, and their median and min..max for the tables. */
static int fill_entry(struct cmp_entry *e, const struct rep_doc *d, size_t first)
{
	/* a job alone is its own entry; repeats are looked for after it (a
	 * result of thousands of jobs: not each job against all the rest) */
	const size_t last = e->job->nruns <= 1 ? first + 1 : d->njobs;
	size_t n = 0;
	for (size_t i = first; i < last; i++)
		n += same_test(&d->jobs[i], e->job);
	double *v = calloc(n + 1, sizeof(double));
	if (!v)
		return -ENOMEM;
	for (int m = 0; m < CMP_NMETRICS; m++) {
		struct cmp_stat *st = &e->m[m];
		size_t k = 0;
		for (size_t i = first; i < last; i++) {
			const struct rep_job *j = &d->jobs[i];
			if (!same_test(j, e->job) || !j->dir[e->ddir].used)
				continue;
			k++;
			double x = run_value(&j->dir[e->ddir], m);
			if (isfinite(x))
				v[st->n++] = x;
		}
		e->runs = (unsigned)k;
		if (!st->n)
			continue;
		if (!(st->runs = malloc(st->n * sizeof(double)))) {
			free(v);
			return -ENOMEM;
		}
		memcpy(st->runs, v, st->n * sizeof(double));
		st->have = sb_spread_of(v, st->n, &st->v) > 0;
	}
	free(v);
	return 0;
}

static int build_side(struct cmp_side *s)
{
	const struct rep_doc *d = s->doc;
	const size_t most = d->njobs * SB_DDIR_N + 1;
	s->e = calloc(most, sizeof(*s->e));
	for (s->nslot = 4; s->nslot < 2 * most; s->nslot *= 2)
		;
	s->slot = calloc(s->nslot, sizeof(*s->slot));
	if (!s->e || !s->slot)
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
			for (unsigned dup = 2; find(s, label, k);
			     dup++) /* fio's clones share a name */
				snprintf(label, sizeof(label), "%.80s #%u", base, dup);
			struct cmp_entry *e = &s->e[s->n];
			snprintf(e->label, sizeof(e->label), "%s", label);
			e->ddir = k;
			*slot_of(s, e->label, k) = ++s->n;
			e->job = j;
			if (fill_entry(e, d, i) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

/* ---- judging the differences (lib/analysis/difference.c) ---- */
static int add_row(struct cmp *c, const struct cmp_entry *a, const struct cmp_entry *b, int m)
{
	struct cmp_row *v = rep_grow_one(c->rows, c->nrows, sizeof(*v));
	if (!v)
		return -ENOMEM;
	c->rows = v;
	struct cmp_row *r = &c->rows[c->nrows];
	r->a = a;
	r->b = b;
	r->metric = (enum cmp_metric)m;
	int e = sb_difference(a->m[m].runs, a->m[m].n, b->m[m].runs, b->m[m].n,
			      m == CMP_BW || m == CMP_IOPS, &r->d);
	if (e == -ENOMEM || e == -E2BIG)
		return -ENOMEM;
	c->nrows += e == 0; /* -EINVAL: no finite value on a side, nothing to say */
	return 0;
}

static int unmatched(struct cmp *c, char tag, const struct cmp_entry *e)
{
	char buf[160], **v = rep_grow_one(c->unmatched, c->nunmatched, sizeof(*v));
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
		if (c->mis[i].tag == tag && !strcmp(c->mis[i].what, what) &&
		    !strcmp(c->mis[i].a, a) && !strcmp(c->mis[i].b, b))
			m = &c->mis[i];
	if (!m) {
		struct cmp_mismatch *v = rep_grow_one(c->mis, c->nmis, sizeof(*v));
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

static void conditions(struct cmp *c, char tag, const struct cmp_entry *a,
		       const struct cmp_entry *b)
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
	mismatch(c, tag, "direct",
		 x->direct < 0 ? "?"
		 : x->direct   ? "direct"
			       : "buffered",
		 y->direct < 0 ? "?"
		 : y->direct   ? "direct"
			       : "buffered",
		 where);
	mismatch(c, tag, "engine", x->engine, y->engine, where);
}

static int match(struct cmp *c)
{
	const struct cmp_side *a = &c->sides[0];
	for (size_t k = 1; k < c->nsides; k++) {
		const struct cmp_side *b = &c->sides[k];
		const struct rep_target *ta = &a->doc->target, *tb = &b->doc->target;
		mismatch(c, b->tag, "command", a->doc->command, b->doc->command, NULL);
		mismatch(c, b->tag, "device", rep_or(ta->device, "?"), rep_or(tb->device, "?"),
			 NULL);
		mismatch(c, b->tag, "model", rep_or(ta->model, "?"), rep_or(tb->model, "?"), NULL);
		mismatch(c, b->tag, "state", rep_or(a->doc->state_label, "as found"),
			 rep_or(b->doc->state_label, "as found"), NULL);
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
			if (!find(a, b->e[i].label, b->e[i].ddir) &&
			    unmatched(c, b->tag, &b->e[i]) < 0)
				return -ENOMEM;
	}
	return 0;
}

void cmp_free(struct cmp *c)
{
	for (size_t i = 0; i < c->nsides; i++) {
		for (size_t k = 0; k < c->sides[i].n; k++)
			for (int m = 0; m < CMP_NMETRICS; m++)
				free(c->sides[i].e[k].m[m].runs);
		free(c->sides[i].e);
		free(c->sides[i].slot);
	}
	for (size_t i = 0; i < c->nunmatched; i++)
		free(c->unmatched[i]);
	free(c->sides);
	free(c->rows);
	free(c->mis);
	free(c->unmatched);
}

int cmp_build(struct cmp *c, struct rep_doc *const *docs, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->sides = calloc(n, sizeof(*c->sides));
	if (!c->sides)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		c->sides[i].doc = docs[i];
		c->sides[i].tag = (char)('A' + i);
		c->nsides++;
		if (build_side(&c->sides[i]) < 0)
			return -ENOMEM;
	}
	return match(c);
}
