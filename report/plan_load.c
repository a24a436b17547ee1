/*
 * A qualification plan's report (report.h, struct rep_plan): the plan's
 * result read through lib/plan's reader (plan.json in its directory, or
 * the JSON given), else its journal alone (the steps it records, without
 * the verdict and the criteria), and each step's result loaded as report
 * loads any result. A step's result that cannot be read is a note: the
 * plan's report says what it can.
 */
#include "report/report.h"

#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <sys/stat.h>

#define PLAN_MAX (16u << 20) /* a plan's JSON or journal */
#define SNIFF 65536	     /* what is looked at before a file is parsed whole */

static int note(struct rep_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int note(struct rep_plan *p, const char *fmt, ...)
{
	va_list ap;
	char *s;
	if (p->nnotes == p->notes_cap) { /* a note a step: grown by half, not by one */
		const size_t cap = p->notes_cap ? p->notes_cap + p->notes_cap / 2 : 8;
		char **a = realloc(p->notes, cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		p->notes = a;
		p->notes_cap = cap;
	}
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	p->notes[p->nnotes++] = s;
	return 0;
}

static int is_file(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* Whether text has "command" : "plan" (a plan's result may follow). */
static int names_plan(const char *text)
{
	for (const char *c = strstr(text, "\"command\""); c; c = strstr(c + 1, "\"command\"")) {
		const char *v = c + strlen("\"command\"");
		v += strspn(v, " \t\r\n");
		if (*v++ != ':')
			continue;
		v += strspn(v, " \t\r\n");
		if (!strncmp(v, "\"plan\"", 6))
			return 1;
	}
	return 0;
}

/* path's JSON when it may be a plan's (the word is in its first bytes):
 * 0 and *tree, 1 when it is not one. */
static int parse(const char *path, struct sb_jdoc **tree, char **why)
{
	char head[SNIFF + 1];
	int err = 0;
	FILE *f = rep_open_regular(path, &err);
	*tree = NULL;
	if (!f)
		return 1; /* rep_load says why */
	size_t n = fread(head, 1, SNIFF, f);
	fclose(f);
	head[n] = 0;
	if (!strstr(head, "\"storbench_plan_journal\"") && !names_plan(head))
		return 1;
	struct sb_json_limits lim = { PLAN_MAX, 16 };
	struct sb_json_error je;
	int e = sb_json_parse_file(path, &lim, tree, &je);
	if (e == -ENOMEM)
		return rep_fail(why, -ENOMEM, "out of memory");
	if (e < 0)
		return 1;
	const struct sb_jv *root = sb_jdoc_root(*tree);
	if (sb_plan_result_is(root) || sb_plan_journal_is(root))
		return 0;
	sb_jdoc_free(*tree);
	*tree = NULL;
	return 1;
}

static char *join(const char *dir, const char *name)
{
	char *s;
	return asprintf(&s, "%s/%s", dir, name) < 0 ? NULL : s;
}

static char *dir_of(const char *path)
{
	char *c = strdup(path), *d = c ? realpath(dirname(c), NULL) : NULL;
	if (c && !d && errno != ENOMEM) {
		snprintf(c, strlen(path) + 1, "%s", path);
		d = strdup(dirname(c));
	}
	free(c);
	return d;
}

/* A plan's JSON given outside its directory (-o) is of the directory it
 * names, when that is there. */
static int its_dir(struct rep_plan *p)
{
	struct stat st;
	char *d;
	if (!p->doc.directory || stat(p->doc.directory, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	if (!(d = realpath(p->doc.directory, NULL)))
		return errno == ENOMEM ? -ENOMEM : 0;
	free(p->dir);
	p->dir = d;
	return 0;
}

/* The plan's result from p->from, read by lib/plan's reader. */
static int read_doc(struct rep_plan *p, char **why)
{
	struct sb_error err;
	if (sb_plan_result_read(sb_jdoc_root(p->tree), &p->doc, &err) < 0)
		return rep_fail(why, err.err == -ENOMEM ? -ENOMEM : -REP_EINPUT, "'%s': %s",
				p->from, err.msg);
	return 0;
}

/* Entries sorted by their strings (a, b), then by their place (i): a
 * group of equal strings is together, its first entry first. */
struct keyed {
	const char *a, *b;
	size_t i, last;
};

static int by_key(const void *x, const void *y)
{
	const struct keyed *p = x, *q = y;
	int c = strcmp(p->a, q->a);
	if (!c)
		c = strcmp(p->b, q->b);
	return c ? c : (p->i > q->i) - (p->i < q->i);
}

static int by_first(const void *x, const void *y)
{
	const struct rep_plan_target *p = x, *q = y;
	return (p->step[0] > q->step[0]) - (p->step[0] < q->step[0]);
}

static int by_place(const void *x, const void *y)
{
	const struct keyed *p = x, *q = y;
	return (p->i > q->i) - (p->i < q->i);
}

/* k[0..n) sorted by by_key: each group of equal (a, b) made one entry,
 * its first place (i) and its last (last), in the order of their first
 * places; how many. */
static size_t groups(struct keyed *k, size_t n)
{
	size_t m = 0;
	qsort(k, n, sizeof(*k), by_key);
	for (size_t i = 0, e; i < n; i = e) {
		for (e = i + 1; e < n && !strcmp(k[e].a, k[i].a) && !strcmp(k[e].b, k[i].b); e++)
			;
		k[m] = k[i];
		k[m++].last = k[e - 1].i;
	}
	qsort(k, m, sizeof(*k), by_place);
	return m;
}

/* The journal alone: its steps, the last entry of each step on a target,
 * in the order they first ran. */
static int from_journal(struct rep_plan *p, char **why)
{
	struct sb_error err;
	struct sb_plan_journal *j = &p->journal;
	if (sb_plan_journal_read(p->from, j, &err) < 0)
		return rep_fail(why, err.err == -ENOMEM ? -ENOMEM : -REP_EINPUT, "%s", err.msg);
	struct keyed *k = calloc(j->n + 1, sizeof(*k));
	p->doc.steps = calloc(j->n + 1, sizeof(*p->doc.steps));
	if (!k || !p->doc.steps) {
		free(k);
		return rep_fail(why, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < j->n; i++)
		k[i] = (struct keyed){ j->d[i].target, j->d[i].step, i, i };
	p->doc.nsteps = groups(k, j->n);
	for (size_t i = 0; i < p->doc.nsteps; i++) {
		const struct sb_plan_done *last = &j->d[k[i].last];
		p->doc.steps[i] = (struct sb_plan_doc_step){ .step = last->step,
							     .run = last->run,
							     .target = last->target,
							     .state = "done",
							     .result = last->result };
	}
	free(k);
	p->doc.directory = p->dir;
	return note(p,
		    "'%s' has no plan.json (the plan did not end, or an older storbench ran it): "
		    "the steps its journal records are shown, without a verdict or criteria",
		    p->dir) < 0
		       ? rep_fail(why, -ENOMEM, "out of memory")
		       : 0;
}

/* Where step i's result is: as written, else its name in the plan's
 * directory (a directory moved since); NULL: not there. */
static char *result_path(const struct rep_plan *p, const char *result)
{
	if (is_file(result))
		return strdup(result);
	const char *base = strrchr(result, '/') ? strrchr(result, '/') + 1 : result;
	char *s = join(p->dir, base);
	if (s && !is_file(s)) {
		free(s);
		return NULL;
	}
	return s;
}

/* Each step's lead (rep_plan.lead): the first step with the same path,
 * found by sorting (n log n: a journal pointing 10,000 steps at one result
 * loads it once, not 10,000 times). */
static int leads(struct rep_plan *p)
{
	const size_t n = p->doc.nsteps;
	struct keyed *k = calloc(n + 1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		p->lead[i] = i;
		if (p->paths[i])
			k[m++] = (struct keyed){ p->paths[i], "", i, i };
	}
	qsort(k, m, sizeof(*k), by_key);
	for (size_t i = 1; i < m; i++)
		if (!strcmp(k[i].a, k[i - 1].a))
			p->lead[k[i].i] = p->lead[k[i - 1].i];
	free(k);
	return 0;
}

static int load_steps(struct rep_plan *p, char **why)
{
	const size_t n = p->doc.nsteps;
	p->steps = calloc(n + 1, sizeof(*p->steps));
	p->paths = calloc(n + 1, sizeof(*p->paths));
	p->heads = calloc(n + 1, sizeof(*p->heads));
	p->lead = calloc(n + 1, sizeof(*p->lead));
	char **said = calloc(n + 1, sizeof(*said)); /* a lead's refusal, for the steps after */
	if (!p->steps || !p->paths || !p->heads || !p->lead || !said) {
		free(said);
		return rep_fail(why, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		const struct sb_plan_doc_step *s = &p->doc.steps[i];
		if (s->result && !(p->paths[i] = result_path(p, s->result)) &&
		    note(p, "step [%s] on '%s': its result '%s' is not there", s->step, s->target,
			 s->result) < 0) {
			free(said);
			return rep_fail(why, -ENOMEM, "out of memory");
		}
	}
	int e = leads(p) < 0 ? rep_fail(why, -ENOMEM, "out of memory") : 0;
	for (size_t i = 0; !e && i < n; i++) {
		const struct sb_plan_doc_step *s = &p->doc.steps[i];
		const size_t l = p->lead[i];
		char *w = NULL;
		if (!p->paths[i])
			continue;
		if (l != i) { /* the same file as an earlier step's: its doc, or its refusal */
			p->steps[i] = p->steps[l];
			if (!p->steps[i] && note(p, "step [%s] on '%s': %s", s->step, s->target,
						 said[l] ? said[l] : "out of memory") < 0)
				e = rep_fail(why, -ENOMEM, "out of memory");
			continue;
		}
		e = rep_load(p->paths[i], &p->steps[i], &w);
		if (e == -ENOMEM) {
			free(w);
			e = rep_fail(why, -ENOMEM, "out of memory");
			break;
		}
		if (e < 0) {
			e = note(p, "step [%s] on '%s': %s", s->step, s->target,
				 w ? w : "out of memory");
			said[i] = w;
			if (e < 0)
				e = rep_fail(why, -ENOMEM, "out of memory");
			continue;
		}
		if (asprintf(&p->heads[i], "[%s]", s->step) < 0) {
			p->heads[i] = NULL;
			e = rep_fail(why, -ENOMEM, "out of memory");
			break;
		}
		p->steps[i]->plan_step = p->heads[i];
	}
	for (size_t i = 0; i < n; i++)
		free(said[i]);
	free(said);
	return e;
}

/* What path is: the plan's JSON (p->tree) or its journal (p->from) and
 * its directory; 1: no plan. */
static int group_targets(struct rep_plan *p);

static int find(struct rep_plan *p, char **why)
{
	struct stat st;
	struct sb_jdoc *t = NULL;
	int e;
	if (!stat(p->path, &st) && S_ISDIR(st.st_mode)) {
		if (!(p->dir = realpath(p->path, NULL)))
			return rep_fail(why, -errno, "cannot read '%s': %s", p->path,
					strerror(errno));
		if (!(p->from = join(p->dir, "plan.json")))
			return rep_fail(why, -ENOMEM, "out of memory");
		if (is_file(p->from)) {
			if ((e = parse(p->from, &t, why)) < 0)
				return e;
			if (!e && sb_plan_result_is(sb_jdoc_root(t))) {
				p->tree = t;
				return 0;
			}
			sb_jdoc_free(t);
			return rep_fail(why, -REP_EINPUT, "'%s' is not a plan's result", p->from);
		}
		free(p->from);
		if (!(p->from = join(p->dir, "journal.json")))
			return rep_fail(why, -ENOMEM, "out of memory");
		return is_file(p->from) ? 0 : 1;
	}
	if ((e = parse(p->path, &t, why)))
		return e;
	if (!(p->dir = dir_of(p->path)))
		return sb_jdoc_free(t), rep_fail(why, -ENOMEM, "out of memory");
	if (sb_plan_result_is(sb_jdoc_root(t))) {
		p->tree = t;
		p->from = strdup(p->path);
		return p->from ? 0 : rep_fail(why, -ENOMEM, "out of memory");
	}
	sb_jdoc_free(t);
	t = NULL;
	/* a journal: its directory's plan.json says more, when it is there */
	char *pj = join(p->dir, "plan.json");
	if (!pj)
		return rep_fail(why, -ENOMEM, "out of memory");
	if (is_file(pj) && !parse(pj, &t, why) && sb_plan_result_is(sb_jdoc_root(t))) {
		p->tree = t;
		p->from = pj;
		return 0;
	}
	sb_jdoc_free(t);
	free(pj);
	p->from = strdup(p->path);
	return p->from ? 0 : rep_fail(why, -ENOMEM, "out of memory");
}

int rep_plan_load(const char *path, struct rep_plan **out, char **why)
{
	struct rep_plan *p = calloc(1, sizeof(*p));
	*out = NULL;
	*why = NULL;
	if (!p)
		return rep_fail(why, -ENOMEM, "out of memory");
	p->path = path;
	int e = find(p, why);
	if (!e)
		e = p->tree ? read_doc(p, why) : from_journal(p, why);
	if (!e && p->tree && its_dir(p) < 0)
		e = rep_fail(why, -ENOMEM, "out of memory");
	if (!e && group_targets(p) < 0)
		e = rep_fail(why, -ENOMEM, "out of memory");
	if (!e)
		e = load_steps(p, why);
	if (e) {
		rep_plan_free(p);
		return e;
	}
	*out = p;
	return 0;
}

struct rep_doc **rep_plan_docs(const struct rep_plan *p, size_t *n)
{
	struct rep_doc **d = calloc(p->doc.nsteps + 1, sizeof(*d));
	*n = 0;
	for (size_t i = 0; d && i < p->doc.nsteps; i++)
		if (p->steps[i] && p->lead[i] == i) /* a result of several steps once */
			d[(*n)++] = p->steps[i];
	return d;
}

const char *rep_plan_verdict(const struct rep_plan *p, const char *target)
{
	const struct rep_plan_target *t = target ? rep_plan_target_of(p, target) : NULL;
	if (!p->doc.tally.verdict)
		return "NO VERDICT";
	return !target ? p->doc.tally.verdict : t ? t->verdict : "PASS";
}

const struct rep_plan_target *rep_plan_target_of(const struct rep_plan *p, const char *t)
{
	size_t lo = 0, hi = p->ntargets;
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;
		const int c = strcmp(p->targets[p->by_name[mid]].target, t);
		if (!c)
			return &p->targets[p->by_name[mid]];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The plan's own verdict of target t (NULL: it has none): the first of
 * its targets so named; k: its targets sorted by name (groups). */
static const char *doc_verdict(const struct rep_plan *p, const struct keyed *k, size_t n,
			       const char *t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		const size_t mid = lo + (hi - lo) / 2;
		if (strcmp(k[mid].a, t) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(k[lo].a, t) ? p->doc.targets[k[lo].i].tally.verdict : NULL;
}

/* A target's counts and verdict: the plan's own word, else its steps'. */
static void judge(const struct rep_plan *p, struct rep_plan_target *t, const char *own)
{
	int fail = 0, unrun = 0;
	for (size_t i = 0; i < t->nsteps; i++) {
		const struct sb_plan_doc_step *s = &p->doc.steps[t->step[i]];
		unrun |= !strcmp(s->state, "could not run") || !strcmp(s->state, "never ran") ||
			 !strcmp(s->state, "interrupted");
		for (size_t k = 0; k < s->ncrit; k++) {
			const char *r = s->crit[k].result;
			fail |= !strcmp(r, "fail");
			!strcmp(r, "pass")   ? t->pass++
			: !strcmp(r, "fail") ? t->fail++
					     : t->other++;
		}
	}
	t->verdict = own		  ? own
		     : !unrun		  ? (fail ? "FAIL" : "PASS")
		     : p->doc.interrupted ? "INTERRUPTED"
					  : "INCOMPLETE";
}

/* p->targets, p->order, p->by_name from the steps: sorted once. */
static int group_targets(struct rep_plan *p)
{
	const struct sb_plan_doc *d = &p->doc;
	const size_t n = d->nsteps;
	struct keyed *k = calloc(n + 1, sizeof(*k)), *own = calloc(d->ntargets + 1, sizeof(*own));
	p->order = calloc(n + 1, sizeof(*p->order));
	p->targets = calloc(n + 1, sizeof(*p->targets));
	p->by_name = calloc(n + 1, sizeof(*p->by_name));
	if (!k || !own || !p->order || !p->targets || !p->by_name) {
		free(k);
		free(own);
		return -ENOMEM;
	}
	for (size_t i = 0; i < d->ntargets; i++)
		own[i] = (struct keyed){ d->targets[i].target, "", i, i };
	qsort(own, d->ntargets, sizeof(*own), by_key);
	for (size_t i = 0; i < n; i++)
		k[i] = (struct keyed){ d->steps[i].target, "", i, i };
	qsort(k, n, sizeof(*k), by_key);
	for (size_t i = 0, e; i < n; i = e) { /* by name: a target's steps in order */
		struct rep_plan_target *t = &p->targets[p->ntargets++];
		for (e = i; e < n && !strcmp(k[e].a, k[i].a); e++)
			p->order[e] = k[e].i;
		*t = (struct rep_plan_target){ .target = k[i].a,
					       .step = &p->order[i],
					       .nsteps = e - i };
		judge(p, t, doc_verdict(p, own, d->ntargets, t->target));
	}
	free(own);
	free(k);
	/* shown by their first step, found by their name */
	qsort(p->targets, p->ntargets, sizeof(*p->targets), by_first);
	struct keyed *names = calloc(p->ntargets + 1, sizeof(*names));
	if (!names)
		return -ENOMEM;
	for (size_t i = 0; i < p->ntargets; i++)
		names[i] = (struct keyed){ p->targets[i].target, "", i, i };
	qsort(names, p->ntargets, sizeof(*names), by_key);
	for (size_t i = 0; i < p->ntargets; i++)
		p->by_name[i] = names[i].i;
	free(names);
	return 0;
}

void rep_plan_free(struct rep_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->doc.nsteps; i++) {
		if (p->steps && (!p->lead || p->lead[i] == i)) /* a shared doc by its lead */
			rep_free(p->steps[i]);
		if (p->paths)
			free(p->paths[i]);
		if (p->heads)
			free(p->heads[i]);
	}
	free(p->steps);
	free(p->paths);
	free(p->heads);
	free(p->lead);
	if (p->tree)
		sb_plan_doc_free(&p->doc);
	else
		free(p->doc.steps);
	sb_plan_journal_free(&p->journal);
	sb_jdoc_free(p->tree);
	for (size_t i = 0; i < p->nnotes; i++)
		free(p->notes[i]);
	free(p->notes);
	free(p->targets);
	free(p->order);
	free(p->by_name);
	free(p->dir);
	free(p->from);
	free(p);
}

char *rep_plan_headline(const struct rep_plan *p, char *buf, size_t len)
{
	const struct sb_plan_tally *t = &p->doc.tally;
	size_t at = 0;
	if (!t->verdict) {
		snprintf(buf, len, "%zu step%s recorded in the journal", p->doc.nsteps,
			 p->doc.nsteps == 1 ? "" : "s");
		return buf;
	}
	at += (size_t)snprintf(buf, len, "%llu of %llu criteria passed",
			       (unsigned long long)t->passed,
			       (unsigned long long)(t->passed + t->failed + t->not_run +
						    t->skipped));
	if (t->failed && at < len)
		at += (size_t)snprintf(buf + at, len - at, ", %llu failed",
				       (unsigned long long)t->failed);
	if (t->skipped && at < len)
		at += (size_t)snprintf(buf + at, len - at,
				       ", %llu skipped: optional steps that could not run",
				       (unsigned long long)t->skipped);
	if (t->not_run && at < len)
		snprintf(buf + at, len - at, ", %llu not judged: their steps never ran",
			 (unsigned long long)t->not_run);
	return buf;
}

char *rep_plan_value(const char *unit, int found, double v, const char *word, char *buf, size_t len)
{
	if (!found)
		return snprintf(buf, len, "-"), buf;
	if (!strcmp(unit, "B") && !(v >= 0 && v < 1.8e19)) /* read from a file: any number */
		return snprintf(buf, len, "%.4g", v), buf;
	return sb_plan_fmt(unit, v, word ? word : "", buf, len);
}

char *rep_plan_limit(const struct sb_plan_doc_crit *c, char *buf, size_t len)
{
	char v[64];
	rep_plan_value(c->unit, 1, c->limit, c->limit_word, v, sizeof(v));
	snprintf(buf, len, "%s %s", c->op, v);
	return buf;
}

static int same_file(const char *a, const char *b)
{
	struct stat x, y;
	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

int rep_plan_holds(const struct rep_plan *p, const char *path)
{
	for (size_t i = 0; i < p->doc.nsteps; i++)
		if (p->paths[i] && same_file(p->paths[i], path))
			return 1;
	return 0;
}

int rep_plan_same(const struct rep_plan *a, const struct rep_plan *b)
{
	return !strcmp(a->dir, b->dir) || same_file(a->dir, b->dir);
}
