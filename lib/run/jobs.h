/*
 * storbench run as a library call: a workload, or the jobs of a fio job
 * file in their groups (each group's jobs measured together, a group
 * after the one before it ended: fio's stonewall), with their repeats,
 * --verify, the state the target is brought to first (--precondition,
 * --discard-before) and, under mpirun, every rank's figures gathered to
 * rank 0 (client_stats and the "All clients" aggregate).
 *
 *   struct sb_run_result out;
 *   sb_run_jobs(&opts, &hooks, coord, &out, &err);  // the program prints out.res
 *   sb_run_result_free(&out);
 *
 * The library never prints: what the program says as it happens comes
 * through the hooks (all optional), and what ends the run in err.
 */
#ifndef SB_RUN_JOBS_LIB_H
#define SB_RUN_JOBS_LIB_H

#include "lib/sb.h"
#include "lib/coord/coord.h"
#include "lib/engine/engine.h"
#include "lib/job/jobfile.h"
#include "lib/results/results.h"
#include "lib/run/run.h"
#include "lib/target/jobtarget.h"
#include "lib/target/precond.h"
#include "lib/verify/job_verify.h"

/* What a message is: an error of this rank, a warning, a note, or one
 * rank 0 relays from another rank (its rank's name already in it). */
enum sb_say { SB_SAY_ERROR, SB_SAY_WARNING, SB_SAY_NOTE, SB_SAY_RELAYED };

#define SB_RUN_GROUP_MAX 64 /* jobs measured together */
#define SB_RUN_LOOK_JOBS 16 /* jobs whose own figures a look sums over the ranks */

/* ---- what the progress hook is told, every look (50 ms) ---- */

struct sb_run_job_look {
	const char *name;
	struct sb_progress p; /* as the workers published it */
	double bps, iops;     /* over the last second; -1: none yet */
	double eta_ns;	      /* until the job ends; -1: unknown */
};

/* Many ranks, on rank 0, from the newest round: every rank's work. */
struct sb_run_ranks_look {
	int nranks;
	double bps, iops;     /* every rank's together; -1: none yet */
	double fraction;      /* done, the ranks' average (0..1) */
	uint64_t done, total; /* bytes, when every job is bound by bytes; total 0 otherwise */
	double eta_ns;	      /* what is left at the pace so far; -1 unknown */
	unsigned njobs;	      /* the first SB_RUN_LOOK_JOBS jobs: */
	double job_bps[SB_RUN_LOOK_JOBS]; /* each job's rate, every rank's (>= 0) */
	int job_done[SB_RUN_LOOK_JOBS];	  /* done on every rank */
};

struct sb_run_look {
	uint64_t now;	   /* sb_now_ns() */
	uint64_t start_ns; /* when this measurement's looks began */
	unsigned njobs;
	const struct sb_run_job_look *jobs;
	/* every job together: the slowest sets the percent and the ETA
	 * (finished ones count as done), the rates of the jobs still running
	 * add up (-1: none yet); ramp: one is in its ramp */
	double pct, bps, iops, eta_ns;
	int ramp;
	uint64_t elapsed_ns;		       /* the longest job's */
	const struct sb_run_ranks_look *ranks; /* NULL: alone, or no round ended yet */
};

/* ---- events ---- */

enum sb_run_ev {
	SB_RUN_GROUP_BEGAN,   /* a group of jobs: its targets are next */
	SB_RUN_MEASURE_BEGAN, /* a measurement's I/O started (its looks follow) */
	SB_RUN_MEASURE_ENDED, /* and ended (every run joined) */
	SB_RUN_GROUP_ENDED,   /* the group's results are in (rc) */
};
/* what is measured: jobs (of a workload or a job file), a
 * preconditioning pass, or a command's tests (quick's) */
enum sb_run_phase { SB_RUN_PHASE_JOBS, SB_RUN_PHASE_PRECOND, SB_RUN_PHASE_TESTS };

struct sb_run_event {
	enum sb_run_ev what;
	enum sb_run_phase phase;
	/* the jobs: group step of nsteps (of a job file; nsteps 0: a workload),
	 * the preconditioning's pass step of nsteps, or test step of nsteps */
	unsigned step, nsteps;
	unsigned first, njobs; /* the group's jobs, in the run's order */
	unsigned run, nruns;   /* the repeat (1..nruns) of a group of one job */
	const char *label;     /* the measurement: "NAME", "NAME (run 2 of 3)", "a + b" */
	/* after this measurement, for the ETA of the whole: `later` more as
	 * long as this one, and later_ns of a known time */
	unsigned later;
	uint64_t later_ns;
	int rc; /* GROUP_ENDED: 0, 1 a job failed (the next groups run), or -errno */
};

