/*
 * storbench verify: the write and check phases over the target's files,
 * with a progress line (a terminal: 4 a second, redrawn; otherwise a line
 * every 10 s), Ctrl-C, and the results.
 */
#include "cli/verify.h"
#include "lib/storbench.h"

#include <unistd.h>

struct prog {
	const char *label;
	const struct verify_report *r;
	uint64_t total, before; /* bytes of the phase; done in earlier files */
	uint64_t t0, last;
	int tty, quiet, shown;
};

static int progress(void *ctx, uint64_t bytes)
{
	struct prog *p = ctx;
	char a[32], b[32], c[32];

	if (cli_interrupted())
		return 1;
	if (p->r->hook && p->r->hook(p->r->hook_ctx, p->before + bytes))
		return 1;
	const uint64_t now = sb_now_ns(), every = p->tty ? 250000000ull : 10000000000ull;
	if (p->quiet || now - p->last < every)
		return 0;
	p->last = now;
	p->shown = 1;
	const uint64_t done = p->before + bytes;
	const double s = (double)(now - p->t0) / 1e9;
	fprintf(stderr, "%s%s: %3.0f%% %s  %s  elapsed %s%s", p->tty ? "\r" : "", p->label,
		p->total ? 100.0 * (double)done / (double)p->total : 100.0,
		sb_fmt_size(done, a, sizeof(a)), sb_fmt_rate(s > 0 ? (double)done / s : 0, b, sizeof(b)),
		sb_fmt_ns((double)(now - p->t0), c, sizeof(c)), p->tty ? "\033[K" : "\n");
	fflush(stderr);
	return 0;
}

static void add_result(struct sb_verify_pass_result *sum, const struct sb_verify_pass_result *one)
{
	sum->bytes += one->bytes;
	sum->ios += one->ios;
	sum->ns += one->ns;
	sum->errors += one->errors;
	sb_hist_merge(&sum->lat, &one->lat);
	if (!sum->first_error && one->first_error) {
		sum->first_error = one->first_error;
		sum->first_error_offset = one->first_error_offset;
	}
	sum->interrupted |= one->interrupted;
}

/* The blocks of a file that cannot be read at all. */
static void unreadable(struct verify_report *r, const struct vseg *s, int err)
{
	const struct sb_verify_finding f = { SB_VERIFY_UNREADABLE, 0, 0, err };
	const uint64_t n = s->size / r->fmt.block_size;
	sb_verify_acc_add(&r->acc, s->base + s->offset, n, &f);
	r->missing_blocks += n;
}

static int one_file(struct verify_report *r, const struct vtarget *t, unsigned i,
		    const struct sb_engine_ops *ops, int write, struct prog *pg)
{
	const struct vseg *s = &t->seg[i];
	struct sb_verify_pass_result one;
	int fd = s->missing ? -ENOENT : verify_target_open(t, i, write);

	if (fd < 0 && write) {
		sb_err("cannot open '%s': %s", s->path, strerror(-fd));
		return SB_EXIT_ENV;
	}
	if (fd < 0)
		return unreadable(r, s, -fd), 0;
	if (!write && !t->direct)
		sb_drop_file_cache(fd); /* read the device, not what we wrote */
	const struct sb_verify_pass p = {
		.fd = fd, .engine = ops, .depth = r->o->iodepth, .request_size = r->o->request_size,
		.is_blockdev = t->is_blockdev, .offset = s->offset, .size = s->size,
		.base = s->base, .fmt = &r->fmt, .write = write, .progress = progress, .ctx = pg,
	};
	int e = sb_verify_pass_run(&p, write ? NULL : &r->acc, &one);
	close(fd);
	if (e < 0) {
		sb_err("cannot %s '%s': %s", write ? "write" : "check", s->path, strerror(-e));
		return SB_EXIT_ENV;
	}
	add_result(write ? &r->wr : &r->rd, &one);
	pg->before += one.bytes;
	return 0;
}

int verify_phase(struct verify_report *r, const struct vtarget *t,
		 const struct sb_engine_ops *ops, int write, const char *label)
{
	struct sb_verify_pass_result *sum = write ? &r->wr : &r->rd;
	struct prog pg = { label, r, t->size, 0, sb_now_ns(), sb_now_ns(),
			   isatty(STDERR_FILENO), r->o->quiet, 0 };
	int rc = 0;

	memset(sum, 0, sizeof(*sum));
	sb_hist_init(&sum->lat);
	for (unsigned i = 0; i < t->nseg && !rc; i++) {
		if (cli_interrupted()) {
			sum->interrupted = 1;
			break;
		}
		rc = one_file(r, t, i, ops, write, &pg);
	}
	if (pg.tty && pg.shown)
		fputs("\r\033[K", stderr);
	if (write)
		r->wrote = 1;
	else
		r->checked = 1;
	return rc;
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
		sb_err("--engine: %s does no I/O; verify needs psync, io_uring or libaio", ops->name);
		return NULL;
	}
	return ops;
}

static int output(const struct verify_opts *o, struct sb_results *res,
		  const struct verify_report *r)
{
	int rc = 0;
	res->extra_key = "verify";
	res->extra_json = verify_json;
	res->extra_ctx = r;
	verify_add_jobs(res, r);
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
		return cli_interrupted() == 15 ? SB_EXIT_SIGTERM : SB_EXIT_SIGINT;
	if (r->wr.errors || sb_verify_acc_bad(&r->acc))
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
	cli_results_describe(res, &t->ct, t->path);
	res->target_created = t->nseg && t->seg[0].created;
	cli_signals_install();
	int rc = 0;
	/* a long run: the device's health before and after it */
	res->have_health = sb_health_capture(&t->ct.info, &res->health[0]) == 0;
	if (o->phase & VPHASE_WRITE)
		rc = verify_phase(r, t, ops, 1, "write");
	if (!rc && (o->phase & VPHASE_CHECK) && !cli_interrupted())
		rc = verify_phase(r, t, ops, 0, "check");
	if (res->have_health)
		res->have_health = sb_health_capture(&t->ct.info, &res->health[1]) == 0;
	sb_verify_acc_finish(&r->acc);
	res->interrupted = !!cli_interrupted();
	if (!t->direct && r->checked)
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
	if (o->phase == VPHASE_CHECK && !o->seed_given && !t.learned)
		sb_warn("no block written by storbench verify found in '%s': every block will "
			"count as foreign (give --seed to check against a run)", path);
	/* a block size read from the data may not divide the request size */
	if (o->request_size % o->block_size)
		o->request_size = SB_MAX(o->request_size / o->block_size, 1u) * o->block_size;
	const struct sb_engine_ops *ops = verify_engine(o);
	if (!ops) {
		rc = SB_EXIT_USAGE;
		goto out;
	}
	r.engine = ops->name;
	sb_verify_fmt_init(&r.fmt, o->seed, o->generation, o->block_size);
	if (sb_verify_acc_init(&r.acc, o->block_size, o->max_ranges) < 0) {
		sb_err("out of memory");
		rc = SB_EXIT_ENV;
		goto out;
	}
	/* every option is valid: only now is anything created or written */
	if ((o->phase & VPHASE_WRITE) && (rc = verify_target_create(&t, o)))
		goto out;
	rc = run_phases(o, &t, ops, &r);
	if (o->phase == VPHASE_WRITE && t.is_dir && !o->quiet && !o->json_stdout)
		printf("kept the files in '%s' for --phase=check\n", path);
out:
	verify_target_cleanup(&t, o->phase == VPHASE_BOTH && !o->keep);
	sb_verify_acc_free(&r.acc);
	return rc;
}
