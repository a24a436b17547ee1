/*
 * storbench pts: the SNIA Solid State Storage Performance Test
 * Specification's IOPS, throughput, latency and write-saturation tests on a
 * block device (METHODS.md section 3, docs/pts.md): per test a purge,
 * workload-independent preconditioning, then rounds of the matrix through
 * the runner until steady state or the round limit.
 */
#include "cli/cli.h"
#include "report/report.h"

#include <fcntl.h>
#include <unistd.h>

/* the command's state; its text is report/'s (rep_pts_run_text) */
struct pts_cli {
	struct sb_pts_opts o;
	struct sb_pts_result *r;
	struct cli_shared sh; /* --output, --format, --quiet, --destroy-data, --seed */
	int json_stdout;
	uint64_t start_ns;
	struct sb_jobtarget *t; /* the device, prepared */
};

enum {
	P_TEST,
	P_PROFILE,
	P_ROUND_TIME,
	P_MAX_ROUNDS,
	P_BS,
	P_MIX,
	P_ACTIVE_RANGE,
	P_AR_AMOUNT,
	P_PURGE,
	P_PRECONDITION,
	P_THREADS,
	P_IODEPTH,
	P_WSAT_CAPACITY,
};

static const struct cli_opt pts_opts[] = {
	{ "test", OPT_ARG, P_TEST, "LIST", "iops, throughput, latency, wsat, or all [iops]" },
	{ "profile", OPT_ARG, P_PROFILE, "client|enterprise",
	  "PTS-C (write cache enabled, active-range segments) or PTS-E (write cache "
	  "disabled) [enterprise]" },
	{ "round-time", OPT_ARG, P_ROUND_TIME, "TIME",
	  "each cell of a round (PTS: 60s; anything else is a deviation) [60s]" },
	{ "max-rounds", OPT_ARG, P_MAX_ROUNDS, "N",
	  "rounds before giving up on steady state [25]" },
	{ "bs", OPT_ARG, P_BS, "LIST",
	  "restrict the matrices to these PTS block sizes (1024k,128k,64k,32k,16k,8k,4k,0.5k)" },
	{ "mix", OPT_ARG, P_MIX, "LIST",
	  "restrict the matrices to these R/W mixes (100/0,95/5,65/35,50/50,35/65,5/95,0/100)" },
	{ "active-range", OPT_ARG, P_ACTIVE_RANGE, "PCT",
	  "the share of the device tested, from its start [100]" },
	{ "active-range-amount", OPT_ARG, P_AR_AMOUNT, "SIZE",
	  "client: the bytes the IOPS and latency tests address, in 2048 segments placed at "
	  "random in the active range (PTS-C: 8G or 16G) [8G; half the active range where 8G does not fit]" },
	{ "purge", OPT_ARG, P_PURGE, cli_purge_methods,
	  "how the device is purged before each test (lib/device/purge.c; auto: the "
	  "strongest it takes) [auto]" },
	{ "precondition", OPT_ARG, P_PRECONDITION, "auto|none|Nx",
	  "sequential 128 KiB writes over the active range, N times [auto: 2x]" },
	{ "threads", OPT_ARG, P_THREADS, "N",
	  "threads (TC) of the IOPS, throughput, WSAT tests [1]" },
	{ "iodepth", OPT_ARG, P_IODEPTH, "N", "outstanding I/O per thread (QD) [32]" },
	{ "wsat-capacity", OPT_ARG, P_WSAT_CAPACITY, "N",
	  "WSAT writes N times the active range [4]" },
	{ NULL, 0, 0, NULL, NULL },
};

static const char *const pts_bs_names = "1024k, 128k, 64k, 32k, 16k, 8k, 4k, 0.5k";
static const char *const pts_mix_names = "100/0, 95/5, 65/35, 50/50, 35/65, 5/95, 0/100";

#define HINT(...) (snprintf(hint, hl, __VA_ARGS__), -EINVAL)

