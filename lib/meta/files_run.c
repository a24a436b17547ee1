/*
 * Running the file tests: one set of threads per test, started together,
 * timed to the end of the slowest, their latency histograms merged after.
 */
#include "lib/meta/meta_int.h"
#include "lib/target/target.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static void *worker_main(void *arg)
{
	struct meta_worker *w = arg;
	struct meta_files_run *fr = w->fr;
	pthread_mutex_lock(&fr->mu);
	while (!fr->go)
		pthread_cond_wait(&fr->cv, &fr->mu);
	const int go = fr->go;
	pthread_mutex_unlock(&fr->mu);
	w->cpu0 = sb_meta_thread_cpu_ns();
	if (go > 0)
		w->rc = sb_meta_files_op(w);
	if (!w->walled) { /* else taken at the stonewall */
		w->cpu_ns = sb_meta_thread_cpu_ns() - w->cpu0;
		w->end_ns = sb_now_ns();
	}
	__atomic_add_fetch(&fr->finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

void sb_meta_wait_threads(const struct sb_meta_ctl *ctl, const unsigned *finished, unsigned n)
{
	const struct timespec nap = { 0, 5000000 };
	if (!ctl || !ctl->tick)
		return;
	while (__atomic_load_n(finished, __ATOMIC_ACQUIRE) < n) {
		ctl->tick(ctl->ctx);
		nanosleep(&nap, NULL);
	}
}

static void release(struct meta_files_run *fr, int go)
{
	pthread_mutex_lock(&fr->mu);
	fr->go = go;
	pthread_cond_broadcast(&fr->cv);
	pthread_mutex_unlock(&fr->mu);
}

static int make_subdirs(const struct sb_meta_files *p, struct sb_meta_error *err)
{
	char rel[16];
	for (unsigned d = 0; p->ndirs > 1 && d < p->ndirs; d++) {
		sb_meta_dir_rel(p, d, rel, sizeof(rel));
		if (mkdirat(p->dirfd, rel, 0700) < 0) {
			err->err = errno;
			sb_meta_shown_path(p, rel, err->path, sizeof(err->path));
			return -err->err;
		}
	}
	return 0;
}

/* Spawn, release and join the workers of one test. Returns the start time,
 * 0 when a thread could not be started (*e set). */
static uint64_t run_workers(struct meta_files_run *fr, struct meta_worker *w, int *e)
{
	const unsigned n = fr->p->nthreads;
	unsigned started = 0;
	fr->go = 0;
	fr->finished = 0;
	for (unsigned i = 0; i < n; i++) {
		sb_hist_init(&w[i].lat);
		w[i].ops = w[i].done = 0;
		w[i].walled = 0;
		w[i].rc = 0;
		w[i].err = 0;
		w[i].started = pthread_create(&w[i].th, NULL, worker_main, &w[i]) == 0;
		if (!w[i].started)
			*e = -EAGAIN;
		started += (unsigned)w[i].started;
	}
	const uint64_t t0 = sb_now_ns();
	release(fr, *e ? -1 : 1);
	sb_meta_wait_threads(fr->ctl, &fr->finished, started);
	for (unsigned i = 0; i < n; i++)
		if (w[i].started)
			pthread_join(w[i].th, NULL);
	return *e ? 0 : t0;
}

/* Every file was found (done: every operation, untimed ones after a
 * stonewall too; a stonewalled stat test ends where it is). */
static int count_check(const struct sb_meta_files *p, enum sb_meta_test t,
		       struct sb_meta_result *r, uint64_t done, struct sb_meta_error *err)
{
	const int stat = t == SB_META_SEQ_STAT || t == SB_META_RAND_STAT;
	if (r->interrupted || done == p->nfiles || (stat && r->stonewalled))
		return 0;
	err->err = EIO;
	snprintf(err->path, sizeof(err->path), "%s", p->dir);
	snprintf(err->what, sizeof(err->what), "found %llu of %llu files",
		 (unsigned long long)done, (unsigned long long)p->nfiles);
	return -EIO;
}

/* Merge the workers into r; the first failure goes to err. */
static int collect(struct meta_files_run *fr, struct meta_worker *w, uint64_t t0,
		   struct sb_meta_result *r, struct sb_meta_error *err)
{
	int rc = 0;
	uint64_t end = t0, done = 0;
	sb_hist_init(&r->lat);
	for (unsigned i = 0; i < fr->p->nthreads; i++) {
		sb_hist_merge(&r->lat, &w[i].lat);
		r->ops += w[i].ops;
		done += w[i].done;
		r->stonewalled |= w[i].walled;
		r->cpu_ns += w[i].cpu_ns;
		end = SB_MAX(end, w[i].end_ns);
		if (w[i].rc == -EINTR)
			r->interrupted = 1;
		else if (w[i].rc < 0 && !rc) {
			rc = w[i].rc;
			err->err = w[i].err ? w[i].err : -rc;
			snprintf(err->path, sizeof(err->path), "%s", w[i].errpath);
		}
	}
	r->elapsed_ns = end - t0;
	r->start_ns = t0;
	r->ran = 1;
	return rc ? rc : count_check(fr->p, fr->test, r, done, err);
}

static int one_test(struct meta_files_run *fr, struct meta_worker *w, int dirfd,
		    struct sb_meta_result *r, struct sb_meta_error *err)
{
	const enum sb_meta_test t = fr->test;
	const int create = t == SB_META_SEQ_CREATE || t == SB_META_RAND_CREATE;
	const int del = t == SB_META_SEQ_DELETE || t == SB_META_RAND_DELETE;
	int e = 0;
	err->test = t;
	if (create && (e = make_subdirs(fr->p, err)))
		return e;
	if (fr->ctl && fr->ctl->phase)
		fr->ctl->phase(fr->ctl->ctx, t);
	const uint64_t t0 = run_workers(fr, w, &e);
	if (e)
		return err->err = -e, e;
	r->cpu_ns = 0;
	e = collect(fr, w, t0, r, err);
	const uint64_t cpu0 = sb_meta_thread_cpu_ns();
	/* bonnie++ times its sync() too; a stonewalled test's time ended
	 * before (the sync is still made) */
	if ((create || del) && syncfs(dirfd) == 0 && !r->stonewalled) {
		r->elapsed_ns = sb_now_ns() - t0;
		r->cpu_ns += sb_meta_thread_cpu_ns() - cpu0;
	}
	return e ? e : r->interrupted ? -EINTR : 0;
}

static void shuffle(uint64_t *v, uint64_t n, uint64_t seed)
{
	struct sb_rng rng;
	sb_rng_seed(&rng, seed ^ 0x726e64ull);
	for (uint64_t i = 0; i < n; i++)
		v[i] = i;
	for (uint64_t i = n; i > 1; i--) {
		uint64_t k = sb_rng_below(&rng, i);
		uint64_t t = v[i - 1];
		v[i - 1] = v[k];
		v[k] = t;
	}
}

static int run_all(struct meta_files_run *fr, struct meta_worker *w, struct sb_meta_result *res,
		   struct sb_meta_error *err)
{
	const int dirfd = fr->p->dirfd;
	int e = 0;
	for (int t = SB_META_SEQ_CREATE; t <= SB_META_RAND_DELETE && !e; t++) {
		if (sb_meta_stopped(fr))
			e = -EINTR;
		else {
			fr->test = (enum sb_meta_test)t;
			e = one_test(fr, w, dirfd, &res[t], err);
		}
	}
	return e;
}

static int valid(const struct sb_meta_files *p)
{
	struct stat st;
	return p->nfiles && p->ndirs && p->nthreads && p->nthreads <= p->ndirs &&
	       p->ndirs <= 99999 && p->chunk && p->size_min <= p->size_max &&
	       fstat(p->dirfd, &st) == 0 && S_ISDIR(st.st_mode);
}

int sb_meta_files_run(const struct sb_meta_files *p, const struct sb_meta_ctl *ctl,
		      struct sb_meta_result *res, struct sb_meta_error *err)
{
	struct meta_files_run fr = { .p = p, .ctl = ctl };
	memset(err, 0, sizeof(*err));
	if (!valid(p))
		return -EINVAL;
	fr.order = malloc(p->nfiles * sizeof(*fr.order));
	struct meta_worker *w = calloc(p->nthreads, sizeof(*w));
	int e = fr.order && w ? 0 : -ENOMEM;
	struct sb_rng rng;
	sb_rng_seed(&rng, p->seed);
	for (unsigned i = 0; !e && i < p->nthreads; i++) {
		w[i].fr = &fr;
		w[i].id = i;
		w[i].buf = malloc(p->chunk);
		if (!w[i].buf)
			e = -ENOMEM;
		else
			sb_buf_fill(w[i].buf, p->chunk, &rng, 0);
	}
	if (!e) {
		shuffle(fr.order, p->nfiles, p->seed);
		pthread_mutex_init(&fr.mu, NULL);
		pthread_cond_init(&fr.cv, NULL);
		e = run_all(&fr, w, res, err);
		pthread_cond_destroy(&fr.cv);
		pthread_mutex_destroy(&fr.mu);
	}
	for (unsigned i = 0; w && i < p->nthreads; i++)
		free(w[i].buf);
	free(w);
	free(fr.order);
	return e;
}
