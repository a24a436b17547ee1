/* The library's runner of one pts measurement (pts.h, sb_pts_measure):
 * the job on the prepared device through lib/run, looked at every 50 ms
 * for a stop, its figures taken. The program runs its own (with the
 * progress line) through sb_pts_hooks.measure. */
#include "lib/pts/pts.h"
#include "lib/base/units.h"
#include "lib/engine/engine.h"
#include "lib/run/run.h"
#include "lib/target/jobtarget.h"

#include <time.h>

#define LOOK_NS 50000000l

static const struct sb_engine_ops *engine_of(const struct sb_job_opts *job)
{
	struct sb_engine_pick pk;
	if (job->engine[0])
		return sb_engine_find(job->engine);
	sb_engine_default(job->iodepth, &pk);
	return pk.ops;
}

/* Until the workers end, or a stop is asked (then stopped: the result is
 * the part measured). */
static void watch(struct sb_run *run, int (*stop)(void *ctx), void *ctx)
{
	for (;;) {
		const struct timespec ts = { 0, LOOK_NS };
		struct sb_progress p;
		nanosleep(&ts, NULL);
		if (sb_run_progress(run, &p))
			return;
		if (stop && stop(ctx)) {
			sb_run_stop(run);
			return;
		}
	}
}

static int ran(const struct sb_job_result *jr, int e, struct sb_error *err)
{
	char a[32];
	const struct sb_io_error *fe = &jr->first_error;
	if (fe->err)
		return sb_error_set(err, -EIO, SB_ERR_FAIL,
				    "%s: %s error at offset %llu (%s), length %u: %s (%llu "
				    "requests failed)",
				    jr->name, sb_ddir_name(fe->ddir),
				    (unsigned long long)fe->offset,
				    sb_fmt_size(fe->offset, a, sizeof(a)), fe->len,
				    strerror(fe->err), (unsigned long long)jr->errors);
	if (e < 0)
		return sb_error_set(err, e, SB_ERR_FAIL, "%s failed: %s", jr->name, strerror(-e));
	return 0;
}

int sb_pts_measure(const struct sb_jobtarget *t, const struct sb_job_opts *job,
		   int (*stop)(void *ctx), void *ctx, struct sb_pts_fig *f, struct sb_error *err)
{
	struct sb_run_params p;
	struct sb_run *run = NULL;
	const char *step = NULL;
	const struct sb_engine_ops *ops = engine_of(job);
	memset(f, 0, sizeof(*f));
	if (!ops)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "'%s': no such engine",
				    job->engine);
	struct sb_job_result *jr = sb_job_result_create();
	if (!jr)
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	snprintf(jr->name, sizeof(jr->name), "%s", job->name);
	sb_run_params_of(&p, job, ops, t);
	snprintf(p.job.engine, sizeof(p.job.engine), "%s", ops->name);
	int e = sb_run_create(&run, &p, &step);
	if (e < 0) {
		sb_job_result_free(jr);
		return sb_error_set(err, e, sb_errno_class(e), "cannot start %s (%s): %s",
				    job->name, step ? step : "setup", strerror(-e));
	}
	if ((e = sb_run_start(run)) == 0)
		watch(run, stop, ctx);
	else
		sb_run_stop(run);
	const int w = sb_run_wait(run, jr);
	sb_run_free(run);
	sb_pts_figures(jr, f);
	e = ran(jr, e < 0 ? e : w, err);
	sb_job_result_free(jr);
	return e;
}
