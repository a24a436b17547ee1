/*
 * A job file's jobs (jobs.h): in their groups, as fio runs them; a job
 * alone with its repeats and its verify=, jobs together each on its own
 * files in a directory or on its part of a file or a device. Every
 * group's targets are prepared before it starts, and cleaned up after.
 */
#include "lib/run/jobs_run.h"

#include <inttypes.h>
#include <sys/stat.h>

/* How long the groups after group k take, where their jobs say (a time
 * with time_based, ramp included): r->later_ns; the others counted in
 * r->later. */
static void groups_after(struct run *r, const struct sb_jobfile_group *groups, unsigned ngroups,
			 unsigned k)
{
	r->later = 0;
	r->later_ns = 0;
	for (unsigned g = k + 1; g < ngroups; g++) {
		uint64_t ns = 0;
		int timed = 1;
		for (unsigned i = groups[g].first; i < groups[g].first + groups[g].n; i++) {
			timed &= r->opts[i].time_based && r->opts[i].runtime_ns;
			ns = SB_MAX(ns, r->opts[i].ramp_ns + r->opts[i].runtime_ns);
		}
		if (timed)
			r->later_ns += ns;
		else
			r->later++;
	}
}

/* The target a group of jobs shares (a file or a device): prepared once
 * for all of them, written if any writes, laid out if any reads, over the
 * span of their regions. views[k] is job k's part. */
static int prepare_shared(struct run *r, struct sb_jobtarget *shared, struct sb_job_opts *opts,
			  const struct sb_engine_ops *const *ops, unsigned n,
			  struct sb_jobtarget *views)
{
	const char *tgt = r->tgt;
	struct sb_job_opts u = opts[0];
	uint64_t lo = UINT64_MAX, hi = 0, new_size = 0;
	int writes = 0, reads = 0, whole = 0, noio = 1;
	for (unsigned k = 0; k < n; k++) {
		const struct sb_job_opts *o = &opts[k];
		writes |= sb_rw_writes(o->rw);
		reads |= sb_rw_reads(o->rw);
		noio &= !!(ops[k]->flags & SB_ENGINE_NOIO);
		whole |= !o->size;
		lo = SB_MIN(lo, o->offset);
		hi = SB_MAX(hi, o->offset + o->size);
		/* a new file holds every job's [offset, offset + size), as fio
		 * makes it offset + size long */
		new_size = SB_MAX(new_size, o->offset + o->size);
	}
	if (!new_size || whole)
		new_size = SB_MAX(new_size, SB_JT_NEW_FILE_SIZE);
	/* every job's part is checked before anything is created (on every
	 * rank: one refusing stops all) */
	int st = 0;
	for (unsigned k = 0; k < n && !st; k++)
		st = sb_run_status_of(r, sb_jobtarget_view(shared, &views[k], &opts[k], tgt,
							   new_size, r->err));
	if ((st = sb_run_agree_st(r, st)))
		return st;
	u.rw = writes ? SB_RW_WRITE : SB_RW_READ;
	u.offset = shared->info.kind == SB_TARGET_NONE ? 0 : lo;
	u.size = shared->info.kind == SB_TARGET_NONE ? new_size : whole ? 0 : hi - lo;
	u.direct = 0; /* each view checks its own alignment */
	u.numjobs = 1;
	if ((st = sb_run_prepare(r, shared, &u, reads, noio)))
		return st; /* every rank's verdict already */
	for (unsigned k = 0; k < n && !st; k++) {
		st = sb_run_status_of(r, sb_jobtarget_view(shared, &views[k], &opts[k], tgt,
							   new_size, r->err));
		if (!st && !opts[k].size)
			opts[k].size = views[k].region_size;
	}
	return sb_run_agree_st(r, st);
}

/* --precondition and --discard-before with a job file (docs/states.md):
 * the one target every job runs on is brought to the state over the span
 * of the jobs' regions, before the first job, with the checks of a single
 * workload; under mpirun each rank's own target. A directory (each job
 * makes files of its own) and a target not there yet are refused. */
