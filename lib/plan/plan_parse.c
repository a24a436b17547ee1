/*
 * A plan file read and checked whole (plan.h): INI sections and keys,
 * each step's command line split into words, each criterion's figure,
 * operator and value.
 */
#include "lib/plan/plan.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>

#include "lib/base/units.h"

#define MAX_STEPS 256
#define MAX_EXPECT 256
#define MAX_WORDS 128

static const char *const op_names[] = { ">=", "<=", ">", "<", "==", "!=" };

const char *sb_plan_op_name(enum sb_plan_op op)
{
	return (unsigned)op < SB_ARRAY_SIZE(op_names) ? op_names[op] : "?";
}

struct parse {
	const char *file;
	unsigned line;
	struct sb_error *err;
};

static int bad(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct parse *p, const char *fmt, ...)
{
	char msg[3072];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!p->line) /* not a line of the file: an override (sb_plan_set) */
		return sb_error_set(p->err, -EINVAL, SB_ERR_INPUT, "%.1000s: %s", p->file, msg);
	return sb_error_set(p->err, -EINVAL, SB_ERR_INPUT, "%.1000s:%u: %s", p->file, p->line, msg);
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

/* run= split into words: blanks between them, '...' and "..." quote
 * (no escapes). -EINVAL for an unterminated quote or too many words. */
static int split(struct parse *p, const char *s, struct sb_plan_step *st)
{
	char **argv = calloc(MAX_WORDS + 1, sizeof(*argv));
	char *buf = malloc(strlen(s) + 1);
	int argc = 0;
	if (!argv || !buf) {
		free(argv);
		free(buf);
		return -ENOMEM;
	}
	st->argv = argv;
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (argc == MAX_WORDS) {
			free(buf);
			return bad(p, "run: more than %d words", MAX_WORDS);
		}
		size_t n = 0;
		while (*s && *s != ' ' && *s != '\t') {
			if (*s == '\'' || *s == '"') {
				char q = *s++;
				while (*s && *s != q)
					buf[n++] = *s++;
				if (*s != q) {
					free(buf);
					return bad(p, "run: a quote (%c) is not closed", q);
				}
				s++;
			} else {
				buf[n++] = *s++;
			}
		}
		buf[n] = 0;
		if (!(argv[argc] = strdup(buf))) {
			free(buf);
			return -ENOMEM;
		}
		st->argc = ++argc;
	}
	free(buf);
	if (!argc)
		return bad(p, "run: empty (a storbench command line: quick --repeat=5)");
	if (!argv[0][0])
		return bad(p, "run: the command is an empty word");
	if (argv[0][0] == '-')
		return bad(p, "run: '%s': the command comes first (quick, verify, soak...)",
			   argv[0]);
	return 0;
}

/* A number with k, M, G (thousands) or % (hundredths) after it. */
static int count_value(const char *s, double *out)
{
	char buf[64];
	size_t n = strlen(s);
	double mult = 1;
	if (!n || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n + 1);
	switch (buf[n - 1]) {
	case 'k':
	case 'K': mult = 1e3; break;
	case 'M': mult = 1e6; break;
	case 'G': mult = 1e9; break;
	case '%': mult = 0.01; break;
	default: n++;
	}
	buf[n - 1] = 0;
	if (sb_parse_double(buf, out) < 0)
		return -EINVAL;
	*out *= mult;
	return 0;
}

static int is_word(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-' &&
		    *s != '_')
			return 0;
	return 1;
}