/* ---- hooks (each may be NULL; all get ctx) ---- */

struct sb_run_hooks {
	void *ctx;
	/* polled: non-zero stops the measurement at the next request (the
	 * results marked interrupted) and runs nothing after it */
	int (*stop)(void *ctx);
	void (*event)(void *ctx, const struct sb_run_event *ev);
	void (*look)(void *ctx, const struct sb_run_look *l);
	void (*say)(void *ctx, enum sb_say kind, const char *msg);
	/* a rank did not answer in time (err -ETIMEDOUT) or a gathering had
	 * no memory, during `what`: the program ends the job here (it does
	 * not return); NULL: the call returns the error */
	void (*lost)(void *ctx, const char *what, int err);
	/* the default engine of a job the library makes (a preconditioning
	 * pass) fell back (sb_engine_choose): the program says why, once */
	void (*fell_back)(void *ctx, const struct sb_engine_pick *pick);
	/* Targets: the program's own way to prepare and clean up one (under
	 * mpirun: every rank's verdict, a directory of a rank's own); it says
	 * its own errors (er's message ""). NULL: sb_jobtarget_prepare and
	 * sb_jobtarget_cleanup, with stop and a warning through say. */
	int (*prepare)(void *ctx, struct sb_jobtarget *t, const char *path, struct sb_job_opts *job,
		       int needs_data, int noio, struct sb_error *er);
	void (*cleanup)(void *ctx, struct sb_jobtarget *t, int keep);
	/* the jobs of a job file: a rank's own directory, made for the first
	 * group, stays for the next ones (on 1) until released (on 0) */
	void (*hold)(void *ctx, int on, int keep);
	/* fio's --status-interval (sb_run_jobs_opts.status_ns): every job
	 * started so far, the running ones with their figures until now, the
	 * ended ones whole, once each interval; called with status_ctx, not
	 * ctx */
	void (*status)(void *status_ctx, const struct sb_results *so_far);
	void *status_ctx;
};

/* ---- one measurement: jobs that run together (group.c) ---- */

struct sb_zbd;

struct sb_run_group_job {
	const struct sb_job_opts *job; /* checked, its engine ops */
	const struct sb_engine_ops *ops;
	struct sb_jobtarget *t; /* prepared */
	struct sb_job_result *res;
	/* this job's verify blocks and map of writes, in place of the
	 * group's (NULL: the group's): jobs together each verifying its own
	 * region */
	const struct sb_verify_fmt *verify;
	uint64_t *const *written;
	struct sb_zbd *zbd; /* zonemode=zbd: its file's zones (zbd.h), else NULL */
};
struct sb_run_group_opts {
	const char *label;		    /* "cannot start LABEL" of a single job */
	const struct sb_verify_fmt *verify; /* run --verify: writes carry verify blocks */
	uint64_t *const *written; /* and, per path, the map of where writes began (or NULL) */
	/* many ranks: this rank's own measurement, with no agreement nor
	 * rounds (a preconditioning pass, whose size is each rank's) */
	int alone;
	int stonewall;		       /* many ranks: the first to finish stops the others */
	const struct sb_run_event *ev; /* what MEASURE_BEGAN and _ENDED say; NULL: nothing more */
	/* the hooks' status every status_ns: doc, with the group's results
	 * (in doc already) in their state so far, when *status_next (shared
	 * by a run's measurements; 0: status_ns after this one starts) */
	uint64_t status_ns;
	struct sb_results *doc;
	uint64_t *status_next;
};
/* Starts n (<= SB_RUN_GROUP_MAX) jobs together once every run is set up
 * (on every rank), looks at them every 50 ms until all ended (on every
 * rank: with --stonewall the first rank's end stops the others), samples
 * the device's counters around them, and fills each res. Returns 0, or the
 * first failure (-errno; said through say, as is each job's first failed
 * request); many ranks: -ECANCELED when another rank failed (every rank
 * returns a failure then). */
