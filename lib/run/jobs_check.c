/*
 * A job file's jobs checked together before anything is created
 * (jobs.h, sb_run_jobfile_check): what storbench cannot run of a file
 * whose every job is right on its own.
 */
#include "lib/run/jobs.h"

/* A repeat of jobs that run together would interleave their results. */
static int groups_ok(const struct sb_jobfile *jf, const struct sb_jobfile_group *groups,
		     unsigned ngroups, unsigned repeat, const char *path, struct sb_error *err)
{
	for (unsigned k = 0; k < ngroups && repeat > 1; k++)
		if (groups[k].n > 1) {
			const unsigned g = groups[k].first;
			return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
					    "--repeat: not with jobs that run at the same time ('%s' "
					    "and '%s' in %s have no stonewall between them)",
					    jf->jobs[g].name, jf->jobs[g + 1].name, path);
		}
	return 0;
}

/* fio's read job verifies the headers an earlier writer left. */
int sb_run_verify_writer(const struct sb_jobfile *jf, const struct sb_job_opts *opts, unsigned i)
{
	for (unsigned k = i; k-- > 0;)
		if (opts[k].fio_verify[0] && sb_rw_writes(opts[k].rw) && jf->jobs[i].filename[0] &&
		    !strcmp(jf->jobs[k].filename, jf->jobs[i].filename) &&
		    opts[k].nrfiles == opts[i].nrfiles)
			return (int)k;
	return -1;
}

int sb_run_sized_at_start(const struct sb_jobfile *jf, const struct sb_job_opts *opts, unsigned i)
{
	const struct sb_job_opts *o = &opts[i];
	if (o->size || !o->fio_verify[0] || sb_rw_writes(o->rw) || o->verify_state_load)
		return 0;
	const int w = sb_run_verify_writer(jf, opts, i);
	/* the writer makes the file: at its size, or as large as the space
	 * free (fill_device) */
	return w >= 0 && ((opts[w].size && !opts[w].size_pct) || opts[w].fill_device);
}

/* Whether a later job that only reads checks the blocks job i writes. */
static int checked_later(const struct sb_jobfile *jf, const struct sb_job_opts *opts, unsigned i)
{
	for (unsigned r = i + 1; r < jf->njobs; r++)
		if (opts[r].fio_verify[0] && !sb_rw_writes(opts[r].rw) &&
		    !opts[r].verify_state_load && sb_run_verify_writer(jf, opts, r) == (int)i)
			return 1;
	return 0;
}

/* The bytes job o works on in its file: [offset, offset + size), its
 * clones' offset_increment in size; no size: the whole file. */
static void span(const struct sb_job_opts *o, uint64_t *lo, uint64_t *hi)
{
	*lo = o->offset;
	*hi = o->size && !o->size_pct ? o->offset + o->size : UINT64_MAX;
}

/* Another job of group k whose bytes meet job i's, or -1: jobs that run
 * together are taken to share one file (a TARGET file on the command
 * line gives every job the same), so only regions apart are told apart. */
static int overlapping(const struct sb_job_opts *opts, const struct sb_jobfile_group *grp,
		       unsigned i)
{
	uint64_t lo, hi, a, b;
	span(&opts[i], &lo, &hi);
	for (unsigned k = grp->first; k < grp->first + grp->n; k++) {
		span(&opts[k], &a, &b);
		if (k != i && a < hi && lo < b)
			return (int)k;
	}
	return -1;
}

/* Job i, which verifies beside other jobs: usable there, or the refusal.
 * Each checks its own blocks, so they must be apart; a job that only
 * reads what an earlier job of the file wrote, or whose blocks a later
 * one reads, needs the writer's files kept, which only a job alone has. */
static int together_ok(const struct sb_jobfile *jf, const struct sb_job_opts *opts,
		       const struct sb_jobfile_group *grp, unsigned i, const char *path,
		       struct sb_error *err)
{
	const struct sb_job_opts *o = &opts[i];
	const struct sb_jobfile_job *j = &jf->jobs[i];
	const int k = overlapping(opts, grp, i);
	if (k >= 0)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "%s: line %u: job '%s' verifies (verify=%s) while job '%s' runs "
				    "at the same time on the same bytes: storbench checks each "
				    "job's own blocks and cannot judge blocks two jobs share; give "
				    "them regions apart (offset=, size=), or give it stonewall",
				    path, j->line, j->name, o->fio_verify, jf->jobs[k].name);
	if ((!sb_rw_writes(o->rw) && sb_run_verify_writer(jf, opts, i) >= 0) ||
	    (sb_rw_writes(o->rw) && checked_later(jf, opts, i)) || o->verify_state_load ||
	    o->verify_state_save)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "%s: line %u: job '%s' verifies (verify=%s) while other jobs "
				    "run at the same time, and %s: give it stonewall",
				    path, j->line, j->name, o->fio_verify,
				    o->verify_state_load || o->verify_state_save
					    ? "a verify state is kept only for a job alone"
				    : sb_rw_writes(o->rw)
					    ? "a later job reads its blocks (only a job alone "
					      "keeps its files for it)"
					    : "it reads what an earlier job wrote (whose files "
					      "only a job alone keeps)");
	return 0;
}

