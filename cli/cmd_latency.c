/*
 * storbench latency: ioping's probe (one request at a time, at random
 * aligned offsets, every --interval), and the dd and hdparm loops engineers
 * use for the same question, each printing the figure the original prints
 * next to the full statistics.
 */
#include "cli/cli.h"
#include "lib/storbench.h"
#include "report/report.h"

#include <unistd.h>

#define MAX_BS (64u << 20)

enum {
	L_BS,
	L_SIZE,
	L_OFFSET,
	L_INTERVAL,
	L_FLOOD,
	L_COUNT,
	L_RUNTIME,
	L_WARMUP,
	L_WRITE,
	L_DIRECT,
	L_BUFFERED,
	L_PRESET,
	L_SETTLE
};

static const struct cli_opt lat_opts[] = {
	{ "bs", OPT_ARG, L_BS, "SIZE", "request size [4k; dd-sync 512, hdparm 2M]" },
	{ "size", OPT_ARG, L_SIZE, "SIZE", "working set [1M in a directory; whole target]" },
	{ "offset", OPT_ARG, L_OFFSET, "SIZE", "start of the working set [0]" },
	{ "interval", OPT_ARG, L_INTERVAL, "TIME", "from one request's start to the next [1s]" },
	{ "flood", OPT_NOARG, L_FLOOD, NULL, "back to back (--interval=0)" },
	{ "count", OPT_ARG, L_COUNT, "N", "requests, warm-up included [no limit]" },
	{ "runtime", OPT_ARG, L_RUNTIME, "TIME", "stop after TIME [none; hdparm: 3s, -T: 2s]" },
	{ "warmup", OPT_ARG, L_WARMUP, "N", "requests left out of the statistics [1]" },
	{ "write", OPT_NOARG, L_WRITE, NULL, "write (O_DSYNC, random data) instead of read" },
	{ "direct", OPT_NOARG, L_DIRECT, NULL, "direct I/O [default; not for hdparm presets]" },
	{ "buffered", OPT_NOARG, L_BUFFERED, NULL, "buffered; pages dropped before each request" },
	{ "preset", OPT_ARG, L_PRESET, "NAME", "dd-sync, hdparm or hdparm-cache (see above)" },
	{ "settle", OPT_ARG, L_SETTLE, "TIME",
	  "sync, then idle TIME before the first request [0; hdparm: 3s, -T: 1s]" },
	{ NULL, 0, 0, NULL, NULL },
};

struct lat_ctx {
	struct sb_lat_choice ch; /* the options' values, lib/latency's to judge */
	int json_stdout;
	struct cli_shared sh; /* --output, --format, --quiet, --keep, --destroy-data */
};

#define A_SIZE "a size, e.g. 512, 4k, 1M"

