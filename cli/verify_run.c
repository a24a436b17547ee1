/*
 * storbench verify: the target and the write and check phases of the
 * library (lib/verify/verify_target.h) with the program around them:
 * messages and exit codes, a progress line (cli/progress.c: bytes done of
 * the phase's, the rate over the last second, the ETA), Ctrl-C, and the
 * results.
 */
#include "cli/verify.h"
#include "lib/storbench.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define MSG_LEN 8448 /* two paths and some words */

struct sb_vtarget_opts verify_lib_opts(const struct verify_opts *o)
{
	return (struct sb_vtarget_opts){
		.phase = o->phase,
		.offset = o->offset,
		.size = o->size_given ? o->size : 0,
		.block_size = o->block_size,
		.block_size_given = o->block_size_given,
		.seed = o->seed,
		.seed_given = o->seed_given,
		.direct = o->direct,
		.destroy = o->destroy,
	};
}

int verify_target_resolve(struct vtarget *t, const char *path, struct verify_opts *o)
{
	struct sb_vtarget_opts lo = verify_lib_opts(o);
	char msg[MSG_LEN];
	int e;
	/* a caller that looked first (soak) is not made to look twice */
	if (!t->ct.probed && (e = cli_target_probe(&t->ct, path)))
		return e;
	if (t->ct.info.kind == SB_TARGET_BLOCK && (o->phase & SB_VPHASE_WRITE) && !o->destroy)
		return cli_refuse_device(path);
	e = sb_vtarget_resolve(&t->v, path, &t->ct.info, &lo, msg, sizeof(msg));
	/* a check may have read the seed and the block size from the data */
	o->seed = lo.seed;
	o->block_size = lo.block_size;
	if (!e)
		return 0;
	sb_err("%s", msg);
	/* a target that is not there cannot be used; no data of ours in one
	 * that is, or a file not ours, is the user's to set right */
	if (e == -ENOENT && t->ct.info.kind == SB_TARGET_NONE)
		return SB_EXIT_ENV;
	return e == -EINVAL || e == -EPERM || e == -ENOENT ? SB_EXIT_USAGE : SB_EXIT_ENV;
}

int verify_target_create(struct vtarget *t, const struct verify_opts *o)
{
	const struct sb_vtarget_opts lo = verify_lib_opts(o);
	char msg[MSG_LEN];
	if (t->v.is_blockdev) {
		t->ct.destroy_data = o->destroy;
		const int rc = cli_device_consent(&t->ct, t->v.path);
		if (rc)
			return rc;
		/* the phases write through what the write gate gave */
		struct sb_vseg *s = &t->v.seg[0];
		if (s->fd >= 0)
			close(s->fd);
		s->fd = fcntl(t->ct.excl_fd - 1, F_DUPFD_CLOEXEC, 0);
		if (s->fd < 0) {
			sb_err("cannot use '%s': %s", t->v.path, strerror(errno));
			return SB_EXIT_ENV;
		}
		return 0;
	}
	const int e = sb_vtarget_create(&t->v, &lo, msg, sizeof(msg));
	/* a second Ctrl-C removes what --phase=both would have removed */
	for (unsigned i = 0; i < t->v.nseg; i++) {
		if (!t->v.seg[i].created)
			continue;
		cli_ranks_note_file(t->v.seg[i].path); /* in a rank's directory */
		/* tracked once, with its descriptor of now (soak: each
		 * iteration's file) */
		cli_signals_track_fd(t->v.seg[i].path, -1, 0);
		if (o->phase == SB_VPHASE_BOTH && !o->keep)
			cli_signals_track_fd(t->v.seg[i].path, t->v.seg[i].fd, 1);
	}
	if (!e)
		return 0;
	sb_err("%s", msg);
	snprintf(t->why, sizeof(t->why), "%.*s", (int)sizeof(t->why) - 1, msg);
	return cli_exit_of_errno(e);
}

/* What removing segment i came to (e), told. */
static void removed(const struct vtarget *t, unsigned i, int e)
{
	if (e == -ESTALE)
		sb_warn("did not remove '%s': the name no longer names the file storbench "
			"created there",
			t->v.seg[i].path);
	else if (e < 0 && e != -ENOENT)
		sb_warn("could not remove '%s': %s", t->v.seg[i].path, strerror(-e));
}

