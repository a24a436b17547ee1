/* needs: none */
/*
 * storbench soak as a library call (lib/soak/soak.h), without the
 * program: sb_soak_run on a directory of a temporary tree, its hooks
 * recording what they are told. Three iterations come in order, each
 * writing its own generation, checked whole, the directory's files gone
 * after each; a stop asked during iteration 2 cuts it short and the
 * verdict is interrupted; a resume from the log that run wrote goes on
 * with iteration 3, cut-short iteration 2 not counting, at a generation
 * above any a write of the soak may have used.
 */
#include "tests/lib/sbtest.h"

#include <dirent.h>
#include <stdio.h>

#include "lib/storbench.h"

#define SIZE (256u << 10)
#define BLOCK 4096u

/* What the hooks heard, in order. */
struct rec {
	char events[32][48];
	unsigned n;
	uint64_t iteration[8], generation[8];
	unsigned niter;
	struct sb_soak_begin begin;
	unsigned tracked, errors, warnings;
	/* stop: once iteration stop_after ended, the second poll after it
	 * asks to stop, and every one after it */
	unsigned stop_after, polls, stopped;
};

static void event(struct rec *r, const char *what, uint64_t n)
{
	if (r->n < SB_ARRAY_SIZE(r->events))
		snprintf(r->events[r->n++], sizeof(r->events[0]), "%s %llu", what,
			 (unsigned long long)n);
}

static int stop(void *ctx)
{
	struct rec *r = ctx;
	if (r->stop_after && r->niter == r->stop_after && ++r->polls >= 2)
		r->stopped = 1;
	return r->stopped;
}

static void begin(void *ctx, const struct sb_soak_begin *b)
{
	struct rec *r = ctx;
	r->begin = *b;
	event(r, "begin", b->resumed_after);
}

static void iteration(void *ctx, const struct sb_soak_event *e)
{
	struct rec *r = ctx;
	assert_null(e->ranks);
	assert_null(e->sweep);
	if (r->niter < SB_ARRAY_SIZE(r->iteration)) {
		r->iteration[r->niter] = e->it->n;
		r->generation[r->niter] = e->it->generation;
		r->niter++;
	}
	event(r, "iteration", e->it->n);
}

static void track(void *ctx, const char *path, int fd, int on)
{
	struct rec *r = ctx;
	(void)fd;
	assert_non_null(strstr(path, "/d/.storbench-verify-"));
	r->tracked += !!on;
}

static void error(void *ctx, const char *msg)
{
	struct rec *r = ctx;
	print_message("error: %s\n", msg);
	r->errors++;
}

static void warn(void *ctx, const char *msg)
{
	struct rec *r = ctx;
	(void)msg;
	r->warnings++;
}

static struct sb_soak_hooks hooks(struct rec *r)
{
	memset(r, 0, sizeof(*r));
	return (struct sb_soak_hooks){
		.ctx = r,
		.stop = stop,
		.begin = begin,
		.iteration = iteration,
		.track = track,
		.warn = warn,
		.error = error,
	};
}

/* The soak's target: a directory, resolved as the program resolves it. */
struct target {
	struct sb_target_info info;
	struct sb_vtarget vt;
	struct sb_vtarget_opts vo;
	char *argv[4];
	struct sb_soak_opts o;
};

static void target(struct target *t, const char *log)
{
	char msg[8448];
	const char *dir = sbt_path("d");
	memset(t, 0, sizeof(*t));
	sbt_mkdirs(dir);
	assert_int_equal(sb_target_probe(dir, &t->info), 0);
	t->vo = (struct sb_vtarget_opts){
		.phase = SB_VPHASE_BOTH,
		.size = SIZE,
		.block_size = BLOCK,
		.block_size_given = 1,
		.seed = 77,
		.seed_given = 1,
		.direct = 0,
	};
	if (sb_vtarget_resolve(&t->vt, dir, &t->info, &t->vo, msg, sizeof(msg)))
		fail_msg("%s", msg);
	t->argv[0] = "soak";
	t->argv[1] = "--iterations=3";
	t->argv[2] = (char *)dir;
	t->o = (struct sb_soak_opts){
		.info = &t->info,
		.vt = &t->vt,
		.vto = t->vo,
		.ops = sb_engine_find("psync"),
		.block_size = BLOCK,
		.request_size = 64 << 10,
		.iodepth = 1,
		.target = dir,
		.seed = 77,
		.iterations = 3,
		.log = log,
		.argc = 3,
		.argv = t->argv,
		.prog = "storbench",
	};
	assert_non_null(t->o.ops);
}

/* The directory holds no file: the iterations removed theirs. */
static void empty_dir(void)
{
	DIR *d = opendir(sbt_path("d"));
	struct dirent *e;
	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			fail_msg("'%s' left in the directory", e->d_name);
	closedir(d);
}

/* The log as --resume and the report read it: every line checked. */
static void log_reads(const char *log, size_t nit)
{
	struct sb_soak_log l;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *f = fopen(log, "r");
	assert_non_null(f);
	assert_int_not_equal(getdelim(&buf, &cap, '\0', f), -1);
	len = strlen(buf);
	fclose(f);
	assert_int_equal(sb_soak_log_parse(buf, len, &l), 0);
	assert_int_equal(l.nit, nit);
	assert_int_equal(l.good, len);
	sb_soak_log_free(&l);
	free(buf);
}

