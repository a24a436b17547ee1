/*
 * storbench plan's run as it ends (lib/plan's struct sb_plan_result): the
 * verdict first, a table of the criteria (figure, measured, limit, pass
 * or fail), the steps that never ran; the same as the plan's JSON result
 * (lib/plan's writer); JUnit XML with each criterion a test case.
 */
#include "report/markup.h"
#include "report/report.h"

static const struct sb_plan_outcome *at(const struct sb_plan_result *r, size_t ti, size_t si)
{
	return &r->out[ti * r->pl->nsteps + si];
}

/* The step that could not run (NULL: none). */
static const struct sb_plan_outcome *stopped_step(const struct sb_plan_result *r, size_t *si)
{
	for (size_t i = 0; i < r->ntargets * r->pl->nsteps; i++)
		if (r->out[i].stopped) {
			*si = i % r->pl->nsteps;
			return &r->out[i];
		}
	return NULL;
}

/* "OP VALUE", the value as the plan wrote it */
static void limit_text(const struct sb_plan_expect *ex, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s", sb_plan_op_name(ex->op), ex->text);
}

static void text(FILE *f, const struct sb_plan_result *r, const struct sb_plan_tally *t)
{
	size_t si;
	const struct sb_plan_outcome *bad = stopped_step(r, &si);
	fprintf(f, "%s: %s", t->verdict, r->pl->name ? r->pl->name : r->file);
	fprintf(f, " (%zu of %zu criteria passed", t->passed,
		t->passed + t->failed + t->not_run + t->skipped);
	if (t->failed)
		fprintf(f, ", %zu failed", t->failed);
	if (t->skipped)
		fprintf(f, ", %zu skipped: optional steps that could not run", t->skipped);
	if (t->not_run)
		fprintf(f, ", %zu not judged: their steps never ran", t->not_run);
	fprintf(f, ")\n");
	if (bad)
		fprintf(f, "step [%s] on '%s' %s: %s\n", r->pl->steps[si].name, bad->target,
			bad->interrupted ? "was stopped" : "could not run", bad->why);
	for (size_t i = 0; i < r->pl->nlabels; i++)
		fprintf(f, "label: %s\n", r->pl->labels[i]);
	fprintf(f, "directory: %s\n", r->dir);
	for (size_t ti = 0; ti < r->ntargets; ti++) {
		if (r->ntargets > 1) {
			const struct sb_plan_tally *tt = &r->targets_tally[ti];
			fprintf(f, "\ntarget: %s: %s (%zu of %zu criteria passed)\n",
				r->targets[ti], tt->verdict, tt->passed,
				tt->passed + tt->failed + tt->not_run + tt->skipped);
		} else {
			fprintf(f, "\ntarget: %s\n", r->targets[ti]);
		}
		fprintf(f, "%-14s %-30s %14s %16s  %s\n", "step", "figure", "measured", "limit",
			"result");
		for (size_t s = 0; s < r->pl->nsteps; s++) {
			const struct sb_plan_outcome *so = at(r, ti, s);
			const struct sb_plan_step *st = &r->pl->steps[s];
			for (size_t k = 0; k < st->nex; k++) {
				struct sb_plan_judged j;
				char m[64], l[96];
				limit_text(&st->ex[k], l, sizeof(l));
				if (!so->ran) {
					fprintf(f, "%-14s %-30s %14s %16s  %s\n", st->name,
						st->ex[k].figure, "-", l,
						so->skipped ? "skipped" : "not run");
					continue;
				}
				sb_plan_judge(&st->ex[k], &so->figures, &j);
				if (j.found)
					sb_plan_fmt(st->ex[k].unit, j.value, j.word, m, sizeof(m));
				else
					snprintf(m, sizeof(m), "missing");
				fprintf(f, "%-14s %-30s %14s %16s  %s\n", st->name,
					st->ex[k].figure, m, l, j.pass ? "pass" : "FAIL");
			}
		}
		for (size_t s = 0; s < r->pl->nsteps; s++)
			if (at(r, ti, s)->ran)
				fprintf(f, "[%s] result: %s%s\n", r->pl->steps[s].name,
					at(r, ti, s)->result,
					at(r, ti, s)->resumed ? " (before this run)" : "");
			else if (at(r, ti, s)->skipped)
				fprintf(f, "[%s] skipped (optional): %s\n", r->pl->steps[s].name,
					at(r, ti, s)->why);
	}
	int never = 0;
	for (size_t ti = 0; ti < r->ntargets; ti++)
		for (size_t s = 0; s < r->pl->nsteps; s++)
			if (!at(r, ti, s)->ran && !at(r, ti, s)->skipped) {
				fprintf(f, "%s[%s] on '%s'",
					never++ ? ", " : "never ran: ", r->pl->steps[s].name,
					at(r, ti, s)->target);
			}
	if (never)
		fprintf(f, "\n");
}

