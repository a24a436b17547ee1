/*
 * storbench cliff: where a device's fast write cache (pSLC) ends and how
 * much of it comes back after idle (../shared/METHODS.md section 7,
 * docs/cliff.md). The method is lib/cliff's; here are the options, the
 * target's safety, the progress line and the output.
 */
#include "cli/cli.h"
#include "report/report.h"

/* the command's state */
struct cliff_ctx {
	uint64_t size, offset, max_time_ns, rate_bps;
	uint32_t bs;
	unsigned iodepth;
	int random;
	char engine[16];
	unsigned nrecovery;
	uint64_t recovery_ns[SB_CLIFF_MAX_RECOVERY];
	enum sb_purge_method purge; /* --purge; SB_PURGE_NONE: none */
	uint64_t idle_before_ns;    /* --idle-before */
	int json_stdout;
	struct cli_shared sh; /* --output, --format, --quiet, --destroy-data */

	struct sb_job_opts job; /* the write job as run */
	const struct sb_engine_ops *ops;
	struct sb_cliff_result *res;
	/* the progress line */
	struct cli_progress pg;
	struct sb_rate rate;
	uint64_t start_ns;
	int phase, idle; /* of the last line drawn */
};

enum {
	C_SIZE,
	C_OFFSET,
	C_BS,
	C_DEPTH,
	C_RW,
	C_ENGINE,
	C_MAX_TIME,
	C_RECOVERY,
	C_RATE,
	C_PURGE,
	C_IDLE_BEFORE
};

static const struct cli_opt cliff_opts[] = {
	{ "size", OPT_ARG, C_SIZE, "SIZE",
	  "write at most SIZE [the whole target from --offset; a new file: 1G]" },
	{ "offset", OPT_ARG, C_OFFSET, "SIZE", "where the region starts [0]" },
	{ "bs", OPT_ARG, C_BS, "SIZE", "request size [1M]" },
	{ "iodepth", OPT_ARG, C_DEPTH, "N", "requests in flight [4]" },
	{ "rw", OPT_ARG, C_RW, "write|randwrite", "sequential or random writes [write]" },
	{ "engine", OPT_ARG, C_ENGINE, "NAME", "psync, io_uring, libaio [io_uring where usable]" },
	{ "rate", OPT_ARG, C_RATE, "BW",
	  "cap the write rate at BW bytes/s (e.g. 100M: a device behind a slower link) [none]" },
	{ "max-time", OPT_ARG, C_MAX_TIME, "TIME", "stop the fill after TIME [none]" },
	{ "recovery", OPT_ARG, C_RECOVERY, "TIME,...",
	  "after the fill, idle for each TIME and measure how much of the cache came back "
	  "(e.g. 1m,5m,30m) [none]" },
	{ "purge", OPT_ARG, C_PURGE, cli_purge_methods,
	  "before the fill: a device purged whole by the method (lib/device/purge.c; auto: "
	  "the strongest it takes), a file's region discarded (a hole punched: auto or "
	  "discard) [none]" },
	{ "idle-before", OPT_ARG, C_IDLE_BEFORE, "TIME",
	  "idle TIME before the fill, for the device to empty its cache (e.g. 5m) [0]" },
	{ NULL, 0, 0, NULL, NULL },
};

static int bad(char *hint, size_t hl, const char *what)
{
	snprintf(hint, hl, "%s", what);
	return -EINVAL;
}

