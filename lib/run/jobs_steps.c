/*
 * The steps of a run (jobs_run.h) a workload and a job file's groups
 * share: statuses, agreements, targets, repeats, verify around a job.
 */
#include "lib/run/jobs_run.h"
#include "lib/run/exec_out.h"

#include "lib/analysis/repeats.h"
#include "lib/verify/verify_json.h"
#include "lib/run/fiolog.h"
#include "lib/target/gate.h"

int sb_run_status_of(struct run *r, int e)
{
	if (e >= 0)
		return SB_RUN_OK;
	if (r->err->err >= 0)
		r->err->err = e;
	switch (r->err->cls) {
	case SB_ERR_INPUT: return SB_RUN_INPUT;
	case SB_ERR_ENV: return SB_RUN_ENV;
	case SB_ERR_FAIL: return SB_RUN_FAILED;
	case SB_ERR_STOPPED: return SB_RUN_STOPPED;
	}
	return SB_RUN_ENV;
}

int sb_run_agree_st(struct run *r, int st)
{
	int code = st, who;
	if (sb_run_ranks(r->c) < 2)
		return st;
	if (st > SB_RUN_FAILED) /* said at once, as this rank's own */
		sb_run_say_error(r->h, r->err);
	const int e = sb_coord_agree_said(r->c, &code, &who, NULL, NULL, NULL,
					  SB_RUN_SETUP_TIMEOUT_S);
	if (e)
		return sb_run_status_of(r,
					sb_run_lost(r->h, "waiting for every rank to be ready", e));
	if (who >= 0 && sb_run_rank(r->c) == 0)
		sb_run_say(r->h, SB_SAY_RELAYED,
			   "rank %d refused or failed: no rank goes on (every rank stops before "
			   "its I/O)",
			   who);
	if (code && code != st) /* the first failing rank's */
		sb_run_fail(r, code, "%s", "");
	return code;
}

int sb_run_stopped(struct run *r)
{
	const long v = sb_run_worst(r->h, r->c, sb_run_hook_stop(r->h));
	return v != 0;
}

static int jt_stop(void *ctx)
{
	return sb_run_hook_stop(ctx);
}

static void jt_warn(void *ctx, const char *msg)
{
	sb_run_say(ctx, SB_SAY_WARNING, "%s", msg);
}

int sb_run_prepare(struct run *r, struct sb_jobtarget *t, struct sb_job_opts *job, int needs_data,
		   int noio)
{
	const struct sb_run_hooks *h = r->h;
	int e;
	t->destroy_data = r->o->destroy_data;
	/* the logs the job writes under names the user gave pass the write
	 * gate (lib/target/gate.h) as its target does: refused here, before
	 * anything is made; the workers' opens go through the gate again */
	e = job->write_iolog[0] ? sb_gate_log(job->write_iolog, r->o->destroy_data, 0, 1, r->err)
				: 0;
	if (!e)
		e = sb_fiolog_check(job, r->o->destroy_data, r->err);
	if (!e)
		e = sb_exec_out_check(job, r->o->destroy_data, r->err);
	if (e < 0)
		return sb_run_status_of(r, e);
	const struct sb_engine_ops *ops = sb_engine_find(job->engine);
	t->mkfiles = ops && (ops->flags & SB_ENGINE_MKFILES);
	if (h && h->prepare) {
		e = h->prepare(h->ctx, t, r->tgt, job, needs_data, noio, r->err);
	} else {
		t->hooks = (struct sb_jt_hooks){ jt_stop, NULL, jt_warn, (void *)h };
		e = sb_jobtarget_prepare(t, r->tgt, job, needs_data, noio, r->err);
	}
	/* a file-operation engine (filedelete unlinks, ftruncate cuts)
	 * works only on the files it laid out, never on a file or device
	 * the user named */
	const unsigned own = SB_ENGINE_FILEOP | SB_ENGINE_OWNFILES;
	for (unsigned i = 0; !e && ops && (ops->flags & own) && !t->mkfiles && i < t->npaths; i++)
		if (!t->created[i])
			e = sb_error_set(r->err, -EINVAL, SB_ERR_INPUT,
					 "the %s engine works on the files it lays out in a "
					 "directory, not on '%s'",
					 ops->name, t->paths[i]);
	/* e4defrag's donor: one that exists is used as the gate allows */
	for (unsigned i = 0; !e && ops && (ops->flags & SB_ENGINE_DONOR) && i < t->npaths; i++)
		e = sb_gate_beside(t->paths[i], job->donorname, r->o->destroy_data, 1, r->err);
	return sb_run_status_of(r, e);
}

