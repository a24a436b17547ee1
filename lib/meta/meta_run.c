/*
 * One run of storbench meta (meta.h, sb_meta_run): bonnie++'s block and
 * seek tests, then its file tests, in a run directory made for the run
 * and removed after it (only what it made), with the progress meter the
 * tests' stop callback keeps, and under mpirun the ranks' agreements,
 * rounds and gathering (meta_ranks.c).
 */
#include "lib/meta/meta_int.h"
#include "lib/coord/coord.h"
#include "lib/coord/coord_ranks.h"

#include <unistd.h>

/* The hook's stop, remembered: it said so once. */
static int asked(struct meta_state *s)
{
	if (!atomic_load(&s->asked) && s->h->stop && s->h->stop(s->h->ctx))
		atomic_store(&s->asked, 1);
	return atomic_load(&s->asked);
}

/* An operation of the test running, counted (one relaxed atomic add); every
 * 16th reads the clock, and the thread that finds the progress due tells
 * it. Many ranks: counted for the rounds, which tell rank 0's. */
static void count(struct meta_state *s)
{
	if (!s->h->progress && !s->rk)
		return;
	const uint64_t n = atomic_fetch_add_explicit(&s->ops, 1, memory_order_relaxed);
	if (s->rk || s->test < 0 || n % 16)
		return;
	const uint64_t now = sb_now_ns();
	if (now < atomic_load_explicit(&s->next_ns, memory_order_relaxed))
		return;
	if (atomic_exchange_explicit(&s->busy, 1, memory_order_acquire))
		return; /* another thread is at it */
	const struct sb_meta_progress p = {
		.test = (enum sb_meta_test)s->test,
		.step = s->step,
		.nsteps = s->nsteps,
		.ops = n + 1 - s->ops0,
		.total = sb_meta_test_ops(s->m, (enum sb_meta_test)s->test),
		.now_ns = now,
	};
	s->h->progress(s->h->ctx, &p);
	atomic_store_explicit(&s->next_ns, now + 50000000ull, memory_order_relaxed);
	atomic_store_explicit(&s->busy, 0, memory_order_release);
}

static int stop(void *ctx)
{
	struct meta_state *s = ctx;
	count(s);
	if (asked(s) || sb_meta_ranks_stopped(s))
		return SB_META_STOP;
	return sb_meta_ranks_walled(s) ? SB_META_STONEWALL : 0;
}

/* Within an operation: a stop, no operation counted. */
static int peek(void *ctx)
{
	struct meta_state *s = ctx;
	return asked(s) || sb_meta_ranks_stopped(s);
}

/* Under mpirun: the rounds, from the thread running the tests. */
static void tick(void *ctx)
{
	sb_meta_ranks_tick(ctx, sb_now_ns());
}

/* Test t begins: under mpirun on every rank together (or this rank stops
 * at its first operation, when another failed or was stopped). */
static void phase(void *ctx, enum sb_meta_test t)
{
	struct meta_state *s = ctx;
	sb_meta_ranks_phase(s, t);
	/* no thread of the test has started: nothing else touches s now */
	s->test = (int)t;
	s->step++;
	s->ops0 = atomic_load_explicit(&s->ops, memory_order_relaxed);
	s->next_tick_ns = 0;
	if (s->h->phase)
		s->h->phase(s->h->ctx, t, s->step);
}

/* The run's parameters, with its directory, file and seed. */
static void fill(struct sb_meta_run *m, const struct sb_meta_opts *o)
{
	m->seed = o->seed;
	snprintf(m->iopath, sizeof(m->iopath), "%s/%s", m->rundir, SB_META_IO_FILE);
	m->files = o->files;
	m->files.dir = m->rundir;
	m->files.seed = m->seed;
	m->files.dirfd = m->dirfd;
	m->io = o->io;
	m->io.path = m->iopath;
	m->io.seed = m->seed;
	m->io.dirfd = m->dirfd;
	m->size_rule = o->size_rule;
	m->twice_ram = o->twice_ram;
	snprintf(m->name, sizeof(m->name), "%s", o->name ? o->name : "localhost");
}