static int cliff_set(void *vc, int id, const char *v, char *hint, size_t hl)
{
	struct cliff_ctx *c = vc;
	uint64_t n;
	switch (id) {
	case C_SIZE:
		if (sb_parse_size(v, &c->size) < 0 || !c->size)
			return bad(hint, hl, "a size above 0 (e.g. 64M, 16G)");
		return 0;
	case C_OFFSET:
		if (sb_parse_size(v, &c->offset) < 0)
			return bad(hint, hl, "a size (e.g. 0, 1G)");
		return 0;
	case C_BS:
		if (sb_parse_size(v, &n) < 0 || n < 512 || n > (64u << 20) || n % 512)
			return bad(hint, hl, "a multiple of 512 from 512 to 64M");
		c->bs = (uint32_t)n;
		return 0;
	case C_DEPTH:
		if (sb_parse_u64(v, &n) < 0 || n < 1 || n > 1024)
			return bad(hint, hl, "a number from 1 to 1024");
		c->iodepth = (unsigned)n;
		return 0;
	case C_RW:
		if (!strcmp(v, "write") || !strcmp(v, "randwrite")) {
			c->random = !strcmp(v, "randwrite");
			return 0;
		}
		return bad(hint, hl, "write or randwrite");
	case C_ENGINE:
		if (!*v || strlen(v) >= sizeof(c->engine))
			return bad(hint, hl, "an engine name");
		snprintf(c->engine, sizeof(c->engine), "%s", v);
		return 0;
	case C_MAX_TIME:
		if (sb_parse_duration_ns(v, &c->max_time_ns) < 0 || !c->max_time_ns)
			return bad(hint, hl, "a duration above 0 (e.g. 30s, 10m, 2h)");
		return 0;
	case C_RECOVERY:
		if (sb_cliff_parse_recovery(v, c->recovery_ns, &c->nrecovery))
			return bad(hint, hl,
				   "a list of durations above 0, e.g. 1m,5m,30m (at most 8)");
		return 0;
	case C_PURGE: {
		return cli_purge_parse(v, &c->purge, hint, hl);
	}
	case C_IDLE_BEFORE:
		if (sb_parse_duration_ns(v, &c->idle_before_ns) < 0 ||
		    c->idle_before_ns > 24 * 3600 * 1000000000ull)
			return bad(hint, hl, "a duration up to 24h (e.g. 30s, 5m)");
		return 0;
	case C_RATE:
		if (sb_parse_size(v, &c->rate_bps) < 0 || !c->rate_bps)
			return bad(hint, hl, "a rate in bytes/s above 0 (e.g. 50M, 1G)");
		return 0;
	}
	return -EINVAL;
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench cliff --destroy-data [options] TARGET\n\n"
	       "Finds where a device's fast write cache (pSLC on TLC/QLC flash) ends: writes\n"
	       "the region from its start (direct I/O, incompressible data), samples the\n"
	       "throughput every 100 ms, and finds the drop as a change point of the rate\n"
	       "against bytes written, not by a fixed threshold. The fill goes on until the\n"
	       "speed after the last drop has held for 10 times the time the cache took (2 s\n"
	       "at least), or the region, --size or --max-time ends. Reports the cache's\n"
	       "size, the speed before and after the drop, and any further steps (TLC\n"
	       "written directly, folding). With --recovery, idles for each time and writes\n"
	       "a burst from the region's start to see how much of the cache came back.\n"
	       "TARGET is a block device or a file (both overwritten: --destroy-data), or a\n"
	       "directory (a new test file is written and removed). See docs/cliff.md.\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench cliff --destroy-data /dev/mmcblk0\n"
	       "  storbench cliff --destroy-data --size=64G --recovery=1m,5m,30m /dev/nvme0n1\n"
	       "  storbench cliff --size=8G --output=cliff.json /mnt/sd\n");
	cli_print_exit_status(stdout, co->cmd);
}

/* Overwriting a device or a file always needs consent here (the cache is
 * measured by filling); cli_target_prepare adds the safety rules. */
static int consent(const struct cliff_ctx *c, const struct sb_jobtarget *t, const char *path)
{
	const enum sb_target_kind k = t->info.kind;
	if (c->sh.destroy_data || k == SB_TARGET_DIR || k == SB_TARGET_NONE)
		return 0;
	if (k == SB_TARGET_BLOCK)
		return cli_refuse_device(path);
	sb_err("refusing to write to file '%s': cliff overwrites it from --offset on "
	       "(add --destroy-data)",
	       path);
	return SB_EXIT_USAGE;
}