/* The limit v of a figure of unit into ex. */
static int value(struct parse *p, const char *v, struct sb_plan_expect *ex)
{
	const char *u = ex->unit;
	uint64_t x;
	snprintf(ex->text, sizeof(ex->text), "%s", v);
	if (strlen(v) >= sizeof(ex->text))
		return bad(p, "expect: the value '%.60s...' is too long", v);
	if (!strcmp(u, "word")) {
		if (!is_word(v) || strlen(v) >= sizeof(ex->word))
			return bad(p, "expect: %s: '%s' is not a word (pass, fail, true...)",
				   ex->figure, v);
		if (ex->op != SB_PLAN_EQ && ex->op != SB_PLAN_NE)
			return bad(p, "expect: %s is a word: compare it with == or !=, not %s",
				   ex->figure, sb_plan_op_name(ex->op));
		memcpy(ex->word, v, strlen(v) + 1);
		return 0;
	}
	if (!strcmp(u, "B/s") || !strcmp(u, "B")) {
		char buf[64];
		size_t n = strlen(v);
		snprintf(buf, sizeof(buf), "%s", v);
		if (!strcmp(u, "B/s") && n > 2 && !strcmp(buf + n - 2, "/s"))
			buf[n - 2] = 0;
		if (sb_parse_size(buf, &x) < 0)
			return bad(p, "expect: %s: '%s' is not %s (like %s)", ex->figure, v,
				   !strcmp(u, "B") ? "a size" : "a rate",
				   !strcmp(u, "B") ? "4k, 100MiB, 2G" : "40MiB/s, 1.5G/s");
		ex->value = (double)x;
		return 0;
	}
	if (!strcmp(u, "ns")) {
		if (sb_parse_duration_ns(v, &x) < 0)
			return bad(p, "expect: %s: '%s' is not a time (like 5ms, 200us, 1s)",
				   ex->figure, v);
		ex->value = (double)x;
		return 0;
	}
	if (count_value(v, &ex->value) < 0)
		return bad(p, "expect: %s: '%s' is not a number (like 25000, 2k, 10%%)", ex->figure,
			   v);
	return 0;
}