/* A test's failure in words, and its class. */
static int failed(const struct sb_meta_error *e, int rc, struct sb_error *err)
{
	const int env = e->err == ENOSPC || e->err == EACCES || e->err == EPERM ||
			e->err == EROFS || e->err == EDQUOT || e->err == EMFILE;
	const enum sb_errclass cls = env ? SB_ERR_ENV : SB_ERR_FAIL;
	if (e->what[0])
		return sb_error_set(err, rc, cls, "%s: %s in '%s'", sb_meta_test_name(e->test),
				    e->what, e->path);
	return sb_error_set(err, rc, cls, "%s failed on '%s': %s", sb_meta_test_name(e->test),
			    e->path, strerror(e->err ? e->err : -rc));
}

static int tests(struct meta_state *s, struct sb_error *err)
{
	struct sb_meta_run *m = s->m;
	const struct sb_meta_ctl ctl = { stop, phase, s, s->rk ? tick : NULL, peek };
	struct sb_meta_error me;
	int e = 0;
	memset(&me, 0, sizeof(me));
	s->nsteps = (unsigned)__builtin_popcount(sb_meta_tests(&m->io, m->files.nfiles));
	if (m->io.size)
		e = sb_meta_io_run(&m->io, &ctl, m->res, &m->cache_method, &me);
	if (!e && m->files.nfiles)
		e = sb_meta_files_run(&m->files, &ctl, m->res, &me);
	if (e && e != -EINTR)
		return failed(&me, e, err);
	return e;
}

/* What storbench made goes, whatever else is there stays. */
static void remove_rundir(struct meta_state *s)
{
	struct sb_meta_run *m = s->m;
	if (s->h->track)
		s->h->track(s->h->ctx, m->rundir, m->dirfd, 0);
	const int e = sb_meta_rundir_remove_fd(m->dirfd, m->rundir);
	close(m->dirfd);
	m->dirfd = -1;
	m->kept = e < 0;
	m->remove_err = e < 0 ? e : 0;
}

static int coord_failed(struct meta_state *s, struct sb_error *err)
{
	const char *what = "";
	const int e = sb_meta_ranks_lost(s, &what);
	s->m->ranks_lost = 1;
	return sb_error_set(err, e, SB_ERR_ENV,
			    "%s: %s: ending the job (a rank died, hangs or never got there)", what,
			    e == -ETIMEDOUT ? "no answer from every rank in time" : strerror(-e));
}

/* The run directory, on every rank or on none. 0 or -errno. */
static int begin(struct meta_state *s, struct sb_error *err)
{
	struct sb_meta_run *m = s->m;
	int code = 0, first, who;
	m->dirfd = sb_meta_rundir_create(s->o->parent, m->rundir, sizeof(m->rundir));
	if (m->dirfd < 0) {
		const int e = m->dirfd;
		const enum sb_errclass cls = sb_errno_class(e);
		sb_error_set(err, e, cls, "cannot create a run directory in '%s': %s", s->o->parent,
			     strerror(-e));
		code = (int)sb_errclass_code(cls);
	}
	/* many ranks: none tests unless every one has its run directory */
	if (sb_meta_ranks_ready(s, code, &first, &who))
		return coord_failed(s, err);
	if (!first)
		return 0;
	m->refused_rank = who >= 0 ? who : 0; /* alone: this one */
	if (m->dirfd >= 0)
		remove_rundir(s);
	if (!code)
		sb_error_set(err, -ECANCELED, SB_ERR_FAIL, "%s", "");
	err->cls = sb_errclass_of(first);
	return err->err;
}

/* After the tests: every rank's worst, and rank 0's word when they did not
 * meet at the same test. */
