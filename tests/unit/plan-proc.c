/* needs: none */
/*
 * What the program needs to run a plan's step as a process
 * (lib/plan/plan_proc.c): the relay gives on every byte a step writes
 * to a pipe as it comes and keeps its last line that was not empty
 * (across reads, a '\r' ending one, none longer than its buffer); lines
 * are cut for a prefix at '\n', '\r' and a piece's end, a line begun in
 * one piece going on in the next; a step's command line carries
 * --quiet, the labels, --destroy-data and the target as asked, and a
 * soak whose log is there is resumed with only its stop; a wait status
 * is a step's exit code; a signal is passed on to every child; the
 * targets and the plan's directory are made absolute (a name that does
 * not exist yet kept), what cannot be used refused with its path.
 */
#include "tests/lib/sbtest.h"
#include "lib/plan/plan_proc.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

struct got {
	char all[8192];
	size_t n, calls;
};

static void take(void *ctx, const char *buf, size_t n)
{
	struct got *g = ctx;
	memcpy(g->all + g->n, buf, n);
	g->n += n;
	g->all[g->n] = 0;
	g->calls++;
}

/* what a child writes to the pipe, relayed: the last line into last */
static void relay(const char *const *writes, size_t nw, struct got *g, char *last, size_t len)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	const pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		for (size_t i = 0; i < nw; i++) {
			if (write(p[1], writes[i], strlen(writes[i])) < 0)
				_exit(1);
			usleep(2000);
		}
		_exit(0);
	}
	close(p[1]);
	memset(g, 0, sizeof(*g));
	assert_int_equal(sb_plan_relay(p[0], take, g, last, len), 0);
	close(p[0]);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
}

static void test_relay(void **state)
{
	(void)state;
	struct got g;
	char last[64];
	const char *const w1[] = { "storbench: one\nsto", "rbench: cannot run", "\n\n" };
	relay(w1, 3, &g, last, sizeof(last));
	assert_string_equal(g.all, "storbench: one\nstorbench: cannot run\n\n");
	assert_string_equal(last, "storbench: cannot run");
	const char *const w2[] = { "done\n", "progress 10%\rprogress 20%" };
	relay(w2, 2, &g, last, sizeof(last));
	assert_string_equal(last, "progress 20%");
	relay(w2, 0, &g, last, sizeof(last));
	assert_string_equal(last, "");
	assert_int_equal(g.calls, 0);
	static char longline[3000];
	memset(longline, 'x', sizeof(longline) - 1);
	const char *const w3[] = { longline };
	relay(w3, 1, &g, last, sizeof(last));
	assert_int_equal(g.n, sizeof(longline) - 1);
	assert_int_equal(strlen(last), sizeof(last) - 1);
}

static void piece(void *ctx, const char *p, size_t n, int starts)
{
	struct got *g = ctx;
	g->n += (size_t)snprintf(g->all + g->n, sizeof(g->all) - g->n, "%s%.*s|",
				 starts ? "T: " : "", (int)n, p);
}

static void test_cut(void **state)
{
	(void)state;
	struct got g = { .n = 0 };
	int mid = 0;
	sb_plan_lines_cut(&mid, "a\nb", 3, piece, &g);
	assert_true(mid);
	sb_plan_lines_cut(&mid, "c\r50%\n", 6, piece, &g);
	assert_false(mid);
	sb_plan_lines_cut(&mid, "d\n", 2, piece, &g);
	assert_string_equal(g.all, "T: a\n|T: b|c\r|T: 50%\n|T: d\n|");
}

static const char plan_text[] = "[global]\nname = t\nlabel = lab=one\n"
				"[v]\nrun = verify --size=1M --seed=3\n"
				"[s]\nrun = soak --iterations=5 --size=1M\n";

static size_t argv_len(char **a)
{
	size_t n = 0;
	while (a[n])
		n++;
	return n;
}