static int pts_set(void *vc, int id, const char *v, char *hint, size_t hl)
{
	struct pts_cli *c = vc;
	struct sb_pts_opts *o = &c->o;
	switch (id) {
	case P_TEST:
		return sb_pts_parse_tests(v, &o->tests)
			       ? HINT("a comma-separated list of iops, throughput, latency, wsat, or "
				      "all")
			       : 0;
	case P_PROFILE:
		if (!strcmp(v, "client"))
			o->profile = SB_PTS_CLIENT;
		else if (!strcmp(v, "enterprise"))
			o->profile = SB_PTS_ENTERPRISE;
		else
			return HINT("client or enterprise");
		return 0;
	case P_ROUND_TIME:
		if (sb_parse_duration_ns(v, &o->round_ns) < 0 || o->round_ns < 100000000ull ||
		    o->round_ns > 3600000000000ull)
			return HINT("a duration from 100ms to 1h (examples: 60s, 1s, 200ms)");
		return 0;
	case P_MAX_ROUNDS:
		return sb_parse_count(v, 1, 1000, 0, &o->max_rounds)
			       ? HINT("a number from 1 to 1000")
			       : 0;
	case P_BS:
		return sb_pts_parse_bs(o, v)
			       ? HINT("a comma-separated list of PTS block sizes: %s", pts_bs_names)
			       : 0;
	case P_MIX:
		return sb_pts_parse_mix(o, v)
			       ? HINT("a comma-separated list of PTS R/W mixes: %s", pts_mix_names)
			       : 0;
	case P_ACTIVE_RANGE:
		if (sb_parse_percent(v, &o->active_pct) < 0 || o->active_pct < 1)
			return HINT("a percentage from 1 to 100 (examples: 100, 75%%)");
		return 0;
	case P_AR_AMOUNT:
		if (sb_parse_size(v, &o->ar_amount) < 0 || !o->ar_amount)
			return HINT("a size (examples: 8G, 16G, 64M)");
		return 0;
	case P_PURGE: return cli_purge_parse(v, &o->purge, hint, hl);
	case P_PRECONDITION:
		if (!strcmp(v, "auto"))
			o->precondition = SB_PTS_PRECONDITION_PASSES;
		else if (!strcmp(v, "none"))
			o->precondition = 0;
		else if (sb_parse_count(v, 1, 16, 1, &o->precondition))
			return HINT("auto, none, or Nx with N from 1 to 16 (PTS: 2x)");
		return 0;
	case P_THREADS:
		return sb_parse_count(v, 1, 64, 0, &o->threads) ? HINT("a number from 1 to 64") : 0;
	case P_IODEPTH:
		return sb_parse_count(v, 1, 1024, 0, &o->iodepth) ? HINT("a number from 1 to 1024")
								  : 0;
	case P_WSAT_CAPACITY:
		return sb_parse_count(v, 1, 100, 1, &o->wsat_capacity)
			       ? HINT("a number from 1 to 100 (PTS: 4)")
			       : 0;
	}
	return -EINVAL;
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench pts --destroy-data [options] DEVICE\n\n"
	       "The SNIA Solid State Storage Performance Test Specification's tests on a\n"
	       "block device: per test, purge the device, write twice its active range\n"
	       "sequentially in 128 KiB blocks (workload-independent preconditioning),\n"
	       "then run rounds of the test's matrix (60 s a cell) until steady state\n"
	       "(5 rounds whose tracked figure spans at most 20%% of their average and\n"
	       "whose fitted line moves at most 10%% of it) or 25 rounds. Reported\n"
	       "figures are averages over those 5 rounds. Every byte of DEVICE is\n"
	       "destroyed. Options that shorten the tests are recorded as deviations:\n"
	       "such a result is not a PTS result. See docs/pts.md.\n\n"
	       "  iops        R/W mixes 100/0..0/100 x block sizes 1024k..0.5k, random;\n"
	       "              tracks IOPS at 0/100 4k (56 cells a round)\n"
	       "  throughput  1024k and 128k sequential, 100%% read then 100%% write, each\n"
	       "              block size its own test; tracks write bandwidth\n"
	       "  latency     100/0, 65/35, 0/100 x 8k, 4k, 0.5k, random, 1 thread, QD 1;\n"
	       "              tracks mean latency at 0/100 4k\n"
	       "  wsat        4k random writes, one cell a round, until 4 times the\n"
	       "              active range is written (no preconditioning)\n\n"
	       "With --profile=client the IOPS and latency tests address only 2048\n"
	       "segments of --active-range-amount / 2048 bytes each, placed at random in\n"
	       "the active range (PTS-C's ActiveRange segments); the map is in the results.\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench pts --destroy-data --output=pts.json /dev/nvme1n1\n"
	       "  storbench pts --destroy-data --test=iops,latency --profile=client \\\n"
	       "      --active-range=75 /dev/sdb\n"
	       "  storbench pts --destroy-data --round-time=1s --bs=4k,64k --mix=100/0,0/100 \\\n"
	       "      --max-rounds=8 /dev/zram1     (a quick look: not a PTS result)\n");
	cli_print_exit_status(stdout, co->cmd);
}