static int end(struct meta_state *s, int e, struct sb_error *err)
{
	struct sb_meta_run *m = s->m;
	long worst;
	if (!s->rk)
		return e;
	const long code = e && e != -EINTR ? sb_errclass_code(err->cls)
			  : asked(s)	   ? sb_errclass_code(SB_ERR_STOPPED)
					   : 0;
	if (sb_meta_ranks_end(s, code, &worst, &m->failed_rank))
		return coord_failed(s, err);
	char msg[256];
	if (sb_meta_ranks_mismatch(s, msg, sizeof(msg)) && !err->msg[0])
		snprintf(err->msg, sizeof(err->msg), "%s", msg);
	if (!worst)
		return e;
	if (!e)
		e = -ECANCELED;
	err->err = e;
	err->cls = sb_errclass_of(worst);
	return e;
}

int sb_meta_run(const struct sb_meta_opts *o, const struct sb_meta_hooks *h, struct sb_coord *coord,
		struct sb_meta_run *out, struct sb_error *err)
{
	static const struct sb_meta_hooks none;
	struct meta_state *s = calloc(1, sizeof(*s));
	memset(err, 0, sizeof(*err));
	out->refused_rank = out->failed_rank = -1;
	if (!s)
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	s->o = o;
	s->h = h ? h : &none;
	s->m = out;
	s->co = coord;
	s->test = -1;
	int e = sb_meta_ranks_start(s);
	if (e) {
		free(s);
		return sb_error_set(err, e, SB_ERR_ENV, "out of memory");
	}
	e = begin(s, err);
	if (!e) {
		fill(out, o);
		if (s->h->track)
			s->h->track(s->h->ctx, out->rundir, out->dirfd, 1);
		e = tests(s, err);
		if (e == -EINTR)
			sb_error_set(err, e, SB_ERR_STOPPED, "%s", "");
		out->interrupted = asked(s) || sb_meta_ranks_stopped(s);
		e = end(s, e, err);
		if (!out->ranks_lost)
			remove_rundir(s);
		/* many ranks: rank 0 gathers the All clients result, the others
		 * write nothing; none when a rank failed */
		if (s->rk && !out->ranks_lost && out->failed_rank < 0 &&
		    sb_meta_ranks_collect(s, sb_meta_tests(&out->io, out->files.nfiles)) < 0)
			e = coord_failed(s, err);
	}
	sb_meta_ranks_free(s);
	free(s);
	return e;
}

int sb_meta_runs(const struct sb_meta_opts *o, const struct sb_meta_hooks *h,
		 struct sb_coord *coord, struct sb_meta_run *out, struct sb_error *err)
{
	static const struct sb_meta_hooks none;
	const struct sb_meta_hooks *hk = h ? h : &none;
	const unsigned runs = o->runs > 1 ? o->runs : 1;
	const int many = coord && sb_coord_size(coord) > 1;
	struct sb_meta_opts one = *o;
	int v = 0;
	memset(err, 0, sizeof(*err));
	for (unsigned i = 0; i < runs && !v && !(hk->stop && hk->stop(hk->ctx)); i++) {
		memset(out, 0, sizeof(*out));
		if (!o->seed)
			one.seed = sb_now_ns() ^ ((uint64_t)getpid() << 32);
		if (!hk->run_begin || !(v = hk->run_begin(hk->ctx, i))) {
			const int e = sb_meta_run(&one, h, coord, out, err);
			v = hk->run_end ? hk->run_end(hk->ctx, out, e, err) : e;
		}
		if (runs > 1 && many) { /* all go on to the next run, or none */
			long w = v;
			const int ce = sb_coord_max(coord, &w, 1, SB_RANKS_SETUP_S);
			if (ce) {
				out->ranks_lost = 1;
				return sb_coord_lost(err, "agreeing", ce);
			}
			v = (int)w;
		}
	}
	return v;
}

void sb_meta_result_free(struct sb_meta_run *m)
{
	if (!m)
		return;
	free((void *)m->ranks);
	m->ranks = NULL;
	m->nranks = 0;
}