static int prepare(struct cliff_ctx *c, struct sb_jobtarget *t, const char *path)
{
	int rc = cli_target_probe(t, path);
	if (rc || (rc = consent(c, t, path)))
		return rc;
	struct sb_job_opts *job = &c->job;
	sb_job_opts_default(job);
	snprintf(job->name, sizeof(job->name), "cliff fill");
	job->rw = c->random ? SB_RW_RANDWRITE : SB_RW_WRITE;
	job->bs = c->bs;
	job->iodepth = c->iodepth;
	job->numjobs = 1;
	job->direct = 1;
	job->offset = c->offset;
	job->size = c->size;
	job->end_fsync = 0;
	job->rate_bps = c->rate_bps;
	snprintf(job->engine, sizeof(job->engine), "%s", c->engine);
	if (t->info.kind == SB_TARGET_DIR || t->info.kind == SB_TARGET_NONE)
		job->size = c->size ? c->size : SB_JT_NEW_FILE_SIZE;
	t->destroy_data = c->sh.destroy_data;
	if ((rc = cli_target_prepare(t, path, job, 0, 0)))
		return rc;
	if (t->direct_fallback)
		job->direct = 0;
	if (t->region_size < job->bs) {
		sb_err("--bs: a request (%u bytes) is larger than the region (%llu bytes)", job->bs,
		       (unsigned long long)t->region_size);
		return SB_EXIT_USAGE;
	}
	job->size = t->region_size;
	int fell_back;
	const struct sb_engine_ops *ops = cli_engine_choose(job, &fell_back);
	if (!ops)
		return SB_EXIT_USAGE;
	snprintf(job->engine, sizeof(job->engine), "%s", ops->name);
	c->ops = ops;
	return 0;
}

/* Until the fill stops: once the drop is known, until the level after
 * the last change has held long enough; before, until the region ends at
 * the current rate. Then the recoveries' idle times. */
static double eta_ns(const struct cliff_ctx *c, const struct sb_cliff_progress *p, double bps)
{
	double eta = 0;
	for (unsigned i = p->phase ? (unsigned)p->phase - 1 : 0; i < c->nrecovery; i++)
		eta += (double)c->recovery_ns[i];
	if (p->phase) {
		if (p->idle)
			eta -= (double)p->elapsed_ns;
		return eta > 0 ? eta : 0;
	}
	const struct sb_cliff_find *f = p->find;
	if (f && f->found) {
		double need = SB_MAX(SB_CLIFF_AFTER_FACTOR * f->cache_ns, SB_CLIFF_MIN_AFTER_NS);
		double left = need - ((double)p->elapsed_ns - f->last_change_ns);
		return eta + (left > 0 ? left : 0);
	}
	if (!(bps > 0))
		return -1;
	double left = (double)(p->total_bytes - SB_MIN(p->bytes, p->total_bytes)) / bps * 1e9;
	if (c->max_time_ns &&
	    (double)(c->max_time_ns - SB_MIN(c->max_time_ns, p->elapsed_ns)) < left)
		left = (double)(c->max_time_ns - SB_MIN(c->max_time_ns, p->elapsed_ns));
	return eta + left;
}

/* lib/cliff's progress hook: the live line. */
static void progress(void *ctx, const struct sb_cliff_progress *p)
{
	struct cliff_ctx *c = ctx;
	const uint64_t now = sb_now_ns();
	char what[64], a[32];
	if (p->phase != c->phase || p->idle != c->idle) {
		sb_rate_reset(&c->rate);
		c->phase = p->phase;
		c->idle = p->idle;
	}
	sb_rate_add(&c->rate, now, p->bytes, 0);
	if (!cli_progress_due(&c->pg, now))
		return;
	double bps = -1;
	if (p->idle || sb_rate_get(&c->rate, now, p->bytes, 0, &bps, NULL) < 0)
		bps = -1;
	struct cli_line l = { .label = "cliff", .pct = -1, .bps = bps, .ops = -1 };
	if (p->phase) {
		l.step_word = "recovery";
		l.step = (unsigned)p->phase;
		l.nsteps = c->nrecovery;
		l.what = p->idle ? "idle" : "burst";
		if (p->idle)
			l.pct = (double)p->elapsed_ns / (double)c->recovery_ns[p->phase - 1] * 100;
		else
			l.done = p->bytes, l.total = p->total_bytes;
	} else {
		const struct sb_cliff_find *f = p->find;
		if (f && f->found)
			snprintf(what, sizeof(what), "drop at %s",
				 sb_fmt_size(f->cache_bytes, a, sizeof(a)));
		else
			snprintf(what, sizeof(what), "fill, no drop yet");
		l.what = what;
		l.done = p->bytes;
		l.total = p->total_bytes;
		l.pct = p->total_bytes ? (double)p->bytes / (double)p->total_bytes * 100 : -1;
	}
	l.elapsed_ns = now - c->start_ns;
	l.eta_ns = eta_ns(c, p, bps);
	cli_progress_draw(&c->pg, &l, now);
}