void sb_run_cleanup(struct run *r, struct sb_jobtarget *t, int keep)
{
	const struct sb_run_hooks *h = r->h;
	if (h && h->cleanup) {
		h->cleanup(h->ctx, t, keep);
		return;
	}
	t->hooks = (struct sb_jt_hooks){ jt_stop, NULL, jt_warn, (void *)h };
	sb_jobtarget_cleanup(t, keep);
}

void sb_run_describe(struct run *r, const struct sb_jobtarget *t)
{
	int created = 0;
	for (unsigned i = 0; i < t->npaths; i++)
		created |= t->created[i];
	sb_results_describe(r->res, &t->info, r->tgt, created, t->direct_fallback);
	if (r->o->jf)
		snprintf(r->res->job_file, sizeof(r->res->job_file), "%s",
			 r->o->job_file ? r->o->job_file : "");
}

void sb_run_tell(struct run *r, enum sb_run_ev what, unsigned first, unsigned n, int rc)
{
	struct sb_run_event ev = { .what = what,
				   .step = r->group,
				   .nsteps = r->ngroups,
				   .first = first,
				   .njobs = n,
				   .rc = rc };
	if (r->h && r->h->event)
		r->h->event(r->h->ctx, &ev);
}

/* One job's repeats on its prepared target t, the results appended. */
int sb_run_repeats(struct run *r, struct sb_jobtarget *t, const struct sb_engine_ops *ops,
		   const struct sb_job_opts *opts)
{
	const unsigned repeat = SB_MAX(r->o->repeat, 1u);
	const size_t first = r->res->njobs;
	int st = SB_RUN_OK;
	for (unsigned i = 0; i < repeat && !sb_run_hook_stop(r->h); i++) {
		struct sb_job_result *jr = sb_job_result_create();
		if (!jr || sb_results_add_job(r->res, jr) < 0) {
			sb_job_result_free(jr);
			return sb_run_fail(r, SB_RUN_ENV, "out of memory");
		}
		struct sb_job_opts job = *opts;
		job.seed += i;
		if (repeat > 1)
			snprintf(jr->name, sizeof(jr->name), "%s (run %u of %u)", opts->name, i + 1,
				 repeat);
		else
			snprintf(jr->name, sizeof(jr->name), "%s", opts->name);
		const struct sb_run_event ev = { .step = r->group,
						 .nsteps = r->ngroups,
						 .njobs = 1,
						 .run = i + 1,
						 .nruns = repeat,
						 .label = jr->name,
						 .later = repeat - 1 - i + r->later,
						 .later_ns = r->later_ns };
		const struct sb_run_group_opts go = { .label = jr->name,
						      .verify = r->rv ? &r->rv->fmt : NULL,
						      .written = r->rv ? r->rv->written : NULL,
						      .stonewall = r->o->stonewall,
						      .ev = &ev,
						      .status_ns = r->o->status_ns,
						      .doc = r->res,
						      .status_next = &r->status_next };
		struct sb_run_group_job one = { &job, ops, t, jr, NULL, NULL, NULL };
		const int zst = sb_run_zbd(r, t, &job, &one.zbd);
		if (zst)
			return zst;
		const int e = sb_run_group(&go, &one, 1, r->h, r->c);
		sb_results_sanity(r->res, jr);
		if (jr->interrupted)
			r->res->interrupted = 1;
		if (e < 0)
			return SB_RUN_FAILED;
		if (jr->errors)
			st = SB_RUN_FAILED; /* survived with --continue-on-error */
	}
	const unsigned n = (unsigned)(r->res->njobs - first);
	if (repeat > 1 && n > 1 && sb_run_ranks(r->c) > 1) { /* once they are gathered */
		r->rep_first = first;
		r->rep_n = n;
	} else if (repeat > 1 && n > 1) {
		sb_repeats_summarize(r->res, first, n, opts->name);
	}
	return st;
}

/* A verifying job's check after its measurement: every rank checks its
 * own target (unless a stop was asked on any), rank 0 gathers the
 * verdicts. The status, st's when it is worse. */
/* A job's verify reads as fio counts them: its own, or each clone's
 * (the job's then none). */