/* verify= jobs: one that writes is checked after it ran (do_verify=0:
 * not), one that only reads checks what the last job before it that
 * wrote verify blocks on the same file wrote, or with none the blocks on
 * the file (an earlier run's: sb_run_jobfile_check_target). Jobs that
 * run together verify each its own region, apart from the others'. A
 * writer with do_verify=0 among jobs on the same bytes, whose blocks no
 * later job checks, writes as any job does: fio's headers there are
 * checked by nobody. Dropping it as a writer changes no later reader's
 * writer: none named it. */
static int verify_jobs_ok(const struct sb_jobfile *jf, struct sb_job_opts *opts,
			  const struct sb_jobfile_group *groups, unsigned ngroups, const char *path,
			  struct sb_error *err)
{
	for (unsigned k = 0; k < ngroups; k++)
		for (unsigned i = groups[k].first; i < groups[k].first + groups[k].n; i++) {
			struct sb_job_opts *o = &opts[i];
			const struct sb_jobfile_job *j = &jf->jobs[i];
			if (!o->fio_verify[0])
				continue;
			if (groups[k].n > 1 && o->fio_verify_nocheck && sb_rw_writes(o->rw) &&
			    !checked_later(jf, opts, i) && overlapping(opts, &groups[k], i) >= 0) {
				o->fio_verify[0] = 0;
				o->fio_verify_nocheck = 0;
				continue;
			}
			if (sb_rw_trims(o->rw))
				return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
						    "%s: line %u: job '%s': verify=%s needs a job "
						    "that writes or reads, not rw=%s",
						    path, j->line, j->name, o->fio_verify,
						    sb_rw_name(o->rw));
			if (groups[k].n > 1 && together_ok(jf, opts, &groups[k], i, path, err))
				return -EINVAL;
		}
	return 0;
}

int sb_run_jobfile_check_target(const struct sb_jobfile *jf, const struct sb_job_opts *opts,
				unsigned i, const char *path, struct sb_error *err)
{
	memset(err, 0, sizeof(*err));
	const struct sb_job_opts *o = &opts[i];
	const struct sb_jobfile_job *j = &jf->jobs[i];
	if (o->fio_verify[0] && !sb_rw_writes(o->rw) && !o->verify_state_load &&
	    sb_run_verify_writer(jf, opts, i) < 0)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "%s: line %u: job '%s': verify=%s with rw=%s checks what "
				    "an earlier job wrote with verify= on the same filename=, "
				    "and none does (or the verify blocks an earlier run left "
				    "on a file that is there, or verify_state_load=1: what an "
				    "earlier run's state says)",
				    path, j->line, j->name, o->fio_verify, sb_rw_name(o->rw));
	return 0;
}

int sb_run_jobfile_check(const struct sb_jobfile *jf, struct sb_job_opts *opts, unsigned repeat,
			 const char *path, struct sb_error *err)
{
	struct sb_jobfile_group groups[SB_JOBFILE_MAX_JOBS];
	const unsigned ngroups = sb_jobfile_groups(jf, groups);
	memset(err, 0, sizeof(*err));
	const int e = groups_ok(jf, groups, ngroups, repeat, path, err);
	return e ? e : verify_jobs_ok(jf, opts, groups, ngroups, path, err);
}

/* cpuio, exec: a job with no target of its own */
static int timed(const struct sb_jobfile_job *j)
{
	const struct sb_engine_ops *ops = sb_engine_find(j->opts.engine);
	return ops && (ops->flags & SB_ENGINE_TIMED);
}

int sb_run_jobfile_targets(const struct sb_jobfile *jf, const char *target, const char **tgts,
			   const char *path, struct sb_error *err)
{
	struct sb_jobfile_group groups[SB_JOBFILE_MAX_JOBS];
	memset(err, 0, sizeof(*err));
	for (unsigned i = 0; i < jf->njobs; i++) {
		const struct sb_jobfile_job *j = &jf->jobs[i];
		tgts[i] = target ? target : j->filename[0] ? j->filename
				 : j->directory[0]	   ? j->directory
							   : ".";
	}
	const unsigned ngroups = sb_jobfile_groups(jf, groups);
	for (unsigned k = 0; k < ngroups; k++) {
		const unsigned lo = groups[k].first, hi = lo + groups[k].n;
		const char *own = NULL;
		for (unsigned i = lo; i < hi && !own; i++)
			if (!timed(&jf->jobs[i]))
				own = tgts[i];
		for (unsigned i = lo; i < hi && own; i++)
			if (timed(&jf->jobs[i]))
				tgts[i] = own;
		for (unsigned i = lo + 1; i < hi; i++)
			if (strcmp(tgts[lo], tgts[i]))
				return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
						    "%s: jobs '%s' and '%s' run together on different "
						    "targets ('%s', '%s'): storbench runs the jobs of "
						    "a group on one target; put a stonewall between "
						    "them, or give the target after the job file",
						    path, jf->jobs[lo].name, jf->jobs[i].name, tgts[lo],
						    tgts[i]);
	}
	return 0;
}