int sb_run_group(const struct sb_run_group_opts *o, const struct sb_run_group_job *js, unsigned n,
		 const struct sb_run_hooks *h, struct sb_coord *c);

/* ---- many ranks: the results gathered (collect.c) ---- */

/* After the measurements: every rank's jobs to rank 0, which replaces each
 * job with the "All clients" aggregate (its ranks in clients, their
 * phases on rank 0's clock) and marks res (nranks, the MPI library,
 * stonewall); *worst becomes the largest of every rank's. 0 on rank 0 (it
 * writes the results) and alone (nothing done); 1 on the other ranks;
 * -EPROTO when the ranks measured different numbers of jobs (rank 0's err
 * says so: nothing written anywhere); -ETIMEDOUT, -ENOMEM, -EIO. */
int sb_run_collect(struct sb_coord *c, struct sb_results *res, int stonewall, long *worst,
		   struct sb_error *err);

/* ---- the target's state before the measurement (state.c) ---- */

/* May o be carried out on the probed target t at path? A block device or
 * a file storbench did not create needs destroy_data; a purge needs a
 * block device. t is then marked written (t->writes). 0 or -EINVAL, -EPERM. */
int sb_run_state_check(const struct sb_state_opts *o, int destroy_data, struct sb_jobtarget *t,
		       const char *path, struct sb_error *err);
/* With t prepared: bring it to the state (purge or fill, then discard),
 * recorded in res->state; many ranks: each rank its own, every rank waits
 * for the slowest, and rank 0 keeps every rank's (res->rank_states). 0 or
 * -errno. */
int sb_run_state_apply(const struct sb_state_opts *o, struct sb_jobtarget *t, const char *path,
		       struct sb_results *res, const struct sb_run_hooks *h, struct sb_coord *c,
		       struct sb_error *err);

/* ---- run --verify's steps (jobverify.c) ---- */

/* Can this workload be verified on t? -EINVAL with err saying why. */
int sb_run_verify_usable(const struct sb_job_opts *job, const struct sb_jobtarget *t,
			 struct sb_error *err);
/* The format of the blocks sb_run_verify_fill writes for job. */
void sb_run_verify_fmt(const struct sb_job_opts *job, struct sb_verify_fmt *fmt);
/* Fill the region of every file of t with verify blocks (before the
 * workload); stop polled. */
int sb_run_verify_fill(struct sb_job_verify *v, const struct sb_job_opts *job,
		       const struct sb_jobtarget *t, int (*stop)(void *ctx), void *ctx,
		       struct sb_error *err);
/* Read everything back and classify (after the workload). */
int sb_run_verify_check(struct sb_job_verify *v, const struct sb_job_opts *job,
			const struct sb_jobtarget *t, int (*stop)(void *ctx), void *ctx,
			struct sb_error *err);
/* A job that only reads with verify= and no writer of its file before
 * it: v checks the blocks an earlier run left in t's region (their seed
 * and block size learned from them; none there: the job's own, which
 * every block then fails). 0, 1 (none there), -ENOMEM. */
int sb_run_verify_learn(struct sb_job_verify *v, const struct sb_job_opts *job,
			const struct sb_jobtarget *t);
/* Many ranks (every rank, after its check): each rank's verdict to rank
 * 0, whose v then holds every rank's part. 0 or -ETIMEDOUT, -ENOMEM. */
int sb_run_verify_ranks(struct sb_job_verify *v, const struct sb_jobtarget *t, struct sb_coord *c);

/* The target of each job of jf, into tgts[i]: target when given, else
 * the job's filename= or directory=, else "." (the current directory,
 * where fio puts its files). Jobs measured together (one stonewall group)
 * run on one target; a cpuio or exec job, which has none of its own,
 * takes its group's. 0, or -EINVAL with err naming two jobs of a group
 * on different targets. */
int sb_run_jobfile_targets(const struct sb_jobfile *jf, const char *target, const char **tgts,
			   const char *path, struct sb_error *err);

/* The last job before job i (in the file's order) that writes verify
 * blocks (verify=) on the same filename= (and nrfiles) as job i, or -1:
 * what a verify= job that only reads checks. */
int sb_run_verify_writer(const struct sb_jobfile *jf, const struct sb_job_opts *opts, unsigned i);
/* Whether job i, with no size, takes the size of its file as it is when
 * it starts (after the earlier groups ran), as fio sizes a job's existing
 * file: a verify= job that only reads what an earlier verify= job made
 * on the same filename= (surface-scan.fio's verify-phase). A job with no
 * size on a file no earlier job makes is refused before anything runs,
 * where fio fails when the job starts. */
