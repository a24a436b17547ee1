/*
 * A plan's result read back (plan.h, struct sb_plan_doc): what
 * plan_json.c writes, each value's type and range checked and the words
 * known, what is wrong named by its key path. docs/plans.md "The result"
 * describes the keys.
 */
#include "lib/plan/plan.h"

#include "lib/json/json_items.h"

#define COUNT_MAX 1000000000u /* criteria, a line */
#define NUM_MAX 1e300	      /* a limit, a measured value */
#define STEPS_MAX 100000
#define CRIT_MAX 100000
#define LABELS_MAX 10000

static const char *const verdicts[] = { "PASS", "FAIL", "INCOMPLETE", "INTERRUPTED" };
static const char *const states[] = { "done",	       "done before", "interrupted",
				      "could not run", "skipped",     "never ran" };
static const char *const results[] = { "pass", "fail", "skipped", "not run" };
static const char *const ops[] = { ">=", "<=", ">", "<", "==", "!=" };

/* A string member, or null (*out NULL) where nullable. */
static void str(struct sb_jtake *t, const struct sb_jv *o, const char *key, int nullable,
		const char **out)
{
	const struct sb_jv *v = sb_jv_get(o, key);
	*out = NULL;
	if (nullable && sb_jv_is(v, SB_JV_NULL))
		return;
	if (!sb_jv_is(v, SB_JV_STR))
		sb_jtake_bad(t, key, nullable ? "a string or null" : "a string", v);
	else
		*out = sb_jv_str(v);
}

/* A string member that is one of the n words w (what: how to say them). */
static void word(struct sb_jtake *t, const struct sb_jv *o, const char *key, const char *const *w,
		 size_t n, const char *what, const char **out)
{
	str(t, o, key, 0, out);
	if (t->e)
		return;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(*out, w[i]))
			return;
	*out = NULL;
	sb_jtake_bad(t, key, what, sb_jv_get(o, key));
}

static int criterion(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	struct sb_plan_doc_crit *c = &((struct sb_plan_doc_step *)ctx)->crit[i];
	uint64_t line = 0;
	str(t, v, "figure", 0, &c->figure);
	str(t, v, "unit", 0, &c->unit);
	word(t, v, "op", ops, SB_ARRAY_SIZE(ops), "one of >= <= > < == !=", &c->op);
	if (t->e)
		return t->e;
	const int is_word = !strcmp(c->unit, "word");
	if (is_word)
		str(t, v, "limit", 0, &c->limit_word);
	else
		sb_jtake_num(t, v, "limit", 0, -NUM_MAX, NUM_MAX, &c->limit);
	if (!sb_jtake_u64(t, v, "line", SB_JTAKE_OPTIONAL, COUNT_MAX, &line))
		c->line = (unsigned)line;
	const struct sb_jv *m = sb_jv_get(v, "measured");
	if (sb_jv_is(m, SB_JV_NULL))
		c->measured_found = 0;
	else if (is_word) {
		str(t, v, "measured", 1, &c->measured_word);
		c->measured_found = !t->e;
	} else if (!sb_jtake_num(t, v, "measured", 0, -NUM_MAX, NUM_MAX, &c->measured))
		c->measured_found = 1;
	word(t, v, "result", results, SB_ARRAY_SIZE(results), "pass, fail, skipped or not run",
	     &c->result);
	return t->e;
}

/* A count of criteria. */
static void count(struct sb_jtake *t, const struct sb_jv *o, const char *key, size_t *out)
{
	uint64_t n = 0;
	sb_jtake_u64(t, o, key, 0, COUNT_MAX, &n);
	*out = (size_t)n;
}

/* A tally's members (the plan's and each target's): its one reader. */
static void tally(struct sb_jtake *t, const struct sb_jv *o, struct sb_plan_tally *out)
{
	word(t, o, "verdict", verdicts, SB_ARRAY_SIZE(verdicts),
	     "PASS, FAIL, INCOMPLETE or INTERRUPTED", &out->verdict);
	count(t, o, "criteria_passed", &out->passed);
	count(t, o, "criteria_failed", &out->failed);
	count(t, o, "criteria_not_run", &out->not_run);
	count(t, o, "criteria_skipped", &out->skipped);
}

static int target(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	struct sb_plan_doc_target *d = &((struct sb_plan_doc *)ctx)->targets[i];
	str(t, v, "target", 0, &d->target);
	tally(t, v, &d->tally);
	return t->e;
}

/* Each target's verdict (written since --parallel: optional). */
static void targets(struct sb_jtake *t, const struct sb_jv *plan, struct sb_plan_doc *d)
{
	const struct sb_jv *a = sb_jtake_arr(t, plan, "targets", SB_JTAKE_OPTIONAL);
	if (!a || !sb_jv_len(a))
		return;
	if (!(d->targets = calloc(sb_jv_len(a), sizeof(*d->targets)))) {
		t->e = sb_error_set(t->err, -ENOMEM, SB_ERR_ENV, "out of memory");
		return;
	}
	sb_jtake_objects(t, plan, "targets", 0, STEPS_MAX, &d->ntargets, target, d);
}