static int jobs_state(struct run *r)
{
	const struct sb_state_opts *s = &r->o->state;
	const char *w = s->precond ? "--precondition" : "--discard-before", *tgt = r->tgt;
	const unsigned n = r->o->njobs;
	if (!s->precond && !s->discard_before)
		return 0;
	int st = sb_run_state_noio(r);
	if (st)
		return st;
	for (unsigned i = 1; r->o->targets && i < n; i++)
		if (strcmp(r->o->targets[i], r->o->targets[0]))
			return sb_run_fail(r, SB_RUN_INPUT,
					   "%s: with a job file, on one target: its jobs use '%s' and "
					   "'%s' (give the target after the job file)",
					   w, r->o->targets[0], r->o->targets[i]);
	tgt = r->tgt = r->o->targets ? r->o->targets[0] : r->o->target;
	struct sb_jobtarget *ts = calloc(n + 1, sizeof(*ts));
	if (!ts)
		return sb_run_fail(r, SB_RUN_ENV, "out of memory");
	struct sb_jobtarget *shared = &ts[n];
	st = sb_run_status_of(r, sb_jobtarget_probe(shared, tgt, r->err));
	const enum sb_target_kind k = shared->info.kind;
	if (!st && k != SB_TARGET_FILE && k != SB_TARGET_BLOCK)
		st = sb_run_fail(r, SB_RUN_INPUT,
				 "%s: with a job file, only on an existing file or block device: '%s' "
				 "is %s",
				 w, tgt,
				 k == SB_TARGET_DIR
					 ? "a directory (each job makes files of its own)"
					 : "not there yet (create it first, or give the "
					   "workload as options)");
	if (!st)
		st = sb_run_status_of(r, sb_run_state_check(s, r->o->destroy_data, shared, tgt,
							    r->err));
	/* many ranks: every one may, or none goes on (each then brings its
	 * own target to the state, and all wait for the last) */
	st = sb_run_agree_st(r, st);
	if (!st)
		st = prepare_shared(r, shared, r->opts, r->o->ops, n, ts);
	if (!st)
		st = sb_run_status_of(r, sb_run_state_apply(s, shared, tgt, r->res, r->h, r->c,
							    r->err));
	sb_run_cleanup(r, shared, 1); /* it existed: nothing of ours to remove */
	free(ts);
	return st;
}

/* Many ranks: the jobs of a group prepare their targets in the same steps
 * on every rank only if every rank's is a directory, or none. */
static int same_kind(struct run *r, int own_files)
{
	long v[2] = { own_files, !own_files };
	if (sb_run_ranks(r->c) < 2)
		return 0;
	const int e = sb_coord_max(r->c, v, 2, SB_RUN_SETUP_TIMEOUT_S);
	if (e)
		return sb_run_status_of(r, sb_run_lost(r->h, "agreeing", e));
	if (!v[0] || !v[1])
		return 0;
	if (sb_run_rank(r->c) != 0)
		return sb_run_fail(r, SB_RUN_INPUT, "%s", "");
	return sb_run_fail(r, SB_RUN_INPUT,
			   "the ranks' targets differ: a directory on some ranks, a file or a "
			   "device on others; give every rank the same kind of target");
}

/* Each job of [g, g + n) its target: in a directory its own files (k of
 * them prepared, the k-th perhaps in part), on a file or a device its part
 * of the one they share (ts[n]). */
static int group_targets(struct run *r, unsigned g, unsigned n, struct sb_jobtarget *ts,
			 int own_files, unsigned *k)
{
	int st = 0;
	for (*k = 0; own_files && *k < n && !st; ++*k) {
		struct sb_job_opts *o = &r->opts[g + *k];
		st = sb_run_prepare(r, &ts[*k], o, sb_rw_reads(o->rw),
				    !!(r->o->ops[g + *k]->flags & SB_ENGINE_NOIO));
		if (st)
			break;
		if (!o->size)
			o->size = ts[*k].region_size;
	}
	if (!st && !own_files)
		st = prepare_shared(r, &ts[n], r->opts + g, r->o->ops + g, n, ts);
	return st;
}

/* fio's offset_increment: the last clone's region inside the job's (its
 * size, or the whole of an existing file or device) and aligned. */
static int clones_fit(struct run *r, const struct sb_job_opts *o, const struct sb_jobtarget *t)
{
	if (!o->offset_increment || o->numjobs < 2)
		return 0;
	const uint64_t more = o->offset_increment * (o->numjobs - 1);
	if (more >= t->region_size || t->region_size - more < sb_job_max_bs(o))
		return sb_run_fail(r, SB_RUN_INPUT,
				   "offset_increment: %u clones %" PRIu64 " bytes apart do not fit "
				   "in the %" PRIu64 " bytes of the region: give a smaller size or "
				   "offset_increment",
				   o->numjobs, o->offset_increment, t->region_size);
	if (o->offset_increment % (t->align ? t->align : 1))
		return sb_run_fail(r, SB_RUN_INPUT,
				   "offset_increment: %" PRIu64 " is not a multiple of %u bytes "
				   "(direct I/O's alignment)",
				   o->offset_increment, t->align);
	return 0;
}

