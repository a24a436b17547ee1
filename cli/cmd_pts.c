/*
 * storbench pts: the SNIA Solid State Storage Performance Test
 * Specification's IOPS, throughput, latency and write-saturation tests on a
 * block device (METHODS.md section 3, docs/pts.md): per test a purge,
 * workload-independent preconditioning, then rounds of the matrix through
 * the runner until steady state or the round limit.
 */
#include "cli/pts_cli.h"

#include <fcntl.h>
#include <unistd.h>

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

static int list_ok(const char *v)
{
	return *v && *v != ',' && v[strlen(v) - 1] != ',' && !strstr(v, ",,");
}

static int parse_tests(unsigned *mask, const char *v)
{
	char buf[256], *save = NULL;
	if (strlen(v) >= sizeof(buf) || !list_ok(v))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", v);
	*mask = 0;
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		const int t = sb_pts_test_by_name(w);
		if (!strcmp(w, "all"))
			*mask |= (1u << SB_PTS_NTESTS) - 1;
		else if (t < 0)
			return -EINVAL;
		else
			*mask |= 1u << t;
	}
	return 0;
}

static int parse_bs(struct sb_pts_opts *o, const char *v)
{
	char buf[256], *save = NULL;
	if (strlen(v) >= sizeof(buf) || !list_ok(v))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", v);
	o->nbs = 0;
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		uint64_t b;
		if (!strcmp(w, "0.5k"))
			b = 512;
		else if (sb_parse_size(w, &b) < 0)
			return -EINVAL;
		if (b != 512 && (b < 4096 || b > (1u << 20) || (b & (b - 1)) || b == (256u << 10) ||
				 b == (512u << 10) || b == (2u << 10)))
			return -EINVAL;
		if (o->nbs >= SB_PTS_MAX_BS)
			return -EINVAL;
		o->bs[o->nbs++] = (uint32_t)b;
	}
	return 0;
}

static int parse_mix(struct sb_pts_opts *o, const char *v)
{
	static const unsigned ok[] = { 100, 95, 65, 50, 35, 5, 0 };
	char buf[256], *save = NULL;
	if (strlen(v) >= sizeof(buf) || !list_ok(v))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", v);
	o->nmix = 0;
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		unsigned r, wr, found = 0;
		char end;
		if (sscanf(w, "%u/%u%c", &r, &wr, &end) != 2 || r + wr != 100)
			return -EINVAL;
		for (unsigned i = 0; i < SB_ARRAY_SIZE(ok); i++)
			found |= ok[i] == r;
		if (!found || o->nmix >= SB_PTS_MAX_MIX)
			return -EINVAL;
		o->mix[o->nmix++] = r;
	}
	return 0;
}

