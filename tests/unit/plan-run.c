/* needs: none */
/*
 * storbench plan's run as a library call, without the program:
 * sb_plan_run on a plan of four steps, with a fake step runner that
 * writes a small result for each step (an info result with one health
 * figure) and hooks that record what they are told. The steps run in
 * order on each target in turn; the journal makes a second run resume
 * at the first unfinished step (its latest entry of a step wins); a step
 * that cannot run stops the plan with the rest never run; a stop asked
 * ends it interrupted; an optional step that cannot run is skipped; with
 * parallel, each target in a process of its own, the journal keeps
 * every step of every target.
 */
#include "tests/lib/sbtest.h"
#include "lib/plan/plan_run.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char plan_text[] = "[global]\nname = t\n"
				"[a]\nrun = info\nexpect = health.media_errors == 0\n"
				"[b]\nrun = info\n"
				"[c]\nrun = info\noptional = true\n"
				"[d]\nrun = info\nwait = 1ms\n";

struct rec {
	char calls[32][80]; /* "a0": step a on target 0 */
	size_t ncalls;
	char events[64][80]; /* "S a0": kind letter, step, target */
	size_t nevents;
	const char *fail; /* this step's command ends with exit code fail_code */
	int fail_code;
	const char *stop_in; /* a stop asked while this step runs */
	int stopping;
	unsigned media_errors;
};

static int fake_step(void *ctx, const struct sb_plan_call *c, char *said, size_t saidlen)
{
	struct rec *r = ctx;
	if (r->ncalls < SB_ARRAY_SIZE(r->calls))
		snprintf(r->calls[r->ncalls++], sizeof(r->calls[0]), "%s%zu", c->st->name,
			 c->target_index);
	if (r->stop_in && !strcmp(c->st->name, r->stop_in)) {
		r->stopping = SIGINT;
		return 128 + SIGINT;
	}
	if (r->fail && !strcmp(c->st->name, r->fail)) {
		snprintf(said, saidlen, "storbench: cannot use it: made up");
		return r->fail_code;
	}
	FILE *f = fopen(c->result, "w");
	assert_non_null(f);
	fprintf(f,
		"{\"storbench\": {\"command\": \"info\", \"info\": {\"health\": "
		"{\"smart\": {\"media_errors\": %u}}}}}\n",
		r->media_errors);
	fclose(f);
	return 0;
}

static int fake_stop(void *ctx)
{
	return ((struct rec *)ctx)->stopping;
}

static void on_event(void *ctx, const struct sb_plan_event *ev)
{
	struct rec *r = ctx;
	static const char kinds[] = "RrWSk"; /* resumed, rerun, wait, start, skipped */
	assert_true(ev->nsteps == 4);
	if (r->nevents < SB_ARRAY_SIZE(r->events))
		snprintf(r->events[r->nevents++], sizeof(r->events[0]), "%c %s%zu", kinds[ev->kind],
			 ev->st->name, ev->target_index);
}

static pid_t fork_spawn(void *ctx, size_t ti, int (*body)(void *arg), void *arg)
{
	(void)ctx;
	(void)ti;
	pid_t pid = fork();
	if (pid == 0)
		_exit(body(arg));
	return pid < 0 ? -errno : pid;
}

struct fixture {
	struct sb_plan pl;
	char dir[512];
	const char *targets[2];
};

static void setup(struct fixture *fx, const char *name)
{
	struct sb_error err;
	assert_int_equal(sb_plan_parse(plan_text, strlen(plan_text), "t.ini", &fx->pl, &err), 0);
	snprintf(fx->dir, sizeof(fx->dir), "%s/%s", sbt_tmpdir(), name);
	assert_int_equal(mkdir(fx->dir, 0755), 0);
	fx->targets[0] = "/tmp/one";
	fx->targets[1] = "/tmp/two";
}

static int run(struct fixture *fx, struct rec *r, size_t ntargets, int parallel,
	       struct sb_plan_result *res)
{
	const struct sb_plan_run_opts o = { &fx->pl, "t.ini", fx->targets, ntargets,
					    NULL,    fx->dir, parallel };
	const struct sb_plan_hooks h = { r, fake_step, fake_stop, on_event, fork_spawn };
	struct sb_error err;
	memset(r->calls, 0, sizeof(r->calls));
	r->ncalls = r->nevents = 0;
	int e = sb_plan_run(&o, &h, res, &err);
	return e;
}

