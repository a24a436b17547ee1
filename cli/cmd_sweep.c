/*
 * storbench sweep: iozone's auto mode (-a -e -c) with its tests and
 * definitions, on a directory or a file storbench creates, reported as one
 * matrix per test (file size down, record size across, KiB/s) on the
 * terminal, in the results JSON, and as CSV blocks like iozone -R.
 */
#include "cli/cmd_sweep.h"
#include "report/report.h"

#include <time.h>
#include <unistd.h>

enum {
	SW_TESTS,
	SW_FILE_SIZES,
	SW_RECORD_SIZES,
	SW_ALL_RECORDS,
	SW_FLUSH,
	SW_NO_FLUSH,
	SW_CLOSE,
	SW_NO_CLOSE,
	SW_DIRECT,
	SW_NO_RETEST,
	SW_WARM,
	SW_STRIDE,
	SW_BURST,
	SW_CSV
};

static const struct cli_opt sweep_opts[] = {
	{ "tests", OPT_ARG, SW_TESTS, "LIST",
	  "write,rewrite,read,reread,randread,randwrite,bkwdread,recrewrite,strideread,"
	  "fwrite,frewrite,fread,freread or all [all]" },
	{ "file-sizes", OPT_ARG, SW_FILE_SIZES, "LIST",
	  "file sizes, e.g. 64k,1M,1G [64k to 512M, powers of two]" },
	{ "record-sizes", OPT_ARG, SW_RECORD_SIZES, "LIST",
	  "record sizes up to 16M, e.g. 4k,64k [4k to 16M, powers of two]" },
	{ "all-records", OPT_NOARG, SW_ALL_RECORDS, NULL,
	  "also records under 64k on files over 16M (iozone -z)" },
	{ "flush", OPT_NOARG, SW_FLUSH, NULL, "fsync inside the timings (iozone -e) [on]" },
	{ "no-flush", OPT_NOARG, SW_NO_FLUSH, NULL, "fsync after the timings" },
	{ "close", OPT_NOARG, SW_CLOSE, NULL, "close inside the timings (iozone -c) [on]" },
	{ "no-close", OPT_NOARG, SW_NO_CLOSE, NULL, "close after the timings" },
	{ "direct", OPT_NOARG, SW_DIRECT, NULL, "SW_DIRECT, except the stdio tests (iozone -I)" },
	{ "no-retest", OPT_NOARG, SW_NO_RETEST, NULL,
	  "leave out rewrite, reread, frewrite, freread (iozone -+n)" },
	{ "warm", OPT_NOARG, SW_WARM, NULL, "keep the page cache before read tests" },
	{ "stride", OPT_ARG, SW_STRIDE, "N",
	  "stride read: records between reads (iozone -j) [17]" },
	{ "burst", OPT_ARG, SW_BURST, "SIZE,IDLE",
	  "after each SIZE written, fsync and sleep IDLE, not timed (iozone -+b)" },
	{ "csv", OPT_ARG, SW_CSV, "FILE",
	  "write the matrices to FILE as iozone -R prints them (space-separated)" },
	{ NULL, 0, 0, NULL, NULL },
};

#define HINT(...) (snprintf(hint, hl, __VA_ARGS__), -EINVAL)