static void test_argv(void **state)
{
	(void)state;
	struct sb_plan pl;
	struct sb_error err;
	struct sb_plan_argv a;
	char result[PATH_MAX];
	assert_int_equal(sb_plan_parse(plan_text, strlen(plan_text), "t.ini", &pl, &err), 0);
	struct sb_plan_call c = { &pl.steps[0], 0, "/mnt/x", "/p/v.json", "/p/v.txt" };
	const struct sb_plan_argv_opts all = { 1, 1, 1 }, none = { 0, 0, 0 };
	assert_int_equal(sb_plan_step_argv(&pl, &c, &all, &a), 0);
	const char *want[] = { "storbench",	 "verify",  "--quiet",	 "--output=/p/v.json",
			       "--label",	 "lab=one", "--size=1M", "--seed=3",
			       "--destroy-data", "/mnt/x" };
	assert_int_equal(argv_len(a.argv), SB_ARRAY_SIZE(want));
	for (size_t i = 0; i < SB_ARRAY_SIZE(want); i++)
		assert_string_equal(a.argv[i], want[i]);
	sb_plan_argv_free(&a);
	assert_int_equal(sb_plan_step_argv(&pl, &c, &none, &a), 0);
	assert_int_equal(argv_len(a.argv), 6);
	sb_plan_argv_free(&a);

	/* a soak: its log named; once the log is there, resumed */
	snprintf(result, sizeof(result), "%s", sbt_path("s.json"));
	c = (struct sb_plan_call){ &pl.steps[1], 0, "/mnt/x", result, "/p/s.txt" };
	assert_int_equal(sb_plan_step_argv(&pl, &c, &all, &a), 0);
	assert_int_equal(a.resume, 0);
	assert_non_null(strstr(a.argv[6], "--log="));
	assert_non_null(strstr(a.argv[6], "s.jsonl"));
	sb_plan_argv_free(&a);
	FILE *f = fopen(sbt_path("s.jsonl"), "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(sb_plan_step_argv(&pl, &c, &all, &a), 0);
	assert_int_equal(a.resume, 1);
	const char *want2[] = { "storbench", "soak",	"--quiet", a.outopt,
				"--label",   "lab=one", a.logopt,  "--iterations=5" };
	assert_non_null(strstr(a.logopt, "--resume="));
	assert_int_equal(argv_len(a.argv), SB_ARRAY_SIZE(want2));
	for (size_t i = 0; i < SB_ARRAY_SIZE(want2); i++)
		assert_string_equal(a.argv[i], want2[i]);
	sb_plan_argv_free(&a);
	sb_plan_free(&pl);
}

/* the targets and the plan's directory made absolute; what cannot be
 * used refused with its path */
static void test_where(void **state)
{
	(void)state;
	static const char text[] = "[global]\nname = w\n[a]\nrun = verify --size=1M\n"
				   "[b]\nrun = verify --size=1M\ntarget = ./own\n";
	struct sb_plan pl;
	struct sb_error err;
	char real[PATH_MAX], want[PATH_MAX + 64], targets[2][PATH_MAX + 256],
		steps[4][PATH_MAX + 256], dir[PATH_MAX];
	assert_int_equal(sb_plan_parse(text, strlen(text), "w.ini", &pl, &err), 0);
	assert_non_null(realpath(sbt_tmpdir(), real));
	assert_int_equal(chdir(sbt_tmpdir()), 0);
	sbt_mkdirs(sbt_path("t1"));
	sbt_mkdirs(sbt_path("own"));
	const char *given[] = { "t1", "./t2" }; /* t2 does not exist yet: a new file */
	assert_int_equal(sb_plan_targets(&pl, given, 2, 0, targets, steps, &err), 0);
	snprintf(want, sizeof(want), "%s/t2", real);
	assert_string_equal(targets[1], want);
	assert_string_equal(steps[2], want); /* [1][a]: its target's */
	snprintf(want, sizeof(want), "%s/own", real);
	assert_string_equal(steps[1], want); /* [0][b]: its own */
	assert_string_equal(steps[3], want);
	const char *missing[] = { "nodir/x" };
	assert_int_equal(sb_plan_targets(&pl, missing, 1, 0, targets, steps, &err), -ENOENT);
	assert_string_equal(err.msg, "cannot use 'nodir/x': No such file or directory");
	assert_int_equal(err.cls, SB_ERR_ENV);

	assert_int_equal(sb_plan_dir_make("w.ini", &pl, NULL, dir, sizeof(dir), &err), 0);
	snprintf(want, sizeof(want), "%s/w-plan", real);
	assert_string_equal(dir, want);
	assert_int_equal(sb_plan_dir_make("w.ini", &pl, NULL, dir, sizeof(dir), &err), 0);
	assert_int_equal(sb_plan_dir_make("w.ini", &pl, "nodir/d", dir, sizeof(dir), &err),
			 -ENOENT);
	assert_string_equal(err.msg,
			    "cannot make the plan's directory 'nodir/d': No such file or directory");
	sb_plan_free(&pl);
}

static void test_status_and_signal(void **state)
{
	(void)state;
	int st;
	pid_t pid = fork();
	if (pid == 0)
		_exit(1);
	waitpid(pid, &st, 0);
	assert_int_equal(sb_plan_step_status(st), 1);
	if ((pid = fork()) == 0)
		_exit(127);
	waitpid(pid, &st, 0);
	assert_int_equal(sb_plan_step_status(st), -ENOEXEC);

	/* a signal passed on to the step and a target's process */
	pid_t kids[2];
	for (int i = 0; i < 2; i++)
		if ((kids[i] = fork()) == 0) {
			pause();
			_exit(0);
		}
	struct sb_plan_children c = { 0, 0, &kids[1], 1 };
	c.step = kids[0];
	sb_plan_children_signal(&c, SIGTERM);
	assert_int_equal(c.signal, SIGTERM);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(waitpid(kids[i], &st, 0), kids[i]);
		assert_int_equal(sb_plan_step_status(st), 128 + SIGTERM);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relay),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_argv),
		cmocka_unit_test(test_where),
		cmocka_unit_test(test_status_and_signal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