/* The group's results, each named after its job's section; label: "a + b". */
static int group_results(struct run *r, unsigned g, unsigned n, struct sb_jobtarget *ts,
			 struct sb_run_group_job *mj, char *label, size_t len)
{
	for (unsigned i = 0; i < n; i++) {
		struct sb_job_result *jr = sb_job_result_create();
		if (!jr || sb_results_add_job(r->res, jr) < 0) {
			sb_job_result_free(jr);
			return sb_run_fail(r, SB_RUN_ENV, "out of memory");
		}
		snprintf(jr->name, sizeof(jr->name), "%s", r->o->jf->jobs[g + i].name);
		mj[i] = (struct sb_run_group_job){ &r->opts[g + i], r->o->ops[g + i], &ts[i], jr,
						   NULL, NULL, NULL };
		const int zst = sb_run_zbd(r, &ts[i], &r->opts[g + i], &mj[i].zbd);
		if (zst)
			return zst;
		const size_t l = strlen(label);
		snprintf(label + l, len - l, "%s%s", i ? " + " : "", jr->name);
	}
	return 0;
}

static int measure_group(struct run *r, const struct sb_run_group_job *mj, unsigned n,
			 const char *label)
{
	const struct sb_run_event ev = { .step = r->group,
					 .nsteps = r->ngroups,
					 .njobs = n,
					 .run = 1,
					 .nruns = 1,
					 .label = label,
					 .later = r->later,
					 .later_ns = r->later_ns };
	const struct sb_run_group_opts go = { .label = label,
					      .stonewall = r->o->stonewall,
					      .ev = &ev,
					      .status_ns = r->o->status_ns,
					      .doc = r->res,
					      .status_next = &r->status_next };
	const int w = sb_run_group(&go, mj, n, r->h, r->c);
	int st = 0;
	for (unsigned i = 0; i < n; i++) {
		sb_results_sanity(r->res, mj[i].res);
		if (mj[i].res->interrupted)
			r->res->interrupted = 1;
		if (mj[i].res->errors)
			st = SB_RUN_FAILED;
	}
	return w < 0 ? SB_RUN_FAILED : st;
}

static int verify_alone(struct run *r, const struct sb_job_opts *job, const struct sb_jobtarget *t,
			int st);

/* Each verify= job of [g, g + n), whose regions are apart (jobs_check.c),
 * its own state vs[i] on its target ts[i]: a writer's region filled, a
 * reader's blocks (an earlier run's) learned. */
static int together_verify(struct run *r, unsigned g, unsigned n, struct sb_jobtarget *ts,
			   struct sb_job_verify **vs)
{
	int st = 0;
	sb_run_verify_end(r);
	for (unsigned i = 0; i < n && !st; i++) {
		const struct sb_job_opts *job = &r->opts[g + i];
		const struct sb_engine_ops *ops = r->o->ops[g + i];
		char how[sizeof(job->fio_verify) + 8];
		if (!job->fio_verify[0])
			continue;
		snprintf(how, sizeof(how), "verify=%s", job->fio_verify);
		st = sb_rw_writes(job->rw) ? sb_run_verify_before(r, ops, &ts[i], job, how)
					   : sb_run_verify_learned(r, ops, &ts[i], job, how);
		vs[i] = r->rv; /* its own, even half made: freed by the caller */
		r->rv = NULL;
		r->rv_reads = 0;
	}
	return sb_run_agree_st(r, st);
}

/* The verify= jobs of the group checked after it, each its own region,
 * its reads counted in its own result; one verdict of them all. */
static int together_check(struct run *r, unsigned g, unsigned n, struct sb_jobtarget *ts,
			  const struct sb_run_group_job *mj, struct sb_job_verify **vs, int st)
{
	for (unsigned i = 0; i < n; i++) {
		const struct sb_job_opts *job = &r->opts[g + i];
		if (!vs[i])
			continue;
		r->rv = vs[i];
		vs[i] = NULL;
		r->rv_reads = !sb_rw_writes(job->rw);
		r->rv_res = mj[i].res;
		st = verify_alone(r, job, &ts[i], st);
		r->rv_res = NULL;
		sb_run_verify_end(r); /* what was not taken into the verdict */
	}
	return st;
}

