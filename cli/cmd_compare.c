/*
 * storbench compare A B [C...]: every figure the results share (per test or
 * job and direction: bandwidth, IOPS, mean and p99 latency), the shift
 * against A in percent with its confidence interval, and whether it is
 * real: the Mann-Whitney U test of the runs of both sides at 5% (report/
 * compare.c, lib/analysis/difference.c). Too few runs for the test give
 * "inconclusive" and the --repeat that would do. Conditions that differ
 * (block size, queue depth, jobs, direct I/O, engine, device) are named
 * first, not silently compared. This file reads the options and the
 * results and writes the output.
 */
#include "cli/report_files.h"
#include "report/compare.h"

/* compare's options are the shared --output and --format alone */
struct compare_ctx {
	const char *output;
	const char *format; /* "text", "json", "html", "csv", "xlsx" */
};

static int write_xlsx(const char *tmp, const void *vc)
{
	char *why;
	if (cmp_xlsx(tmp, vc, &why) < 0) {
		cli_print_why(why);
		return SB_EXIT_ENV;
	}
	return 0;
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
		rc = cli_load(pos[i], 1, &docs[i]); /* figures only: a job at a time */
	if (!rc && cmp_build(&c, docs, (size_t)npos) < 0)
		rc = (sb_err("out of memory"), SB_EXIT_ENV);
	if (!rc && !c.nrows) {
		sb_err("'%s' and '%s' share no test in the same direction: nothing to compare",
		       pos[0], pos[1]);
		rc = SB_EXIT_USAGE;
	}
	if (!rc) {
		const char *f = o->format;
		int (*w)(FILE *, const void *) = !strcmp(f, "json")   ? cmp_json
						 : !strcmp(f, "html") ? cmp_html
						 : !strcmp(f, "csv")  ? cmp_csv
								      : cmp_text;
		rc = !strcmp(f, "xlsx") ? cli_write_named(o->output, write_xlsx, &c)
					: cli_write_file(o->output, w, &c);
	}
	cmp_free(&c);
	for (int i = 0; i < npos; i++)
		rep_free(docs[i]);
	free(docs);
	return rc;
}

int cmd_compare(const struct cli_command *cmd, int argc, char **argv)
{
	struct compare_ctx o = { NULL, "text" };
	struct cli_shared sh = { 0 };
	cli_signals_install_exit(); /* a Ctrl-C leaves no half-written output */
	struct cli_cmd_opts co = { NULL, NULL, 0, NULL, &o, cmd, &sh };
	char **pos = calloc((size_t)argc + 1, sizeof(*pos));
	int npos, rc = 0;
	if (!pos)
		return sb_err("out of memory"), SB_EXIT_ENV;
	int p = cli_parse(argc, argv, &co, pos, argc, &npos);
	o.output = sh.output;
	if (p == 1) {
		printf("usage: storbench compare [options] A B [C...] [-o FILE]\n\n"
		       "Compares results (storbench or fio JSON) with the first, A: for every test and\n"
		       "direction they share, bandwidth, IOPS, mean and p99 latency, the difference in\n"
		       "percent with its 95%% interval, and whether it is real: the Mann-Whitney U\n"
		       "test of the runs of both sides at 5%% says \"better\", \"worse\" or \"within\n"
		       "noise\". The test needs at least %u runs a side to ever find a difference\n"
		       "(measure with --repeat=%d); with fewer the verdict is \"inconclusive\".\n"
		       "Conditions that differ are named first.\n\n"
		       "options:\n",
		       sb_diff_runs_needed(), SB_DIFF_RUNS_ADVISED);
		cli_print_opts(stdout, &co);
		printf("\nexamples:\n  storbench quick --repeat=%d -o before.json /mnt/sd\n"
		       "  storbench quick --repeat=%d -o after.json /mnt/sd\n"
		       "  storbench compare before.json after.json\n"
		       "  storbench compare a.json b.json -o ab.html\n"
		       "  storbench compare a.json b.json -o ab.csv\n",
		       SB_DIFF_RUNS_ADVISED, SB_DIFF_RUNS_ADVISED);
		cli_print_exit_status(stdout, cmd);
	} else if (p < 0) {
		rc = SB_EXIT_USAGE;
	} else if (npos < 2) {
		sb_err("compare needs two or more RESULT files (see --help)");
		rc = SB_EXIT_USAGE;
	} else if (!(rc = cli_output_format(cmd, &sh, ".html, .json, .csv, .xlsx or .txt",
					    &o.format))) {
		rc = run_compare(&o, pos, npos);
	}
	free(pos);
	return rc;
}
