/*
 * storbench report: renders results (storbench JSON and JSON Lines logs,
 * fio's JSON) as text, CSV, HTML with charts, XLSX, or the analysis as
 * JSON. Every input is read and checked before the output file is
 * created (what had to be left out of one is said on stderr, a line per
 * note); the output is written under a temporary name and renamed, so a
 * failed report leaves nothing half-written behind.
 */
#include "cli/report_files.h"

enum { O_TABLE };

static const struct cli_opt report_opts[] = {
	{ "table", OPT_ARG, O_TABLE, "NAME",
	  "CSV: measurements, intervals, summary, percentiles, "
	  "records, verify (blocks per class), ranges (bad ranges), cliff (its series, "
	  "steps and recoveries) or iozone (soak --workload=iozone: a row per iteration "
	  "and cell), ranks (each rank of a run under mpirun), soak_ranks, meta_ranks, "
	  "meta_skew or verify_ranks (each rank of soak, meta, verify under mpirun), "
	  "criteria (a plan's: a row per criterion) [a plan's criteria, else measurements]" },
	{ NULL, 0, 0, NULL, NULL },
};

struct report_ctx {
	const char *output;
	const char *format; /* "text", "html", "csv", "xlsx", "json" */
	enum rep_table table;
	int table_set;
	int criteria; /* --table=criteria: a plan's */
};

static int report_set(void *vc, int id, const char *v, char *hint, size_t hl)
{
	struct report_ctx *c = vc;
	switch (id) {
	case O_TABLE:
		c->table_set = 1;
		if ((c->criteria = !strcmp(v, "criteria")))
			return 0;
		for (int t = 0; t < REP_T_N; t++)
			if (!strcmp(v, rep_table_names[t])) {
				c->table = (enum rep_table)t;
				return 0;
			}
		for (size_t t = 0, at = 0; t < REP_T_N && at < hl; t++)
			at += (size_t)snprintf(hint + at, hl - at, "%s%s", t ? ", " : "",
					       rep_table_names[t]);
		if (strlen(hint) + 1 < hl) /* a plan's: named last */
			snprintf(hint + strlen(hint), hl - strlen(hint), " or criteria");
		return -EINVAL;
	}
	return -EINVAL;
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench report [options] RESULT... [-o FILE]\n\n"
	       "Renders results: storbench's JSON (any command), its JSON Lines logs, and fio's\n"
	       "JSON (fio --output-format=json). HTML is one self-contained file with charts;\n"
	       "CSV is one long table (--table); XLSX has a sheet per table and Excel charts;\n"
	       "text goes to the terminal; JSON is the analysis as data (a soak's outliers and\n"
	       "change points, every test's repeat statistics) for scripts and CI.\n"
	       "A soak's report opens on its verdict and why (each failed iteration and what\n"
	       "failed, changes of level and outliers), its settings and statistics: the\n"
	       "HTML's first screen, the text's first lines, the JSON's top level, the\n"
	       "XLSX's first sheet.\n"
	       "A plan's directory (storbench plan; or its JSON, or its journal.json) is one\n"
	       "report of the plan: its verdict per target, the steps that did not run, the\n"
	       "criteria, then each step's own report (XLSX: a first Plan sheet; CSV: the\n"
	       "criteria, a row each, unless --table names another table).\n"
	       "Files are read record by record: a day of 1-second soak iterations renders in\n"
	       "tens of MiB. A log line that cannot be used (cut short, not JSON) is left out\n"
	       "with a note on stderr naming the file and the line.\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench report quick.json -o quick.html\n"
	       "  storbench report run.json --table=intervals -o intervals.csv\n"
	       "  storbench report a.json b.json fio.json -o all.xlsx\n"
	       "  storbench report soak.jsonl --format=json\n"
	       "  storbench report smoke-plan -o smoke.html\n");
	cli_print_exit_status(stdout, co->cmd);
}

static int check_format(const struct cli_command *cmd, const struct cli_shared *sh,
			struct report_ctx *c)
{
	const int rc = cli_output_format(cmd, sh, ".html, .csv, .xlsx, .json or .txt", &c->format);
	if (rc)
		return rc;
	if (c->table_set && strcmp(c->format, "csv")) {
		sb_err("--table: picks the table of a CSV report (-o FILE.csv or --format=csv), "
		       "not of a %s one",
		       c->format);
		return SB_EXIT_USAGE;
	}
	return 0;
}

struct render_ctx {
	const struct report_ctx *c;
	const struct rep_plan *plan; /* NULL: none */
	struct rep_doc *const *docs;
	size_t n;
};

/* A result that could not be read again for a table says why, once. */
static int reread_failed(const struct render_ctx *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->docs[i]->src->err) {
			sb_err("%s", r->docs[i]->src->why);
			return 1;
		}
	return 0;
}

static int render(FILE *f, const void *vctx)
{
	const struct render_ctx *r = vctx;
	int e;
	const char *fmt = r->c->format;
	if (!strcmp(fmt, "html"))
		e = rep_plan_html(f, r->plan, r->docs, r->n);
	else if (!strcmp(fmt, "csv") && r->plan && (r->c->criteria || !r->c->table_set))
		e = rep_plan_csv(f, r->plan);
	else if (!strcmp(fmt, "csv"))
		e = rep_csv(f, r->docs, r->n, r->c->table);
	else if (!strcmp(fmt, "json"))
		e = rep_plan_json(f, r->plan, r->docs, r->n);
	else
		e = rep_plan_text(f, r->plan, r->docs, r->n);
	return e < 0 && reread_failed(r) ? CLI_WRITE_SAID : e;
}