static void verify_reads(struct sb_job_result *vj, const struct sb_job_verify *v, uint64_t ns)
{
	if (v->nparts > 1 && v->nparts == vj->nthreads) {
		for (unsigned c = 0; c < v->nparts; c++) {
			vj->threads[c]->verify_bytes = v->parts[c].timed_bytes;
			vj->threads[c]->verify_ns = v->parts[c].ns;
			vj->threads[c]->verify_lat = v->parts[c].lat;
		}
		return;
	}
	vj->verify_bytes = v->timed_bytes;
	vj->verify_ns = ns;
	vj->verify_lat = v->lat;
}

int sb_run_verify_after(struct run *r, const struct sb_job_opts *job, const struct sb_jobtarget *t,
			int st)
{
	struct sb_error er;
	const uint64_t t0 = sb_now_ns();
	const int e = sb_run_verify_check(r->rv, job, t, r->h ? r->h->stop : NULL,
					  r->h ? r->h->ctx : NULL, &er);
	const int g = sb_run_verify_ranks(r->rv, t, r->c);
	if (g)
		sb_run_lost(r->h, "gathering the results", g);
	if (e < 0 && !st) {
		*r->err = er;
		st = sb_run_status_of(r, e);
	} else if (e < 0) { /* said: the status is the step's that failed first */
		sb_run_say_error(r->h, &er);
	} else if (!st && r->rv->bad) {
		st = SB_RUN_FAILED;
	}
	if (r->rv_res && r->rv->bad) /* jobs together: which of them */
		sb_run_say(r->h, SB_SAY_ERROR, "verify: job '%s': %llu of %llu blocks not intact",
			   job->name, (unsigned long long)r->rv->bad,
			   (unsigned long long)r->rv->blocks);
	/* the verifying job's (the last to run); a job that only reads
	 * verified what it read, as fio does, with no reads of its own */
	if (r->rv->checked && r->res->njobs && !r->rv_reads)
		verify_reads(r->rv_res ? r->rv_res : r->res->jobs[r->res->njobs - 1], r->rv,
			     sb_now_ns() - t0);
	/* a job file's verify= jobs one after another: one verdict of them all */
	if (r->out->verify && r->out->verify != r->rv) {
		sb_job_verify_absorb(r->out->verify, r->rv); /* counts kept without memory */
		free(r->rv);
		r->rv = r->out->verify;
	}
	r->res->extra_key = "verify";
	r->res->extra_json = sb_job_verify_json;
	r->res->extra_ctx = r->rv;
	r->out->verify = r->rv;
	for (unsigned i = 0; i < r->out->nverify_paths; i++)
		free(r->out->verify_paths[i]);
	free(r->out->verify_paths);
	r->out->nverify_paths = 0;
	r->out->verify_paths = calloc(t->npaths + 1, sizeof(char *));
	for (unsigned i = 0; r->out->verify_paths && i < t->npaths; i++)
		if ((r->out->verify_paths[i] = strdup(t->paths[i])))
			r->out->nverify_paths = i + 1;
	return st;
}

void sb_run_verify_end(struct run *r)
{
	if (r->rv && r->rv != r->out->verify) {
		sb_job_verify_free(r->rv);
		free(r->rv);
	}
	r->rv = NULL;
	r->rv_reads = 0;
	r->rv_region = 0;
}

/* An engine that moves data, or the refusal. */
static int verify_engine_ok(struct run *r, const struct sb_engine_ops *ops, const char *how)
{
	/* filecreate does no I/O either, but makes files: it writes no data;
	 * e4defrag moves blocks, the data stays */
	if (ops->flags & (SB_ENGINE_FILEOP | SB_ENGINE_OWNFILES | SB_ENGINE_DONOR))
		return sb_run_fail(r, SB_RUN_INPUT,
				   "%s: the %s engine writes no data: nothing to verify", how,
				   ops->name);
	if (ops->flags & SB_ENGINE_NOIO)
		return sb_run_fail(r, SB_RUN_INPUT,
				   "%s: the %s engine does no I/O: nothing to verify", how,
				   ops->name);
	return SB_RUN_OK;
}

