/*
 * run --verify's steps around lib/verify/job_verify.h: which workloads
 * can be verified, the fill before, the check after, and under mpirun
 * every rank's verdict to rank 0.
 */
#include "lib/run/jobs.h"
#include "lib/run/jobs_int.h"

/* 4 KiB verify blocks when every request size allows, 512 B otherwise. */
static uint32_t pick_block_size(const struct sb_job_opts *job)
{
	for (unsigned i = 0, n = sb_job_nsizes(job); i < n; i++)
		if (sb_job_size(job, i) % 4096)
			return 512;
	return 4096;
}

void sb_run_verify_fmt(const struct sb_job_opts *job, struct sb_verify_fmt *fmt)
{
	sb_verify_fmt_init(fmt, job->seed, 1, pick_block_size(job));
}

int sb_run_verify_usable(const struct sb_job_opts *job, const struct sb_jobtarget *t,
			 struct sb_error *err)
{
	const uint32_t vb = pick_block_size(job);
	if (!sb_rw_writes(job->rw) || sb_rw_trims(job->rw))
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "--verify: needs a workload that writes (write, randwrite, rw, "
				    "randrw), not --rw=%s",
				    sb_rw_name(job->rw));
	if (job->nwbssplit)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "--verify: a bssplit for each direction is not supported "
				    "(give one split for reads and writes)");
	for (unsigned i = 0, n = sb_job_nsizes(job); i < n; i++) {
		const uint32_t bs = sb_job_size(job, i);
		if (bs % 512)
			return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
					    "--verify: block sizes must be multiples of 512 bytes "
					    "(%u is not)",
					    bs);
	}
	if (t->region_offset % vb)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "--verify: --offset must be a multiple of %u bytes", vb);
	if (job->numjobs > 1 && job->offset_increment % vb)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "verify: offset_increment must be a multiple of %u bytes", vb);
	return 0;
}

/* The target's files, and the caller's stop (a first Ctrl-C ends a pass:
 * the layout of a large file takes a while). */
struct files_ctx {
	const struct sb_jobtarget *t;
	int (*stop)(void *ctx);
	void *ctx;
};

static int stop_asked(void *ctx, uint64_t bytes_done)
{
	const struct files_ctx *f = ctx;
	(void)bytes_done;
	return f->stop && f->stop(f->ctx);
}

static int open_held(void *ctx, unsigned i, int flags)
{
	const struct files_ctx *f = ctx;
	return sb_jobtarget_open(f->t, i, flags);
}

static struct sb_job_verify_files files_of(struct files_ctx *fc)
{
	const struct sb_jobtarget *t = fc->t;
	return (struct sb_job_verify_files){ .paths = t->paths,
					     .npaths = t->npaths,
					     .offset = t->region_offset,
					     .size = t->region_size,
					     .sizes = t->nrfiles > 1 ? t->fsize : NULL,
					     .is_blockdev = t->is_blockdev,
					     .open = open_held,
					     .stop = stop_asked,
					     .ctx = fc };
}

int sb_run_verify_fill(struct sb_job_verify *v, const struct sb_job_opts *job,
		       const struct sb_jobtarget *t, int (*stop)(void *ctx), void *ctx,
		       struct sb_error *err)
{
	struct files_ctx fc = { t, stop, ctx };
	const struct sb_job_verify_files f = files_of(&fc);
	char msg[4352];
	const int e = sb_job_verify_fill(v, &f, job->seed, pick_block_size(job), job->direct, msg,
					 sizeof(msg));
	if (e < 0)
		return sb_error_set(err, e, SB_ERR_ENV, "--verify: %s", msg);
	/* fio reads back each write as it was written, one request of its
	 * size each, timed as a read: requests up to the largest, each
	 * ending where the next write began */
	if (job->fio_verify[0])
		v->read_size = sb_job_max_bs(job);
	/* and it reads back only what the job wrote */
	if (job->fio_verify[0] && sb_job_verify_track(v, &f) < 0)
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	return 0;
}

int sb_run_verify_learn(struct sb_job_verify *v, const struct sb_job_opts *job,
			const struct sb_jobtarget *t)
{
	struct files_ctx fc = { t, NULL, NULL };
	const struct sb_job_verify_files f = files_of(&fc);
	struct sb_verify_fmt fmt;
	const int e = sb_job_verify_learn(&f, &fmt);
	if (e == -ENOMEM)
		return e;
	/* none there: every block is checked against the job's own, and
	 * found foreign, as fio's verify fails on a file without headers */
	if (e < 0)
		sb_run_verify_fmt(job, &fmt);
	sb_job_verify_expect(v, &fmt, 0);
	return e < 0 ? 1 : 0;
}

/* fio's clones, each its own verify reads: a file (or nrfiles) each in a
 * directory, or each offset_increment of one file; otherwise (clones on
 * one region) every read is the first clone's. */
static void clone_parts(const struct sb_job_opts *job, const struct sb_jobtarget *t,
			struct sb_job_verify_files *f)
{
	if (job->numjobs < 2)
		return;
	if (t->npaths > 1 && t->npaths % job->numjobs == 0)
		f->nparts = job->numjobs;
	else if (t->npaths == 1 && job->offset_increment)
		f->nparts = job->numjobs, f->part_span = job->offset_increment;
}

int sb_run_verify_check(struct sb_job_verify *v, const struct sb_job_opts *job,
			const struct sb_jobtarget *t, int (*stop)(void *ctx), void *ctx,
			struct sb_error *err)
{
	struct files_ctx fc = { t, stop, ctx };
	struct sb_job_verify_files f = files_of(&fc);
	clone_parts(job, t, &f);
	char msg[4352];
	const int e = sb_job_verify_check(v, &f, msg, sizeof(msg));
	if (e < 0 && msg[0])
		return sb_error_set(err, e, SB_ERR_ENV, "--verify: %s", msg);
	if (e < 0)
		return sb_error_set(err, e, SB_ERR_ENV, "out of memory");
	return 0;
}

int sb_run_verify_ranks(struct sb_job_verify *v, const struct sb_jobtarget *t, struct sb_coord *c)
{
	struct sb_error er; /* the caller says it through its lost hook */
	return sb_job_verify_gather(v, c, t->npaths ? t->paths[0] : "", &er);
}
