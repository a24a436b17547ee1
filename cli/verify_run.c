/*
 * storbench verify: the target and the write and check phases of the
 * library (lib/verify/verify_target.h) with the program around them:
 * messages and exit codes, a progress line (cli/progress.c: bytes done of
 * the phase's, the rate over the last second, the ETA), Ctrl-C, and the
 * results.
 */
#include "cli/verify.h"
#include "lib/storbench.h"

#define MSG_LEN 8448 /* two paths and some words */

static struct sb_vtarget_opts lib_opts(const struct verify_opts *o)
{
	return (struct sb_vtarget_opts){
		.phase = o->phase,
		.offset = o->offset,
		.size = o->size_given ? o->size : 0,
		.block_size = o->block_size,
		.block_size_given = o->block_size_given,
		.request_size = o->request_size,
		.seed = o->seed,
		.seed_given = o->seed_given,
		.direct = o->direct,
		.destroy = o->destroy,
	};
}

int verify_target_resolve(struct vtarget *t, const char *path, struct verify_opts *o)
{
	struct sb_vtarget_opts lo = lib_opts(o);
	char msg[MSG_LEN];
	int e;
	/* a caller that looked first (soak) is not made to look twice */
	if (!t->ct.probed && (e = cli_target_probe(&t->ct, path)))
		return e;
	e = sb_vtarget_resolve(&t->v, path, &t->ct.info, &lo, msg, sizeof(msg));
	/* a check may have read the seed and the block size from the data */
	o->seed = lo.seed;
	o->block_size = lo.block_size;
	if (!e)
		return 0;
	sb_err("%s", msg);
	return e == -EINVAL || e == -EPERM || e == -ENOENT ? SB_EXIT_USAGE : SB_EXIT_ENV;
}

/* What failed to be created: the user's doing, or the environment's. */
static int create_exit(int e)
{
	return e == -ENOSPC || e == -EACCES || e == -EPERM || e == -ENOMEM || e == -EIO ||
			       e == -EFBIG || e == -ETXTBSY || e == -EBUSY
		       ? SB_EXIT_ENV
		       : SB_EXIT_USAGE;
}

int verify_target_create(struct vtarget *t, const struct verify_opts *o)
{
	const struct sb_vtarget_opts lo = lib_opts(o);
	char msg[MSG_LEN];
	if (t->v.is_blockdev) {
		t->ct.destroy_data = o->destroy;
		return cli_device_consent(&t->ct, t->v.path);
	}
	const int e = sb_vtarget_create(&t->v, &lo, msg, sizeof(msg));
	/* a second Ctrl-C removes what --phase=both would have removed */
	for (unsigned i = 0; i < t->v.nseg && o->phase == SB_VPHASE_BOTH && !o->keep; i++)
		if (t->v.seg[i].created)
			cli_signals_track_fd(t->v.seg[i].path, t->v.seg[i].fd, 1);
	if (!e)
		return 0;
	sb_err("%s", msg);
	snprintf(t->why, sizeof(t->why), "%.*s", (int)sizeof(t->why) - 1, msg);
	return create_exit(e);
}

static void remove_seg(struct vtarget *t, unsigned i)
{
	const int e = sb_vtarget_remove(&t->v, i);
	if (e == -ESTALE)
		sb_warn("did not remove '%s': the name no longer names the file storbench "
			"created there",
			t->v.seg[i].path);
	else if (e < 0 && e != -ENOENT)
		sb_warn("could not remove '%s': %s", t->v.seg[i].path, strerror(-e));
}

void verify_target_remove_created(struct vtarget *t)
{
	for (unsigned i = 0; i < t->v.nseg; i++)
		remove_seg(t, i);
}

void verify_target_cleanup(struct vtarget *t, int remove_created)
{
	for (unsigned i = 0; i < t->v.nseg; i++) {
		cli_signals_track_file(t->v.seg[i].path, 0);
		if (remove_created)
			remove_seg(t, i);
	}
	sb_vtarget_free(&t->v);
	cli_target_cleanup(&t->ct, 1);
}