void verify_target_remove_created(struct vtarget *t)
{
	/* a file at the user's name stays held until the next iteration
	 * swaps a new one in (sb_vtarget_retire): the name never stands free */
	for (unsigned i = 0; i < t->v.nseg; i++)
		removed(t, i, sb_vtarget_retire(&t->v, i));
}

void verify_target_cleanup(struct vtarget *t, int remove_created)
{
	for (unsigned i = 0; i < t->v.nseg; i++) {
		cli_signals_track_file(t->v.seg[i].path, 0);
		if (remove_created)
			removed(t, i, sb_vtarget_remove(&t->v, i));
	}
	sb_vtarget_free(&t->v);
	/* a rank's directory: removed with the files, else marked kept */
	cli_target_cleanup(&t->ct, !remove_created);
}

struct prog {
	const char *label;
	const struct verify_report *r;
	uint64_t total; /* bytes of the phase */
	struct cli_progress pg;
	struct sb_rate rate;
	/* many ranks, every one in this phase (r->all_ranks): the rounds
	 * sum the ranks' bytes done and of the phase to rank 0, whose line
	 * shows them */
	struct sb_coord_sum all;
	char what[64];
};

/* One look at the round in flight (a new one started when due, or when
 * this rank's phase is over): 1 once a round ended with every rank done. */
static int ranks_look(struct prog *p, uint64_t done, int over, uint64_t now)
{
	return cli_ranks_sum_look(&p->all, done, p->total, over, now) == 1;
}

/* The line: "verify write: 42% 1.20 GiB of 3.00 GiB 512 MiB/s  elapsed 3s
 * ETA 4s" (the ETA of the phase). */
static void progress_draw(struct prog *p, uint64_t done, uint64_t now)
{
	const double elapsed = (double)(now - p->pg.start_ns);
	struct cli_line l = {
		.label = "verify",
		.what = p->label,
		.pct = p->total ? 100.0 * (double)done / (double)p->total : 100.0,
		.done = done,
		.total = p->total,
		.ops = -1,
		.elapsed_ns = (uint64_t)elapsed,
		.eta_ns = -1,
	};
	if (sb_rate_get(&p->rate, now, done, 0, &l.bps, NULL) < 0)
		l.bps = -1;
	if (p->r->all_ranks) { /* every rank's together, at most a round behind */
		done = p->all.done;
		l.done = done;
		l.total = p->all.total;
		l.pct = l.total ? 100.0 * (double)done / (double)l.total : 0;
		l.bps = sb_coord_sum_rate(&p->all);
		snprintf(p->what, sizeof(p->what), "%s, %d ranks", p->label, cli_ranks());
		l.what = p->what;
	}
	if (l.bps > 0)
		l.eta_ns = done < l.total ? (double)(l.total - done) / l.bps * 1e9 : 0;
	cli_progress_draw(&p->pg, &l, now);
}