int sb_run_sized_at_start(const struct sb_jobfile *jf, const struct sb_job_opts *opts, unsigned i);
/* A job file's jobs (opts[i] the options of jf->jobs[i], each checked
 * alone) checked together before anything is created (jobs_check.c):
 * repeat > 1 only with jobs that run alone; verify= on jobs that run
 * alone, or beside others on regions apart from theirs, each one that
 * writes, or one that reads what an earlier verify= job alone wrote on
 * the same filename= (or the blocks an earlier run left). A do_verify=0
 * writer among jobs on the same bytes whose blocks no later job checks
 * has its verify= dropped in opts (it writes as any job). 0, or -EINVAL
 * with err (SB_ERR_INPUT) naming path, the line and the job. */
int sb_run_jobfile_check(const struct sb_jobfile *jf, struct sb_job_opts *opts,
			 unsigned repeat, const char *path, struct sb_error *err);

/* The checks of job i of a job file that need its target probed (after
 * sb_run_jobfile_check), called when job i's target is not there yet or
 * is a directory (each job makes its files): a verify= job that only reads
 * with no verify= writer of its file before it has no blocks to check.
 * On a file or a device that is there it checks the blocks an earlier
 * run left, as fio checks the headers it finds. 0, or -EINVAL with err. */
int sb_run_jobfile_check_target(const struct sb_jobfile *jf, const struct sb_job_opts *opts,
				unsigned i, const char *path, struct sb_error *err);

/* ---- the run ---- */

struct sb_run_jobs_opts {
	/* the jobs: jobs[i] checked (sb_job_check) with its engine ops[i]
	 * chosen (jobs[i].engine its name); of a job file jf (its names, its
	 * options as written, its groups), else one workload (njobs 1) */
	unsigned njobs;
	const struct sb_job_opts *jobs;
	const struct sb_engine_ops *const *ops;
	const struct sb_jobfile *jf;
	const char *job_file; /* jf's path, for the results */
	const char *target;   /* every job's TARGET */
	/* a job file's jobs on targets of their own (fio's filename= per
	 * job): targets[i] job i's, the jobs of a group all the same one;
	 * NULL: target for every job */
	const char *const *targets;
	unsigned repeat;      /* a group of one job runs it this often (>= 1) */
	int verify;	      /* a workload's --verify (a job file's jobs: their verify=) */
	int destroy_data, keep;
	struct sb_state_opts state; /* --precondition, --discard-before */
	int stonewall;		    /* many ranks: the first to finish a group stops the others */
	uint64_t status_ns;	    /* the hooks' status this often (0: never) */
};

/* How a run ended, every rank's worst: the order of the program's exit codes. */
enum sb_run_status {
	SB_RUN_OK,
	SB_RUN_FAILED,	/* a job failed or met I/O errors, a verify found damage */
	SB_RUN_INPUT,	/* refused: what was asked cannot be done on this target */
	SB_RUN_ENV,	/* the environment failed (space, memory, a device) */
	SB_RUN_STOPPED, /* stopped (a stop asked during a layout) */
};

struct sb_run_result {
	/* the results, NULL when the run was refused before anything ran;
	 * under mpirun rank 0's hold every rank's (write says who writes) */
	struct sb_results *res;
	int write;
	enum sb_run_status status;
	/* a verifying job's check (res's "verify" section points into it),
	 * and the files it checked, for the text; NULL when none was checked */
	struct sb_job_verify *verify;
	char **verify_paths;
	unsigned nverify_paths;
	int interrupted; /* a stop was asked */
};

/* Runs the jobs of o on o->target: a workload is checked, its target
 * prepared, brought to the state, verified around, measured o->repeat
 * times; a job file's jobs run in their groups, every job's target
 * prepared before its group starts. Returns 0 once it ran (out->status
 * says how it went), or -errno with err (what ends it; its message ""
 * when already said through say), out->res then holding what ran. */
int sb_run_jobs(const struct sb_run_jobs_opts *o, const struct sb_run_hooks *h, struct sb_coord *c,
		struct sb_run_result *out, struct sb_error *err);
void sb_run_result_free(struct sb_run_result *r);

#endif
