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
	for (unsigned i = 0; i < (job->nbssplit ? job->nbssplit : 1); i++)
		if ((job->nbssplit ? job->bssplit[i].bs : job->bs) % 4096)
			return 512;
	return 4096;
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
	for (unsigned i = 0; i < (job->nbssplit ? job->nbssplit : 1); i++) {
		const uint32_t bs = job->nbssplit ? job->bssplit[i].bs : job->bs;
		if (bs % 512)
			return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
					    "--verify: block sizes must be multiples of 512 bytes "
					    "(%u is not)",
					    bs);
	}
	if (t->region_offset % vb)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "--verify: --offset must be a multiple of %u bytes", vb);
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
	return (struct sb_job_verify_files){ t->paths,	       t->npaths,
					     t->region_offset, t->region_size,
					     t->is_blockdev,   open_held,
					     stop_asked,       fc };
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
	return 0;
}

int sb_run_verify_check(struct sb_job_verify *v, const struct sb_jobtarget *t,
			int (*stop)(void *ctx), void *ctx, struct sb_error *err)
{
	struct files_ctx fc = { t, stop, ctx };
	const struct sb_job_verify_files f = files_of(&fc);
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
