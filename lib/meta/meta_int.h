/* Inside lib/meta: what the file-test files share. Not a public header. */
#ifndef SB_META_INT_H
#define SB_META_INT_H

#include "lib/meta/meta.h"
#include "lib/job/buffer.h"
#include "lib/base/rng.h"

#include <pthread.h>
#include <time.h>

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
	int rc;	 /* 0, -EINTR or -errno */
	int err; /* positive errno of a failure */
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