static int lat_set(void *vc, int id, const char *v, char *hint, size_t hl)
{
	struct sb_lat_choice *c = &((struct lat_ctx *)vc)->ch;
	int p;
	switch (id) {
	case L_BS:
		c->bs_set = 1;
		return cli_opt_size(v, &c->bs, 1, MAX_BS, 0,
				    "a size from 1 to 64M, e.g. 512, 4k, 1M", hint, hl);
	case L_SIZE:
		c->size_set = 1;
		return cli_opt_size(v, &c->size, 1, UINT64_MAX, 0, A_SIZE, hint, hl);
	case L_OFFSET: return cli_opt_size(v, &c->offset, 0, UINT64_MAX, 0, A_SIZE, hint, hl);
	case L_INTERVAL:
		c->interval_set = 1;
		if (sb_parse_duration_ns(v, &c->interval_ns) < 0)
			return snprintf(hint, hl, "a duration (examples: 0, 10ms, 1s)"), -EINVAL;
		return 0;
	case L_SETTLE:
		c->settle_set = 1;
		if (sb_parse_duration_ns(v, &c->settle_ns) < 0 || c->settle_ns > 3600000000000ull)
			return snprintf(hint, hl, "a duration up to 1h (examples: 0, 500ms, 3s)"),
			       -EINVAL;
		return 0;
	case L_RUNTIME:
		if (sb_parse_duration_ns(v, &c->runtime_ns) < 0 || !c->runtime_ns)
			return snprintf(hint, hl, "a duration above 0 (examples: 500ms, 10s, 5m)"),
			       -EINVAL;
		return 0;
	case L_COUNT:
		c->count_set = 1;
		return cli_opt_number(v, &c->count, 1, 1000000000000ull, hint, hl);
	case L_WARMUP:
		c->warmup_set = 1;
		return cli_opt_number(v, &c->warmup, 0, 1000000, hint, hl);
	case L_PRESET:
		if ((p = sb_lat_preset_by_name(v)) < 0)
			return snprintf(hint, hl, "dd-sync, hdparm, hdparm-cache or ioping"),
			       -EINVAL;
		c->preset = (enum sb_lat_preset)p;
		return 0;
	case L_FLOOD: c->flood = 1; return 0;
	case L_WRITE: c->write = 1; return 0;
	case L_DIRECT: c->direct = 1; return 0;
	case L_BUFFERED: c->buffered = 1; return 0;
	}
	return -EINVAL;
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench latency [options] TARGET\n\n"
	       "ioping's latency probe: one request at a time at a random aligned offset of\n"
	       "the working set, every --interval, direct I/O; the first request is a warm-up\n"
	       "left out of the statistics. Prints a line per request, then min/avg/max/mdev,\n"
	       "IOPS (from the time spent in requests) and percentiles. TARGET is a directory\n"
	       "(a 1 MiB test file is created and removed), a file or a block device.\n"
	       "Reading is always allowed; --write only to files storbench created, or with\n"
	       "--destroy-data to an existing file or an unused block device.\n\n"
	       "presets:\n"
	       "  dd-sync       dd bs=512 count=1000 oflag=direct,dsync: 512-byte synchronous\n"
	       "                direct writes from the start of the working set; dd's summary\n"
	       "                line and the per-write latency (writes: the rules above apply)\n"
	       "  hdparm        hdparm -t: the device's cache flushed (BLKFLSBUF), sync and\n"
	       "                3 s idle, then sequential 2 MiB reads for at least 3 s or to\n"
	       "                the end of the working set, buffered (--direct for hdparm\n"
	       "                --direct), the cache flushed again after; hdparm's lines\n"
	       "  hdparm-cache  hdparm -T: the first 2 MiB read once, the cache flushed, 1 s\n"
	       "                idle, then read again and again for 2 s, from the page cache\n"
	       "                (memory speed, not the device's)\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench latency --count=10 .\n"
	       "  storbench latency --flood --count=10000 --quiet /dev/mmcblk0\n"
	       "  storbench latency --write --interval=100ms --count=100 /mnt/sd\n"
	       "  storbench latency --preset=dd-sync /mnt/sd\n"
	       "  storbench latency --preset=hdparm /dev/sda\n");
	cli_print_exit_status(stdout, co->cmd);
}

/* The preset's parameters (lib/latency's); a request size the preset
 * chose is named as the preset's: the user typed no --bs. */
static void apply_preset(const struct sb_lat_choice *c, struct sb_lat_run *lr)
{
	sb_lat_choice_apply(c, lr);
	if (!c->bs_set && c->preset != SB_LAT_IOPING) {
		char typed[64], size[32];
		snprintf(typed, sizeof(typed), "--bs (%s, from --preset=%s)",
			 sb_fmt_size(lr->p.bs, size, sizeof(size)), sb_lat_preset_name(c->preset));
		cli_msg_alias("--bs", typed);
	}
}

/* Writing to a block device always needs --destroy-data here (ioping asks
 * for -WWW): without it, the write gate's refusal (cli_refuse_device);
 * cli_target_prepare adds the safety rules (never in use, held with
 * O_EXCL). */
static int blockdev_write_ok(const struct lat_ctx *c, const char *path)
{
	return c->sh.destroy_data ? 0 : cli_refuse_device(path);
}

