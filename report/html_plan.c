/*
 * A plan's report in HTML, its first screen (report.h, rep_plan_html_lead):
 * the verdict overall and per target, the criteria (figure, measured,
 * limit, result), the steps that never ran and why, and the steps whose
 * sections follow, drawn by the report's renderers from each step's
 * result.
 */
#include "report/html.h"

static const char *verdict_class(const char *v)
{
	return !strcmp(v, "PASS") ? "pass" : !strcmp(v, "FAIL") ? "fail" : "none";
}

static void row(FILE *f, const char *t, const char *v, size_t steps, uint64_t pass, uint64_t fail,
		uint64_t other)
{
	char buf[4][32];
	const uint64_t n[4] = { steps, pass, fail, other };
	fputs("<tr>", f);
	html_cell(f, t, 0);
	fprintf(f, "<td class=\"%s\">%s</td>",
		!strcmp(v, "PASS")   ? "ok"
		: !strcmp(v, "FAIL") ? "bad"
				     : "",
		v);
	for (size_t i = 0; i < 4; i++) {
		snprintf(buf[i], sizeof(buf[i]), "%llu", (unsigned long long)n[i]);
		html_cell(f, buf[i], 1);
	}
	fputs("</tr>\n", f);
}

static void targets(FILE *f, const struct rep_plan *p)
{
	static const char *const cols[] = { "target",	       "verdict", "steps",
					    "criteria passed", "failed",  "not run or skipped" };
	const struct sb_plan_doc *d = &p->doc;
	fputs("<h3>Targets</h3>\n", f);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 2);
	for (size_t i = 0; i < d->ntargets; i++) { /* the plan's own counts */
		const struct sb_plan_doc_target *t = &d->targets[i];
		const struct rep_plan_target *its = rep_plan_target_of(p, t->target);
		row(f, t->target, t->tally.verdict, its ? its->nsteps : 0, t->tally.passed, t->tally.failed,
		    t->tally.not_run + t->tally.skipped);
	}
	for (size_t i = 0; !d->ntargets && i < p->ntargets; i++) {
		const struct rep_plan_target *t = &p->targets[i];
		row(f, t->target, rep_plan_verdict(p, t->target), t->nsteps, t->pass, t->fail,
		    t->other);
	}
	fputs("</tbody></table>\n", f);
}

static void criteria(FILE *f, const struct rep_plan *p)
{
	static const char *const cols[] = { "step",	"target", "figure",
					    "measured", "limit",  "result" };
	const struct sb_plan_doc *d = &p->doc;
	fputs("<h3>Criteria</h3>\n<div class=\"wide\">", f);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 3);
	for (size_t i = 0; i < d->nsteps; i++)
		for (size_t k = 0; k < d->steps[i].ncrit; k++) {
			const struct sb_plan_doc_crit *c = &d->steps[i].crit[k];
			char m[64], l[96];
			fputs("<tr>", f);
			html_cell(f, d->steps[i].step, 0);
			html_cell(f, d->steps[i].target, 0);
			fputs("<td><code>", f);
			rep_html_esc(f, c->figure);
			fputs("</code></td>", f);
			html_cell(f,
				  rep_plan_value(c->unit, c->measured_found, c->measured,
						 c->measured_word, m, sizeof(m)),
				  1);
			html_cell(f, rep_plan_limit(c, l, sizeof(l)), 1);
			fprintf(f, "<td class=\"%s\">",
				!strcmp(c->result, "pass")   ? "ok"
				: !strcmp(c->result, "fail") ? "bad"
							     : "");
			rep_html_esc(f, !strcmp(c->result, "fail") ? "FAIL" : c->result);
			fputs("</td></tr>\n", f);
		}
	fputs("</tbody></table></div>\n", f);
}