static const char *state_of(const struct sb_plan_outcome *so)
{
	return so->ran		 ? (so->resumed ? "done before" : "done")
	       : so->interrupted ? "interrupted"
	       : so->stopped	 ? "could not run"
	       : so->skipped	 ? "skipped"
				 : "never ran";
}

/* The run as the plan's result (lib/plan's writer writes it): 0 or
 * -ENOMEM. Its strings are the run's and jd's (one per criterion, freed
 * with d's arrays by doc_free). */
static int doc_of(const struct sb_plan_result *r, struct sb_plan_doc *d, struct sb_plan_judged **jd)
{
	size_t si, ncrit = 0, nj = 0;
	const struct sb_plan_outcome *bad = stopped_step(r, &si);
	const size_t nsteps = r->ntargets * r->pl->nsteps;
	memset(d, 0, sizeof(*d));
	for (size_t s = 0; s < r->pl->nsteps; s++)
		ncrit += r->pl->steps[s].nex * r->ntargets;
	d->steps = calloc(nsteps ? nsteps : 1, sizeof(*d->steps));
	d->targets = calloc(r->ntargets ? r->ntargets : 1, sizeof(*d->targets));
	*jd = calloc(ncrit ? ncrit : 1, sizeof(**jd));
	if (!d->steps || !d->targets || !*jd)
		return -ENOMEM;
	d->file = r->file;
	d->name = r->pl->name;
	d->tally = r->tally;
	d->stopped = bad ? bad->why : NULL;
	d->interrupted = r->interrupted ? r->interrupted_by : NULL;
	d->directory = r->dir;
	d->labels = (const char **)r->pl->labels;
	d->nlabels = r->pl->nlabels;
	for (size_t ti = 0; ti < r->ntargets; ti++) {
		const struct sb_plan_tally *tt = &r->targets_tally[ti];
		struct sb_plan_doc_target *dt = &d->targets[d->ntargets++];
		dt->target = r->targets[ti];
		dt->tally = *tt;
	}
	for (size_t ti = 0; ti < r->ntargets; ti++)
		for (size_t s = 0; s < r->pl->nsteps; s++) {
			const struct sb_plan_outcome *so = at(r, ti, s);
			const struct sb_plan_step *st = &r->pl->steps[s];
			struct sb_plan_doc_step *ds = &d->steps[d->nsteps++];
			ds->step = st->name;
			ds->run = st->run;
			ds->target = so->target;
			ds->state = state_of(so);
			ds->result = so->ran ? so->result : NULL;
			ds->why = so->stopped || so->skipped ? so->why : NULL;
			if (st->nex && !(ds->crit = calloc(st->nex, sizeof(*ds->crit))))
				return -ENOMEM;
			for (size_t k = 0; k < st->nex; k++) {
				const struct sb_plan_expect *ex = &st->ex[k];
				struct sb_plan_doc_crit *c = &ds->crit[ds->ncrit++];
				struct sb_plan_judged *j = &(*jd)[nj++];
				const int word = !strcmp(ex->unit, "word");
				c->figure = ex->figure;
				c->unit = ex->unit;
				c->op = sb_plan_op_name(ex->op);
				c->limit = ex->value;
				c->limit_word = word ? ex->word : NULL;
				c->line = ex->line;
				if (!so->ran) {
					c->result = so->skipped ? "skipped" : "not run";
					continue;
				}
				sb_plan_judge(ex, &so->figures, j);
				c->measured_found = j->found;
				c->measured = j->value;
				c->measured_word = word ? j->word : NULL;
				c->result = j->pass ? "pass" : "fail";
			}
		}
	return 0;
}

static void doc_free(struct sb_plan_doc *d, struct sb_plan_judged *jd)
{
	for (size_t i = 0; d->steps && i < d->nsteps; i++)
		free(d->steps[i].crit);
	free(d->steps);
	free(d->targets);
	free(jd);
}

int rep_plan_run_json(FILE *f, const struct sb_plan_result *r)
{
	struct sb_json j;
	struct sb_plan_doc d;
	struct sb_plan_judged *jd = NULL;
	int e = doc_of(r, &d, &jd);
	if (!e) {
		sb_json_begin(&j, f, 0);
		sb_plan_doc_write(&j, &d);
		fputc('\n', f);
		e = sb_json_end(&j);
	}
	doc_free(&d, jd);
	return e;
}

