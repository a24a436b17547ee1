/*
 * storbench compare A B [C...]: every figure the results share (per test or
 * job and direction: bandwidth, IOPS, mean and p99 latency), the difference
 * to A in percent, and whether it is larger than the run-to-run spread: a
 * difference inside the min..max of either side's repeats is "within
 * noise". Conditions that differ (block size, queue depth, jobs, direct
 * I/O, engine, device) are named first, not silently compared. The
 * comparison itself is report/compare.c's; this file reads the options and
 * the results and writes the output.
 */
#include "cli/report_files.h"
#include "report/compare.h"

/* compare's options are the shared --output and --format alone */
struct compare_ctx {
	const char *output;
	int format; /* 0 unset, 1 text, 2 json, 3 html */
};

static int format_of(const struct cli_shared *sh)
{
	const char *f = sh->format;
	return !f ? 0 : !strcmp(f, "text") ? 1 : !strcmp(f, "json") ? 2 : 3;
}

/* ---- the command ---- */
static int pick_format(struct compare_ctx *c)
{
	const char *dot = c->output ? strrchr(c->output, '.') : NULL;
	if (c->format)
		return 0;
	c->format = !c->output					    ? 1
		    : !dot					    ? 0
		    : !strcmp(dot, ".html") || !strcmp(dot, ".htm") ? 3
		    : !strcmp(dot, ".json")			    ? 2
		    : !strcmp(dot, ".txt")			    ? 1
								    : 0;
	if (c->format)
		return 0;
	sb_err("--output: '%s' has no extension that names a format (.html, .json or .txt); "
	       "add --format",
	       c->output);
	return SB_EXIT_USAGE;
}

static int run_compare(struct compare_ctx *o, char **pos, int npos)
{
	struct rep_doc **docs = calloc((size_t)npos, sizeof(*docs));
	struct cmp c;
	int rc = 0;
	memset(&c, 0, sizeof(c));
	if (!docs)
		return sb_err("out of memory"), SB_EXIT_ENV;
	for (int i = 0; i < npos && !rc; i++)
		rc = cli_load_result(pos[i], &docs[i]);
	if (!rc && cmp_build(&c, docs, (size_t)npos) < 0)
		rc = (sb_err("out of memory"), SB_EXIT_ENV);
	if (!rc && !c.nrows) {
		sb_err("'%s' and '%s' share no test in the same direction: nothing to compare",
		       pos[0], pos[1]);
		rc = SB_EXIT_USAGE;
	}
	if (!rc) {
		int (*w)(FILE *, const void *) = o->format == 2	  ? cmp_json
						 : o->format == 3 ? cmp_html
								  : cmp_text;
		rc = cli_write_file(o->output, w, &c);
	}
	cmp_free(&c);
	for (int i = 0; i < npos; i++)
		rep_free(docs[i]);
	free(docs);
	return rc;
}

int cmd_compare(const struct cli_command *cmd, int argc, char **argv)
{
	struct compare_ctx o = { NULL, 0 };
	struct cli_shared sh = { 0 };
	cli_signals_install_exit(); /* a Ctrl-C leaves no half-written output */
	struct cli_cmd_opts co = { NULL, NULL, 0, NULL, &o, cmd, &sh };
	char **args = cli_expand_short(argc, argv), **pos = calloc((size_t)argc + 1, sizeof(*pos));
	int npos, rc = 0;
	if (!args || !pos) {
		free(args);
		free(pos);
		return sb_err("out of memory"), SB_EXIT_ENV;
	}
	int p = cli_parse(argc, args, &co, pos, argc, &npos);
	o.output = sh.output;
	o.format = format_of(&sh);
	if (p == 1) {
		printf("usage: storbench compare [options] A B [C...] [-o FILE]\n\n"
		       "Compares results (storbench or fio JSON) with the first, A: for every test and\n"
		       "direction they share, bandwidth, IOPS, mean and p99 latency, the difference in\n"
		       "percent, and whether it is within the run-to-run spread (\"within noise\": inside\n"
		       "the min..max of either side's repeats). Conditions that differ are named first.\n\n"
		       "options:\n");
		cli_print_opts(stdout, &co);
		printf("\nexamples:\n  storbench compare before.json after.json\n"
		       "  storbench compare a.json b.json -o ab.html\n");
	} else if (p < 0) {
		rc = SB_EXIT_USAGE;
	} else if (npos < 2) {
		sb_err("compare needs two or more RESULT files (see --help)");
		rc = SB_EXIT_USAGE;
	} else if (!(rc = pick_format(&o))) {
		rc = run_compare(&o, pos, npos);
	}
	free(args);
	free(pos);
	return rc;
}
