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
	char **a = realloc(p->notes, (p->nnotes + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	p->notes = a;
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

/* The journal alone: its steps, the last entry of each step on a target,
 * in the order they first ran. */
static int from_journal(struct rep_plan *p, char **why)
{
	struct sb_error err;
	struct sb_plan_journal *j = &p->journal;
	if (sb_plan_journal_read(p->from, j, &err) < 0)
		return rep_fail(why, err.err == -ENOMEM ? -ENOMEM : -REP_EINPUT, "%s", err.msg);
	p->doc.steps = calloc(j->n + 1, sizeof(*p->doc.steps));
	if (!p->doc.steps)
		return rep_fail(why, -ENOMEM, "out of memory");
	for (size_t i = 0; i < j->n; i++) {
		size_t k;
		for (k = 0; k < p->doc.nsteps; k++)
			if (!strcmp(p->doc.steps[k].step, j->d[i].step) &&
			    !strcmp(p->doc.steps[k].target, j->d[i].target))
				break;
		struct sb_plan_doc_step *s = &p->doc.steps[k];
		if (k == p->doc.nsteps)
			p->doc.nsteps++;
		s->step = j->d[i].step;
		s->run = j->d[i].run;
		s->target = j->d[i].target;
		s->state = "done";
		s->result = j->d[i].result;
	}
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

static int load_steps(struct rep_plan *p, char **why)
{
	const size_t n = p->doc.nsteps;
	p->steps = calloc(n + 1, sizeof(*p->steps));
	p->paths = calloc(n + 1, sizeof(*p->paths));
	p->heads = calloc(n + 1, sizeof(*p->heads));
	if (!p->steps || !p->paths || !p->heads)
		return rep_fail(why, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct sb_plan_doc_step *s = &p->doc.steps[i];
		char *w = NULL;
		if (!s->result)
			continue;
		if (!(p->paths[i] = result_path(p, s->result))) {
			if (note(p, "step [%s] on '%s': its result '%s' is not there", s->step,
				 s->target, s->result) < 0)
				return rep_fail(why, -ENOMEM, "out of memory");
			continue;
		}
		int e = rep_load(p->paths[i], &p->steps[i], &w);
		if (e == -ENOMEM) {
			free(w);
			return rep_fail(why, -ENOMEM, "out of memory");
		}
		if (e < 0) {
			e = note(p, "step [%s] on '%s': %s", s->step, s->target,
				 w ? w : "out of memory");
			free(w);
			if (e < 0)
				return rep_fail(why, -ENOMEM, "out of memory");
			continue;
		}
		if (asprintf(&p->heads[i], "[%s]", s->step) < 0) {
			p->heads[i] = NULL;
			return rep_fail(why, -ENOMEM, "out of memory");
		}
		p->steps[i]->plan_step = p->heads[i];
	}
	return 0;
}

/* What path is: the plan's JSON (p->tree) or its journal (p->from) and
 * its directory; 1: no plan. */
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
		if (p->steps[i])
			d[(*n)++] = p->steps[i];
	return d;
}

const char *rep_plan_verdict(const struct rep_plan *p, const char *target)
{
	int fail = 0, unrun = 0;
	if (!p->doc.tally.verdict)
		return "NO VERDICT";
	if (!target)
		return p->doc.tally.verdict;
	for (size_t i = 0; i < p->doc.ntargets; i++) /* the plan's own word */
		if (!strcmp(p->doc.targets[i].target, target))
			return p->doc.targets[i].tally.verdict;
	for (size_t i = 0; i < p->doc.nsteps; i++) {
		const struct sb_plan_doc_step *s = &p->doc.steps[i];
		if (strcmp(s->target, target))
			continue;
		unrun |= !strcmp(s->state, "could not run") || !strcmp(s->state, "never ran") ||
			 !strcmp(s->state, "interrupted");
		for (size_t k = 0; k < s->ncrit; k++)
			fail |= !strcmp(s->crit[k].result, "fail");
	}
	return unrun ? (p->doc.interrupted ? "INTERRUPTED" : "INCOMPLETE") : fail ? "FAIL" : "PASS";
}

void rep_plan_free(struct rep_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->doc.nsteps; i++) {
		if (p->steps)
			rep_free(p->steps[i]);
		if (p->paths)
			free(p->paths[i]);
		if (p->heads)
			free(p->heads[i]);
	}
	free(p->steps);
	free(p->paths);
	free(p->heads);
	if (p->tree)
		sb_plan_doc_free(&p->doc);
	else
		free(p->doc.steps);
	sb_plan_journal_free(&p->journal);
	sb_jdoc_free(p->tree);
	for (size_t i = 0; i < p->nnotes; i++)
		free(p->notes[i]);
	free(p->notes);
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