/* Jobs [g, g + n) at the same time. */
static int run_together(struct run *r, unsigned g, unsigned n)
{
	/* ts[0..n): each job's target (or view); ts[n]: the shared one */
	struct sb_jobtarget *ts = calloc(n + 1, sizeof(*ts));
	struct sb_run_group_job *mj = calloc(n, sizeof(*mj));
	struct sb_job_verify **vs = calloc(n, sizeof(*vs));
	char label[256] = "";
	unsigned k = 0;
	if (!ts || !mj || !vs) {
		free(ts);
		free(mj);
		free(vs);
		return sb_run_fail(r, SB_RUN_ENV, "out of memory");
	}
	struct sb_jobtarget *shared = &ts[n];
	for (unsigned i = 0; i < n; i++)
		if (r->opts[g + i].nfilenames > 1) {
			free(ts);
			free(mj);
			return sb_run_fail(r, SB_RUN_INPUT,
					   "filename: job '%s' has a list of files and runs with other "
					   "jobs: storbench runs such a job alone (a stonewall before "
					   "and after it)",
					   r->o->jf->jobs[g + i].name);
		}
	int st = sb_run_agree_st(r, sb_run_status_of(r, sb_jobtarget_probe(shared, r->tgt,
									   r->err)));
	const int own_files = !st && shared->info.kind == SB_TARGET_DIR;
	if (!st)
		st = same_kind(r, own_files);
	/* every target first: a job that cannot start leaves no empty result */
	if (!st)
		st = group_targets(r, g, n, ts, own_files, &k);
	for (unsigned i = 0; !st && i < n; i++)
		st = sb_run_agree_st(r, clones_fit(r, &r->opts[g + i], &ts[i]));
	if (!st)
		st = together_verify(r, g, n, ts, vs);
	if (!st)
		st = group_results(r, g, n, ts, mj, label, sizeof(label));
	for (unsigned i = 0; !st && i < n; i++)
		if (vs[i] && sb_rw_writes(r->opts[g + i].rw)) {
			mj[i].verify = &vs[i]->fmt;
			mj[i].written = vs[i]->written;
		}
	if (g == 0 && (!st || sb_run_hook_stop(r->h))) /* stopped in the layout too */
		sb_run_describe(r, own_files ? &ts[0] : shared);
	if (!st)
		st = together_check(r, g, n, ts, mj, vs, measure_group(r, mj, n, label));
	const int keep = st > SB_RUN_FAILED ? 0 : r->o->keep;
	/* views own nothing; of the jobs' own targets, k were prepared, the
	 * k-th perhaps in part */
	for (unsigned i = 0; own_files && i <= k && i < n; i++)
		sb_run_cleanup(r, &ts[i], keep);
	sb_run_cleanup(r, shared, keep);
	for (unsigned i = 0; i < n; i++)
		if (vs[i]) {
			sb_job_verify_free(vs[i]);
			free(vs[i]);
		}
	free(ts);
	free(mj);
	free(vs);
	return st;
}

/* A job file's verify= job after its runs (c->rv: the verifying job's,
 * not another's after it): every rank checks its own target, rank 0
 * gathers the verdicts, and every rank goes on with the worst;
 * do_verify=0: nothing checked. */
static int verify_alone(struct run *r, const struct sb_job_opts *job, const struct sb_jobtarget *t,
			int st)
{
	if (!r->rv || !job->fio_verify[0] || sb_run_stopped(r) || job->fio_verify_nocheck)
		return st;
	struct sb_jobtarget c = *t; /* a view: owns nothing */
	if (r->rv_region) {
		c.region_offset = r->vl.off;
		c.region_size = r->vl.size;
	}
	st = sb_run_verify_after(r, job, &c, st);
	const long w = sb_run_worst(r->h, r->c, st);
	if (w > st)
		sb_run_fail(r, (int)w, "%s", "");
	return w < 0 ? SB_RUN_ENV : (int)w;
}

/* The kept target of a verify= job that wrote, cleaned up (keep: the
 * run's --keep, or 0 after a failure). */
static void writer_drop(struct run *r, int keep)
{
	if (!r->vw.t)
		return;
	sb_run_cleanup(r, r->vw.t, keep || r->vw.keep);
	free(r->vw.t);
	r->vw.t = NULL;
}

/* Whether a job after g only reads what g wrote with verify=: g's files
 * are then kept for it (fio leaves its files; storbench removes what it
 * made after each job). */
