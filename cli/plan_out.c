/*
 * storbench plan's report (plan_out.h): the verdict first, a table of
 * the criteria (figure, measured, limit, pass or fail), the steps that
 * never ran; the same as JSON; JUnit XML with each criterion a test case.
 */
#include "cli/plan_out.h"

#include <math.h>

struct tally {
	size_t pass, fail, unrun, skip;
};

static const struct sb_plan_outcome *at(const struct sb_plan_result *r, size_t ti, size_t si)
{
	return &r->out[ti * r->pl->nsteps + si];
}

/* the run's counts (lib/plan judged them) */
static struct tally count(const struct sb_plan_result *r)
{
	const struct tally t = { r->tally.passed, r->tally.failed, r->tally.not_run,
				 r->tally.skipped };
	return t;
}

static const char *verdict(const struct sb_plan_result *r, const struct tally *t)
{
	(void)t;
	return r->tally.verdict;
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

static void text(FILE *f, const struct sb_plan_result *r, const struct tally *t)
{
	size_t si;
	const struct sb_plan_outcome *bad = stopped_step(r, &si);
	fprintf(f, "%s: %s", verdict(r, t), r->pl->name ? r->pl->name : r->file);
	fprintf(f, " (%zu of %zu criteria passed", t->pass, t->pass + t->fail + t->unrun + t->skip);
	if (t->fail)
		fprintf(f, ", %zu failed", t->fail);
	if (t->skip)
		fprintf(f, ", %zu skipped: optional steps that could not run", t->skip);
	if (t->unrun)
		fprintf(f, ", %zu not judged: their steps never ran", t->unrun);
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
			fprintf(f, "\ntarget: %s: %s (%zu of %zu criteria passed)\n", r->targets[ti],
				tt->verdict, tt->passed,
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

static void json(struct sb_json *j, const struct sb_plan_result *r, const struct tally *t)
{
	size_t si;
	const struct sb_plan_outcome *bad = stopped_step(r, &si);
	sb_json_obj_open(j, NULL);
	sb_json_obj_open(j, "storbench");
	sb_json_str(j, "version", sb_version());
	sb_json_str(j, "command", "plan");
	sb_json_obj_close(j);
	sb_json_obj_open(j, "plan");
	sb_json_str(j, "file", r->file);
	sb_json_str(j, "name", r->pl->name);
	sb_json_str(j, "verdict", verdict(r, t));
	sb_json_u64(j, "criteria_passed", t->pass);
	sb_json_u64(j, "criteria_failed", t->fail);
	sb_json_u64(j, "criteria_not_run", t->unrun);
	sb_json_u64(j, "criteria_skipped", t->skip);
	sb_json_str(j, "stopped", bad ? bad->why : NULL);
	sb_json_str(j, "interrupted", r->interrupted ? r->interrupted_by : NULL);
	sb_json_str(j, "directory", r->dir);
	sb_json_arr_open(j, "labels");
	for (size_t i = 0; i < r->pl->nlabels; i++)
		sb_json_str(j, NULL, r->pl->labels[i]);
	sb_json_arr_close(j);
	sb_json_arr_open(j, "targets"); /* each target's verdict */
	for (size_t ti = 0; ti < r->ntargets; ti++) {
		const struct sb_plan_tally *tt = &r->targets_tally[ti];
		sb_json_obj_open(j, NULL);
		sb_json_str(j, "target", r->targets[ti]);
		sb_json_str(j, "verdict", tt->verdict);
		sb_json_u64(j, "criteria_passed", tt->passed);
		sb_json_u64(j, "criteria_failed", tt->failed);
		sb_json_u64(j, "criteria_not_run", tt->not_run);
		sb_json_u64(j, "criteria_skipped", tt->skipped);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	sb_json_arr_open(j, "steps");
	for (size_t ti = 0; ti < r->ntargets; ti++)
		for (size_t s = 0; s < r->pl->nsteps; s++) {
			const struct sb_plan_outcome *so = at(r, ti, s);
			const struct sb_plan_step *st = &r->pl->steps[s];
			sb_json_obj_open(j, NULL);
			sb_json_str(j, "step", st->name);
			sb_json_str(j, "run", st->run);
			sb_json_str(j, "target", so->target);
			sb_json_str(j, "state",
				    so->ran	      ? (so->resumed ? "done before" : "done")
				    : so->interrupted ? "interrupted"
				    : so->stopped     ? "could not run"
				    : so->skipped     ? "skipped"
						      : "never ran");
			sb_json_str(j, "result", so->ran ? so->result : NULL);
			sb_json_str(j, "why", so->stopped || so->skipped ? so->why : NULL);
			sb_json_arr_open(j, "criteria");
			for (size_t k = 0; k < st->nex; k++) {
				const struct sb_plan_expect *ex = &st->ex[k];
				struct sb_plan_judged jd;
				sb_json_obj_open(j, NULL);
				sb_json_str(j, "figure", ex->figure);
				sb_json_str(j, "unit", ex->unit);
				sb_json_str(j, "op", sb_plan_op_name(ex->op));
				if (!strcmp(ex->unit, "word"))
					sb_json_str(j, "limit", ex->word);
				else
					sb_json_double(j, "limit", ex->value);
				if (ex->line)
					sb_json_u64(j, "line", ex->line);
				if (so->ran) {
					sb_plan_judge(ex, &so->figures, &jd);
					if (!jd.found)
						sb_json_null(j, "measured");
					else if (!strcmp(ex->unit, "word"))
						sb_json_str(j, "measured", jd.word);
					else if (isfinite(jd.value))
						sb_json_double(j, "measured", jd.value);
					else
						sb_json_null(j, "measured");
					sb_json_str(j, "result", jd.pass ? "pass" : "fail");
				} else {
					sb_json_null(j, "measured");
					sb_json_str(j, "result",
						    so->skipped ? "skipped" : "not run");
				}
				sb_json_obj_close(j);
			}
			sb_json_arr_close(j);
			sb_json_obj_close(j);
		}
	sb_json_arr_close(j);
	sb_json_obj_close(j);
	sb_json_obj_close(j);
}

static int write_json(FILE *f, const void *ctx)
{
	const struct sb_plan_result *r = ctx;
	struct tally t = count(r);
	struct sb_json j;
	sb_json_begin(&j, f, 0);
	json(&j, r, &t);
	fputc('\n', f);
	return sb_json_end(&j);
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, f);
		}
}

static int write_junit(FILE *f, const void *ctx)
{
	const struct sb_plan_result *r = ctx;
	struct tally t = count(r);
	const char *name = r->pl->name ? r->pl->name : r->file;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"");
	xml_text(f, name);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n",
		t.pass + t.fail + t.unrun + t.skip, t.fail, t.unrun + t.skip);
	for (size_t ti = 0; ti < r->ntargets; ti++)
		for (size_t s = 0; s < r->pl->nsteps; s++) {
			const struct sb_plan_outcome *so = at(r, ti, s);
			const struct sb_plan_step *st = &r->pl->steps[s];
			fprintf(f, "  <testsuite name=\"");
			xml_text(f, st->name);
			fprintf(f, " on ");
			xml_text(f, so->target);
			fprintf(f, "\" tests=\"%zu\">\n", st->nex);
			for (size_t k = 0; k < st->nex; k++) {
				const struct sb_plan_expect *ex = &st->ex[k];
				char l[96], m[64];
				limit_text(ex, l, sizeof(l));
				fprintf(f, "    <testcase classname=\"");
				xml_text(f, name);
				fputc('.', f);
				xml_text(f, st->name);
				fprintf(f, "\" name=\"");
				xml_text(f, ex->figure);
				fputc(' ', f);
				xml_text(f, l);
				fprintf(f, "\"");
				if (!so->ran) {
					fprintf(f, ">\n      <skipped message=\"");
					xml_text(f, so->stopped || so->skipped
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
				xml_text(f, m);
				fprintf(f, ", expected ");
				xml_text(f, l);
				fprintf(f, "\"/>\n    </testcase>\n");
			}
			fprintf(f, "  </testsuite>\n");
		}
	fprintf(f, "</testsuites>\n");
	return ferror(f) ? -EIO : 0;
}

int plan_report(const struct sb_plan_result *r, int json_stdout, const char *output,
		const char *junit)
{
	struct tally t = count(r);
	int rc = 0;
	if (json_stdout)
		rc = cli_write_file(NULL, write_json, r);
	else
		text(stdout, r, &t);
	if (!rc && output)
		rc = cli_write_file(output, write_json, r);
	if (!rc && junit)
		rc = cli_write_file(junit, write_junit, r);
	if (rc)
		return rc;
	if (r->stopped)
		return r->stopped >= SB_EXIT_SIGNAL || r->stopped == SB_EXIT_USAGE ? r->stopped
										   : SB_EXIT_ENV;
	return t.fail ? SB_EXIT_FAIL : SB_EXIT_OK;
}