/* The steps that did not run, and why. */
static void unrun(FILE *f, const struct rep_plan *p)
{
	const struct sb_plan_doc *d = &p->doc;
	int any = 0;
	for (size_t i = 0; i < d->nsteps; i++) {
		const struct sb_plan_doc_step *s = &d->steps[i];
		if (!strcmp(s->state, "done") || !strcmp(s->state, "done before"))
			continue;
		fputs(any++ ? "" : "<h3>Steps that did not run</h3>\n<ul class=\"why\">", f);
		fputs("<li>[", f);
		rep_html_esc(f, s->step);
		fputs("] on <code>", f);
		rep_html_esc(f, s->target);
		fputs("</code>: ", f);
		rep_html_esc(f, s->state);
		if (s->why) { /* on a line of its own: a long reason wraps under itself */
			fputs("<br><span>", f);
			rep_html_esc(f, s->why);
			fputs("</span>", f);
		}
		fputs("</li>\n", f);
	}
	if (any)
		fputs("</ul>\n", f);
}

/* The steps, each linked to its section (docs[j] is the section r<j+1>). */
static void steps(FILE *f, const struct rep_plan *p, struct rep_doc *const *docs, size_t n)
{
	const struct sb_plan_doc *d = &p->doc;
	fputs("<h3>Steps</h3>\n<nav class=\"toc\"><ol>", f);
	for (size_t i = 0, from = 0; i < d->nsteps; i++) {
		size_t j = from; /* the docs are the steps' in order: looked for from the last */
		while (j < n && docs[j] != p->steps[i])
			j++;
		for (j = j < n ? j : 0; j < n && docs[j] != p->steps[i]; j++)
			;
		from = j < n ? j + 1 : from;
		fputs("<li>", f);
		if (p->steps[i] && j < n)
			fprintf(f, "<a href=\"#r%zu\">", j + 1);
		fputs("[", f);
		rep_html_esc(f, d->steps[i].step);
		fputs("] ", f);
		rep_html_esc(f, d->steps[i].run);
		fputs(" on ", f);
		rep_html_esc(f, d->steps[i].target);
		fputs(p->steps[i] && j < n ? "</a>" : "", f);
		fputs(" &mdash; ", f);
		rep_html_esc(f, d->steps[i].state);
		if (p->steps[i])
			html_soak_toc_verdict(f, p->steps[i]);
		fputs("</li>", f);
	}
	fputs("</ol></nav>\n", f);
}

void rep_plan_html_lead(FILE *f, const struct rep_plan *p, struct rep_doc *const *docs, size_t n)
{
	const struct sb_plan_doc *d = &p->doc;
	const char *v = rep_plan_verdict(p, NULL);
	char h[200];
	fputs("<h1>Qualification plan: ", f);
	rep_html_esc(f, d->name ? d->name : d->file ? d->file : p->dir);
	fputs("</h1>\n<p class=\"meta\">", f);
	if (d->file) {
		fputs("Plan <code>", f);
		rep_html_esc(f, d->file);
		fputs("</code>, ", f);
	}
	fputs("directory <code>", f);
	rep_html_esc(f, d->directory ? d->directory : p->dir);
	fputs("</code>", f);
	for (size_t i = 0; i < d->nlabels; i++) {
		fputs(i ? ", " : "; labels: ", f);
		rep_html_esc(f, d->labels[i]);
	}
	fputs(".</p>\n", f);
	fprintf(f, "<div class=\"verdict %s\" id=\"verdict\"><b>%s</b>", verdict_class(v), v);
	rep_html_esc(f, rep_plan_headline(p, h, sizeof(h)));
	fputs("</div>\n", f);
	if (d->interrupted) { /* why a step stopped: the steps that did not run say */
		fputs("<p class=\"bad\">interrupted by ", f);
		rep_html_esc(f, d->interrupted);
		fputs("</p>\n", f);
	}
	if (p->nnotes) {
		fputs("<ul class=\"notes\">", f);
		for (size_t i = 0; i < p->nnotes; i++) {
			fputs("<li>", f);
			rep_html_esc(f, p->notes[i]);
			fputs("</li>", f);
		}
		fputs("</ul>\n", f);
	}
	unrun(f, p);
	if (d->nsteps)
		targets(f, p);
	if (d->tally.verdict)
		criteria(f, p);
	steps(f, p, docs, n);
}