/* Resolve TARGET: validate, create the test file where one is needed. */
static int prepare(const struct lat_ctx *c, struct sb_lat_run *lr, struct sb_jobtarget *t,
		   const char *path)
{
	int rc = cli_target_probe(t, path);
	if (rc)
		return rc;
	const enum sb_target_kind kind = t->info.kind;
	struct sb_job_opts job;
	char msg[160];
	if (sb_lat_choice_job(&c->ch, lr, kind == SB_TARGET_DIR || kind == SB_TARGET_NONE, &job,
			      msg, sizeof(msg))) {
		sb_err("%s", msg);
		return SB_EXIT_USAGE;
	}
	if (lr->direct && t->info.direct_ok == 0) {
		sb_err("cannot use direct I/O on '%s' (%s does not support it): add --buffered",
		       path, t->info.fstype[0] ? t->info.fstype : "its filesystem");
		return SB_EXIT_USAGE;
	}
	if (lr->p.write && kind == SB_TARGET_BLOCK && (rc = blockdev_write_ok(c, path)))
		return rc;
	t->destroy_data = c->sh.destroy_data;
	rc = cli_target_prepare(t, path, &job, 1, 0);
	if (rc)
		return rc;
	if (t->region_size < lr->p.bs) {
		sb_err("--bs: a request (%u bytes) is larger than the working set (%llu bytes)",
		       lr->p.bs, (unsigned long long)t->region_size);
		return SB_EXIT_USAGE;
	}
	lr->p.offset = t->region_offset;
	lr->p.size = t->region_size;
	return 0;
}

/* The text side of a run. */
struct lat_out {
	struct sb_lat_run *lr;
	char where[256]; /* ioping's "(ext4 /dev/vda 252 GiB)" */
	int per_request; /* print a line per request */
	int quiet;	 /* --quiet: no progress line */
	FILE *lines;	 /* where they go (stdout, or stderr with JSON on stdout) */
	/* the live progress line, when there are no request lines */
	int progress;
	struct cli_progress pg;
	struct sb_rate rate;
	uint64_t since_check_ns; /* request time summed since the clock was last read */
};

static void progress_start(struct lat_out *o, int quiet)
{
	cli_progress_init(&o->pg, quiet || o->per_request);
	sb_rate_reset(&o->rate);
	o->progress = !o->pg.quiet;
	o->since_check_ns = 0;
}

static void progress_end(struct lat_out *o)
{
	if (o->progress)
		cli_progress_clear(&o->pg);
}

/* "latency, hdparm: 40% 1.2 GiB 410 MiB/s 3.3k IOPS  elapsed 1s  ETA 2s" */
static void progress(struct lat_out *o, uint64_t n)
{
	const struct sb_lat_run *lr = o->lr;
	const struct sb_probe_params *p = &lr->p;
	const uint64_t now = sb_now_ns(), el = now - o->pg.start_ns;
	sb_rate_add(&o->rate, now, n * p->bs, n);
	if (!cli_progress_due(&o->pg, now))
		return;
	/* the nearest of the limits: a request count, the region's end, a run time */
	double pct = -1, eta = -1;
	uint64_t total = 0;
	const uint64_t limit_ns = p->deadline_ns ? p->deadline_ns : p->min_time_ns;
	if (p->count && n) {
		pct = 100.0 * (double)SB_MIN(n, p->count) / (double)p->count;
		eta = n < p->count ? (double)el / (double)n * (double)(p->count - n) : 0;
	}
	const uint64_t blocks = p->stop_at_end && p->pattern == SB_PROBE_SEQ ? p->size / p->bs : 0;
	if (blocks && n) {
		const double b = 100.0 * (double)SB_MIN(n, blocks) / (double)blocks;
		if (b > pct)
			pct = b,
			eta = n < blocks ? (double)el / (double)n * (double)(blocks - n) : 0,
			total = blocks * p->bs;
	}
	if (limit_ns) {
		const double t = 100.0 * (double)SB_MIN(el, limit_ns) / (double)limit_ns,
			     e = el < limit_ns ? (double)(limit_ns - el) : 0;
		if (t > pct)
			pct = t, eta = e, total = 0;
	}
	struct cli_line l = {
		.label = "latency",
		.what = sb_lat_preset_name(lr->preset),
		.pct = pct,
		.done = n * p->bs,
		.total = total,
		.bps = -1,
		.ops = -1,
		.elapsed_ns = el,
		.eta_ns = eta,
	};
	double bps, ops;
	if (sb_rate_get(&o->rate, now, n * p->bs, n, &bps, &ops) == 0)
		l.bps = bps, l.ops = ops;
	cli_progress_draw(&o->pg, &l, now);
}

/* The run's request hook (ctx: a lat_out): prints ioping's line, or
 * redraws the progress line when o->progress (the clock is read only once
 * the requests since the last read add up to 50 ms, so hdparm -T's loop
 * of cached reads does not time it). */