static void test_three_iterations(void **state)
{
	(void)state;
	struct target t;
	struct rec r;
	struct sb_soak_result res;
	struct sb_error err;
	const char *log = sbt_path("three.jsonl");
	const struct sb_soak_hooks h = hooks(&r);
	target(&t, log);
	assert_int_equal(sb_soak_run(&t.o, &h, NULL, &res, &err), 0);
	/* the events in order */
	const char *want[] = { "begin 0", "iteration 1", "iteration 2", "iteration 3" };
	assert_int_equal(r.n, SB_ARRAY_SIZE(want));
	for (unsigned i = 0; i < r.n; i++)
		assert_string_equal(r.events[i], want[i]);
	assert_true(r.begin.kmsg_watched == 0 || r.begin.kmsg_watched == 1);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.tracked, 3); /* one file an iteration */
	/* the result holds what the run did */
	assert_true(res.ran);
	assert_int_equal(res.nit, 3);
	for (unsigned i = 0; i < 3; i++) {
		const struct sb_soak_iter *it = &res.it[i];
		assert_int_equal(it->n, i + 1);
		assert_int_equal(it->generation, i + 1);
		assert_int_equal(r.generation[i], i + 1);
		assert_int_equal(it->blocks, SIZE / BLOCK);
		assert_int_equal(it->count[SB_VERIFY_INTACT], SIZE / BLOCK);
		assert_int_equal(sb_soak_iter_bad(it), 0);
		assert_int_equal(it->interrupted, 0);
		assert_true(it->write_bw > 0 && it->read_bw > 0);
	}
	assert_int_equal(res.sum.iterations, 3);
	assert_int_equal(res.sum.verdict, SB_SOAK_PASS);
	assert_int_equal(res.end, SB_SOAK_END_PASS);
	assert_string_equal(res.log, log);
	empty_dir();
	log_reads(log, 3);
	sb_soak_result_free(&res);
	sb_vtarget_free(&t.vt);
}

/* A stop during iteration 2; then a resume of its log. */
static void test_stop_and_resume(void **state)
{
	(void)state;
	struct target t;
	struct rec r;
	struct sb_soak_result res;
	struct sb_soak_resume *rs = NULL;
	struct sb_error err;
	const char *log = sbt_path("stopped.jsonl");
	struct sb_soak_hooks h = hooks(&r);
	r.stop_after = 1;
	target(&t, log);
	assert_int_equal(sb_soak_run(&t.o, &h, NULL, &res, &err), 0);
	assert_true(r.stopped);
	assert_int_equal(r.niter, 2);
	assert_int_equal(res.nit, 2);
	assert_int_equal(res.it[0].interrupted, 0);
	assert_int_equal(res.it[1].interrupted, 1); /* cut short */
	assert_int_equal(res.sum.verdict, SB_SOAK_INTERRUPTED);
	assert_int_equal(res.sum.stopped, SB_SOAK_INTERRUPTED);
	assert_non_null(strstr(res.sum.reason, "in iteration 2 (1 of 3 whole)"));
	assert_non_null(strstr(res.sum.resume, "storbench soak --resume="));
	assert_int_equal(res.end, SB_SOAK_END_STOPPED);
	empty_dir();
	log_reads(log, 2);
	sb_soak_result_free(&res);
	sb_vtarget_free(&t.vt);

	/* the resume: its options as given, iteration 3 next (2 was cut
	 * short: 3 whole ones take 4), above generation 3 (iteration 3 may
	 * have written it before a kill) */
	h = hooks(&r);
	assert_int_equal(sb_soak_resume(log, &h, NULL, &rs, &err), 0);
	assert_int_equal(rs->argc, 3);
	assert_string_equal(rs->argv[1], "--iterations=3");
	assert_int_equal(rs->seed, 77);
	target(&t, log);
	t.o.resume = rs;
	assert_int_equal(sb_soak_run(&t.o, &h, NULL, &res, &err), 0);
	assert_int_equal(r.begin.resumed_after, 2);
	assert_int_equal(r.begin.cut_short, 1);
	assert_null(r.begin.stop_change);
	assert_int_equal(r.niter, 2);
	assert_int_equal(r.iteration[0], 3);
	assert_int_equal(r.iteration[1], 4);
	assert_int_equal(r.generation[0], 4);
	assert_int_equal(r.generation[1], 5);
	assert_int_equal(res.nit, 4);
	for (unsigned i = 0; i < 2; i++)
		assert_true(res.it[i + 2].generation > res.it[1].generation + 1);
	assert_int_equal(res.it[2].count[SB_VERIFY_INTACT], SIZE / BLOCK);
	assert_int_equal(res.sum.cut_short, 1);
	assert_int_equal(res.sum.verdict, SB_SOAK_PASS);
	assert_int_equal(res.end, SB_SOAK_END_PASS);
	assert_int_equal(r.errors, 0);
	empty_dir();
	log_reads(log, 4);
	sb_soak_result_free(&res);
	sb_soak_resume_free(rs);
	sb_vtarget_free(&t.vt);
}

/* What only the library can judge is refused by err, nothing written. */
static void test_refused(void **state)
{
	(void)state;
	struct target t;
	struct rec r;
	struct sb_soak_result res;
	struct sb_error err;
	const char *log = sbt_path("three.jsonl");
	const struct sb_soak_hooks h = hooks(&r);
	FILE *f = fopen(log, "a");
	assert_non_null(f);
	fclose(f);
	target(&t, log);
	assert_int_equal(sb_soak_run(&t.o, &h, NULL, &res, &err), -EEXIST);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	assert_non_null(strstr(err.msg, "exists"));
	assert_int_equal(r.errors, 1); /* told as it happened too */
	assert_false(res.ran);
	assert_int_equal(r.n, 0);
	sb_soak_result_free(&res);
	sb_vtarget_free(&t.vt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_iterations),
		cmocka_unit_test(test_stop_and_resume),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