static int step(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	struct sb_plan_doc_step *s = &((struct sb_plan_doc *)ctx)->steps[i];
	const struct sb_jv *crit;
	str(t, v, "step", 0, &s->step);
	str(t, v, "run", 0, &s->run);
	str(t, v, "target", 0, &s->target);
	word(t, v, "state", states, SB_ARRAY_SIZE(states),
	     "done, done before, interrupted, could not run, skipped or never ran", &s->state);
	str(t, v, "result", 1, &s->result);
	str(t, v, "why", 1, &s->why);
	if (t->e || !(crit = sb_jtake_arr(t, v, "criteria", 0)))
		return t->e;
	if (sb_jv_len(crit) && !(s->crit = calloc(sb_jv_len(crit), sizeof(*s->crit))))
		return t->e = sb_error_set(t->err, -ENOMEM, SB_ERR_ENV, "out of memory");
	sb_jtake_objects(t, v, "criteria", 0, CRIT_MAX, &s->ncrit, criterion, s);
	return t->e;
}

static void labels(struct sb_jtake *t, const struct sb_jv *plan, struct sb_plan_doc *d)
{
	const struct sb_jv *a = sb_jtake_arr(t, plan, "labels", 0);
	if (!a)
		return;
	if (sb_jv_len(a) > LABELS_MAX) {
		sb_jtake_bad(t, "labels", "at most 10000 labels", a);
		return;
	}
	if (sb_jv_len(a) && !(d->labels = calloc(sb_jv_len(a), sizeof(*d->labels)))) {
		t->e = sb_error_set(t->err, -ENOMEM, SB_ERR_ENV, "out of memory");
		return;
	}
	const size_t top = sb_jtake_down(t, "labels");
	for (size_t i = 0; i < sb_jv_len(a) && !t->e; i++) {
		const struct sb_jv *l = sb_jv_at(a, i);
		const size_t at = sb_jtake_item(t, i);
		if (!(d->labels[i] = sb_jv_str(l)))
			sb_jtake_bad(t, NULL, "a string", l);
		sb_jtake_up(t, at);
	}
	sb_jtake_up(t, top);
	d->nlabels = t->e ? 0 : sb_jv_len(a);
}

int sb_plan_result_is(const struct sb_jv *root)
{
	const char *c = sb_jv_str(sb_jv_get(sb_jv_get(root, "storbench"), "command"));
	return c && !strcmp(c, "plan") && sb_jv_get(root, "plan");
}

int sb_plan_journal_is(const struct sb_jv *root)
{
	return sb_jv_is(sb_jv_get(root, "storbench_plan_journal"), SB_JV_NUM);
}

int sb_plan_result_read(const struct sb_jv *root, struct sb_plan_doc *d, struct sb_error *err)
{
	struct sb_jtake t;
	const struct sb_jv *sb, *plan, *steps;
	const char *command = NULL;
	memset(d, 0, sizeof(*d));
	sb_jtake_init(&t, err);
	if (!sb_jv_is(root, SB_JV_OBJ))
		return sb_jtake_bad(&t, NULL, "an object", root);
	if (!(sb = sb_jtake_obj(&t, root, "storbench", 0)))
		return t.e;
	const size_t top = sb_jtake_down(&t, "storbench");
	str(&t, sb, "version", 0, &d->version);
	str(&t, sb, "command", 0, &command);
	if (!t.e && strcmp(command, "plan"))
		sb_jtake_bad(&t, "command", "plan", sb_jv_get(sb, "command"));
	sb_jtake_up(&t, top);
	if (t.e || !(plan = sb_jtake_obj(&t, root, "plan", 0)))
		return t.e;
	sb_jtake_down(&t, "plan");
	str(&t, plan, "file", 0, &d->file);
	str(&t, plan, "name", 1, &d->name);
	tally(&t, plan, &d->tally);
	str(&t, plan, "stopped", 1, &d->stopped);
	str(&t, plan, "interrupted", 1, &d->interrupted);
	str(&t, plan, "directory", 0, &d->directory);
	labels(&t, plan, d);
	targets(&t, plan, d);
	if (t.e || !(steps = sb_jtake_arr(&t, plan, "steps", 0)))
		return t.e;
	if (sb_jv_len(steps) && !(d->steps = calloc(sb_jv_len(steps), sizeof(*d->steps))))
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	/* every step's array is freed: nsteps counts them while they are read */
	d->nsteps = sb_jv_len(steps) <= STEPS_MAX ? sb_jv_len(steps) : 0;
	size_t n = 0;
	sb_jtake_objects(&t, plan, "steps", 0, STEPS_MAX, &n, step, d);
	if (t.e)
		return t.e;
	d->nsteps = n;
	return 0;
}

void sb_plan_doc_free(struct sb_plan_doc *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nsteps; i++)
		free(d->steps[i].crit);
	free(d->steps);
	free(d->targets);
	free(d->labels);
	memset(d, 0, sizeof(*d));
}