static int sweep_set(void *vc, int id, const char *v, char *hint, size_t hl)
{
	struct sweep_cli *c = vc;
	uint64_t n;
	switch (id) {
	case SW_TESTS:
		return sb_sweep_parse_tests(v, &c->tests_given)
			       ? HINT("a comma-separated list of write, rewrite, read, "
				      "reread, randread, randwrite, bkwdread, recrewrite, "
				      "strideread, fwrite, frewrite, fread, freread, or all")
			       : 0;
	case SW_FILE_SIZES:
		return sb_sweep_parse_sizes(v, c->o.file_sizes, &c->o.nfile, 512, 1ull << 50)
			       ? HINT("a comma-separated list of at most %d sizes from 512 to 1P "
				      "(example: 64k,1M,1G)",
				      SB_SWEEP_MAX_SIZES)
			       : 0;
	case SW_RECORD_SIZES:
		return sb_sweep_parse_sizes(v, c->o.record_sizes, &c->o.nrec, 512,
					    SB_SWEEP_MAX_RECORD)
			       ? HINT("a comma-separated list of at most %d sizes from 512 to 16M "
				      "(example: 4k,64k,1M)",
				      SB_SWEEP_MAX_SIZES)
			       : 0;
	case SW_STRIDE:
		if (sb_parse_u64(v, &n) < 0 || n < 1 || n > 1000000)
			return HINT("a number of records from 1 to 1000000");
		c->o.stride = (unsigned)n;
		return 0;
	case SW_BURST:
		return sb_sweep_parse_burst(&c->o, v)
			       ? HINT("SIZE,IDLE: a size and a pause of at most 1h "
				      "(example: 1M,100ms)")
			       : 0;
	case SW_CSV:
		if (!*v)
			return HINT("a file name");
		c->csv = v;
		return 0;
	case SW_ALL_RECORDS: c->o.all_records = 1; return 0;
	case SW_FLUSH: c->o.flush = 1; return 0;
	case SW_NO_FLUSH: c->o.flush = 0; return 0;
	case SW_CLOSE: c->o.close = 1; return 0;
	case SW_NO_CLOSE: c->o.close = 0; return 0;
	case SW_DIRECT: c->o.direct = 1; return 0;
	case SW_NO_RETEST: c->no_retest = 1; return 0;
	case SW_WARM: c->o.warm = 1; return 0;
	}
	return -EINVAL;
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench sweep [options] TARGET\n\n"
	       "iozone's tests in auto mode (iozone -a -e -c): every test on every file\n"
	       "size (64 KiB to 512 MiB) and record size (4 KiB to 16 MiB), records\n"
	       "under 64 KiB left out on files over 16 MiB, reported in KiB/s as one\n"
	       "matrix per test. The page cache is dropped before each read test.\n"
	       "TARGET is a directory (a test file is created in it and removed after\n"
	       "each cell) or a file to create. See docs/sweep.md.\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench sweep /mnt/sdcard\n"
	       "  storbench sweep --tests=write,read,randread --file-sizes=1G --direct /mnt/ssd\n"
	       "  storbench sweep --file-sizes=64k,1M --record-sizes=4k,64k --csv=out.csv .\n");
	cli_print_exit_status(stdout, co->cmd);
}

/* Options that only make sense together, checked before anything runs. */
static int check_combinations(struct sweep_cli *c)
{
	char msg[160];
	if (sb_sweep_plan_given(c->r, &c->o, c->tests_given, c->no_retest, msg, sizeof(msg))) {
		sb_err("%s", msg);
		return SB_EXIT_USAGE;
	}
	if (c->json_stdout && c->sh.output && !strcmp(c->sh.output, "-")) {
		sb_err("--output: '-' and --format=json both print JSON on stdout; use one");
		return SB_EXIT_USAGE;
	}
	return 0;
}

/* What the test file is (sb_sweep_file_open), once TARGET was looked at. */
static int check_target(const struct sweep_cli *c, struct sb_jobtarget *t, const char *path,
			struct sb_sweep_file *f)
{
	struct sb_error er;
	int rc = cli_target_probe(t, path);
	if (rc)
		return rc;
	if (sb_sweep_file_open(f, path, &t->info, c->r, &c->o, c->sh.destroy_data, &er))
		return cli_error(&er);
	return 0;
}

/* Under mpirun: every rank checks TARGET creating nothing, they agree,
 * each makes its directory under a directory TARGET and opens its test
 * file there (*path then names it), and they agree again: 0 or the worst
 * exit code. */
