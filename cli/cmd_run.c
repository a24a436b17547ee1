/* storbench run: one fio-class workload on a file, directory or device. */
#include "cli/cli.h"
#include "cli/run_verify.h"

#include <unistd.h>

enum { O_OUTPUT, O_FORMAT, O_QUIET, O_REPEAT, O_KEEP, O_DESTROY, O_NAME, O_VERIFY };

static const struct cli_opt run_opts[] = {
	{ "output", OPT_ARG, O_OUTPUT, "FILE", "write the JSON results to FILE" },
	{ "format", OPT_ARG, O_FORMAT, "text|json", "what goes to stdout [text]" },
	{ "quiet", OPT_NOARG, O_QUIET, NULL, "no progress line" },
	{ "repeat", OPT_ARG, O_REPEAT, "N", "run the workload N times; report median and min..max [1]" },
	{ "keep", OPT_NOARG, O_KEEP, NULL, "keep the test file(s) storbench created" },
	{ "destroy-data", OPT_NOARG, O_DESTROY, NULL,
	  "allow writing to an existing file storbench did not create" },
	{ "name", OPT_ARG, O_NAME, "NAME", "job name in the results [job]" },
	{ "verify", OPT_NOARG, O_VERIFY, NULL,
	  "write verify blocks and check every block of the region afterwards" },
	{ NULL, 0, 0, NULL, NULL },
};

struct run_ctx {
	struct sb_job_opts job;
	const char *output;
	int json_stdout;
	int quiet;
	unsigned repeat;
	int keep;
	int destroy;
	int seed_given;
	int verify;
	struct run_verify *rv;
};

static int run_set(void *vctx, int id, const char *v, char *hint, size_t hl)
{
	struct run_ctx *c = vctx;
	uint64_t n;
	switch (id) {
	case O_OUTPUT:
		return cli_set_output(&c->output, v, hint, hl);
	case O_FORMAT:
		return cli_set_format_json(&c->json_stdout, v, hint, hl);
	case O_QUIET:
		c->quiet = 1;
		return 0;
	case O_REPEAT:
		if (sb_parse_u64(v, &n) < 0 || n < 1 || n > 1000)
			return snprintf(hint, hl, "a number from 1 to 1000"), -EINVAL;
		c->repeat = (unsigned)n;
		return 0;
	case O_KEEP:
		c->keep = 1;
		return 0;
	case O_DESTROY:
		c->destroy = 1;
		return 0;
	case O_VERIFY:
		c->verify = 1;
		return 0;
	case O_NAME:
		if (!*v || strlen(v) >= sizeof(c->job.name))
			return snprintf(hint, hl, "a name of 1 to 63 characters"), -EINVAL;
		snprintf(c->job.name, sizeof(c->job.name), "%s", v);
		return 0;
	}
	return -EINVAL;
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench run [options] TARGET\n\n"
	       "Runs one workload (fio-class) on TARGET: a new or existing file (a new one\n"
	       "is created at --size and removed afterwards), a directory (one test file\n"
	       "per job, removed afterwards) or a block device (reads only, for now).\n"
	       "Sizes take units (512, 4k, 1M, 2G), times too (500ms, 30s, 5m, 2h).\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench run --rw=randread --bs=4k --iodepth=32 --runtime=30s --time-based .\n"
	       "  storbench run --rw=write --bs=1M --size=4G --end-fsync=1 /mnt/sd/test.bin\n"
	       "  storbench run --rw=randread --numjobs=4 --engine=psync --format=json /dev/sdb\n");
}

