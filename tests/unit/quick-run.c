/* needs: none */
/* storbench quick as a library call (lib/run/quick.h), without the
 * program: a small matrix of four tests on a new temporary file, with
 * hooks that record what they are told. Each test's measurements come in
 * order, each test's read before its write, a warm-up before each run;
 * the summary holds a row per test and direction from the runs measured;
 * a stop asked during the second step (the first test's write) ends the
 * run there with the results marked interrupted and no later step begun;
 * a run that moved no data (its worker thread started after its time was
 * up, as on a machine at load 30) is left out and run again, said in a
 * warning and counted in its summary row. */
#include "tests/lib/sbtest.h"
#include "lib/storbench.h"

#include <dlfcn.h>
#include <pthread.h>
#include <time.h>

/* The fault: the late_at-th worker thread made (counted from the arming)
 * starts 400 ms late, past its run's 150 ms: it moves nothing. */
void *sb_worker_main(void *arg);
static unsigned made, late_at;

struct tramp {
	void *(*fn)(void *);
	void *arg;
};

static void *late(void *a)
{
	const struct tramp t = *(struct tramp *)a;
	free(a);
	const struct timespec ts = { 0, 400000000 };
	nanosleep(&ts, NULL);
	return t.fn(t.arg);
}

int pthread_create(pthread_t *th, const pthread_attr_t *at, void *(*fn)(void *), void *arg)
{
	int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
	*(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
	struct tramp *t;
	if (fn == sb_worker_main && late_at && ++made == late_at && (t = malloc(sizeof(*t)))) {
		*t = (struct tramp){ fn, arg };
		return real(th, at, late, t);
	}
	return real(th, at, fn, arg);
}

struct seen {
	enum sb_run_ev what;
	enum sb_run_phase phase;
	unsigned step, nsteps;
	char label[128];
};

struct rec {
	struct seen ev[128];
	unsigned nev, looks, errors;
	unsigned began;	  /* measurements begun */
	unsigned stop_at; /* ask to stop at the first look of this measurement; 0 never */
	int stopping;
};

static int on_stop(void *ctx)
{
	return ((struct rec *)ctx)->stopping;
}

static void on_event(void *ctx, const struct sb_run_event *ev)
{
	struct rec *r = ctx;
	assert_true(r->nev < SB_ARRAY_SIZE(r->ev));
	struct seen *s = &r->ev[r->nev++];
	s->what = ev->what;
	s->phase = ev->phase;
	s->step = ev->step;
	s->nsteps = ev->nsteps;
	snprintf(s->label, sizeof(s->label), "%s", ev->label ? ev->label : "");
	r->began += ev->what == SB_RUN_MEASURE_BEGAN;
}

static void on_look(void *ctx, const struct sb_run_look *l)
{
	struct rec *r = ctx;
	(void)l;
	r->looks++;
	if (r->stop_at && r->began >= r->stop_at)
		r->stopping = 1;
}

static void on_say(void *ctx, enum sb_say kind, const char *msg)
{
	struct rec *r = ctx;
	if (kind == SB_SAY_ERROR) {
		r->errors++;
		print_message("said: %s\n", msg);
	}
}

/* small and quick: the matrix's shape, not CrystalDiskMark's sizes */
static const struct sb_quick_test tests[SB_QUICK_TESTS] = {
	{ "SEQ64K Q2T1", 0, 65536, 2, 1 },
	{ "SEQ4K Q1T1", 0, 4096, 1, 1 },
	{ "RND4K Q2T1", 1, 4096, 2, 1 },
	{ "RND4K Q1T1", 1, 4096, 1, 1 },
};

static int run(const char *target, struct rec *r, struct sb_quick_result *out)
{
	struct sb_error err;
	const struct sb_quick_opts o = { .target = target,
					 .tests = tests,
					 .size = 1u << 20,
					 .size_set = 1,
					 .runtime_ns = 150000000ull,
					 .repeat = 1,
					 .engine = "psync" };
	const struct sb_run_hooks h = {
		.ctx = r, .stop = on_stop, .event = on_event, .look = on_look, .say = on_say
	};
	const int e = sb_quick_run(&o, &h, NULL, out, &err);
	if (e)
		print_message("sb_quick_run: %s\n", err.msg);
	return e;
}

static void tests_in_order(void **state)
{
	(void)state;
	struct rec r = { 0 };
	struct sb_quick_result out;
	char want[128];
	assert_int_equal(run(sbt_path("quick.bin"), &r, &out), 0);
	/* each test read then write, each a warm-up then its run: begun, ended */
	assert_int_equal(r.nev, 4 * SB_QUICK_TESTS * 2);
	for (unsigned i = 0; i < r.nev; i++) {
		const unsigned step = i / 4 + 1;
		const struct sb_quick_test *t = &tests[(step - 1) / 2];
		assert_int_equal(r.ev[i].what, i % 2 ? SB_RUN_MEASURE_ENDED : SB_RUN_MEASURE_BEGAN);
		assert_int_equal(r.ev[i].phase, SB_RUN_PHASE_TESTS);
		assert_int_equal(r.ev[i].step, step);
		assert_int_equal(r.ev[i].nsteps, 2 * SB_QUICK_TESTS);
		snprintf(want, sizeof(want), "%s %s %s", t->name, step % 2 ? "read" : "write",
			 i % 4 < 2 ? "(warm-up)" : "(run 1 of 1)");
		assert_string_equal(r.ev[i].label, want);
	}
	assert_true(r.looks > 0);
	assert_int_equal(r.errors, 0);
	/* the results: a job per measured run (not the warm-ups), a summary
	 * row per test and direction */
	assert_int_equal(out.status, SB_RUN_OK);
	assert_false(out.interrupted);
	assert_true(out.writes);
	assert_int_equal(out.tests_done, 2 * SB_QUICK_TESTS);
	assert_non_null(out.res);
	assert_int_equal(out.res->njobs, 2 * SB_QUICK_TESTS);
	assert_int_equal(out.res->nsummary, 2 * SB_QUICK_TESTS);
	for (size_t i = 0; i < out.res->nsummary; i++) {
		const struct sb_summary_row *row = &out.res->summary[i];
		const int dir = i % 2 ? SB_DDIR_WRITE : SB_DDIR_READ;
		const struct sb_job_result *j = out.res->jobs[i];
		assert_string_equal(row->test, tests[i / 2].name);
		assert_int_equal(row->ddir, dir);
		assert_int_equal(row->nruns, 1);
		assert_true(row->bw_median > 0);
		assert_true(j->dir[dir].bytes > 0);
		assert_int_equal(j->errors, 0);
		assert_false(j->interrupted);
	}
	sb_quick_result_free(&out);
	sb_quick_result_free(NULL);
}

/* A stop asked once the third measurement (the first test's write
 * warm-up) has begun: the run ends there, marked interrupted, no later
 * step begun, the read measured before it kept. */
static void stop_in_second_step(void **state)
{
	(void)state;
	struct rec r = { .stop_at = 3 };
	struct sb_quick_result out;
	assert_int_equal(run(sbt_path("stop.bin"), &r, &out), 0);
	assert_true(r.stopping);
	assert_true(out.interrupted);
	assert_int_equal(out.status, SB_RUN_OK); /* stopped is no failure: the flag says it */
	assert_true(r.nev >= 5 && r.nev <= 6);
	for (unsigned i = 0; i < r.nev; i++)
		assert_true(r.ev[i].step <= 2);
	assert_non_null(out.res);
	assert_true(out.res->njobs >= 1 && out.res->njobs <= 2);
	assert_int_equal(out.res->jobs[0]->dir[SB_DDIR_READ].bytes > 0, 1);
	assert_true(out.res->interrupted);
	sb_quick_result_free(&out);
}

/* The first test's measured read (the second worker made) moves nothing:
 * left out of its median and run again, its row says one run discarded,
 * a warning says so; every test still has its run. */
static void a_run_that_moved_nothing(void **state)
{
	(void)state;
	struct rec r = { 0 };
	struct sb_quick_result out;
	made = 0;
	late_at = 2;
	assert_int_equal(run(sbt_path("nothing.bin"), &r, &out), 0);
	late_at = 0;
	assert_int_equal(made, 2 * SB_QUICK_TESTS * 2 + 1);
	assert_int_equal(out.status, SB_RUN_OK);
	assert_false(out.interrupted);
	assert_int_equal(out.res->njobs, 2 * SB_QUICK_TESTS);
	assert_int_equal(out.res->nsummary, 2 * SB_QUICK_TESTS);
	for (size_t i = 0; i < out.res->njobs; i++) {
		const int dir = i % 2 ? SB_DDIR_WRITE : SB_DDIR_READ;
		assert_true(out.res->jobs[i]->dir[dir].ios > 0);
		assert_int_equal(out.res->summary[i].nruns, 1);
		assert_int_equal(out.res->summary[i].ndiscarded, i == 0);
	}
	int said = 0;
	for (size_t i = 0; i < out.res->nwarnings; i++)
		said += strstr(out.res->warnings[i], "SEQ64K Q2T1 read: 1 run moved no data") !=
			NULL;
	assert_int_equal(said, 1);
	sb_quick_result_free(&out);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(tests_in_order),
		cmocka_unit_test(stop_in_second_step),
		cmocka_unit_test(a_run_that_moved_nothing),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