static size_t journal_entries(const struct fixture *fx)
{
	char path[600];
	struct sb_plan_journal j;
	struct sb_error err;
	snprintf(path, sizeof(path), "%s/journal.json", fx->dir);
	assert_int_equal(sb_plan_journal_read(path, &j, &err), 0);
	size_t n = j.n;
	sb_plan_journal_free(&j);
	return n;
}

static void steps_in_order(void **state)
{
	(void)state;
	struct fixture fx;
	struct rec r = { 0 };
	struct sb_plan_result res;
	setup(&fx, "order");
	assert_int_equal(run(&fx, &r, 2, 0, &res), 0);
	static const char *const want[] = { "a0", "b0", "c0", "d0", "a1", "b1", "c1", "d1" };
	assert_int_equal(r.ncalls, 8);
	for (size_t i = 0; i < 8; i++)
		assert_string_equal(r.calls[i], want[i]);
	/* the wait comes before its step begins */
	assert_string_equal(r.events[3], "W d0");
	assert_string_equal(r.events[4], "S d0");
	assert_string_equal(res.tally.verdict, "PASS");
	assert_int_equal(res.tally.passed, 10); /* a: 2 criteria, b, c, d: status */
	assert_int_equal(res.targets_tally[1].passed, 5);
	assert_true(strstr(res.out[4].result, "/a-2.json") != NULL);
	assert_string_equal(res.out[4].target, "/tmp/two");
	assert_true(res.out[7].ran && !res.out[7].resumed);
	assert_int_equal(journal_entries(&fx), 8);
	sb_plan_result_free(&res);
	sb_plan_free(&fx.pl);
}

static void resumes_from_journal(void **state)
{
	(void)state;
	struct fixture fx;
	struct rec r = { .fail = "b", .fail_code = 3 };
	struct sb_plan_result res;
	setup(&fx, "resume");
	/* b cannot run: the plan stops there, c and d never ran */
	assert_int_equal(run(&fx, &r, 1, 0, &res), 0);
	assert_int_equal(r.ncalls, 2);
	assert_int_equal(res.stopped, 3);
	assert_string_equal(res.tally.verdict, "INCOMPLETE");
	assert_true(res.out[0].ran);
	assert_int_equal(res.out[1].stopped, 3);
	assert_string_equal(res.out[1].why,
			    "its command ended with exit code 3: cannot use it: made up");
	assert_true(!res.out[2].ran && !res.out[2].stopped && !res.out[3].ran);
	assert_int_equal(res.tally.not_run, 3);
	assert_int_equal(journal_entries(&fx), 1);
	sb_plan_result_free(&res);

	/* run again: a is the journal's, b, c, d run */
	r.fail = NULL;
	assert_int_equal(run(&fx, &r, 1, 0, &res), 0);
	assert_int_equal(r.ncalls, 3);
	assert_string_equal(r.calls[0], "b0");
	assert_string_equal(r.events[0], "R a0");
	assert_true(res.out[0].resumed && res.out[0].ran);
	assert_string_equal(res.tally.verdict, "PASS");
	sb_plan_result_free(&res);

	/* the journal's latest entry of a step wins: a failed since */
	char path[600];
	struct sb_plan_journal j;
	struct sb_error err;
	snprintf(path, sizeof(path), "%s/journal.json", fx.dir);
	assert_int_equal(sb_plan_journal_read(path, &j, &err), 0);
	struct sb_plan_done d = j.d[0];
	d.status = 1;
	assert_int_equal(sb_plan_journal_add(path, &j, &d, &err), 0);
	sb_plan_journal_free(&j);
	assert_int_equal(run(&fx, &r, 1, 0, &res), 0);
	assert_int_equal(r.ncalls, 0);
	assert_int_equal(res.out[0].status, 1);
	assert_string_equal(res.tally.verdict, "FAIL");
	assert_int_equal(res.tally.failed, 1);
	sb_plan_result_free(&res);
	sb_plan_free(&fx.pl);
}

