/*
 * The runner: drives numjobs worker threads, each with its own engine,
 * offsets, buffers and statistics (merged after the run, never locked in the
 * hot path), through an optional ramp and the measured period.
 *
 *   struct sb_run *r; sb_run_create(&r, &params);
 *   sb_run_start(r);
 *   while (!sb_run_progress(r, &p)) sleep...;   // or sb_run_stop(r) on Ctrl-C
 *   sb_run_wait(r, result);                       // fills an sb_job_result
 *   sb_run_free(r);
 */
#ifndef SB_RUN_H
#define SB_RUN_H

#include "lib/sb.h"
#include "lib/engine/engine.h"
#include "lib/job/job.h"
#include "lib/results/results.h"
#include "lib/verify/block.h"

/* fio's flow, shared by the workers of one flow_id (worker.h) */
struct sb_flow;

struct sb_zbd;

struct sb_run_params {
	struct sb_job_opts job; /* checked with sb_job_check */
	const struct sb_engine_ops *engine;
	/* The file or device each job opens: one path for all jobs, or one per
	 * job (npaths == numjobs). Unused by NOIO engines. */
	const char *const *paths;
	unsigned npaths;
	/* NULL, or per path the descriptor + 1 the caller holds it open by (0:
	 * none): a job then gets its own open of that very file through it
	 * (sb_scratch_reopen), never of whatever the name names by then. A
	 * job that writes needs one, with write access (the write gate's,
	 * lib/target/gate.h): a name is opened only to read (-EPERM). */
	const int *held;
	int is_blockdev;
	uint64_t region_offset; /* where the region starts in each file */
	uint64_t region_size;	/* bytes, > 0 */
	uint32_t align;		/* offsets and sizes are multiples of this */
	/* run --verify: every write carries verify blocks of this format (so a
	 * check afterwards can prove the data), instead of scrambled random
	 * data; write sizes and offsets are multiples of its block size. */
	const struct sb_verify_fmt *verify;
	/* with verify: NULL, or per path a bit per verify block of the region
	 * (from region_offset), set for the first block of each write */
	uint64_t *const *written;
	/* fio's nrfiles: each job's files are paths[job * nrfiles ..] (held
	 * likewise), file_sizes[i] bytes each, the region all of each
	 * (region_offset 0); 0 or 1: one file per job as above */
	unsigned nrfiles;
	const uint64_t *file_sizes;
	/* consent to overwrite (--destroy-data): a log the job writes
	 * (write_iolog=, write_bw_log= ...) over a file not storbench's */
	int destroy_data;
	/* an engine that makes its files (SB_ENGINE_MKFILES): paths[0] the
	 * directory of mk_nfiles files a job, each mk_span of the region (0:
	 * paths[0] the one file) */
	unsigned mk_nfiles;
	uint64_t mk_span;
	/* the files the run laid out for one (filestat, filedelete): each
	 * file's end in the region, and every clone's files' inode numbers
	 * (clone k's at k * mk_nfiles); NULL: none */
	const uint64_t *mk_end, *mk_ino;
	/* the job's flow (job.flow > 0), NULL: none */
	struct sb_flow *flow;
	/* fio's zonemode=zbd (job.zbd.on): the zones of the job's file,
	 * shared with the other jobs on it (lib/run/zbd.h) */
	struct sb_zbd *zbd;
};
/* The parameters of job on its target t, as lib/target prepared it (its
 * paths held open, block device or not, region, alignment), run by ops;
 * the rest (verify, nrfiles) 0 (run_params.c). */
struct sb_jobtarget;
void sb_run_params_of(struct sb_run_params *p, const struct sb_job_opts *job,
		      const struct sb_engine_ops *ops, const struct sb_jobtarget *t);

/* What the workers published, at most SB_PUBLISH_NS (25 ms) old: a rate
 * is the difference of two snapshots over the time between them. */
struct sb_progress {
	uint64_t elapsed_ns;	   /* since start */
	int ramping;		   /* still in the unmeasured ramp */
	uint64_t bytes[SB_DDIR_N]; /* moved so far, the ramp's too */
	uint64_t ios[SB_DDIR_N];
	double fraction;      /* 0..1 done, by time or by bytes */
	uint64_t total_bytes; /* a run bound by size ends at these bytes; 0: by time only */
	uint64_t total_ns;    /* a run bound by time ends then (ramp included); 0: none */
	int done;
};

struct sb_run;

/* Validates params and opens every file (so that errors come before any
 * thread starts). -errno; *errmsg (static text or NULL) says which step. */
int sb_run_create(struct sb_run **out, const struct sb_run_params *p, const char **errmsg);
int sb_run_start(struct sb_run *r);
/* Snapshot without blocking. Returns 1 when every worker has finished. */
int sb_run_progress(struct sb_run *r, struct sb_progress *p);
/* Ask the workers to stop at the next I/O boundary; async-signal-safe. */
void sb_run_stop(struct sb_run *r);
/* 1 once one of the run's threads has ended (fio's exitall), else 0 */
int sb_run_any_done(const struct sb_run *r);
/* Join the workers and merge their statistics into res. Returns 0, or the
 * first worker error (-errno) — res is filled either way. */
int sb_run_wait(struct sb_run *r, struct sb_job_result *res);
/* The figures so far into res (zeroed, its name and options set), while
 * the workers run (fio's --status-interval): their counters read as they
 * add to them, so a figure may lag another by a request; no time series. */
void sb_run_peek(struct sb_run *r, struct sb_job_result *res);
void sb_run_free(struct sb_run *r);

#endif
