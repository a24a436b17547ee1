/*
 * storbench verify as a library call. sb_verify_run() writes a target with
 * verify blocks and reads them back (f3write and f3read in one), or probes
 * a whole device for fake capacity (--probe, f3probe-like):
 *
 *   - write: a directory's or a new file's files are made first (a fill of
 *     a directory without a size: as large as the filesystem lets them
 *     grow), then written with blocks of (seed, generation, block size)
 *     and fsync'd; a device or an existing file is written in place;
 *   - check: every block read back and classified (intact, corrupted,
 *     misplaced, stale, foreign, unreadable, newer, missing), the bad
 *     ones as ranges;
 *   - under mpirun (a coordination handle of many ranks, lib/coord) every
 *     rank works on its own target; the ranks agree before anything is
 *     made, start each phase together and end it together (rank 0's
 *     progress is every rank's), none checks when one failed or was
 *     stopped in its write, and rank 0 ends with every rank's part
 *     (result.rep.ranks) and the counts summed.
 *
 * The caller resolves the target first (sb_vtarget_resolve: nothing is
 * made), chooses the engine, and for a device writes through what the
 * write gate gave (lib/target/gate.h); the files made here are the
 * caller's to remove (sb_vtarget_remove) once it is done with them.
 *
 *   struct sb_verify_result r; struct sb_error er;
 *   if (sb_verify_run(&opts, &hooks, coord, &r, &er) < 0) ... er.msg
 *   ... r.rep (the phases, the blocks), r.res (the results to write) ...
 *   sb_verify_result_free(&r);
 *
 * Nothing here prints: what the program says as it happens comes through
 * the hooks, the rest is in the result.
 */
#ifndef SB_VERIFY_H
#define SB_VERIFY_H

#include "lib/coord/coord.h"
#include "lib/engine/engine.h"
#include "lib/results/results.h"
#include "lib/verify/capacity.h"
#include "lib/verify/verify_target.h"

/* --probe: the whole device, open as fd (O_RDWR | O_DIRECT, the write
 * gate's: taken over, closed), named path, of capacity bytes in blocks of
 * block_size, the run's data from seed. */
struct sb_verify_probe {
	int fd;
	const char *path;
	uint64_t capacity;
	uint32_t block_size;
	uint64_t seed;
};

struct sb_verify_opts {
	/* the target as given and as probed (the results describe it; the
	 * device's health is read before and after) */
	const char *path;
	const struct sb_target_info *info;
	/* the target resolved by the caller, and the options its files are
	 * made with (a write) */
	struct sb_vtarget *vt;
	struct sb_vtarget_opts vto;
	const struct sb_engine_ops *ops;
	int phase; /* SB_VPHASE_* */
	uint32_t block_size, request_size;
	unsigned iodepth;
	uint64_t seed, generation;
	unsigned max_ranges; /* bad ranges listed at most */
	/* non-NULL: the probe instead of the phases (the fields above but
	 * path and info unused) */
	const struct sb_verify_probe *probe;
};

/* What a progress line needs, while a phase runs. */
struct sb_verify_progress {
	const char *phase; /* "write", "check" */
	int write;
	unsigned ranks;	      /* > 1: done, total and bps are every rank's together */
	uint64_t done, total; /* bytes of the phase */
	double pct;
	double bps;	     /* over the last second; < 0 not known yet */
	uint64_t elapsed_ns; /* since the phase began */
	double eta_ns;	     /* of the phase; < 0 unknown */
};

/* What the program hears of as it happens; each may be NULL. */
struct sb_verify_hooks {
	void *ctx;
	/* polled before every file and after every request: non-zero stops
	 * the phase (the result is marked interrupted) and no check follows */
	int (*stop)(void *ctx);
	/* at most every 50 ms while a phase runs (under mpirun rank 0's is
	 * every rank's, the others' their own) */
	void (*progress)(void *ctx, const struct sb_verify_progress *p);
	/* a phase begins (begin 1) and ends (0) */
	void (*phase)(void *ctx, const char *phase, int begin);
	/* a file made for the write, open as fd: the caller's to remove (a
	 * second Ctrl-C may) */
	void (*created)(void *ctx, const char *path, int fd);
	/* what a person is told as it happens, an error: the run's err (on
	 * rank 0 also "rank N refused or failed", a rank's that stopped all),
	 * or why a phase stopped */
	void (*error)(void *ctx, const char *msg);
};

/* What a run did. */
struct sb_verify_result {
	/* the phases' figures and the blocks found (of many ranks, on rank 0,
	 * every rank's counts summed and each one's part in rep.ranks) */
	struct sb_verify_report rep;
	/* the results as they are written: the target, the host, the phases
	 * as jobs (each with its start and end on the coordination clock),
	 * the health before and after, the verify section (rep, or probe) */
	struct sb_results *res;
	int phase_failed; /* a phase of this rank could not run (rep.failed says why) */
	int stopped;	  /* many ranks: one failed its write, none checked */
	int interrupted;  /* the stop hook asked */
	/* many ranks: a rank did not answer in time (err says what was
	 * waited for): the caller ends the job (sb_coord_abort) */
	int lost;
	struct sb_capacity_report probe; /* --probe */
};

/*
 * Runs what o asks, telling h (NULL: nothing) as it goes, over coord's
 * ranks (NULL: alone). 0 when it ran to a verdict (a phase that could not
 * run is a result: out->phase_failed); -errno with err when it could not
 * begin (nothing written; err->cls SB_ERR_INPUT for what was asked
 * wrongly, SB_ERR_ENV for what the target or the system refused; on the
 * ranks that did not fail, the failing rank's class and no message) or
 * when a rank was lost (out->lost). Free out with sb_verify_result_free
 * whatever it returned.
 */
int sb_verify_run(const struct sb_verify_opts *o, const struct sb_verify_hooks *h,
		  struct sb_coord *coord, struct sb_verify_result *out, struct sb_error *err);
void sb_verify_result_free(struct sb_verify_result *r);
/* Many ranks, once rank 0 gathered every rank's jobs into r->res
 * (sb_run_collect): each phase's time in r->rep from the earliest start
 * to the latest end, the gathered job's runtime (the write's first when
 * it wrote). */
void sb_verify_ranks_times(struct sb_verify_result *r);

#endif