static void figures(const struct sb_job_result *jr, void *f)
{
	sb_pts_figures(jr, f);
}

static int stop_asked(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

/* One measurement through the program's runner (its progress line and
 * its words on a failure); its figures into f. */
static int measure(void *ctx, const struct sb_pts_step *s, const struct sb_job_opts *job,
		   struct sb_pts_fig *f, struct sb_error *er)
{
	struct pts_cli *c = ctx;
	char word[64];
	uint64_t errors;
	snprintf(word, sizeof(word), "%s %s", s->part->name,
		 s->precondition ? "preconditioning pass" : "round");
	struct cli_measure m = { .step_word = word,
				 .step = s->step,
				 .nsteps = s->nsteps,
				 .later = s->later,
				 .quiet = c->sh.quiet,
				 .command = "pts",
				 .start_ns = c->start_ns };
	const int rc = cli_measure_one(&m, job, c->t, figures, f, &errors);
	if (!rc && !errors)
		return 0;
	sb_error_set(er, -EIO,
		     rc == SB_EXIT_USAGE ? SB_ERR_INPUT
		     : rc == SB_EXIT_ENV ? SB_ERR_ENV
					 : SB_ERR_FAIL,
		     "%s", ""); /* said */
	return er->err;
}

static void say_round(void *ctx, const struct sb_pts_part *p)
{
	const struct pts_cli *c = ctx;
	if (c->sh.quiet)
		return;
	const double v = p->tracked[p->nrounds - 1];
	char a[32];
	if (p->track == SB_PTS_M_LAT_MEAN)
		sb_fmt_ns(v, a, sizeof(a));
	else if (p->track == SB_PTS_M_WRITE_BW)
		rep_fmt_rate(v, a, sizeof(a));
	else
		snprintf(a, sizeof(a), "%.0f IOPS", v);
	fprintf(stderr, "storbench: pts %s round %u: %s\n", p->name, p->nrounds, a);
}

static void say_error(void *ctx, const char *msg)
{
	(void)ctx;
	sb_err("%s", msg);
}

static void hold_signals(void *ctx, int on)
{
	(void)ctx;
	cli_signals_hold(on);
}

static void undo_on_exit(void *ctx, void (*undo)(void *arg), void *arg)
{
	(void)ctx;
	cli_signals_on_exit(undo, arg);
}

static int check_target(struct pts_cli *c, struct sb_jobtarget *t, const char *path)
{
	char msg[256];
	int rc = cli_target_probe(t, path);
	if (rc)
		return rc;
	if ((rc = cli_target_missing(t->info.kind, path)))
		return rc;
	if (t->info.kind != SB_TARGET_BLOCK) {
		sb_err("pts needs a block device: '%s' is not one", path);
		return SB_EXIT_USAGE;
	}
	/* without --destroy-data nothing reaches the device, not even the
	 * cache's probe (the run is refused a little later) */
	sb_pts_cache_plan(&c->o, &t->info, c->sh.destroy_data);
	if (sb_pts_plan(c->r, &c->o, t->info.capacity, t->info.logical_bs, t->info.write_cache, msg,
			sizeof(msg))) {
		sb_err("%s", msg);
		return SB_EXIT_USAGE;
	}
	struct sb_job_opts j;
	sb_pts_precondition_job(c->r, &j);
	t->destroy_data = c->sh.destroy_data;
	return cli_target_prepare(t, path, &j, 0, 0);
}

static int outputs(const struct pts_cli *c, const char *path, const struct sb_results *res)
{
	int rc = 0;
	if (c->json_stdout) {
		if (cli_write_json(res, "-") < 0)
			rc = SB_EXIT_ENV;
	} else {
		rep_pts_run_text(stdout, c->r, path);
	}
	if (c->sh.output && cli_write_json(res, c->sh.output) < 0)
		rc = SB_EXIT_ENV;
	return rc;
}

static int run(struct pts_cli *c, const char *path, struct sb_results *res)
{
	static const struct sb_pts_hooks hooks = { .stop = stop_asked,
						   .measure = measure,
						   .round = say_round,
						   .error = say_error,
						   .hold = hold_signals,
						   .on_exit = undo_on_exit };
	struct sb_pts_hooks h = hooks;
	struct sb_jobtarget t;
	struct sb_error er;
	memset(&t, 0, sizeof(t));
	int rc = check_target(c, &t, path);
	if (rc) {
		cli_target_cleanup(&t, 0);
		return rc;
	}
	cli_results_describe(res, &t, path);
	c->start_ns = sb_now_ns();
	c->t = &t;
	c->o.t = &t;
	c->o.path = path;
	h.ctx = c;
	const int e = sb_pts_run(&c->o, &h, NULL, c->r, &er);
	cli_target_cleanup(&t, 0);
	if (e && e != -EINTR) {
		er.msg[0] = '\0'; /* said as it happened */
		rc = cli_error(&er);
	}
	/* whatever was measured, to the first purge, is written (a run
	 * stopped early is marked interrupted) */
	if (sb_results_pts(res, c->r) < 0) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	const int w = outputs(c, path, res);
	rc = rc ? rc : w;
	return rc ? rc : c->r->steady ? SB_EXIT_OK : SB_EXIT_FAIL;
}

int cmd_pts(const struct cli_command *cmd, int argc, char **argv)
{
	struct pts_cli c;
	char *target;
	memset(&c, 0, sizeof(c));
	sb_pts_opts_default(&c.o);
	struct cli_cmd_opts co = { pts_opts, pts_set, 0, NULL, &c, cmd, &c.sh };
	int p = cli_parse_target(argc, argv, &co, help, "a block device", &target);
	if (p)
		return p < 0 ? SB_EXIT_OK : p;
	if (!c.o.tests) {
		sb_err("--test: name at least one of iops, throughput, latency, wsat");
		return SB_EXIT_USAGE;
	}
	c.o.seed = c.sh.seed_given ? c.sh.seed : sb_now_ns();
	c.json_stdout = cli_format_is(cmd, &c.sh, "json");
	if (c.json_stdout && c.sh.output && !strcmp(c.sh.output, "-")) {
		sb_err("--output: '-' and --format=json both print JSON on stdout; use one");
		return SB_EXIT_USAGE;
	}
	c.r = calloc(1, sizeof(*c.r));
	struct sb_results *res = sb_results_create("pts");
	int rc = SB_EXIT_ENV;
	if (!c.r || !res) {
		sb_err("out of memory");
	} else {
		cli_signals_install();
		rc = run(&c, target, res);
		rep_warnings_text(stderr, res);
	}
	if (cli_interrupted())
		rc = cli_interrupt_status();
	sb_results_free(res);
	sb_pts_result_free(c.r);
	free(c.r);
	return rc;
}