static int stop_asked(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

/* --idle-before: the device's own time to empty its cache; then the
 * fill, with its progress line. */
static void step(void *ctx, enum sb_cliff_step_kind k, uint64_t ns)
{
	struct cliff_ctx *c = ctx;
	char d[32];
	if (k == SB_CLIFF_FILL) {
		cli_progress_init(&c->pg, c->sh.quiet);
		c->start_ns = sb_now_ns();
	} else if (!c->sh.quiet) {
		fprintf(stderr, "storbench: cliff: idle %s before the fill (--idle-before)\n",
			sb_fmt_ns((double)ns, d, sizeof(d)));
	}
}

static int output(struct cliff_ctx *c, const struct sb_jobtarget *t, const char *path)
{
	int rc = 0;
	struct sb_results *res = sb_results_create("cliff");
	if (!res || sb_results_cliff(res, c->res) < 0) {
		sb_results_free(res);
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	cli_results_describe(res, t, path);
	if (!c->json_stdout) {
		const struct rep_cliff_settings set = { .random = c->random,
							.direct = c->job.direct,
							.bs = c->job.bs,
							.iodepth = c->job.iodepth,
							.engine = c->job.engine,
							.nrecovery = c->nrecovery };
		rep_cliff_run_text(stdout, &set, c->res, path);
	}
	if (c->sh.output && cli_write_json(res, c->sh.output) < 0)
		rc = SB_EXIT_ENV;
	if (c->json_stdout && cli_write_json(res, "-") < 0)
		rc = SB_EXIT_ENV;
	rep_warnings_text(stderr, res);
	sb_results_free(res);
	return rc;
}

static int measure(struct cliff_ctx *c, const struct sb_jobtarget *t, const char *path)
{
	struct sb_cliff_opts o = { .t = t,
				   .path = path,
				   .job = c->job,
				   .ops = c->ops,
				   .max_time_ns = c->max_time_ns,
				   .nrecovery = c->nrecovery,
				   .purge = c->purge,
				   .idle_before_ns = c->idle_before_ns };
	const struct sb_cliff_hooks h = { c, stop_asked, progress, step };
	struct sb_error er;
	memcpy(o.recovery_ns, c->recovery_ns, sizeof(o.recovery_ns));
	if (!(c->res = calloc(1, sizeof(*c->res)))) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	const int e = sb_cliff_run(&o, &h, NULL, c->res, &er);
	cli_progress_clear(&c->pg);
	if (!c->res->measured) /* refused, or stopped before the fill */
		return e == -EINTR ? cli_interrupt_status() : cli_error(&er);
	int rc = e && e != -EINTR ? cli_error(&er) : 0;
	if (rc && c->res->jr && c->res->jr->first_error.err)
		sb_err("first error at offset %llu: %s",
		       (unsigned long long)c->res->jr->first_error.offset,
		       strerror(c->res->jr->first_error.err));
	const int w = output(c, t, path);
	rc = rc ? rc : w;
	return cli_interrupted() ? cli_interrupt_status() : rc;
}

int cmd_cliff(const struct cli_command *cmd, int argc, char **argv)
{
	struct cliff_ctx c;
	struct sb_jobtarget t;
	char *pos[1];

	memset(&c, 0, sizeof(c));
	memset(&t, 0, sizeof(t));
	c.bs = 1u << 20;
	c.iodepth = 4;
	c.purge = SB_PURGE_NONE;
	struct cli_cmd_opts co = { cliff_opts, cliff_set, 0, NULL, &c, cmd, &c.sh };
	int p = cli_parse_target(argc, argv, &co, help, "a block device, a file or a directory",
				 &pos[0]);
	if (p)
		return p < 0 ? SB_EXIT_OK : p;
	c.json_stdout = cli_format_is(cmd, &c.sh, "json");
	cli_signals_install();
	int rc = prepare(&c, &t, pos[0]);
	if (!rc)
		rc = measure(&c, &t, pos[0]);
	cli_target_cleanup(&t, c.sh.keep);
	sb_cliff_result_free(c.res);
	free(c.res);
	return rc;
}
