/*
 * A plan's report in text, its first lines (report.h, rep_plan_text_lead):
 * the verdict and how many criteria passed, why the plan stopped, the
 * verdict per target and its criteria (measured, limit, result), the
 * steps that did not run; each step's own report follows.
 */
#include "report/report.h"

static void target(FILE *f, const struct rep_plan *p, const struct rep_plan_target *t)
{
	const struct sb_plan_doc *d = &p->doc;
	struct rep_vis_ring v = { .k = 0 };
	fprintf(f, "\ntarget: %s: %s\n", rep_vs(&v, t->target),
		rep_vs(&v, d->tally.verdict ? t->verdict : "NO VERDICT"));
	if (d->tally.verdict)
		fprintf(f, "%-14s %-30s %14s %16s  %s\n", "step", "figure", "measured", "limit",
			"result");
	for (size_t i = 0; i < t->nsteps; i++) {
		const struct sb_plan_doc_step *s = &d->steps[t->step[i]];
		for (size_t k = 0; k < s->ncrit; k++) {
			const struct sb_plan_doc_crit *c = &s->crit[k];
			char m[64], l[96];
			rep_plan_value(c->unit, c->measured_found, c->measured, c->measured_word, m,
				       sizeof(m));
			fprintf(f, "%-14s %-30s %14s %16s  %s\n", rep_vs(&v, s->step),
				rep_vs(&v, c->figure), rep_vs(&v, m),
				rep_vs(&v, rep_plan_limit(c, l, sizeof(l))),
				rep_vs(&v, !strcmp(c->result, "fail") ? "FAIL" : c->result));
		}
	}
	for (size_t i = 0; i < t->nsteps; i++) {
		const struct sb_plan_doc_step *s = &d->steps[t->step[i]];
		const char *what = s->result ? s->result : s->why;
		fprintf(f, "[%s] %s%s", rep_vs(&v, s->step), rep_vs(&v, s->state),
			what ? ": " : "");
		rep_vis_put(f, what);
		fputc('\n', f);
	}
}

void rep_plan_text_lead(FILE *f, const struct rep_plan *p)
{
	const struct sb_plan_doc *d = &p->doc;
	char h[200];
	struct rep_vis_ring v = { .k = 0 };
	fprintf(f, "%s: %s (%s)\n", rep_vs(&v, rep_plan_verdict(p, NULL)),
		rep_vs(&v, d->name   ? d->name
			   : d->file ? d->file
				     : p->dir),
		rep_plan_headline(p, h, sizeof(h)));
	if (d->interrupted)
		fprintf(f, "interrupted by %s\n", rep_vs(&v, d->interrupted));
	else if (d->stopped)
		fputs("stopped: ", f), rep_vis_put(f, d->stopped), fputc('\n', f);
	for (size_t i = 0; i < d->nlabels; i++)
		fprintf(f, "label: %s\n", rep_vs(&v, d->labels[i]));
	fprintf(f, "directory: %s\n", rep_vs(&v, d->directory ? d->directory : p->dir));
	for (size_t i = 0; i < p->nnotes; i++)
		fputs("note: ", f), rep_vis_put(f, p->notes[i]), fputc('\n', f);
	for (size_t i = 0; i < p->ntargets; i++)
		target(f, p, &p->targets[i]);
}