static int writer_needed(const struct run *r, unsigned g)
{
	for (unsigned i = g + 1; i < r->o->njobs; i++)
		if (r->opts[i].fio_verify[0] && !sb_rw_writes(r->opts[i].rw) &&
		    sb_run_verify_writer(r->o->jf, r->opts, i) == (int)g)
			return 1;
	return 0;
}

/* Job g, a verify= job that only reads: its view of the files the job
 * before it wrote (kept), its own region in them. */
static int reader_target(struct run *r, unsigned g, struct sb_jobtarget *t)
{
	const struct sb_job_opts *job = &r->opts[g];
	const int w = sb_run_verify_writer(r->o->jf, r->opts, g);
	if (!r->vw.t || w < 0 || r->vw.job != (unsigned)w)
		return sb_run_fail(r, SB_RUN_INPUT,
				   "verify=%s: job '%s' checks what job '%s' wrote, whose files "
				   "are no longer there",
				   job->fio_verify, r->o->jf->jobs[g].name,
				   w < 0 ? "?" : r->o->jf->jobs[w].name);
	*t = *r->vw.t;
	/* a view: it owns nothing, the kept target is removed once */
	memset(t->created, 0, sizeof(t->created));
	t->excl_fd = 0;
	uint64_t end = r->vw.t->region_offset + r->vw.t->region_size;
	struct stat st;
	/* no size: the file as it is now, as fio sizes it when the job
	 * starts (a fill_device writer's ends where the space did) */
	if (!job->size && t->npaths == 1 && !t->is_blockdev && !stat(t->paths[0], &st) &&
	    S_ISREG(st.st_mode))
		end = (uint64_t)st.st_size;
	if (t->npaths == 1) {
		t->region_offset = job->offset;
		t->region_size = job->size ? job->size : end > job->offset ? end - job->offset : 0;
	}
	return SB_RUN_OK;
}

/* One job alone, with its repeats. */
static int run_alone(struct run *r, unsigned g)
{
	const struct sb_engine_ops *ops = r->o->ops[g];
	struct sb_job_opts *job = &r->opts[g];
	struct sb_jobtarget t;
	memset(&t, 0, sizeof(t));
	const int writes = sb_rw_writes(job->rw), reader = job->fio_verify[0] && !writes;
	const int load = reader && job->verify_state_load;
	/* no writer of its file before it: the blocks an earlier run left */
	const int learned = reader && !load && sb_run_verify_writer(r->o->jf, r->opts, g) < 0;
	const int own = !reader || load || learned; /* its own target, not a view */
	const int save = job->fio_verify[0] && writes && job->verify_state_save;
	if (!job->fio_verify[0]) /* its writes are no verify job's */
		sb_run_verify_end(r);
	/* a state file not ours: refused before anything is made */
	int st = save ? sb_run_agree_st(r, sb_run_vstate_may_save(r, job)) : 0;
	if (st)
		return st;
	st = !own ? sb_run_agree_st(r, reader_target(r, g, &t))
		     : sb_run_prepare(r, &t, job, sb_rw_reads(job->rw) && !job->fio_verify[0],
				      !!(ops->flags & SB_ENGINE_NOIO));
	const int prepare_failed = st; /* every rank's verdict already */
	if (!st)
		st = clones_fit(r, job, &t);
	/* many ranks: every one filled its region, or none measures */
	if (!st && job->fio_verify[0]) {
		char how[sizeof(job->fio_verify) + 8];
		snprintf(how, sizeof(how), "verify=%s", job->fio_verify);
		struct sb_verify_fmt fmt;
		sb_run_verify_fmt(job, &fmt);
		/* a saved state says nothing is valid until the fill ended */
		if (save)
			st = sb_run_vstate_save(r, job, &t, &fmt, 0, 0);
		if (!st && load)
			st = sb_run_vstate_load(r, job, &t);
		if (!st)
			st = writes    ? sb_run_verify_before(r, ops, &t, job, how)
			     : learned ? sb_run_verify_learned(r, ops, &t, job, how)
				       : sb_run_verify_reader(r, ops, &t, job, how);
		if (!st && save)
			st = sb_run_vstate_save(r, job, &t, &r->rv->fmt, UINT64_MAX, 0);
	}
	if (!prepare_failed)
		st = sb_run_agree_st(r, st);
	/* stopped in the layout: the results still say where */
	if (g == 0 && (!st || sb_run_hook_stop(r->h)))
		sb_run_describe(r, &t);
	if (st) {
		if (own)
			sb_run_cleanup(r, &t, 0);
		writer_drop(r, 0);
		return st;
	}
	if (!job->size)
		job->size = t.region_size;
	st = sb_run_repeats(r, &t, ops, job);
	st = verify_alone(r, job, &t, st);
	if (save && r->rv) { /* the job's end; its file is kept for the state */
		const int e = sb_run_vstate_save(r, job, &t, &r->rv->fmt, UINT64_MAX,
						 !sb_run_stopped(r));
		st = SB_MAX(st, e);
	}
	if (load || learned) {
		sb_run_cleanup(r, &t, r->o->keep);
		return st;
	}
	if (reader) {
		if (!writer_needed(r, r->vw.job) || g + 1 == r->o->njobs)
			writer_drop(r, r->o->keep);
		return st;
	}
	if (job->fio_verify[0] && writes && r->rv && st <= SB_RUN_FAILED && writer_needed(r, g)) {
		/* its files stay for the job that checks them */
		writer_drop(r, r->o->keep);
		if ((r->vw.t = malloc(sizeof(t)))) {
			*r->vw.t = t;
			r->vw.job = g;
			r->vw.fmt = r->rv->fmt;
			r->vw.direct = job->direct;
			r->vw.keep = save;
			return st;
		}
	}
	sb_run_cleanup(r, &t, save || r->o->keep);
	return st;
}