static int parse_count(const char *v, uint64_t lo, uint64_t hi, unsigned *out, int x_ok)
{
	char buf[32];
	uint64_t n;
	const size_t len = strlen(v);
	if (!len || len >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", v);
	if (x_ok && (buf[len - 1] == 'x' || buf[len - 1] == 'X'))
		buf[len - 1] = '\0';
	if (sb_parse_u64(buf, &n) < 0 || n < lo || n > hi)
		return -EINVAL;
	*out = (unsigned)n;
	return 0;
}

#define HINT(...) (snprintf(hint, hl, __VA_ARGS__), -EINVAL)

static int pts_set(void *vc, int id, const char *v, char *hint, size_t hl)
{
	struct pts_cli *c = vc;
	struct sb_pts_opts *o = &c->o;
	switch (id) {
	case P_TEST:
		return parse_tests(&o->tests, v)
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
		return parse_count(v, 1, 1000, &o->max_rounds, 0) ? HINT("a number from 1 to 1000")
								  : 0;
	case P_BS:
		return parse_bs(o, v)
			       ? HINT("a comma-separated list of PTS block sizes: %s", pts_bs_names)
			       : 0;
	case P_MIX:
		return parse_mix(o, v)
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
		else if (parse_count(v, 1, 16, &o->precondition, 1))
			return HINT("auto, none, or Nx with N from 1 to 16 (PTS: 2x)");
		return 0;
	case P_THREADS:
		return parse_count(v, 1, 64, &o->threads, 0) ? HINT("a number from 1 to 64") : 0;
	case P_IODEPTH:
		return parse_count(v, 1, 1024, &o->iodepth, 0) ? HINT("a number from 1 to 1024")
							       : 0;
	case P_WSAT_CAPACITY:
		return parse_count(v, 1, 100, &o->wsat_capacity, 1)
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

/* One measurement through the runner; its figures into f. */
static int measure(struct pts_cli *c, struct sb_jobtarget *t, const struct sb_job_opts *job,
		   struct cli_measure *m, struct sb_pts_fig *f)
{
	uint64_t errors;
	m->quiet = c->sh.quiet;
	m->command = "pts";
	m->start_ns = c->start_ns;
	const int rc = cli_measure_one(m, job, t, figures, f, &errors);
	return rc ? rc : errors ? SB_EXIT_FAIL : 0;
}

static int purge(struct pts_cli *c, struct sb_jobtarget *t, const char *path, struct sb_pts_part *p)
{
	struct sb_error er;
	const int fd = sb_jobtarget_open(t, 0, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		sb_err("cannot open '%s' to purge it: %s", path, strerror(-fd));
		return SB_EXIT_ENV;
	}
	const int e = sb_purge_how(fd, path, c->o.purge, &p->purge_used, p->purge_how,
				   sizeof(p->purge_how), &er);
	close(fd);
	if (e)
		return cli_error(&er);
	if (p->purge_used == SB_PURGE_DISCARD) {
		int said = 0;
		for (unsigned i = 0; i < c->r->ndeviations; i++)
			said |= !strncmp(c->r->deviations[i], "purge by discard", 16);
		if (!said)
			sb_pts_deviation(c->r, "purge by discard (the device may only unmap its "
					       "blocks; PTS asks for a security erase, sanitize or "
					       "format)");
	}
	return 0;
}

static int precondition(struct pts_cli *c, struct sb_jobtarget *t, struct sb_pts_part *p)
{
	struct sb_job_opts j;
	sb_pts_precondition_job(c->r, &j);
	for (unsigned pass = 0; pass < c->o.precondition && !cli_interrupted(); pass++) {
		struct sb_pts_fig f;
		char word[64];
		snprintf(word, sizeof(word), "%s preconditioning pass", p->name);
		struct cli_measure m = { .step_word = word,
					 .step = pass + 1,
					 .nsteps = c->o.precondition };
		j.seed = c->o.seed + pass;
		const int rc = measure(c, t, &j, &m, &f);
		p->precondition_bytes += f.bytes_written;
		if (rc)
			return rc;
	}
	return 0;
}

static int one_round(struct pts_cli *c, struct sb_jobtarget *t, struct sb_pts_part *p)
{
	struct sb_pts_fig *row = sb_pts_round_begin(p);
	if (!row) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	char word[64];
	snprintf(word, sizeof(word), "%s round", p->name);
	for (unsigned k = 0; k < p->ncells; k++) {
		struct sb_job_opts j;
		sb_pts_cell_job(c->r, p, k, &j);
		const unsigned rounds_left = p->max_rounds - p->nrounds - 1;
		struct cli_measure m = {
			.step_word = word,
			.step = p->nrounds + 1,
			.nsteps = p->max_rounds,
			.later = (p->ncells - k - 1) + rounds_left * p->ncells,
		};
		const int rc = measure(c, t, &j, &m, &row[k]);
		/* stopped within the round: what it measured is kept */
		if (rc || cli_interrupted()) {
			p->partial_cells = k + 1;
			return rc ? rc : SB_EXIT_SIGINT;
		}
	}
	return 0;
}

static void say_round(const struct pts_cli *c, const struct sb_pts_part *p)
{
	if (c->sh.quiet)
		return;
	const double v = p->tracked[p->nrounds - 1];
	char a[32];
	if (p->track == SB_PTS_M_LAT_MEAN)
		sb_fmt_ns(v, a, sizeof(a));
	else if (p->track == SB_PTS_M_WRITE_BW)
		sb_fmt_rate(v, a, sizeof(a));
	else
		snprintf(a, sizeof(a), "%.0f IOPS", v);
	fprintf(stderr, "storbench: pts %s round %u: %s\n", p->name, p->nrounds, a);
}

static int run_part(struct pts_cli *c, struct sb_jobtarget *t, const char *path,
		    struct sb_pts_part *p)
{
	int rc = purge(c, t, path, p);
	p->started = 1;
	if (!rc && p->test != SB_PTS_WSAT)
		rc = precondition(c, t, p);
	while (!rc && !cli_interrupted()) {
		rc = one_round(c, t, p);
		if (rc)
			break;
		const int done = sb_pts_round_end(c->r, p);
		say_round(c, p);
		if (done)
			break;
	}
	sb_pts_part_close(p);
	return rc;
}

/* PTS-E asks for the volatile write cache disabled: on an NVMe, ATA drive
 * or eMMC that reports one, storbench switches it with the device's own
 * command (and back after the run); elsewhere the deviation is recorded.
 * Without --destroy-data nothing reaches the device, not even the probe
 * (the run is refused a little later). */
static void cache_plan(struct pts_cli *c, const struct sb_jobtarget *t)
{
	struct sb_devinfo d;
	struct sb_devcache dc;
	struct sb_error er;
	if (c->o.profile != SB_PTS_ENTERPRISE || !c->sh.destroy_data ||
	    sb_devinfo_probe(&t->info, &d) || !d.node[0] || sb_devcache_get(d.node, &dc, &er))
		return;
	snprintf(c->cache_node, sizeof(c->cache_node), "%s", d.node);
	c->cache_kind = dc.kind;
	c->o.cache_off_by_command = 1;
}

static void cache_restore_now(void *ctx)
{
	const struct pts_cli *c = ctx;
	sb_devcache_switch_now(c->cache_node, c->cache_kind, 1);
}

static int cache_off(struct pts_cli *c)
{
	struct sb_error er;
	struct sb_devcache before;
	if (!c->cache_node[0])
		return 0;
	/* The switch and the undo a second Ctrl-C runs are one step to the
	 * signals: one that comes during the switch is handled after it, and
	 * the undo switches on only a cache this run switched off. */
	cli_signals_hold(1);
	const int e = sb_devcache_set(c->cache_node, 0, &before, &er);
	if (!e && before.on)
		cli_signals_on_exit(cache_restore_now, c);
	cli_signals_hold(0);
	if (e)
		return cli_error(&er);
	c->r->devcache.command = before.how;
	c->r->devcache.before = before.on;
	c->r->devcache.changed = before.on;
	return 0;
}

/* After the run, and on its error paths: the cache as it was. The undo of
 * a second Ctrl-C stays until the cache is on; a Ctrl-C during the switch
 * is handled after it (no thread of the run is left by now), so the cache
 * is switched on once, by this or by the handler, never by both. */
static int cache_restore(struct pts_cli *c)
{
	struct sb_error er;
	if (!c->r->devcache.changed)
		return 0;
	cli_signals_hold(1);
	const int e = sb_devcache_set(c->cache_node, 1, NULL, &er);
	cli_signals_on_exit(NULL, NULL);
	cli_signals_hold(0);
	if (e)
		return cli_error(&er);
	c->r->devcache.restored = 1;
	return 0;
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
	cache_plan(c, t);
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
		pts_print_text(stdout, c, path);
	}
	if (c->sh.output && cli_write_json(res, c->sh.output) < 0)
		rc = SB_EXIT_ENV;
	return rc;
}

static int run(struct pts_cli *c, const char *path, struct sb_results *res)
{
	struct sb_jobtarget t;
	memset(&t, 0, sizeof(t));
	int rc = check_target(c, &t, path);
	if (rc) {
		cli_target_cleanup(&t, 0);
		return rc;
	}
	cli_results_describe(res, &t, path);
	c->start_ns = sb_now_ns();
	rc = cache_off(c);
	for (unsigned i = 0; i < c->r->nparts && !rc && !cli_interrupted(); i++)
		rc = run_part(c, &t, path, &c->r->parts[i]);
	cli_target_cleanup(&t, 0);
	const int restored = cache_restore(c);
	rc = rc ? rc : restored;
	int steady = 1;
	for (unsigned i = 0; i < c->r->nparts; i++) {
		const struct sb_pts_part *p = &c->r->parts[i];
		if (p->nrounds && p->test != SB_PTS_WSAT && !p->ss.reached)
			steady = 0;
	}
	/* whatever was measured, to the first purge, is written (a run
	 * stopped early is marked interrupted) */
	res->interrupted = cli_interrupted() != 0;
	if (sb_results_pts(res, c->r) < 0) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	const int w = outputs(c, path, res);
	rc = rc ? rc : w;
	return rc ? rc : steady ? SB_EXIT_OK : SB_EXIT_FAIL;
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
		render_warnings_text(stderr, res);
	}
	if (cli_interrupted())
		rc = cli_interrupt_status();
	sb_results_free(res);
	sb_pts_run_free(c.r);
	free(c.r);
	return rc;
}