/* expect=FIGURE OP VALUE of a step running command. */
static int expect(struct parse *p, char *s, struct sb_plan_step *st)
{
	char *fig = s, *op, *v;
	size_t n = strcspn(s, " \t<>=!");
	struct sb_plan_expect ex;
	memset(&ex, 0, sizeof(ex));
	ex.line = p->line;
	op = s + n;
	while (*op == ' ' || *op == '\t')
		op++;
	size_t ol = strspn(op, "<>=!");
	if (!n)
		return bad(p, "expect: FIGURE OP VALUE, like RND4K-Q1T1.read.iops >= 2k");
	if (n >= sizeof(ex.figure))
		return bad(p, "expect: the figure's name is too long");
	memcpy(ex.figure, fig, n);
	ex.figure[n] = 0;
	int found = -1;
	for (size_t i = 0; i < SB_ARRAY_SIZE(op_names); i++)
		if (ol == strlen(op_names[i]) && !strncmp(op, op_names[i], ol))
			found = (int)i;
	if (found < 0)
		return bad(p, "expect: %s: '%.*s' is not an operator (>=, <=, >, <, == or !=)",
			   ex.figure, (int)(ol ? ol : strcspn(op, " \t")), op);
	ex.op = (enum sb_plan_op)found;
	v = trim(op + ol);
	if (!*v)
		return bad(p, "expect: %s %s: a value is missing", ex.figure, op_names[found]);
	const char *cmd = st->argv[0];
	const struct sb_figure_def *d = sb_figure_def_of(cmd, ex.figure);
	if (!d) {
		char near[4][SB_FIGURE_NAME];
		size_t k = sb_figure_nearest(cmd, ex.figure, near, 4);
		char list[700] = "";
		size_t at = 0;
		for (size_t i = 0; i < k && at < sizeof(list); i++)
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "",
					       near[i]);
		if (!sb_figure_defs(cmd, &(size_t){ 0 }))
			return bad(p,
				   "expect: '%s': %s has no figures but status (storbench plan "
				   "--figures lists the commands that have)",
				   ex.figure, cmd);
		return bad(p,
			   "expect: '%s' is not a figure of %s (nearest: %s; storbench plan "
			   "--figures %s lists them)",
			   ex.figure, cmd, list, cmd);
	}
	ex.unit = d->unit;
	int e = value(p, v, &ex);
	if (e < 0)
		return e;
	if (st->nex == MAX_EXPECT)
		return bad(p, "expect: more than %d criteria in a step", MAX_EXPECT);
	struct sb_plan_expect *a = realloc(st->ex, (st->nex + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	st->ex = a;
	a[st->nex++] = ex;
	return 0;
}

/* The step's criteria read: status == pass unless one names status. */
static int step_end(struct parse *p, struct sb_plan_step *st)
{
	if (!st->argc) {
		p->line = st->line;
		return bad(p, "[%s]: a step needs run= (a storbench command line)", st->name);
	}
	for (size_t i = 0; i < st->nex; i++)
		if (!strcmp(st->ex[i].figure, "status"))
			return 0;
	struct sb_plan_expect *a = realloc(st->ex, (st->nex + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	st->ex = a;
	memmove(a + 1, a, st->nex * sizeof(*a));
	memset(a, 0, sizeof(*a));
	snprintf(a->figure, sizeof(a->figure), "status");
	a->op = SB_PLAN_EQ;
	a->unit = "word";
	snprintf(a->word, sizeof(a->word), "pass");
	snprintf(a->text, sizeof(a->text), "pass");
	st->nex++;
	return 0;
}

static int set_str(char **dst, const char *v)
{
	free(*dst);
	return (*dst = strdup(v)) ? 0 : -ENOMEM;
}

static int section(struct parse *p, char *s, struct sb_plan *out, int *global)
{
	size_t n = strlen(s);
	if (s[n - 1] != ']')
		return bad(p, "a section's header ends with ']': [NAME]");
	s[n - 1] = 0;
	s = trim(s + 1);
	if (!*s)
		return bad(p, "a section needs a name: [NAME]");
	for (const char *c = s; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' && *c != '.')
			return bad(p, "[%s]: a step's name takes letters, digits, '-', '_' and '.'",
				   s);
	if (!strcmp(s, "global")) {
		if (out->nsteps)
			return bad(p, "[global] comes before the steps");
		if (*global)
			return bad(p, "[global] is given twice");
		*global = 1;
		return 1;
	}
	if (strlen(s) >= sizeof(out->steps[0].name))
		return bad(p, "[%.40s...]: the name is too long", s);
	for (size_t i = 0; i < out->nsteps; i++)
		if (!strcmp(out->steps[i].name, s))
			return bad(p, "[%s]: a step of that name is on line %u", s,
				   out->steps[i].line);
	if (out->nsteps == MAX_STEPS)
		return bad(p, "more than %d steps", MAX_STEPS);
	struct sb_plan_step *a = realloc(out->steps, (out->nsteps + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	out->steps = a;
	memset(&a[out->nsteps], 0, sizeof(*a));
	snprintf(a[out->nsteps].name, sizeof(a->name), "%s", s);
	a[out->nsteps].line = p->line;
	out->nsteps++;
	return 0;
}

static int global_key(struct parse *p, const char *k, const char *v, struct sb_plan *out)
{
	if (!strcmp(k, "name"))
		return set_str(&out->name, v);
	if (!strcmp(k, "description"))
		return set_str(&out->description, v);
	if (!strcmp(k, "target"))
		return set_str(&out->target, v);
	if (!strcmp(k, "db"))
		return set_str(&out->db, v);
	if (!strcmp(k, "html")) {
		/* a file of the plan's directory, never one of its own (the
		 * journal, a step's result): a name ending in .html */
		size_t n = strlen(v);
		if (n <= 5 || strcmp(v + n - 5, ".html") || strchr(v, '/') || *v == '.')
			return bad(p,
				   "html: '%s' is not a file name in the plan's directory ending in "
				   ".html (html=report.html)",
				   v);
		return set_str(&out->html, v);
	}
	if (!strcmp(k, "label")) {
		const char *eq = strchr(v, '=');
		if (!eq || eq == v)
			return bad(p, "label: '%s' is not KEY=VALUE (label=firmware=1.2b)", v);
		char **a = realloc(out->labels, (out->nlabels + 1) * sizeof(*a));
		if (!a)
			return -ENOMEM;
		out->labels = a;
		return (a[out->nlabels++] = strdup(v)) ? 0 : -ENOMEM;
	}
	return bad(p,
		   "[global]: '%s' is not a key of it (name, description, target, db, html, label)",
		   k);
}

static int step_key(struct parse *p, const char *k, char *v, struct sb_plan_step *st)
{
	if (!strcmp(k, "run")) {
		if (st->argc)
			return bad(p, "[%s]: run= is given twice", st->name);
		int e = set_str(&st->run, v);
		st->run_line = p->line;
		return e ? e : split(p, v, st);
	}
	if (!strcmp(k, "target"))
		return set_str(&st->target, v);
	if (!strcmp(k, "wait"))
		return sb_parse_duration_ns(v, &st->wait_ns) < 0
			       ? bad(p, "[%s]: wait: '%s' is not a time (like 30m, 5s)", st->name,
				     v)
			       : 0;
	if (!strcmp(k, "optional")) {
		if (!strcmp(v, "true") || !strcmp(v, "false")) {
			st->optional = !strcmp(v, "true");
			return 0;
		}
		return bad(p, "[%s]: optional: '%s' is not true or false", st->name, v);
	}
	if (!strcmp(k, "expect")) {
		if (!st->argc)
			return bad(p,
				   "[%s]: run= comes before expect= (the figures are its "
				   "command's)",
				   st->name);
		return expect(p, v, st);
	}
	return bad(p, "[%s]: '%s' is not a key of a step (run, target, wait, optional, expect)",
		   st->name, k);
}

int sb_plan_parse(const char *text, size_t len, const char *file, struct sb_plan *out,
		  struct sb_error *err)
{
	struct parse p = { file, 0, err };
	int global = 0, in_global = 0, e = 0;
	memset(out, 0, sizeof(*out));
	if (memchr(text, 0, len))
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "%s: not a text file (a NUL byte)",
				    file);
	const char *at = text, *end = text + len;
	while (at < end && !e) {
		const char *nl = memchr(at, '\n', (size_t)(end - at));
		size_t n = nl ? (size_t)(nl - at) : (size_t)(end - at);
		p.line++;
		if (n > 4096) {
			e = bad(&p, "a line longer than 4096 characters");
			break;
		}
		char buf[4097];
		memcpy(buf, at, n);
		buf[n] = 0;
		at += n + (nl != NULL);
		char *s = trim(buf);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			if (out->nsteps && !in_global &&
			    (e = step_end(&p, &out->steps[out->nsteps - 1])))
				break;
			e = section(&p, s, out, &global);
			in_global = e == 1;
			e = e == 1 ? 0 : e;
			continue;
		}
		char *eq = strchr(s, '=');
		if (!eq) {
			e = bad(&p, "'%.80s': expected KEY=VALUE or [SECTION]", s);
			break;
		}
		*eq = 0;
		char *k = trim(s), *v = trim(eq + 1);
		if (!in_global && !out->nsteps) {
			e = bad(&p, "'%s=' before any section: keys go under [global] or a step",
				k);
			break;
		}
		e = in_global ? global_key(&p, k, v, out)
			      : step_key(&p, k, v, &out->steps[out->nsteps - 1]);
	}
	if (!e && out->nsteps && !in_global)
		e = step_end(&p, &out->steps[out->nsteps - 1]);
	if (!e && !out->nsteps)
		e = sb_error_set(err, -EINVAL, SB_ERR_INPUT, "%s: no steps (a section with run=)",
				 file);
	if (e == -ENOMEM)
		sb_error_set(err, e, SB_ERR_ENV, "out of memory");
	return e;
}

void sb_plan_free(struct sb_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nsteps; i++) {
		struct sb_plan_step *st = &p->steps[i];
		for (int a = 0; a < st->argc; a++)
			free(st->argv[a]);
		free(st->argv);
		free(st->run);
		free(st->target);
		free(st->ex);
	}
	for (size_t i = 0; i < p->nlabels; i++)
		free(p->labels[i]);
	free(p->labels);
	free(p->steps);
	free(p->name);
	free(p->description);
	free(p->target);
	free(p->db);
	free(p->html);
	memset(p, 0, sizeof(*p));
}

/* ---- overrides (--set STEP.KEY=VALUE) ---- */

/* st's run made again from its words, each quoted where it has a blank. */
static int join_run(struct sb_plan_step *st)
{
	size_t n = 1;
	for (int a = 0; a < st->argc; a++)
		n += strlen(st->argv[a]) + 3;
	char *r = malloc(n);
	size_t at = 0;
	if (!r)
		return -ENOMEM;
	*r = 0;
	for (int a = 0; a < st->argc; a++) {
		const char *w = st->argv[a];
		const char q = strchr(w, '\'') ? '"' : '\'';
		if (!*w || strpbrk(w, " \t'\""))
			at += (size_t)snprintf(r + at, n - at, "%s%c%s%c", a ? " " : "", q, w, q);
		else
			at += (size_t)snprintf(r + at, n - at, "%s%s", a ? " " : "", w);
	}
	free(st->run);
	st->run = r;
	return 0;
}

/* Replaces or adds --key=value in st's words (value NULL: --key alone);
 * add 0: only where the step has it. 1 done, 0 not there, -ENOMEM. */
static int set_option(struct sb_plan_step *st, const char *key, const char *value, int add)
{
	char *w;
	size_t kl = strlen(key);
	if ((value ? asprintf(&w, "--%s=%s", key, value) : asprintf(&w, "--%s", key)) < 0)
		return -ENOMEM;
	for (int a = 1; a < st->argc; a++) {
		const char *x = st->argv[a];
		if (strncmp(x, "--", 2) || strncmp(x + 2, key, kl) ||
		    (x[2 + kl] != 0 && x[2 + kl] != '='))
			continue;
		free(st->argv[a]);
		st->argv[a] = w;
		return 1;
	}
	if (!add || st->argc >= MAX_WORDS) {
		free(w);
		return add ? -E2BIG : 0;
	}
	st->argv[st->argc++] = w;
	st->argv[st->argc] = NULL;
	return 1;
}

static int set_one(struct parse *p, struct sb_plan_step *st, const char *key, const char *value,
		   int named)
{
	if (!strcmp(key, "run")) {
		struct sb_plan_step tmp;
		memset(&tmp, 0, sizeof(tmp));
		int e = split(p, value, &tmp);
		if (e < 0) {
			for (int a = 0; a < tmp.argc; a++)
				free(tmp.argv[a]);
			free(tmp.argv);
			return e;
		}
		if (strcmp(tmp.argv[0], st->argv[0])) {
			e = bad(p,
				"[%s]: run: '%s' is not this step's command (%s: its criteria "
				"are %s's figures)",
				st->name, tmp.argv[0], st->argv[0], st->argv[0]);
			for (int a = 0; a < tmp.argc; a++)
				free(tmp.argv[a]);
			free(tmp.argv);
			return e;
		}
		for (int a = 0; a < st->argc; a++)
			free(st->argv[a]);
		free(st->argv);
		st->argv = tmp.argv;
		st->argc = tmp.argc;
		return join_run(st) < 0 ? -ENOMEM : 1;
	}
	if (!strcmp(key, "wait")) {
		if (!named && !st->wait_ns)
			return 0;
		if (sb_parse_duration_ns(value, &st->wait_ns) < 0)
			return bad(p, "wait: '%s' is not a time (like 30m, 5s)", value);
		return 1;
	}
	if (!strcmp(key, "optional")) {
		if (strcmp(value, "true") && strcmp(value, "false"))
			return bad(p, "optional: '%s' is not true or false", value);
		st->optional = !strcmp(value, "true");
		return 1;
	}
	int e = set_option(st, key, *value || !named ? value : NULL, named);
	if (e == -E2BIG)
		return bad(p, "[%s]: run: more than %d words", st->name, MAX_WORDS);
	if (e < 0)
		return e;
	return e && join_run(st) < 0 ? -ENOMEM : e;
}

int sb_plan_set(struct sb_plan *pl, const char *spec, struct sb_error *err)
{
	struct parse p = { "--set", 0, err };
	char buf[4096];
	if (strlen(spec) >= sizeof(buf))
		return bad(&p, "'%.60s...' is too long", spec);
	snprintf(buf, sizeof(buf), "%s", spec);
	char *eq = strchr(buf, '='), *dot = strchr(buf, '.');
	if (!eq || !dot || dot > eq || dot == buf || dot + 1 == eq)
		return bad(&p, "'%s' is not STEP.KEY=VALUE (speed.size=16M, '*.runtime=1s')", spec);
	*dot = *eq = 0;
	const char *step = buf, *key = dot + 1, *value = eq + 1;
	for (const char *c = key; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_')
			return bad(&p,
				   "'%s': KEY is an option's name (size, runtime) or run, wait, "
				   "optional",
				   key);
	const int all = !strcmp(step, "*");
	int done = 0, by_command = 1;
	for (size_t i = 0; i < pl->nsteps; i++)
		if (!strcmp(pl->steps[i].name, step))
			by_command = 0;
	for (size_t i = 0; i < pl->nsteps; i++) {
		const struct sb_plan_step *st = &pl->steps[i];
		if (!all && strcmp(by_command ? st->argv[0] : st->name, step))
			continue;
		int e = set_one(&p, &pl->steps[i], key, value, !all);
		if (e < 0) {
			if (e == -ENOMEM)
				sb_error_set(err, e, SB_ERR_ENV, "out of memory");
			return e;
		}
		done += e;
	}
	if (done)
		return 0;
	if (!all) {
		char list[512];
		size_t at = 0;
		for (size_t i = 0; i < pl->nsteps && at < sizeof(list); i++)
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "",
					       pl->steps[i].name);
		return bad(&p, "%s: the plan has no step [%s], nor a step running %s (%s)", spec,
			   step, step, list);
	}
	return bad(&p, "%s: no step has --%s", spec, key);
}
