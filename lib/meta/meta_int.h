/* Inside lib/meta: what the file-test files and a run's files share. Not a
 * public header. */
#ifndef SB_META_INT_H
#define SB_META_INT_H

#include "lib/meta/meta.h"
#include "lib/job/buffer.h"
#include "lib/base/rng.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

struct sb_coord;
struct meta_ranks;

/* A run of storbench meta (meta_run.c, meta_ranks.c): what the tests'
 * stop and tick callbacks see. */
struct meta_state {
	const struct sb_meta_opts *o;
	const struct sb_meta_hooks *h; /* never NULL (an empty one) */
	struct sb_meta_run *m;
	struct sb_coord *co;
	struct meta_ranks *rk; /* many ranks; NULL alone */
	/* the progress meter: stop() counts an operation (from any thread)
	 * and, every 16th, tells the progress hook when it is due (the
	 * thread that finds it due tells it, the others go on) */
	_Atomic uint64_t ops, next_ns;
	atomic_int busy;
	int test; /* enum sb_meta_test running, -1 none */
	unsigned step, nsteps;
	uint64_t ops0;	       /* ops when the test began */
	uint64_t next_tick_ns; /* many ranks: the next round's look */
	atomic_int asked;      /* the stop hook said stop */
};

/* The operations of test t in the run m: chunks, seeks or files. */
uint64_t sb_meta_test_ops(const struct sb_meta_run *m, enum sb_meta_test t);

/* ---- many ranks (meta_ranks.c); alone each a no-op ---- */
/* The ranks' state, when coord has more than one: 0 or -ENOMEM. */
int sb_meta_ranks_start(struct meta_state *s);
/* Every rank made its run directory (code 0) or not (a class code of
 * sb_errclass_code): the first failing rank's code, its rank in *who (-1
 * none). -ETIMEDOUT and the like when a rank did not answer. */
int sb_meta_ranks_ready(struct meta_state *s, int code, int *first, int *who);
/* Before test t, after every rank got there: 1 when this rank stops
 * (another failed or was stopped; the tests' stop says so). */
int sb_meta_ranks_phase(struct meta_state *s, enum sb_meta_test t);
int sb_meta_ranks_stopped(const struct meta_state *s);
/* --stonewall: another rank ended the test running. */
int sb_meta_ranks_walled(const struct meta_state *s);
/* From the thread running the tests, often: the rounds that sum every
 * rank's operations to rank 0 (told to the progress hook there). */
void sb_meta_ranks_tick(struct meta_state *s, uint64_t now);
/* After the tests: this rank's code (sb_errclass_code; mismatch says the
 * ranks met at different tests); every rank's worst into *worst, the
 * first rank that failed a test into *failed (-1 none). */
int sb_meta_ranks_end(struct meta_state *s, long code, long *worst, int *failed);
/* Rank 0: the ranks met at different tests, in words (1); else 0. */
int sb_meta_ranks_mismatch(const struct meta_state *s, char *msg, size_t len);
/* Every rank's figures of the tests in mask to rank 0, whose m then
 * holds the All clients aggregate and the ranks (0 there, 1 on the
 * others); -ENOMEM, -ETIMEDOUT. */
int sb_meta_ranks_collect(struct meta_state *s, unsigned mask);
void sb_meta_ranks_free(struct meta_state *s);
/* What failed between the ranks, for the message ("agreeing", ...), and
 * its -errno; 0 when nothing did. */
int sb_meta_ranks_lost(const struct meta_state *s, const char **what);

struct meta_files_run {
	const struct sb_meta_files *p;
	const struct sb_meta_ctl *ctl;
	enum sb_meta_test test;
	uint64_t *order; /* file numbers, shuffled, for the random tests */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int go;		   /* 1: start, -1: give up */
	unsigned finished; /* workers that ended (atomic) */
};

struct meta_worker {
	struct meta_files_run *fr;
	unsigned id;
	pthread_t th;
	int started;
	int rc;		      /* 0, -EINTR or -errno */
	int err;	      /* positive errno of a failure */
	uint64_t ops, end_ns; /* timed: up to a stonewall, if any */
	uint64_t done;	      /* every operation, the untimed ones after a stonewall too */
	int walled;	      /* a stonewall ended its timing (end_ns, cpu_ns then) */
	uint64_t cpu0;
	uint64_t cpu_ns; /* the thread's own CPU time from its start to end_ns */
	char *buf;	 /* chunk bytes of random data */
	char errpath[4096];
	struct sb_hist lat;
};

/* The run stops (between tests; a stonewall is not a stop there). */
static inline int sb_meta_stopped(const struct meta_files_run *fr)
{
	return fr->ctl && fr->ctl->stop && fr->ctl->stop(fr->ctl->ctx) == SB_META_STOP;
}

static inline void sb_meta_op_done(struct meta_worker *w, uint64_t t0)
{
	w->done++;
	if (w->walled)
		return; /* past a stonewall: untimed */
	sb_hist_add(&w->lat, sb_now_ns() - t0);
	w->ops++;
}

/* Let the caller's tick run while n threads work, until *finished (each
 * adds 1 as it ends) reaches n; nothing without a tick (then a plain join
 * follows). */
void sb_meta_wait_threads(const struct sb_meta_ctl *ctl, const unsigned *finished, unsigned n);

/* fsync the directory holding rel (relative to dfd), or the directory
 * open at fd (files.c). */
int sb_meta_fsync_parent(int dfd, const char *rel);
int sb_meta_fsync_fd(int fd);
/* Remove subdirectory d (when there are several), timed with the deletes. */
int sb_meta_remove_subdir(struct meta_worker *w, unsigned d);
/* What a worker does in the current test (files.c). */
int sb_meta_files_op(struct meta_worker *w);
/* Directory d relative to the run directory ("." or "00042"). */
void sb_meta_dir_rel(const struct sb_meta_files *p, unsigned d, char *buf, size_t len);
/* rel (relative to the run directory) as a path to show: p->dir/rel. */
void sb_meta_shown_path(const struct sb_meta_files *p, const char *rel, char *buf, size_t len);
/* CPU time of the calling thread, in ns. A test's threads each read it at
 * their own start and end, inside the test's elapsed window, so that the
 * CPU figure covers exactly the time that is timed: a process-wide reading
 * taken before the threads are created and after they are merged also
 * counts their creation and the merging, and put a single-threaded stat
 * test at 104-106 %. */
static inline uint64_t sb_meta_thread_cpu_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Before each operation of a file-test worker: 1 when the run stops. A
 * stonewall ends the worker's timing here, once; what it does after is
 * counted in done alone. */
static inline int sb_meta_worker_stop(struct meta_worker *w)
{
	const struct sb_meta_ctl *c = w->fr->ctl;
	const int s = c && c->stop ? c->stop(c->ctx) : 0;
	if (s == SB_META_STONEWALL && !w->walled) {
		w->walled = 1;
		w->end_ns = sb_now_ns();
		w->cpu_ns = sb_meta_thread_cpu_ns() - w->cpu0;
	}
	return s == SB_META_STOP;
}

#endif
