/*
 * A plan's result as JSON (plan.h, struct sb_plan_doc): the one writer of
 * its schema, read back by plan_read.c. docs/plans.md "The result"
 * describes the keys.
 */
#include "lib/plan/plan.h"

#include <math.h>

#include "lib/json/json_write.h"

static void criterion(struct sb_json *j, const struct sb_plan_doc_crit *c)
{
	sb_json_obj_open(j, NULL);
	sb_json_str(j, "figure", c->figure);
	sb_json_str(j, "unit", c->unit);
	sb_json_str(j, "op", c->op);
	if (c->limit_word)
		sb_json_str(j, "limit", c->limit_word);
	else
		sb_json_double(j, "limit", c->limit);
	if (c->line)
		sb_json_u64(j, "line", c->line);
	if (!c->measured_found)
		sb_json_null(j, "measured");
	else if (c->measured_word)
		sb_json_str(j, "measured", c->measured_word);
	else if (isfinite(c->measured))
		sb_json_double(j, "measured", c->measured);
	else
		sb_json_null(j, "measured");
	sb_json_str(j, "result", c->result);
	sb_json_obj_close(j);
}

/* A tally's members (the plan's and each target's): its one writer. */
static void tally(struct sb_json *j, const struct sb_plan_tally *t)
{
	sb_json_str(j, "verdict", t->verdict);
	sb_json_u64(j, "criteria_passed", t->passed);
	sb_json_u64(j, "criteria_failed", t->failed);
	sb_json_u64(j, "criteria_not_run", t->not_run);
	sb_json_u64(j, "criteria_skipped", t->skipped);
}

void sb_plan_doc_section(struct sb_json *j, const char *key, const struct sb_plan_doc *d,
			 void (*step)(void *ctx, struct sb_json *j, size_t i), void *ctx)
{
	sb_json_obj_open(j, key);
	sb_json_str(j, "file", d->file);
	sb_json_str(j, "name", d->name);
	tally(j, &d->tally);
	sb_json_str(j, "stopped", d->stopped);
	sb_json_str(j, "interrupted", d->interrupted);
	sb_json_str(j, "directory", d->directory);
	sb_json_arr_open(j, "labels");
	for (size_t i = 0; i < d->nlabels; i++)
		sb_json_str(j, NULL, d->labels[i]);
	sb_json_arr_close(j);
	sb_json_arr_open(j, "targets"); /* each target's verdict */
	for (size_t i = 0; i < d->ntargets; i++) {
		const struct sb_plan_doc_target *t = &d->targets[i];
		sb_json_obj_open(j, NULL);
		sb_json_str(j, "target", t->target);
		tally(j, &t->tally);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	sb_json_arr_open(j, "steps");
	for (size_t s = 0; s < d->nsteps; s++) {
		const struct sb_plan_doc_step *st = &d->steps[s];
		sb_json_obj_open(j, NULL);
		sb_json_str(j, "step", st->step);
		sb_json_str(j, "run", st->run);
		sb_json_str(j, "target", st->target);
		sb_json_str(j, "state", st->state);
		sb_json_str(j, "result", st->result);
		sb_json_str(j, "why", st->why);
		sb_json_arr_open(j, "criteria");
		for (size_t k = 0; k < st->ncrit; k++)
			criterion(j, &st->crit[k]);
		sb_json_arr_close(j);
		if (step)
			step(ctx, j, s);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	sb_json_obj_close(j);
}

void sb_plan_doc_write(struct sb_json *j, const struct sb_plan_doc *d)
{
	sb_json_obj_open(j, NULL);
	sb_json_obj_open(j, "storbench");
	sb_json_str(j, "version", d->version ? d->version : sb_version());
	sb_json_str(j, "command", "plan");
	sb_json_obj_close(j);
	sb_plan_doc_section(j, "plan", d, NULL, NULL);
	sb_json_obj_close(j);
}