int rep_plan_run_junit(FILE *f, const struct sb_plan_result *r)
{
	const struct sb_plan_tally *t = &r->tally; /* lib/plan judged them */
	const char *name = r->pl->name ? r->pl->name : r->file;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"");
	rep_html_esc(f, name);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n",
		t->passed + t->failed + t->not_run + t->skipped, t->failed,
		t->not_run + t->skipped);
	for (size_t ti = 0; ti < r->ntargets; ti++)
		for (size_t s = 0; s < r->pl->nsteps; s++) {
			const struct sb_plan_outcome *so = at(r, ti, s);
			const struct sb_plan_step *st = &r->pl->steps[s];
			fprintf(f, "  <testsuite name=\"");
			rep_html_esc(f, st->name);
			fprintf(f, " on ");
			rep_html_esc(f, so->target);
			fprintf(f, "\" tests=\"%zu\">\n", st->nex);
			for (size_t k = 0; k < st->nex; k++) {
				const struct sb_plan_expect *ex = &st->ex[k];
				char l[96], m[64];
				limit_text(ex, l, sizeof(l));
				fprintf(f, "    <testcase classname=\"");
				rep_html_esc(f, name);
				fputc('.', f);
				rep_html_esc(f, st->name);
				fprintf(f, "\" name=\"");
				rep_html_esc(f, ex->figure);
				fputc(' ', f);
				rep_html_esc(f, l);
				fprintf(f, "\"");
				if (!so->ran) {
					fprintf(f, ">\n      <skipped message=\"");
					rep_html_esc(f, so->stopped || so->skipped
							    ? so->why
							    : "the step never ran");
					fprintf(f, "\"/>\n    </testcase>\n");
					continue;
				}
				struct sb_plan_judged jd;
				sb_plan_judge(ex, &so->figures, &jd);
				if (jd.pass) {
					fprintf(f, "/>\n");
					continue;
				}
				if (jd.found)
					sb_plan_fmt(ex->unit, jd.value, jd.word, m, sizeof(m));
				else
					snprintf(m, sizeof(m), "missing from the result");
				fprintf(f, ">\n      <failure message=\"measured ");
				rep_html_esc(f, m);
				fprintf(f, ", expected ");
				rep_html_esc(f, l);
				fprintf(f, "\"/>\n    </testcase>\n");
			}
			fprintf(f, "  </testsuite>\n");
		}
	fprintf(f, "</testsuites>\n");
	return ferror(f) ? -EIO : 0;
}

void rep_plan_run_text(FILE *f, const struct sb_plan_result *r)
{
	text(f, r, &r->tally);
}

int rep_plan_figures_text(FILE *f, const char *command)
{
	size_t n;
	const struct sb_figure_def *d = sb_figure_defs(command, &n);
	if (!d)
		return -ENOENT;
	fprintf(f, "%-28s %-5s %s\n", "figure", "unit", "what");
	fprintf(f, "%-28s %-5s %s\n", "status", "word",
		"the command's own verdict: pass (it exited 0) or fail (1)");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%-28s %-5s %s\n", d[i].name, *d[i].unit ? d[i].unit : "-", d[i].what);
	if (!strcmp(command, "quick"))
		fprintf(f,
			"\nTEST: a test of quick's matrix, '-' for ' ': SEQ1M-Q8T1, SEQ1M-Q1T1, "
			"RND4K-Q32T1,\nRND4K-Q1T1 (--preset=nvme: SEQ128K-Q32T1, RND4K-Q32T16)\n");
	if (!strcmp(command, "sweep"))
		fprintf(f,
			"\nTEST: a test of the sweep as its result names it: write, rewrite, read, "
			"reread,\nrandread, randwrite, bkwdread, recrewrite, strideread, fwrite, "
			"frewrite, fread,\nfreread\n");
	if (!strcmp(command, "run"))
		fprintf(f,
			"\nJOB: a job's name as it is written in the result (--name, a job file's "
			"section)\n");
	if (!strcmp(command, "pts"))
		fprintf(f, "\nPART: a test as the result names it: iops, throughput-1024k, "
			   "latency, wsat\n");
	if (!strcmp(command, "cliff"))
		fprintf(f, "\nRECOVERY: a recovery's number, 1 for --recovery's first time\n");
	return 0;
}
