/*
 * storbench run (jobs.h): a workload, or the jobs of a job file in their
 * groups, each group's targets prepared before it starts and cleaned up
 * after it, under mpirun every step agreed by every rank.
 *
 * A step's outcome is a status (enum sb_run_status: the order of the
 * program's exit codes, so that the worst of the ranks' is their largest);
 * one past SB_RUN_FAILED has its why in r->err.
 */
#include "lib/run/jobs_run.h"

#include "lib/analysis/repeats.h"

/* A workload: checked, its target prepared (with --verify, every rank's
 * region filled), brought to the state, measured, verified. */
static int workload(struct run *r)
{
	const struct sb_engine_ops *ops = r->o->ops[0];
	struct sb_jobtarget t;
	const int noio = !!(ops->flags & SB_ENGINE_NOIO);
	memset(&t, 0, sizeof(t));
	int st = sb_run_state_noio(r);
	if (st)
		return st;
	st = sb_run_status_of(r, sb_jobtarget_probe(&t, r->o->target, r->err));
	if (!st)
		st = sb_run_status_of(r, sb_run_state_check(&r->o->state, r->o->destroy_data, &t,
							    r->o->target, r->err));
	/* many ranks: all go on to their targets, or none */
	st = sb_run_agree_st(r, st);
	if (!st)
		st = sb_run_prepare(r, &t, &r->opts[0], sb_rw_reads(r->opts[0].rw) && !r->o->verify,
				    noio);
	/* many ranks: prepared on every rank (agreed), every one fills its
	 * region for --verify, or none measures */
	const int prepared = !st;
	if (prepared && r->o->verify)
		st = sb_run_verify_before(r, ops, &t, &r->opts[0], "--verify");
	if (prepared)
		st = sb_run_agree_st(r, st);
	/* a stop during the layout (one rank): the results say that nothing
	 * was measured */
	const int laid_out = !st || (sb_run_ranks(r->c) < 2 && sb_run_hook_stop(r->h));
	if (!laid_out) {
		sb_run_cleanup(r, &t, 0);
		return st;
	}
	if (!r->opts[0].size)
		r->opts[0].size = t.region_size;
	if (!(r->res = sb_results_create("run"))) {
		sb_run_cleanup(r, &t, r->o->keep);
		return sb_run_fail(r, SB_RUN_ENV, "out of memory");
	}
	sb_run_describe(r, &t);
	sb_run_tell(r, SB_RUN_GROUP_BEGAN, 0, 1, 0);
	if (!st)
		st = sb_run_status_of(r, sb_run_state_apply(&r->o->state, &t, r->o->target, r->res,
							    r->h, r->c, r->err));
	if (!st)
		st = sb_run_repeats(r, &t, ops, &r->opts[0]);
	/* many ranks: each checks its own target, rank 0 gathers the verdicts */
	if (r->rv && !sb_run_stopped(r))
		st = sb_run_verify_after(r, &r->opts[0], &t, st);
	sb_run_tell(r, SB_RUN_GROUP_ENDED, 0, 1, st);
	sb_run_cleanup(r, &t, r->o->keep);
	return st;
}

/* Many ranks: every rank's results to rank 0, the repeats summarized once
 * they are gathered. The status, every rank's worst. */
static int gather(struct run *r, int st)
{
	struct sb_error er;
	long worst = st;
	const int e = sb_run_collect(r->c, r->res, r->o->stonewall, &worst, &er);
	if (e == -EPROTO) { /* nothing written anywhere */
		if (er.msg[0])
			sb_run_say(r->h, SB_SAY_ERROR, "%s", er.msg);
		r->out->write = 0;
		return st ? st : SB_RUN_FAILED;
	}
	if (e < 0) {
		sb_run_lost(r->h, er.msg, e);
		r->out->write = 0;
		return SB_RUN_ENV;
	}
	r->out->write = e == 0;
	if (e == 0 && r->rep_n)
		sb_repeats_summarize(r->res, r->rep_first, r->rep_n, r->opts[0].name);
	return (int)worst;
}

int sb_run_jobs(const struct sb_run_jobs_opts *o, const struct sb_run_hooks *h, struct sb_coord *c,
		struct sb_run_result *out, struct sb_error *err)
{
	struct run r = { .o = o, .tgt = o->target, .h = h, .c = c, .out = out, .err = err };
	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	if (!o->njobs || !o->jobs || !o->ops || !o->target || (!o->jf && o->njobs != 1))
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "nothing to run");
	if (!(r.opts = calloc(o->njobs, sizeof(*r.opts))))
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	memcpy(r.opts, o->jobs, o->njobs * sizeof(*r.opts));
	int st = o->jf ? sb_run_jobfile(&r) : workload(&r);
	const int own = st;
	out->res = r.res;
	if (r.rv && out->verify != r.rv)
		sb_job_verify_free(r.rv), free(r.rv);
	/* stopped before (or between) its measurements too */
	if (r.res && sb_run_hook_stop(h))
		r.res->interrupted = 1;
	if (r.res)
		st = gather(&r, st);
	out->status = (enum sb_run_status)st;
	out->interrupted = sb_run_hook_stop(h);
	sb_run_zbd_free(&r);
	free(r.opts);
	return own > SB_RUN_FAILED ? (err->err < 0 ? err->err : -EIO) : 0;
}

void sb_run_result_free(struct sb_run_result *r)
{
	if (!r)
		return;
	sb_results_free(r->res);
	if (r->verify)
		sb_job_verify_free(r->verify);
	free(r->verify);
	for (unsigned i = 0; i < r->nverify_paths; i++)
		free(r->verify_paths[i]);
	free(r->verify_paths);
	memset(r, 0, sizeof(*r));
}