static void stop_interrupts(void **state)
{
	(void)state;
	struct fixture fx;
	struct rec r = { .stop_in = "b" };
	struct sb_plan_result res;
	setup(&fx, "stop");
	assert_int_equal(run(&fx, &r, 2, 0, &res), 0);
	assert_int_equal(r.ncalls, 2);
	assert_int_equal(res.interrupted, SIGINT);
	assert_string_equal(res.interrupted_by, "SIGINT (Ctrl-C)");
	assert_int_equal(res.stopped, 128 + SIGINT);
	assert_string_equal(res.tally.verdict, "INTERRUPTED");
	assert_true(res.out[1].interrupted && !res.out[1].ran);
	assert_true(!res.out[2].ran && !res.out[4].ran);
	assert_int_equal(journal_entries(&fx), 1); /* b is not in it */
	sb_plan_result_free(&res);
	sb_plan_free(&fx.pl);
}

static void optional_skipped(void **state)
{
	(void)state;
	struct fixture fx;
	struct rec r = { .fail = "c", .fail_code = 2 };
	struct sb_plan_result res;
	setup(&fx, "optional");
	assert_int_equal(run(&fx, &r, 1, 0, &res), 0);
	assert_int_equal(r.ncalls, 4);
	assert_true(res.out[2].skipped && !res.out[2].ran);
	assert_true(res.out[3].ran);
	assert_string_equal(r.events[3], "k c0");
	assert_int_equal(res.stopped, 0);
	assert_int_equal(res.tally.skipped, 1);
	assert_string_equal(res.tally.verdict, "PASS");
	sb_plan_result_free(&res);
	sb_plan_free(&fx.pl);
}

static void criterion_fails(void **state)
{
	(void)state;
	struct fixture fx;
	struct rec r = { .media_errors = 2 };
	struct sb_plan_result res;
	setup(&fx, "fails");
	assert_int_equal(run(&fx, &r, 1, 0, &res), 0);
	assert_string_equal(res.tally.verdict, "FAIL");
	assert_int_equal(res.tally.failed, 1);
	assert_int_equal(res.tally.passed, 4);
	sb_plan_result_free(&res);
	sb_plan_free(&fx.pl);
}

static void parallel_targets(void **state)
{
	(void)state;
	struct fixture fx;
	struct rec r = { .fail = "b", .fail_code = 3 };
	struct sb_plan_result res;
	setup(&fx, "parallel");
	/* each target's plan in its own process: b stops both, each its own */
	assert_int_equal(run(&fx, &r, 2, 1, &res), 0);
	assert_int_equal(r.ncalls, 0); /* the children's */
	assert_int_equal(res.stopped, 3);
	assert_true(res.out[0].ran && res.out[4].ran);
	assert_int_equal(res.out[1].stopped, 3);
	assert_int_equal(res.out[5].stopped, 3);
	assert_string_equal(res.out[5].why,
			    "its command ended with exit code 3: cannot use it: made up");
	assert_string_equal(res.targets_tally[0].verdict, "INCOMPLETE");
	assert_int_equal(res.tally.passed, 4); /* the figures read again here */
	assert_int_equal(journal_entries(&fx), 2);
	sb_plan_result_free(&res);
	/* again, b runs: both targets end, the journal has all 8 */
	r.fail = NULL;
	assert_int_equal(run(&fx, &r, 2, 1, &res), 0);
	assert_string_equal(res.tally.verdict, "PASS");
	assert_int_equal(res.tally.passed, 10);
	assert_true(res.out[0].resumed && !res.out[2].resumed);
	assert_int_equal(journal_entries(&fx), 8);
	sb_plan_result_free(&res);
	sb_plan_free(&fx.pl);
}

static void needs_a_runner(void **state)
{
	(void)state;
	struct fixture fx;
	struct sb_plan_result res;
	struct sb_error err;
	setup(&fx, "norunner");
	const struct sb_plan_run_opts o = { &fx.pl, "t.ini", fx.targets, 1, NULL, fx.dir, 1 };
	const struct sb_plan_hooks h = { NULL, fake_step, NULL, NULL, NULL };
	assert_int_equal(sb_plan_run(&o, &h, &res, &err), -EINVAL);
	sb_plan_result_free(&res);
	sb_plan_free(&fx.pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steps_in_order),  cmocka_unit_test(resumes_from_journal),
		cmocka_unit_test(stop_interrupts), cmocka_unit_test(optional_skipped),
		cmocka_unit_test(criterion_fails), cmocka_unit_test(parallel_targets),
		cmocka_unit_test(needs_a_runner),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
