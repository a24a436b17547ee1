/*
 * Shared by the sweep tests: a trace callback that keeps every event of a
 * run (with a hash of each record's data), and helpers to pick out the
 * events of one test.
 */
#ifndef SWEEP_TRACE_H
#define SWEEP_TRACE_H

#include "tests/lib/sbtest.h"
#include "lib/sweep/sweep.h"

#include <sys/stat.h>

#define ST_MAX 200000

struct st_ev {
	int test, op;
	uint64_t file_size, rec, off, len, hash;
};

struct st_trace {
	struct st_ev *v;
	size_t n;
	unsigned stop_after; /* stop says yes after this many calls (0 never) */
	unsigned polls;
	/* the hooks' stop (st_stop unless a test sets its own) and timed */
	int (*stop)(void *ctx);
	void (*timed)(void *ctx, int test, unsigned fi, unsigned ri, int end);
};

/* The trace the last st_opts set up: st_run's hooks tell it. */
static struct st_trace *st_cur;

static inline uint64_t st_hash(const void *data, uint64_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ull;
	for (uint64_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static inline void st_cb(void *ctx, const struct sb_sweep_event *ev)
{
	struct st_trace *t = ctx;
	assert_true(t->n < ST_MAX);
	struct st_ev *e = &t->v[t->n++];
	e->test = ev->test;
	e->op = ev->op;
	e->file_size = ev->file_size;
	e->rec = ev->record_size;
	e->off = ev->offset;
	e->len = ev->length;
	e->hash = ev->data ? st_hash(ev->data, ev->length) : 0;
}

static inline int st_stop(void *ctx)
{
	struct st_trace *t = ctx;
	return t->stop_after && ++t->polls > t->stop_after;
}

/* Options for one cell of file_size x rec with the given tests, traced. */
static inline void st_opts(struct sb_sweep_opts *o, struct st_trace *t, uint64_t file_size,
			   uint64_t rec, uint32_t tests)
{
	sb_sweep_opts_default(o);
	o->file_sizes[0] = file_size;
	o->nfile = 1;
	o->record_sizes[0] = rec;
	o->nrec = 1;
	o->tests = tests;
	o->warm = 1; /* drops are tested on their own: as root they are system-wide */
	t->stop = st_stop;
	t->timed = NULL;
	st_cur = t;
	if (!t->v)
		t->v = calloc(ST_MAX, sizeof(*t->v));
	assert_non_null(t->v);
	t->n = 0;
	t->polls = 0;
}

/* Run the planned r of o on path (fd -1: made for each cell), traced. */
static inline int st_run_on(struct sb_sweep_result *r, const struct sb_sweep_opts *o,
			    const char *path)
{
	struct sb_sweep_opts on = *o;
	struct sb_error err;
	const struct sb_sweep_hooks h = {
		.ctx = st_cur, .stop = st_cur->stop, .timed = st_cur->timed, .trace = st_cb
	};
	on.path = path;
	on.fd = -1;
	return sb_sweep_run(&on, &h, NULL, r, &err);
}

/* Plan and run o on a fresh file in the test directory; the result. */
static inline struct sb_sweep_result *st_run(const struct sb_sweep_opts *o, int expect)
{
	struct sb_sweep_result *r = calloc(1, sizeof(*r));
	struct stat st;
	const char *path = sbt_path("sweep.tmp");
	assert_non_null(r);
	assert_int_equal(sb_sweep_plan(r, o), 0);
	assert_int_equal(st_run_on(r, o, path), expect);
	assert_int_not_equal(lstat(path, &st), 0); /* removed after each cell */
	return r;
}

/* The READ/WRITE events of test (in order) into out; their count. */
static inline size_t st_io(const struct st_trace *t, int test, struct st_ev **out)
{
	size_t k = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].test == test &&
		    (t->v[i].op == SB_SWEEP_OP_READ || t->v[i].op == SB_SWEEP_OP_WRITE))
			out[k++] = &t->v[i];
	return k;
}

/* Index of the first event of test with op at or after from; -1 if none. */
static inline long st_find(const struct st_trace *t, size_t from, int test, int op)
{
	for (size_t i = from; i < t->n; i++)
		if (t->v[i].test == test && t->v[i].op == op)
			return (long)i;
	return -1;
}

#endif
