/* Internal to lib/run: a run of sb_run_jobs in progress, and the steps
 * jobs.c (a workload, the results) and jobs_file.c (a job file's groups)
 * share. A step returns a status (enum sb_run_status); one past
 * SB_RUN_FAILED has its why in r->err. */
#ifndef SB_RUN_JOBS_RUN_H
#define SB_RUN_JOBS_RUN_H

#include "lib/run/jobs.h"
#include "lib/run/jobs_int.h"

#include <stdarg.h>

struct run {
	const struct sb_run_jobs_opts *o;
	const char *tgt; /* the target of the group running (o->target or o->targets') */
	const struct sb_run_hooks *h;
	struct sb_coord *c;
	struct sb_run_result *out;
	struct sb_error *err;
	struct sb_job_opts *opts; /* o->jobs, their sizes filled in as targets say */
	struct sb_results *res;
	struct sb_job_verify *rv; /* the verifying job's */
	int rv_reads;		  /* rv checks what an earlier job wrote */
	/* rv checks [vl.off, vl.off + vl.size) of the job's file, not its
	 * region: what a loaded verify state (vl.fmt's blocks) says was
	 * written */
	int rv_region;
	/* jobs together: the verifying job's result its check reads are
	 * counted in (NULL: the last result), and its name said with the
	 * blocks it found not intact */
	struct sb_job_result *rv_res;
	struct {
		struct sb_verify_fmt fmt;
		uint64_t off, size;
	} vl;
	/* a job file's verify= job that wrote verify blocks a later verify=
	 * job only reads: its target kept (t, NULL: none), the job's index,
	 * the blocks' format and the job's direct= */
	struct {
		struct sb_jobtarget *t;
		unsigned job;
		struct sb_verify_fmt fmt;
		int direct;
		int keep; /* its file stays (verify_state_save) */
	} vw;
	/* a job file's group now running (1..ngroups; 0 of 0: a workload),
	 * and the groups after it, for the ETA: later of unknown length (as
	 * long as this one), later_ns of the others together */
	unsigned group, ngroups, later;
	uint64_t later_ns;
	/* --status-interval: when the next status is due, on one clock for
	 * every group (0: an interval after the first measurement starts) */
	uint64_t status_next;
	/* many ranks: the repeats, summarized once they are gathered */
	size_t rep_first;
	unsigned rep_n;
	/* fio's zonemode=zbd: each file's zones, from the first job on it to
	 * the end of the run, as fio's (jobs_zbd.c) */
	struct sb_run_zbd {
		char *path;
		struct sb_zbd *zbd;
	} zbds[8];
	unsigned nzbds;
};

/* The status of a library call's return e (err filled by it). */
int sb_run_status_of(struct run *r, int e);
/* r->err set to st's class and the message; returns st. */
int sb_run_fail(struct run *r, int st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Many ranks: every rank's status after a step, the first failing rank's
 * (a rank says its own error at once; rank 0 which one stopped all). */
int sb_run_agree_st(struct run *r, int st);
/* A stop asked on any rank. */
int sb_run_stopped(struct run *r);

/* Targets through the program's hooks, or the library's own. */
int sb_run_prepare(struct run *r, struct sb_jobtarget *t, struct sb_job_opts *job, int needs_data,
		   int noio);
void sb_run_cleanup(struct run *r, struct sb_jobtarget *t, int keep);
/* The results' conditions: the host, the target t, the job file. */
void sb_run_describe(struct run *r, const struct sb_jobtarget *t);
void sb_run_tell(struct run *r, enum sb_run_ev what, unsigned first, unsigned n, int rc);

/* One job measured o->repeat times on t, the results appended. */
int sb_run_repeats(struct run *r, struct sb_jobtarget *t, const struct sb_engine_ops *ops,
		   const struct sb_job_opts *opts);
/* A verifying job (how: "--verify", "verify=crc32c"): usable, its
 * region filled (r->rv). */
int sb_run_verify_before(struct run *r, const struct sb_engine_ops *ops, struct sb_jobtarget *t,
			 const struct sb_job_opts *job, const char *how);
/* A verify= job that only reads (how: "verify=md5") on its view t of
 * the writer's kept target (r->vw): it checks the blocks the writer
 * wrote over its own region, or is refused. */
int sb_run_verify_reader(struct run *r, const struct sb_engine_ops *ops,
			 const struct sb_jobtarget *t, const struct sb_job_opts *job,
			 const char *how);
/* A verify= job that only reads, with no writer of its file before it
 * (how: "verify=md5"): it checks the blocks an earlier run left in its
 * region of t, a file or device that was there. */
int sb_run_verify_learned(struct run *r, const struct sb_engine_ops *ops,
			  const struct sb_jobtarget *t, const struct sb_job_opts *job,
			  const char *how);
/* No verifying job now (r->rv NULL): the state of the one before, if it
 * was never checked (do_verify=0, a stop), freed, unless it is the
 * results'. */
void sb_run_verify_end(struct run *r);
/* fio's verify_state_save (jobs_vstate.c): whether the state file of
 * the job beside the run's target may be written (before anything is
 * made), and the state written (done: bytes of t's region valid, ended:
 * the job ran to its end). */
int sb_run_vstate_may_save(struct run *r, const struct sb_job_opts *job);
int sb_run_vstate_save(struct run *r, const struct sb_job_opts *job, const struct sb_jobtarget *t,
		       const struct sb_verify_fmt *fmt, uint64_t done, int ended);
/* verify_state_load: what the state beside t's file says was written,
 * inside t's region (r->vl), which sb_run_verify_reader then checks. */
int sb_run_vstate_load(struct run *r, const struct sb_job_opts *job, const struct sb_jobtarget *t);
/* The check after the measurement, every rank's verdict to rank 0, the
 * results' verify section; the status (st's when that is worse). */
int sb_run_verify_after(struct run *r, const struct sb_job_opts *job, const struct sb_jobtarget *t,
			int st);
/* --precondition or --discard-before with a job that does no I/O. */
int sb_run_state_noio(struct run *r);

/* zonemode=zbd (jobs_zbd.c): the zones of job's file on its prepared
 * target t, made when the first job on it runs (*out NULL for a job
 * without zonemode=zbd); a status, the why in r->err. */
int sb_run_zbd(struct run *r, const struct sb_jobtarget *t, const struct sb_job_opts *job,
	       struct sb_zbd **out);
void sb_run_zbd_free(struct run *r);

/* A job file's jobs in their groups (jobs_file.c). */
int sb_run_jobfile(struct run *r);

#endif
