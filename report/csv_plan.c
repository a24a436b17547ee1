/*
 * A plan's criteria as CSV (storbench report PLAN-DIR --format=csv, or
 * --table=criteria; docs/plans.md): a row per criterion of each step on
 * each target, in the plan's order, as its JSON holds them (plan.json,
 * read by lib/plan's reader): target, step, figure, op, limit, measured
 * (plain numbers in the figure's unit, a word as written; empty when the
 * step never ran or the result lacks the figure), unit, result (pass,
 * fail, skipped, not run) and the criterion's line in the plan file (0:
 * implied, status == pass). A journal alone (no plan.json) has no
 * criteria: the header line only.
 */
#include "report/report.h"

#include <math.h>

static void value(FILE *f, int found, double v, const char *word)
{
	if (word)
		rep_csv_field(f, word, 0);
	else if (found && isfinite(v))
		fprintf(f, ",%.15g", v);
	else
		fputc(',', f);
}

int rep_plan_csv(FILE *f, const struct rep_plan *p)
{
	const struct sb_plan_doc *d = &p->doc;
	fputs("target,step,figure,op,limit,measured,unit,result,line\r\n", f);
	for (size_t i = 0; d->verdict && i < d->nsteps; i++) {
		const struct sb_plan_doc_step *s = &d->steps[i];
		for (size_t k = 0; k < s->ncrit; k++) {
			const struct sb_plan_doc_crit *c = &s->crit[k];
			rep_csv_field(f, s->target, 1);
			rep_csv_field(f, s->step, 0);
			rep_csv_field(f, c->figure, 0);
			rep_csv_field(f, c->op, 0);
			value(f, 1, c->limit, c->limit_word);
			value(f, c->measured_found, c->measured, c->measured_word);
			rep_csv_field(f, c->unit, 0);
			rep_csv_field(f, c->result, 0);
			fprintf(f, ",%u\r\n", c->line);
		}
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}