static int progress(void *ctx, uint64_t done)
{
	struct prog *p = ctx;

	if (cli_interrupted())
		return 1;
	const uint64_t now = sb_now_ns();
	sb_rate_add(&p->rate, now, done, 0);
	if (p->r->all_ranks)
		ranks_look(p, done, 0, now);
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
	struct prog pg = { .label = label, .r = r, .total = t->v.size };
	/* many ranks: rank 0's line alone */
	cli_progress_init(&pg.pg, r->o->quiet || cli_rank() != 0);
	sb_rate_reset(&pg.rate);
	sb_rate_add(&pg.rate, pg.pg.start_ns, 0, 0);
	const struct sb_vphase p = { &t->v, ops, write, progress, stop, &pg };
	char msg[MSG_LEN];

	r->res.t = &t->v;
	r->res.engine = ops->name;
	r->res.request_size = r->o->request_size;
	r->res.iodepth = r->o->iodepth;
	const int e = sb_verify_phase(&r->res, &p, msg, sizeof(msg));
	/* many ranks: the rounds go on until every rank's phase is over */
	if (r->all_ranks) {
		const uint64_t done = write ? r->res.wr.bytes : r->res.rd.bytes;
		const struct timespec nap = { 0, 1000000 };
		while (!ranks_look(&pg, done, 1, sb_now_ns()))
			nanosleep(&nap, NULL);
	}
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

/* Many ranks: each rank's part to rank 0, whose report then holds the
 * counts of all; the bad ranges stay each rank's own (offsets in its own
 * target), in its part. */
static struct sb_verify_rank *gather_parts(struct verify_report *r)
{
	struct sb_verify_report *v = &r->res;
	struct sb_verify_rank mine;
	memset(&mine, 0, sizeof(mine));
	mine.rank = cli_rank();
	snprintf(mine.host, sizeof(mine.host), "%s", cli_ranks_host());
	snprintf(mine.path, sizeof(mine.path), "%s", r->t->v.path);
	mine.bytes_written = v->wr.bytes;
	mine.bytes_checked = v->rd.bytes;
	mine.blocks = v->acc.blocks;
	memcpy(mine.count, v->acc.count, sizeof(mine.count));
	mine.write_errors = v->wr.errors;
	mine.missing_blocks = v->missing_blocks;
	mine.failed = v->failed != 0;
	mine.interrupted = v->wr.interrupted || v->rd.interrupted;
	mine.nranges = (unsigned)SB_MIN(v->acc.nranges, (size_t)SB_VERIFY_RANK_RANGES);
	memcpy(mine.ranges, v->acc.ranges, mine.nranges * sizeof(mine.ranges[0]));
	mine.omitted = v->acc.omitted + (v->acc.nranges - mine.nranges);
	struct sb_verify_rank *all = cli_ranks_gather(&mine, sizeof(mine));
	if (!all)
		return NULL;
	/* rank 0: the sums; its own ranges are in its part */
	memset(v->acc.count, 0, sizeof(v->acc.count));
	v->acc.blocks = v->missing_blocks = 0;
	v->acc.nranges = 0;
	v->acc.omitted = 0;
	for (int k = 0; k < cli_ranks(); k++) {
		const struct sb_verify_rank *p = &all[k];
		for (int c = 0; c < SB_VERIFY_NCLASS; c++)
			v->acc.count[c] += p->count[c];
		v->acc.blocks += p->blocks;
		v->acc.omitted += p->nranges + p->omitted;
		v->missing_blocks += p->missing_blocks;
		if (k) {
			v->wr.bytes += p->bytes_written;
			v->rd.bytes += p->bytes_checked;
			v->wr.errors += p->write_errors;
			v->wr.interrupted |= p->interrupted;
			if (p->failed && !v->failed) {
				v->failed = -EIO;
				snprintf(v->failure, sizeof(v->failure), "rank %d on %s failed",
					 p->rank, p->host);
			}
		}
	}
	v->ranks = all;
	v->nranks = (unsigned)cli_ranks();
	return all;
}

/* The ranks' part of the text: a line each. */
static void ranks_text(FILE *f, const struct verify_report *r)
{
	const struct sb_verify_report *v = &r->res;
	if (!v->nranks)
		return;
	fprintf(f, "ranks:\n");
	for (unsigned i = 0; i < v->nranks; i++) {
		const struct sb_verify_rank *k = &v->ranks[i];
		uint64_t bad = 0;
		for (int c = SB_VERIFY_INTACT + 1; c < SB_VERIFY_NCLASS; c++)
			bad += k->count[c];
		fprintf(f, "  rank %d on %s, '%s': ", k->rank, k->host, k->path);
		if (v->checked)
			fprintf(f, "%llu blocks checked, %llu not intact",
				(unsigned long long)k->blocks, (unsigned long long)bad);
		else
			fprintf(f, "%llu bytes written", (unsigned long long)k->bytes_written);
		if (k->write_errors)
			fprintf(f, ", %llu write errors", (unsigned long long)k->write_errors);
		for (unsigned g = 0; g < k->nranges; g++)
			fprintf(f, "%s%s at %llu, %llu bytes", g ? "; " : ": ",
				sb_verify_class_name(k->ranges[g].cls),
				(unsigned long long)k->ranges[g].offset,
				(unsigned long long)k->ranges[g].length);
		if (k->omitted)
			fprintf(f, " and %llu more range%s", (unsigned long long)k->omitted,
				k->omitted > 1 ? "s" : "");
		fputc('\n', f);
	}
}

/* Writes the results; returns 0, an exit code of its own, or (many ranks,
 * not rank 0) 1 with *code the worst of every rank's, nothing written. */
static int output(const struct verify_opts *o, struct sb_results *res, struct verify_report *r,
		  const double *t0, const double *t1, int *code)
{
	int rc = 0;
	res->extra_key = "verify";
	res->extra_json = sb_verify_json;
	res->extra_ctx = &r->res;
	sb_verify_add_jobs(res, &r->res);
	for (size_t i = 0; i < res->njobs && i < 2; i++) {
		/* the jobs are the write, then the check, of those that ran */
		const int k = r->res.wrote && i == 0 ? 0 : 1;
		res->jobs[i]->rank_start_s = t0[k];
		res->jobs[i]->rank_end_s = t1[k];
	}
	if (cli_ranks() > 1) {
		struct sb_verify_rank *parts = gather_parts(r);
		if (cli_ranks_collect(res, code)) {
			free(parts);
			return 1;
		}
		/* the phases' time: from the earliest start to the latest end */
		for (size_t i = 0; i < res->njobs && i < 2; i++)
			(r->res.wrote && i == 0 ? &r->res.wr : &r->res.rd)->ns =
				res->jobs[i]->runtime_ns;
	}
	if (o->output && cli_write_json(res, o->output) < 0)
		rc = SB_EXIT_ENV;
	if (o->json_stdout) {
		if (cli_write_json(res, "-") < 0)
			rc = SB_EXIT_ENV;
	} else {
		verify_render_text(stdout, r);
		ranks_text(stdout, r);
		for (size_t i = 0; i < res->njobs; i++) {
			if (res->jobs[i]->nclients)
				printf("%s, per rank:\n", res->jobs[i]->name);
			render_ranks_text(stdout, res->jobs[i]);
		}
	}
	/* what the figures may not be (a target in RAM) */
	render_warnings_text(stderr, res);
	return rc;
}

static int verdict(const struct verify_report *r)
{
	if (cli_interrupted())
		return cli_interrupt_status();
	if (r->res.wr.errors || r->res.failed || sb_verify_acc_bad(&r->res.acc))
		return SB_EXIT_FAIL;
	return SB_EXIT_OK;
}

/* Everything is checked; the files exist: write, check, report. Many
 * ranks start each phase together, and when one failed a phase or was
 * stopped, none goes on to the next. */
static int run_phases(struct verify_opts *o, struct vtarget *t, const struct sb_engine_ops *ops,
		      struct verify_report *r)
{
	double t0[2] = { 0, 0 }, t1[2] = { 0, 0 };
	struct sb_results *res = sb_results_create("verify");
	if (!res) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	cli_results_describe(res, &t->ct, t->v.path);
	res->target_created = t->v.nseg && t->v.seg[0].created;
	cli_signals_install();
	int rc = 0, stop = cli_ranks_worst(0);
	/* a long run: the device's health before and after it */
	res->have_health = sb_health_capture(&t->ct.info, &res->health[0]) == 0;
	/* many ranks: every rank runs each phase (agreed), so rank 0's line
	 * shows the bytes and the rate of all of them */
	r->all_ranks = cli_ranks() > 1;
	if (o->phase & SB_VPHASE_WRITE) {
		t0[0] = cli_ranks_time();
		rc = verify_phase(r, t, ops, 1, "write");
		t1[0] = cli_ranks_time();
		stop = cli_ranks_worst(rc ? 2 : !!cli_interrupted());
	}
	/* a Ctrl-C (on any rank) before the check: no rank checks, so that
	 * every rank runs the same phases */
	if (!stop && cli_ranks_worst(!!cli_interrupted()))
		stop = 1;
	if (!stop && (o->phase & SB_VPHASE_CHECK)) {
		t0[1] = cli_ranks_time();
		rc = verify_phase(r, t, ops, 0, "check");
		t1[1] = cli_ranks_time();
	}
	if (res->have_health)
		res->have_health = sb_health_capture(&t->ct.info, &res->health[1]) == 0;
	sb_verify_acc_finish(&r->res.acc);
	res->interrupted = !!cli_interrupted();
	if (!t->v.direct && r->res.checked)
		res->cache_dropped = 1;
	int code = rc ? rc : stop == 2 ? SB_EXIT_FAIL : verdict(r);
	const int out = output(o, res, r, t0, t1, &code);
	free((void *)r->res.ranks);
	r->res.ranks = NULL;
	sb_results_free(res);
	if (cli_ranks() > 1)
		return out == 1 ? code : out ? out : code ? code : verdict(r);
	return rc ? rc : out ? out : verdict(r);
}

/* Many ranks: each works on TARGET as given (a device or a file on its
 * own host) or, for a directory, in a directory of its own under it
 * (--per-rank-dir), this run's to write (cli_ranks_dir) once every rank
 * has checked TARGET; a write's seed is rank 0's on every rank (one
 * --phase=check line for all). */
static int ranks_target(struct vtarget *t, struct verify_opts *o, const char **path)
{
	int rc = cli_ranks_agree(cli_target_probe(&t->ct, *path), NULL);
	if (rc)
		return rc;
	if (!o->seed_given)
		cli_ranks_bcast(&o->seed, sizeof(o->seed));
	const char *mine = *path;
	if ((rc = cli_ranks_dir(*path, t->ct.info.kind == SB_TARGET_DIR,
				!!(o->phase & SB_VPHASE_WRITE), &mine)))
		return rc;
	if (mine != *path)
		memset(&t->ct, 0, sizeof(t->ct)); /* its own directory, probed anew */
	*path = mine;
	return 0;
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
	if (cli_ranks() > 1 && (rc = ranks_target(&t, o, &path)))
		goto out;
	/* many ranks: none goes on when one cannot (nothing written yet) */
	if ((rc = cli_ranks_agree(verify_target_resolve(&t, path, o), NULL)))
		goto out;
	/* each rank's files fit: and those of the ranks on one filesystem?
	 * (without --size each fills the free space: refused when shared) */
	if (o->phase != SB_VPHASE_CHECK &&
	    (rc = cli_ranks_space_agree(path,
					t.v.is_blockdev || t.ct.info.kind == SB_TARGET_FILE
						? 0
						: t.v.size,
					t.ct.info.fs_free, t.ct.info.mountpoint)))
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
	if ((rc = cli_ranks_agree(ops ? 0 : SB_EXIT_USAGE, NULL)))
		goto out;
	r.res.t = &t.v;
	r.res.engine = ops->name;
	r.res.phase = o->phase;
	r.res.request_size = o->request_size;
	r.res.iodepth = o->iodepth;
	sb_verify_fmt_init(&r.res.fmt, o->seed, o->generation, o->block_size);
	const int nomem = sb_verify_acc_init(&r.res.acc, o->block_size, o->max_ranges) < 0;
	if (nomem)
		sb_err("out of memory");
	if ((rc = cli_ranks_agree(nomem ? SB_EXIT_ENV : 0, NULL)))
		goto out;
	/* every option is valid: only now is anything created or written; a
	 * Ctrl-C from here on is handled, so the files made are removed */
	cli_signals_install();
	if ((o->phase & SB_VPHASE_WRITE) &&
	    (rc = cli_ranks_agree(verify_target_create(&t, o), NULL)))
		goto out;
	rc = run_phases(o, &t, ops, &r);
	if (o->phase == SB_VPHASE_WRITE && t.v.is_dir && !o->quiet && !o->json_stdout)
		printf("kept the files in '%s' for --phase=check\n", path);
out:
	verify_target_cleanup(&t, o->phase == SB_VPHASE_BOTH && !o->keep);
	sb_verify_acc_free(&r.res.acc);
	return rc;
}