/* Each result of group [g, e) its job's options as written (fio's "job
 * options"). */
static int raw_options(struct run *r, size_t before, unsigned g, unsigned e)
{
	for (size_t i = before; i < r->res->njobs; i++)
		if (sb_job_result_set_fio_opts(r->res->jobs[i],
					       &r->o->jf->jobs[g + (i - before) % (e - g)].raw) < 0)
			return sb_run_fail(r, SB_RUN_ENV, "out of memory");
	return 0;
}

static int groups(struct run *r)
{
	struct sb_jobfile_group groups[SB_JOBFILE_MAX_JOBS];
	const unsigned ngroups = sb_jobfile_groups(r->o->jf, groups);
	int st = 0, failed = 0;
	/* many ranks: each group starts on all together, or on none */
	for (unsigned k = 0; k < ngroups && !st && !sb_run_stopped(r); k++) {
		const unsigned g = groups[k].first, e = g + groups[k].n;
		r->group = k + 1;
		r->tgt = r->o->targets ? r->o->targets[g] : r->o->target;
		r->ngroups = ngroups;
		groups_after(r, groups, ngroups, k);
		const size_t before = r->res->njobs;
		sb_run_tell(r, SB_RUN_GROUP_BEGAN, g, e - g, 0);
		int m = e - g == 1 ? run_alone(r, g) : run_together(r, g, e - g);
		const int raw = raw_options(r, before, g, e);
		if (raw)
			m = raw;
		sb_run_tell(r, SB_RUN_GROUP_ENDED, g, e - g, m);
		if (m == SB_RUN_FAILED)
			failed = 1; /* the next jobs still run */
		else if (m)
			st = m;
	}
	return !st && failed ? SB_RUN_FAILED : st;
}

int sb_run_jobfile(struct run *r)
{
	if (!(r->res = sb_results_create("run")) ||
	    sb_results_set_fio_global(r->res, &r->o->jf->global_raw) < 0) {
		sb_results_free(r->res);
		r->res = NULL;
		return sb_run_fail(r, SB_RUN_ENV, "out of memory");
	}
	/* refused before anything was done: no results */
	int st = jobs_state(r);
	if (!st) {
		/* many ranks: a directory of its own for all the groups */
		if (r->h && r->h->hold)
			r->h->hold(r->h->ctx, sb_run_ranks(r->c) > 1, 0);
		st = groups(r);
		writer_drop(r, st > SB_RUN_FAILED ? 0 : r->o->keep);
		if (r->h && r->h->hold)
			r->h->hold(r->h->ctx, 0, st > SB_RUN_FAILED ? 0 : r->o->keep);
	}
	/* refused: no empty results (stopped in a layout, by a stop on one
	 * rank: the results say so) */
	if (st && !r->res->njobs && !r->res->have_state &&
	    (sb_run_ranks(r->c) > 1 || !sb_run_hook_stop(r->h))) {
		sb_results_free(r->res);
		r->res = NULL;
	}
	return st;
}