struct prog {
	const char *label;
	const struct verify_report *r;
	uint64_t total; /* bytes of the phase */
	int write;
	struct cli_progress pg;
	struct cli_rate rate;
};

/* The line: "verify write: 42% 1.20 GiB of 3.00 GiB 512 MiB/s  elapsed 3s
 * ETA 4s" (the ETA of the phase), or soak's. */
static void progress_draw(struct prog *p, uint64_t done, uint64_t now)
{
	const struct verify_report *r = p->r;
	const double elapsed = (double)(now - p->pg.start_ns);
	struct cli_line l = {
		.label = r->command ? r->command : "verify",
		.step_word = r->step ? "iteration" : NULL,
		.step = r->step,
		.nsteps = r->nsteps,
		.what = p->label,
		.pct = p->total ? 100.0 * (double)done / (double)p->total : 100.0,
		.done = done,
		.total = p->total,
		.ops = -1,
		.elapsed_ns = (uint64_t)elapsed,
		.eta_ns = -1,
	};
	if (cli_rate_get(&p->rate, now, done, 0, &l.bps, NULL) < 0)
		l.bps = -1;
	if (l.bps > 0)
		l.eta_ns = done < p->total ? (double)(p->total - done) / l.bps * 1e9 : 0;
	if (r->eta)
		l.eta_ns = r->eta(r->eta_ctx, p->write, elapsed, l.eta_ns, &l.elapsed_ns);
	cli_progress_draw(&p->pg, &l, now);
}

static int progress(void *ctx, uint64_t done)
{
	struct prog *p = ctx;

	if (cli_interrupted())
		return 1;
	if (p->r->hook && p->r->hook(p->r->hook_ctx, done))
		return 1;
	const uint64_t now = sb_now_ns();
	cli_rate_add(&p->rate, now, done, 0);
	if (cli_progress_due(&p->pg, now))
		progress_draw(p, done, now);
	return 0;
}