int sb_run_verify_reader(struct run *r, const struct sb_engine_ops *ops,
			 const struct sb_jobtarget *t, const struct sb_job_opts *job,
			 const char *how)
{
	int st = verify_engine_ok(r, ops, how);
	if (st)
		return st;
	if (job->verify_state_load) { /* r->vl, read by the caller */
		sb_run_verify_end(r);
		if (!(r->rv = calloc(1, sizeof(*r->rv))))
			return sb_run_fail(r, SB_RUN_ENV, "%s", "");
		sb_job_verify_expect(r->rv, &r->vl.fmt, 0);
		r->rv_reads = r->rv_region = 1;
		return SB_RUN_OK;
	}
	const struct sb_jobtarget *w = r->vw.t;
	const uint32_t vb = r->vw.fmt.block_size;
	if (job->direct != r->vw.direct)
		return sb_run_fail(r, SB_RUN_INPUT,
				   "%s: a job that only reads checks the files as the job that "
				   "wrote them opened them: give it direct=%d as that job",
				   how, r->vw.direct);
	/* several files: each one's region is all of it, the writer's */
	if (t->region_offset < w->region_offset ||
	    t->region_offset + t->region_size > w->region_offset + w->region_size ||
	    (t->npaths > 1 && t->region_size != w->region_size))
		return sb_run_fail(r, SB_RUN_INPUT,
				   "%s: this job reads past what the verify= job before it wrote "
				   "on '%s' (give it that job's offset= and size=, or a part of "
				   "them)",
				   how, t->paths[0]);
	if (t->region_offset % vb)
		return sb_run_fail(r, SB_RUN_INPUT,
				   "%s: offset= must be a multiple of %u bytes (the verify blocks "
				   "the writer wrote)",
				   how, vb);
	sb_run_verify_end(r);
	if (!(r->rv = calloc(1, sizeof(*r->rv))))
		return sb_run_fail(r, SB_RUN_ENV, "%s", "");
	sb_job_verify_expect(r->rv, &r->vw.fmt, 0);
	r->rv_reads = 1;
	return SB_RUN_OK;
}

int sb_run_verify_learned(struct run *r, const struct sb_engine_ops *ops,
			  const struct sb_jobtarget *t, const struct sb_job_opts *job,
			  const char *how)
{
	int st = verify_engine_ok(r, ops, how);
	if (st)
		return st;
	if (t->created[0]) /* checked before the run: a safety net */
		return sb_run_fail(r, SB_RUN_INPUT,
				   "%s: job '%s' checks the verify blocks an earlier run left on "
				   "'%s', and it is new",
				   how, job->name, t->paths[0]);
	sb_run_verify_end(r);
	if (!(r->rv = calloc(1, sizeof(*r->rv))))
		return sb_run_fail(r, SB_RUN_ENV, "out of memory");
	const int e = sb_run_verify_learn(r->rv, job, t);
	if (e < 0)
		return sb_run_fail(r, SB_RUN_ENV, "out of memory");
	if (e)
		sb_run_say(r->h, SB_SAY_WARNING,
			   "%s: job '%s': no storbench verify blocks in its region of '%s' (an "
			   "earlier run's with verify=): every block will fail",
			   how, job->name, t->paths[0]);
	r->rv_reads = 1;
	return SB_RUN_OK;
}

int sb_run_verify_before(struct run *r, const struct sb_engine_ops *ops, struct sb_jobtarget *t,
			 const struct sb_job_opts *job, const char *how)
{
	int e = verify_engine_ok(r, ops, how);
	if (e)
		return e;
	e = sb_run_verify_usable(job, t, r->err);
	if (e < 0)
		return sb_run_status_of(r, e);
	sb_run_verify_end(r);
	if (!(r->rv = calloc(1, sizeof(*r->rv))))
		return sb_run_fail(r, SB_RUN_ENV, "%s", "");
	e = sb_run_verify_fill(r->rv, job, t, r->h ? r->h->stop : NULL, r->h ? r->h->ctx : NULL,
			       r->err);
	return sb_run_status_of(r, e);
}

/* Refused before anything is created: the engine does no I/O. */
int sb_run_state_noio(struct run *r)
{
	const struct sb_state_opts *s = &r->o->state;
	if (!s->precond && !s->discard_before)
		return SB_RUN_OK;
	for (unsigned k = 0; k < r->o->njobs; k++)
		if (r->o->ops[k]->flags & SB_ENGINE_NOIO)
			return sb_run_fail(r, SB_RUN_INPUT,
					   "%s: the %s engine does no I/O: there is nothing to bring "
					   "to a state",
					   s->precond ? "--precondition" : "--discard-before",
					   r->o->ops[k]->name);
	return SB_RUN_OK;
}