static int ranks_target(const struct sweep_cli *c, struct sb_jobtarget *t, const char **path,
			struct sb_sweep_file *f)
{
	struct sb_error er;
	int rc = cli_ranks_probe(t, *path);
	if (rc)
		return rc;
	/* every rank's checks, nothing created or removed yet */
	int e = sb_sweep_file_check(*path, &t->info, c->r, &c->o, c->sh.destroy_data, &er);
	if ((rc = cli_ranks_agree_error(e, &er)))
		return rc;
	/* each rank's test file fits: and those of the ranks on one filesystem? */
	if ((rc = cli_ranks_space_agree(*path,
					t->info.kind == SB_TARGET_FILE
						? 0
						: c->r->file_sizes[c->r->nfile - 1],
					t->info.fs_free, t->info.mountpoint)))
		return rc;
	const char *mine = *path;
	if ((rc = cli_ranks_dir(*path, t->info.kind == SB_TARGET_DIR, 1, &mine)))
		return rc;
	if (mine != *path) {
		memset(t, 0, sizeof(*t)); /* its own directory, probed anew */
		if ((rc = cli_ranks_probe(t, mine)))
			return rc;
	}
	e = sb_sweep_file_open(f, mine, &t->info, c->r, &c->o, c->sh.destroy_data, &er);
	if ((rc = cli_ranks_agree_error(e, &er)))
		return rc;
	*path = mine;
	return 0;
}

/* --precondition: the existing file, all of it, before the sweep opens it (a new file is made anew for each file size: nothing to
 * bring to a state). 0 or an exit code. */
static int precondition(const struct sweep_cli *c, const char *path, struct sb_results *res)
{
	struct sb_jobtarget t;
	struct sb_job_opts j;
	if (!c->sh.state.precond)
		return 0;
	memset(&t, 0, sizeof(t));
	int rc = cli_target_probe(&t, path);
	if (!rc && t.info.kind != SB_TARGET_BLOCK && t.info.kind != SB_TARGET_FILE) {
		sb_err("--precondition: sweep makes its new file anew for each file size; "
		       "precondition an existing file");
		rc = SB_EXIT_USAGE;
	}
	if (!rc)
		rc = cli_state_check(&c->sh, &t, path);
	sb_precond_fill_job(&j, 0, 0, 1, 0);
	t.destroy_data = c->sh.destroy_data;
	if (!rc)
		rc = cli_target_prepare(&t, path, &j, 0, 0);
	if (!rc)
		rc = cli_state_apply(&c->sh, &t, path, res, c->sh.quiet);
	cli_target_cleanup(&t, 1);
	return rc;
}

/* Under mpirun: the ranks agree on the matrix and --stonewall (0 or an
 * exit code); rank 0's progress line alone. */
static int ranks_agree(struct sweep_cli *c)
{
	struct sb_error er;
	c->o.stonewall = cli_ranks_stonewall();
	if (sb_sweep_agree(cli_ranks_coord(), c->r, &c->o, &er)) {
		const int rc = cli_error(&er);
		cli_ranks_end_if_lost(er.cls != SB_ERR_INPUT, rc); /* a rank did not answer */
		return rc;
	}
	if (cli_rank() != 0)
		c->sh.quiet = 1;
	return 0;
}