static int stop(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

int verify_phase(struct verify_report *r, const struct vtarget *t, const struct sb_engine_ops *ops,
		 int write, const char *label)
{
	struct prog pg = { .label = label, .r = r, .total = t->v.size, .write = write };
	cli_progress_init(&pg.pg, r->o->quiet);
	cli_rate_reset(&pg.rate);
	cli_rate_add(&pg.rate, pg.pg.start_ns, 0, 0);
	const struct sb_vphase p = { &t->v, ops, write, progress, stop, &pg };
	char msg[MSG_LEN];

	r->res.t = &t->v;
	r->res.engine = ops->name;
	r->res.request_size = r->o->request_size;
	r->res.iodepth = r->o->iodepth;
	const int e = sb_verify_phase(&r->res, &p, msg, sizeof(msg));
	cli_progress_clear(&pg.pg);
	if (e)
		sb_err("%s", msg);
	return e ? SB_EXIT_ENV : 0;
}

const struct sb_engine_ops *verify_engine(const struct verify_opts *o)
{
	struct sb_job_opts j;
	int fell_back;

	sb_job_opts_default(&j);
	snprintf(j.engine, sizeof(j.engine), "%s", o->engine);
	j.iodepth = o->iodepth;
	const struct sb_engine_ops *ops = cli_engine_choose(&j, &fell_back);
	if (ops && (ops->flags & SB_ENGINE_NOIO)) {
		sb_err("--engine: %s does no I/O; verify needs psync, io_uring or libaio",
		       ops->name);
		return NULL;
	}
	return ops;
}

static int output(const struct verify_opts *o, struct sb_results *res,
		  const struct verify_report *r)
{
	int rc = 0;
	res->extra_key = "verify";
	res->extra_json = sb_verify_json;
	res->extra_ctx = &r->res;
	sb_verify_add_jobs(res, &r->res);
	if (o->output && cli_write_json(res, o->output) < 0)
		rc = SB_EXIT_ENV;
	if (o->json_stdout) {
		if (cli_write_json(res, "-") < 0)
			rc = SB_EXIT_ENV;
	} else {
		verify_render_text(stdout, r);
	}
	return rc;
}

static int verdict(const struct verify_report *r)
{
	if (cli_interrupted())
		return cli_interrupt_status();
	if (r->res.wr.errors || sb_verify_acc_bad(&r->res.acc))
		return SB_EXIT_FAIL;
	return SB_EXIT_OK;
}

/* Everything is checked; the files exist: write, check, report. */
static int run_phases(struct verify_opts *o, struct vtarget *t, const struct sb_engine_ops *ops,
		      struct verify_report *r)
{
	struct sb_results *res = sb_results_create("verify");
	if (!res) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	cli_results_describe(res, &t->ct, t->v.path);
	res->target_created = t->v.nseg && t->v.seg[0].created;
	cli_signals_install();
	int rc = 0;
	/* a long run: the device's health before and after it */
	res->have_health = sb_health_capture(&t->ct.info, &res->health[0]) == 0;
	if (o->phase & SB_VPHASE_WRITE)
		rc = verify_phase(r, t, ops, 1, "write");
	if (!rc && (o->phase & SB_VPHASE_CHECK) && !cli_interrupted())
		rc = verify_phase(r, t, ops, 0, "check");
	if (res->have_health)
		res->have_health = sb_health_capture(&t->ct.info, &res->health[1]) == 0;
	sb_verify_acc_finish(&r->res.acc);
	res->interrupted = !!cli_interrupted();
	if (!t->v.direct && r->res.checked)
		res->cache_dropped = 1;
	const int out = output(o, res, r);
	sb_results_free(res);
	return rc ? rc : out ? out : verdict(r);
}

int verify_run(struct verify_opts *o, const char *path)
{
	struct vtarget t;
	struct verify_report r;
	int rc;

	memset(&t, 0, sizeof(t));
	memset(&r, 0, sizeof(r));
	r.o = o;
	r.t = &t;
	if ((rc = verify_target_resolve(&t, path, o)))
		goto out;
	if (o->phase == SB_VPHASE_CHECK && !o->seed_given && !t.v.learned)
		sb_warn("no block written by storbench verify found in '%s': every block will "
			"count as foreign (give --seed to check against a run)",
			path);
	if (t.v.other_runs)
		sb_warn("'%s' holds the files of %u other verify run%s: checking those of run "
			"%s, the %s",
			path, t.v.other_runs, t.v.other_runs > 1 ? "s" : "",
			t.v.run[0] ? t.v.run : "without a name",
			o->seed_given ? "newest of the seed given" : "newest");
	/* a block size read from the data may not divide the request size */
	if (o->request_size % o->block_size)
		o->request_size = SB_MAX(o->request_size / o->block_size, 1u) * o->block_size;
	const struct sb_engine_ops *ops = verify_engine(o);
	if (!ops) {
		rc = SB_EXIT_USAGE;
		goto out;
	}
	r.res.t = &t.v;
	r.res.engine = ops->name;
	r.res.phase = o->phase;
	r.res.request_size = o->request_size;
	r.res.iodepth = o->iodepth;
	sb_verify_fmt_init(&r.res.fmt, o->seed, o->generation, o->block_size);
	if (sb_verify_acc_init(&r.res.acc, o->block_size, o->max_ranges) < 0) {
		sb_err("out of memory");
		rc = SB_EXIT_ENV;
		goto out;
	}
	/* every option is valid: only now is anything created or written */
	if ((o->phase & SB_VPHASE_WRITE) && (rc = verify_target_create(&t, o)))
		goto out;
	rc = run_phases(o, &t, ops, &r);
	if (o->phase == SB_VPHASE_WRITE && t.v.is_dir && !o->quiet && !o->json_stdout)
		printf("kept the files in '%s' for --phase=check\n", path);
out:
	verify_target_cleanup(&t, o->phase == SB_VPHASE_BOTH && !o->keep);
	sb_verify_acc_free(&r.res.acc);
	return rc;
}
