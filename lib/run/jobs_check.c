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

/* Whether a later job that only reads checks the blocks job i writes. */
static int checked_later(const struct sb_jobfile *jf, const struct sb_job_opts *opts, unsigned i)
{
	for (unsigned r = i + 1; r < jf->njobs; r++)
		if (opts[r].fio_verify[0] && !sb_rw_writes(opts[r].rw) &&
		    !opts[r].verify_state_load && sb_run_verify_writer(jf, opts, r) == (int)i)
			return 1;
	return 0;
}

/* verify= jobs: each running alone; one that writes is checked after it
 * ran (do_verify=0: not), one that only reads checks what the last job
 * before it that wrote verify blocks on the same file wrote. A writer
 * with do_verify=0 among jobs that run at the same time, whose blocks no
 * later job checks, writes as any job does: fio's headers there are
 * checked by nobody (t/jobs/t0002, t0003's pre files). Dropping it as a
 * writer changes no later reader's writer: none named it. */
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
			    !checked_later(jf, opts, i)) {
				o->fio_verify[0] = 0;
				o->fio_verify_nocheck = 0;
				continue;
			}
			if (groups[k].n > 1)
				return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
						    "%s: line %u: job '%s' verifies (verify=%s) "
						    "while other jobs run at the same time: give it "
						    "stonewall, or verify=0",
						    path, j->line, j->name, o->fio_verify);
			if (sb_rw_trims(o->rw))
				return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
						    "%s: line %u: job '%s': verify=%s needs a job "
						    "that writes or reads, not rw=%s",
						    path, j->line, j->name, o->fio_verify,
						    sb_rw_name(o->rw));
			if (!sb_rw_writes(o->rw) && !o->verify_state_load &&
			    sb_run_verify_writer(jf, opts, i) < 0)
				return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
						    "%s: line %u: job '%s': verify=%s with rw=%s "
						    "checks what an earlier job wrote with verify= "
						    "on the same filename=, and none does (or "
						    "verify_state_load=1: what an earlier run's did)",
						    path, j->line, j->name, o->fio_verify,
						    sb_rw_name(o->rw));
		}
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