static int run(struct sweep_cli *c, const char *path, struct sb_results *res)
{
	struct sb_jobtarget t;
	struct sb_sweep_file f;
	struct sb_error er;
	const int ranks = cli_ranks() > 1;
	memset(&t, 0, sizeof(t));
	f.fd = -1;
	if (ranks && c->sh.state.precond) {
		if (cli_rank() == 0)
			sb_err("--precondition: not with sweep under mpirun (precondition each "
			       "rank's file alone first)");
		return SB_EXIT_USAGE;
	}
	int rc = precondition(c, path, res);
	if (!rc && ranks)
		rc = ranks_agree(c);
	if (!rc)
		rc = ranks ? ranks_target(c, &t, &path, &f) : check_target(c, &t, path, &f);
	if (rc) {
		sb_sweep_file_close(&f);
		if (ranks)
			cli_ranks_remove_dir(0);
		return rc;
	}
	c->o.path = f.path;
	c->o.fd = f.fd;
	cli_results_describe(res, &t, path);
	res->target_created = f.owned;
	const char *tr = getenv("SB_SWEEP_TRACE"); /* tests only: every operation */
	if (tr && *tr && !ranks && !(c->trace = fopen(tr, "w"))) {
		sb_err("cannot write '%s': %s", tr, strerror(errno));
		sb_sweep_file_close(&f);
		return SB_EXIT_ENV;
	}
	const struct sb_sweep_hooks h = { .ctx = c,
					  .stop = sweep_should_stop,
					  .progress = c->sh.quiet ? NULL : sweep_progress,
					  .trace = c->trace ? sweep_trace : NULL,
					  .error = sweep_error };
	cli_progress_init(&c->pg, c->sh.quiet);
	if (f.owned) {
		cli_signals_track_file(f.path, 1);
		cli_ranks_note_file(f.path); /* in a rank's directory: its marker */
	}
	c->ran = 1;
	const int e = sb_sweep_run(&c->o, &h, cli_ranks_coord(), c->r, &er);
	if (f.owned)
		cli_signals_track_file(f.path, 0);
	sb_sweep_file_close(&f);
	cli_progress_clear(&c->pg);
	if (c->trace && fclose(c->trace) != 0)
		sb_warn("trace file '%s' is incomplete", tr);
	/* alone, a stop is said by the exit status of the command */
	rc = e && (e != -EINTR || ranks) ? cli_error(&er) : 0;
	cli_ranks_end_if_lost(c->r->ranks_lost, rc);
	if (ranks) {
		c->silent = cli_rank() != 0;
		cli_ranks_remove_dir(c->o.keep);
	}
	sb_results_sweep(res, c->r);
	return rc;
}

int sweep_check(struct sweep_cli *c)
{
	const int rc = c->checked ? 0 : check_combinations(c);
	c->checked = !rc;
	return rc;
}

int sweep_execute(struct sweep_cli *c, const char *path, struct sb_results *res)
{
	const int rc = sweep_check(c);
	if (rc)
		return rc;
	cli_signals_install();
	return run(c, path, res);
}

static int outputs(const struct sweep_cli *c, const char *path, const struct sb_results *res)
{
	int rc = 0;
	if (c->json_stdout) {
		if (cli_write_json(res, "-") < 0)
			rc = SB_EXIT_ENV;
	} else {
		rep_sweep_run_text(stdout, c->r, &c->o, res);
	}
	if (c->sh.output && cli_write_json(res, c->sh.output) < 0)
		rc = SB_EXIT_ENV;
	if (c->csv && sweep_write_csv(c, c->csv) < 0)
		rc = SB_EXIT_ENV;
	return rc;
}

int cmd_sweep(const struct cli_command *cmd, int argc, char **argv)
{
	struct sweep_cli c;
	char *pos[1];
	memset(&c, 0, sizeof(c));
	sb_sweep_opts_default(&c.o);
	struct cli_cmd_opts co = { sweep_opts, sweep_set, 0, NULL, &c, cmd, &c.sh };
	int p = cli_parse_target(argc, argv, &co, help, "a directory, or a file to create",
				 &pos[0]);
	if (p)
		return p < 0 ? SB_EXIT_OK : p;
	c.json_stdout = cli_format_is(cmd, &c.sh, "json");
	c.r = calloc(1, sizeof(*c.r));
	struct sb_results *res = sb_results_create("sweep");
	int rc = !c.r || !res ? (sb_err("out of memory"), SB_EXIT_ENV)
			      : sweep_execute(&c, pos[0], res);
	if ((!rc || c.ran) && !c.silent) {
		if (c.ran) {
			const int w = outputs(&c, pos[0], res);
			rc = rc ? rc : w;
		}
		rep_warnings_text(stderr, res);
	}
	if (cli_interrupted())
		rc = cli_interrupt_status();
	sb_results_free(res);
	sb_sweep_result_free(c.r);
	free(c.r);
	return rc;
}