/* Median of n values (sorted in place). */
static double median(double *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned k = i; k > 0 && v[k - 1] > v[k]; k--) {
			double t = v[k];
			v[k] = v[k - 1];
			v[k - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A summary row per direction over jobs [first, first+n) of r. */
void cli_summarize(struct sb_results *r, size_t first, unsigned n, const char *test)
{
	double bw[1000], iops[1000], lat[1000], p99[1000];
	if (n > 1000)
		n = 1000;
	for (int d = 0; d < SB_DDIR_N; d++) {
		struct sb_summary_row row;
		memset(&row, 0, sizeof(row));
		unsigned k = 0;
		for (unsigned i = 0; i < n; i++) {
			const struct sb_job_result *j = r->jobs[first + i];
			if (!j->dir[d].ios)
				continue;
			bw[k] = sb_dir_bw(j, d);
			iops[k] = sb_dir_iops(j, d);
			lat[k] = sb_hist_mean(&j->dir[d].lat);
			p99[k] = (double)sb_hist_percentile(&j->dir[d].lat, 99);
			k++;
		}
		if (!k)
			continue;
		snprintf(row.test, sizeof(row.test), "%s", test);
		row.ddir = d;
		row.nruns = k;
		row.bw_median = median(bw, k);
		row.bw_min = bw[0];
		row.bw_max = bw[k - 1];
		row.iops_median = median(iops, k);
		row.iops_min = iops[0];
		row.iops_max = iops[k - 1];
		row.lat_mean_median_ns = median(lat, k);
		row.lat_p99_median_ns = (uint64_t)median(p99, k);
		sb_results_add_summary(r, &row);
	}
}

static void print_repeats(FILE *f, const struct sb_results *r)
{
	char a[32], b[32], c[32];
	for (size_t i = 0; i < r->nsummary; i++) {
		const struct sb_summary_row *s = &r->summary[i];
		fprintf(f, "%-5s median of %u runs: %s (%s .. ", sb_ddir_name(s->ddir), s->nruns,
			sb_fmt_rate(s->bw_median, a, sizeof(a)), sb_fmt_rate(s->bw_min, b, sizeof(b)));
		fprintf(f, "%s), %s IOPS\n", sb_fmt_rate(s->bw_max, c, sizeof(c)),
			sb_fmt_count(s->iops_median, a, sizeof(a)));
	}
}

static int measure_all(struct run_ctx *c, struct cli_target *t, const struct sb_engine_ops *ops,
		       struct sb_results *res)
{
	int rc = 0;
	for (unsigned i = 0; i < c->repeat && !cli_interrupted(); i++) {
		struct sb_job_result *jr = sb_job_result_create();
		if (!jr || sb_results_add_job(res, jr) < 0) {
			sb_job_result_free(jr);
			sb_err("out of memory");
			return SB_EXIT_ENV;
		}
		struct sb_job_opts job = c->job;
		job.seed += i;
		if (c->repeat > 1)
			snprintf(jr->name, sizeof(jr->name), "%s (run %u of %u)", c->job.name, i + 1,
				 c->repeat);
		else
			snprintf(jr->name, sizeof(jr->name), "%s", c->job.name);
		struct cli_measure m = { jr->name, c->quiet, c->rv ? &c->rv->fmt : NULL };
		int e = cli_measure(&m, &job, ops, t, jr);
		cli_sanity_warnings(res, jr);
		if (jr->interrupted)
			res->interrupted = 1;
		if (e < 0)
			return SB_EXIT_FAIL;
		if (jr->errors)
			rc = SB_EXIT_FAIL; /* survived with --continue-on-error */
	}
	return rc;
}

static int finish(struct run_ctx *c, struct sb_results *res, const struct cli_target *t, int rc)
{
	if (c->repeat > 1 && res->njobs > 1)
		cli_summarize(res, 0, (unsigned)res->njobs, c->job.name);
	if (c->output && cli_write_json(res, c->output) < 0 && !rc)
		rc = SB_EXIT_ENV;
	if (c->json_stdout) {
		if (cli_write_json(res, "-") < 0 && !rc)
			rc = SB_EXIT_ENV;
	} else {
		render_target_text(stdout, res);
		for (size_t i = 0; i < res->njobs; i++)
			render_job_text(stdout, res->jobs[i]);
		print_repeats(stdout, res);
		if (c->rv)
			run_verify_text(stdout, c->rv, t);
	}
	render_warnings_text(stderr, res);
	if (cli_interrupted())
		rc = cli_interrupted() == 15 ? SB_EXIT_SIGTERM : SB_EXIT_SIGINT;
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_ctx c;
	struct cli_target t;
	char *pos[1];
	int fell_back = 0;

	memset(&c, 0, sizeof(c));
	memset(&t, 0, sizeof(t));
	sb_job_opts_default(&c.job);
	c.repeat = 1;
	c.job.seed = 0;
	struct cli_cmd_opts co = { run_opts, run_set, 1, &c.job, &c };
	int p = cli_parse_target(argc, argv, &co, help, "a file, a directory or a block device", &pos[0]);
	if (p)
		return p < 0 ? SB_EXIT_OK : p;
	if (!c.job.seed)
		c.job.seed = sb_now_ns() ^ ((uint64_t)getpid() << 32);
	char msg[256];
	if (sb_job_check(&c.job, msg, sizeof(msg)) < 0) {
		sb_err("%s", msg);
		return SB_EXIT_USAGE;
	}
	const struct sb_engine_ops *ops = cli_engine_choose(&c.job, &fell_back);
	if (!ops)
		return SB_EXIT_USAGE;
	/* a fallback was announced by cli_engine_choose, iodepth included */
	if (!fell_back && c.job.iodepth > 1 && (ops->flags & SB_ENGINE_SYNC) &&
	    !(ops->flags & SB_ENGINE_NOIO))
		sb_warn("--iodepth=%u has no effect with %s, which does one request at a time per "
			"job; use --numjobs for parallel requests", c.job.iodepth, ops->name);
	snprintf(c.job.engine, sizeof(c.job.engine), "%s", ops->name);

	t.destroy_data = c.destroy;
	int noio = !!(ops->flags & SB_ENGINE_NOIO);
	/* every option is valid: only now may files be created */
	cli_signals_install();
	int rc = cli_target_prepare(&t, pos[0], &c.job, sb_rw_reads(c.job.rw) && !c.verify, noio);
	if (!rc && c.verify && noio) {
		sb_err("--verify: the %s engine does no I/O: nothing to verify", ops->name);
		rc = SB_EXIT_USAGE;
	}
	if (!rc && c.verify && !(rc = run_verify_check_opts(&c.job, &t))) {
		c.rv = calloc(1, sizeof(*c.rv));
		rc = !c.rv ? SB_EXIT_ENV : run_verify_prepare(c.rv, &c.job, &t);
	}
	if (rc) {
		cli_target_cleanup(&t, 0);
		free(c.rv);
		return rc;
	}
	if (!c.job.size)
		c.job.size = t.region_size;
	struct sb_results *res = sb_results_create("run");
	if (!res) {
		cli_target_cleanup(&t, c.keep);
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	cli_results_describe(res, &t, pos[0]);
	rc = measure_all(&c, &t, ops, res);
	if (c.rv && !cli_interrupted()) {
		int v = run_verify_check(c.rv, &t);
		if (!rc)
			rc = v ? v : c.rv->bad ? SB_EXIT_FAIL : 0;
		res->extra_key = "verify";
		res->extra_json = run_verify_json;
		res->extra_ctx = c.rv;
	}
	rc = finish(&c, res, &t, rc);
	cli_target_cleanup(&t, c.keep);
	sb_results_free(res);
	if (c.rv)
		run_verify_free(c.rv);
	free(c.rv);
	return rc;
}