static int write_xlsx(const char *tmp, const void *vctx)
{
	const struct render_ctx *r = vctx;
	char *why;
	if (rep_plan_xlsx(tmp, r->plan, r->docs, r->n, &why) < 0) {
		cli_print_why(why);
		return SB_EXIT_ENV;
	}
	return 0;
}

/* What report reads: at most one plan (its steps' results first), and
 * the results given beside it. */
struct inputs {
	struct rep_plan *plan;
	struct rep_doc **given; /* the results given (a plan's own left out) */
	size_t ngiven;
	struct rep_doc **docs; /* what is drawn: the plan's steps', then given */
	size_t n;
};

static int add_plan(struct inputs *in, struct rep_plan *p)
{
	if (in->plan && rep_plan_same(in->plan, p)) {
		rep_plan_free(p); /* its journal.json and plan.json: one plan */
		return 0;
	}
	if (in->plan) {
		sb_err("'%s': one plan per report ('%s' is another)", p->path, in->plan->path);
		rep_plan_free(p);
		return SB_EXIT_USAGE;
	}
	in->plan = p;
	for (size_t i = 0; i < p->nnotes; i++)
		sb_note("%s", p->notes[i]);
	for (size_t i = 0; i < p->doc.nsteps; i++)
		for (size_t k = 0; p->steps[i] && k < p->steps[i]->nnotes; k++)
			sb_note("%s", p->steps[i]->notes[k]);
	/* a result given before it that is its own */
	size_t kept = 0;
	for (size_t i = 0; i < in->ngiven; i++)
		if (rep_plan_holds(p, in->given[i]->path))
			rep_free(in->given[i]);
		else
			in->given[kept++] = in->given[i];
	in->ngiven = kept;
	return 0;
}

static int add_input(struct inputs *in, const char *path)
{
	struct rep_plan *p;
	char *why;
	int e = rep_plan_load(path, &p, &why);
	if (e < 0) {
		cli_print_why(why);
		return e == -REP_EINPUT || e == -ENOENT || e == -EISDIR || e == -EFBIG
			       ? SB_EXIT_USAGE
			       : SB_EXIT_ENV;
	}
	if (!e)
		return add_plan(in, p);
	if (in->plan && rep_plan_holds(in->plan, path))
		return 0;
	struct rep_doc **a = realloc(in->given, (in->ngiven + 1) * sizeof(*a));
	if (!a)
		return sb_err("out of memory"), SB_EXIT_ENV;
	in->given = a;
	int rc = cli_load_result(path, &a[in->ngiven]);
	in->ngiven += !rc;
	return rc;
}

static int order(struct inputs *in)
{
	size_t np = 0;
	struct rep_doc **pd = in->plan ? rep_plan_docs(in->plan, &np) : NULL;
	in->docs = calloc(np + in->ngiven + 1, sizeof(*in->docs));
	if ((in->plan && !pd) || !in->docs) {
		free(pd);
		return sb_err("out of memory"), SB_EXIT_ENV;
	}
	for (size_t i = 0; i < np; i++)
		in->docs[in->n++] = pd[i];
	for (size_t i = 0; i < in->ngiven; i++)
		in->docs[in->n++] = in->given[i];
	free(pd);
	return 0;
}

static void inputs_free(struct inputs *in)
{
	for (size_t i = 0; i < in->ngiven; i++)
		rep_free(in->given[i]);
	free(in->given);
	free(in->docs);
	rep_plan_free(in->plan);
}

int cli_report_plan_html(const char *dir, const char *out)
{
	struct report_ctx c = { .output = out, .format = "html" };
	struct inputs in = { 0 };
	int rc = add_input(&in, dir);
	if (!rc && !in.plan) /* no plan.json: the plan wrote none */
		rc = (sb_err("'%s' holds no plan", dir), SB_EXIT_ENV);
	if (!rc && !(rc = order(&in))) {
		struct render_ctx r = { &c, in.plan, in.docs, in.n };
		rc = cli_write_file(out, render, &r);
	}
	inputs_free(&in);
	return rc;
}

int cmd_report(const struct cli_command *cmd, int argc, char **argv)
{
	struct report_ctx c = { .format = "text" };
	struct cli_shared sh = { 0 };
	cli_signals_install_exit(); /* a Ctrl-C leaves no half-written output */
	struct cli_cmd_opts co = { report_opts, report_set, 0, NULL, &c, cmd, &sh };
	char **pos = calloc((size_t)argc + 1, sizeof(*pos));
	int npos, rc;
	if (!pos)
		return sb_err("out of memory"), SB_EXIT_ENV;
	int p = cli_parse(argc, argv, &co, pos, argc, &npos);
	c.output = sh.output;
	if (p == 1)
		help(&co);
	rc = p == 1 ? SB_EXIT_OK : p < 0 ? SB_EXIT_USAGE : 0;
	if (p == 0 && npos < 1) {
		sb_err("report needs at least one RESULT file (see --help)");
		rc = SB_EXIT_USAGE;
	}
	if (p == 0 && !rc)
		rc = check_format(cmd, &sh, &c);
	struct inputs in = { 0 };
	for (int i = 0; p == 0 && !rc && i < npos; i++)
		rc = add_input(&in, pos[i]);
	if (p == 0 && !rc && c.criteria && !in.plan) {
		sb_err("--table=criteria: the criteria of a plan (its directory, its JSON or "
		       "its journal.json); no plan among the results");
		rc = SB_EXIT_USAGE;
	}
	if (p == 0 && !rc && !(rc = order(&in))) {
		struct render_ctx r = { &c, in.plan, in.docs, in.n };
		rc = !strcmp(c.format, "xlsx") ? cli_write_named(c.output, write_xlsx, &r)
					       : cli_write_file(c.output, render, &r);
	}
	inputs_free(&in);
	free(pos);
	return rc;
}