static void on_request(void *ctx, const struct sb_lat_run *lr, const struct sb_probe_req *r)
{
	struct lat_out *o = ctx;
	if (o->progress) {
		o->since_check_ns += r->ns + lr->p.interval_ns;
		if (o->since_check_ns >= 50000000ull) {
			o->since_check_ns = 0;
			progress(o, r->n);
		}
	}
	if (!o->per_request)
		return;
	rep_lat_request_text(o->lines, lr, o->where, r);
	fflush(o->lines);
}

static int stop_requested(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

static void on_begin(void *ctx, const struct sb_lat_run *lr)
{
	struct lat_out *o = ctx;
	(void)lr;
	progress_start(o, o->quiet);
}

static void on_warn(void *ctx, const char *msg)
{
	(void)ctx;
	sb_warn("%s", msg);
}

/* The probe, then its words and results: 0 or an exit code. After a
 * Ctrl-C during the layout, the results alone (nothing measured, marked
 * interrupted: the run asks the stop hook first). */
static int measure(const struct lat_ctx *c, struct lat_out *o, struct sb_jobtarget *t)
{
	struct sb_lat_run *lr = o->lr;
	struct sb_error er;
	const struct sb_latency_opts lo = { lr->preset, lr->path, t, lr->p, lr->direct, lr->dsync };
	const struct sb_latency_hooks h = { .ctx = o,
					    .stop = stop_requested,
					    .begin = on_begin,
					    .request = on_request,
					    .warn = on_warn };
	struct sb_results *res = sb_results_create("latency");
	if (!res) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	cli_results_describe(res, t, lr->path);
	rep_lat_where(&t->info, o->where, sizeof(o->where));
	const int e = sb_latency_run(&lo, &h, NULL, lr, &er);
	progress_end(o);
	if (e && !lr->failed) { /* the target could not be opened: nothing ran */
		sb_results_free(res);
		return cli_error(&er);
	}
	int rc = e ? cli_error(&er) : 0;
	if (sb_results_latency(res, lr) < 0) {
		sb_results_free(res);
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	if (!c->json_stdout)
		rep_lat_run_text(stdout, lr, o->where);
	if (c->sh.output && cli_write_json(res, c->sh.output) < 0 && !rc)
		rc = SB_EXIT_ENV;
	if (c->json_stdout && cli_write_json(res, "-") < 0 && !rc)
		rc = SB_EXIT_ENV;
	rep_warnings_text(stderr, res);
	if (cli_interrupted())
		rc = cli_interrupt_status();
	sb_results_free(res);
	return rc;
}

int cmd_latency(const struct cli_command *cmd, int argc, char **argv)
{
	struct lat_ctx c;
	struct sb_lat_run lr;
	struct sb_jobtarget t;
	char *pos[1];

	memset(&c, 0, sizeof(c));
	memset(&lr, 0, sizeof(lr));
	memset(&t, 0, sizeof(t));
	struct cli_cmd_opts co = { lat_opts, lat_set, 0, NULL, &c, cmd, &c.sh };
	int p = cli_parse_target(argc, argv, &co, help, "a directory, a file or a block device",
				 &pos[0]);
	if (p)
		return p < 0 ? SB_EXIT_OK : p;
	c.json_stdout = cli_format_is(cmd, &c.sh, "json");
	char msg[160];
	if (sb_lat_choice_check(&c.ch, msg, sizeof(msg))) {
		sb_err("%s", msg);
		return SB_EXIT_USAGE;
	}
	apply_preset(&c.ch, &lr);
	lr.path = pos[0];
	struct lat_out o = { .lr = &lr,
			     .per_request = !c.sh.quiet && c.ch.preset == SB_LAT_IOPING,
			     .lines = c.json_stdout ? stderr : stdout,
			     .quiet = c.sh.quiet };
	/* before the layout: a Ctrl-C then stops it, and the file goes */
	cli_signals_install();
	int rc = prepare(&c, &lr, &t, pos[0]);
	if (!rc || cli_interrupted())
		rc = measure(&c, &o, &t);
	cli_target_cleanup(&t, c.sh.keep);
	sb_latency_result_free(&lr);
	return rc;
}
