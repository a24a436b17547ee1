/* needs: none */
/*
 * A plan judged before it runs, without the program (lib/plan's
 * sb_plan_check): a step's command must be in the program's table, its
 * words may not name the result (-o, --output) or ask for help; its
 * options go to the command's parser (here a hook that records what it
 * is given) with --destroy-data only for a command that takes it and the
 * check's target last; what the parser says becomes the refusal
 * (FILE:LINE: [STEP] run: ...), by its first line, without the program's
 * name; a parser that could not be asked is the environment's. The
 * program's --db and --label given to the plan. A step against its
 * target: a command that makes no file on a path not there, a region past
 * a file's end, a new file larger than the free space. The plan's
 * directory's name.
 */
#include "tests/lib/sbtest.h"

#include "lib/storbench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sb_plan_command table[] = {
	{ "quick", 1 },
	{ "verify", 1 },
	{ "info", 0 },
	{ NULL, 0 },
};

struct seen {
	int calls;
	char argv[8][128];
	int argc;
	int answer; /* what parse returns */
	const char *said;
};

static int parse(void *ctx, const struct sb_plan_command *cmd, int argc, char **argv, char *said,
		 size_t len)
{
	struct seen *s = ctx;
	(void)cmd;
	s->calls++;
	s->argc = argc;
	for (int i = 0; i < argc && i < 8; i++)
		snprintf(s->argv[i], sizeof(s->argv[i]), "%s", argv[i]);
	assert_null(argv[argc]);
	snprintf(said, len, "%s", s->said ? s->said : "");
	return s->answer;
}

static int check(const char *text, int destroy, struct seen *s, struct sb_error *err)
{
	struct sb_plan pl;
	const struct sb_plan_check_hooks h = { s, parse };
	assert_int_equal(sb_plan_parse(text, strlen(text), "p.ini", &pl, err), 0);
	int e = sb_plan_check(&pl, "p.ini", table, destroy, &h, err);
	sb_plan_free(&pl);
	return e;
}

static void test_accepted(void **state)
{
	struct seen s = { 0 };
	struct sb_error err;
	(void)state;
	assert_int_equal(check("[a]\nrun = quick --size=8M\n[b]\nrun = info\n", 1, &s, &err), 0);
	assert_int_equal(s.calls, 2);
	/* the last step's words: info takes no --destroy-data */
	assert_int_equal(s.argc, 2);
	assert_string_equal(s.argv[0], "info");
	assert_string_equal(s.argv[1], SB_PLAN_CHECK_TARGET);
	memset(&s, 0, sizeof(s));
	assert_int_equal(check("[a]\nrun = quick --size=8M\n", 1, &s, &err), 0);
	assert_int_equal(s.argc, 4);
	assert_string_equal(s.argv[1], "--size=8M");
	assert_string_equal(s.argv[2], "--destroy-data");
	assert_string_equal(s.argv[3], SB_PLAN_CHECK_TARGET);
	memset(&s, 0, sizeof(s));
	assert_int_equal(check("[a]\nrun = quick --size=8M\n", 0, &s, &err), 0);
	assert_int_equal(s.argc, 3); /* no --destroy-data without the plan's */
}

static void refused(const char *text, int answer, const char *said, int want, enum sb_errclass cls,
		    const char *msg, int calls)
{
	struct seen s = { .answer = answer, .said = said };
	struct sb_error err;
	assert_int_equal(check(text, 0, &s, &err), want);
	assert_int_equal(err.cls, cls);
	assert_string_equal(err.msg, msg);
	assert_int_equal(s.calls, calls);
}

static void test_refused(void **state)
{
	(void)state;
	refused("[a]\nrun = frob --size=4M\n", 0, NULL, -EINVAL, SB_ERR_INPUT,
		"p.ini:2: [a] run: 'frob' is not a command a step runs (quick, verify, info)", 0);
	refused("[a]\nrun = quick -o x.json\n", 0, NULL, -EINVAL, SB_ERR_INPUT,
		"p.ini:2: [a] run: -o: the plan names each step's result (in its directory, "
		"--dir)",
		0);
	refused("[a]\nrun = quick --output=x.json\n", 0, NULL, -EINVAL, SB_ERR_INPUT,
		"p.ini:2: [a] run: --output=x.json: the plan names each step's result (in its "
		"directory, --dir)",
		0);
	refused("[a]\nrun = info\n[b]\nrun = verify --help\n", 0, NULL, -EINVAL, SB_ERR_INPUT,
		"p.ini:4: [b] run: --help: a step runs its command", 1);
	refused("[a]\nrun = verify --sise=4M\n", 2,
		"storbench: unknown option '--sise=4M'\nsecond line\n", -EINVAL, SB_ERR_INPUT,
		"p.ini:2: [a] run: unknown option '--sise=4M'", 1);
	refused("[a]\nrun = verify --size=4M /tmp\n", 2,
		"storbench: unexpected argument '" SB_PLAN_CHECK_TARGET "'\n", -EINVAL,
		SB_ERR_INPUT,
		"p.ini:2: [a] run: verify --size=4M /tmp: run= is a command without its target "
		"(name the target with target= or after the plan's file)",
		1);
	refused("[a]\nrun = verify\n", SB_PLAN_UNCHECKED, "", -EINVAL, SB_ERR_INPUT,
		"p.ini:2: [a] run: verify: its options could not be checked", 1);
	refused("[a]\nrun = verify\n", 134, "", -EINVAL, SB_ERR_INPUT,
		"p.ini:2: [a] run: its options are refused", 1);
	refused("[a]\nrun = verify\n", -EMFILE, "", -EMFILE, SB_ERR_ENV,
		"cannot check the steps: Too many open files", 1);
}

static void test_step_has(void **state)
{
	struct sb_plan pl;
	struct sb_error err;
	static const char text[] = "[s]\nrun = soak --log=x.jsonl --resume --iterations 3\n";
	(void)state;
	assert_int_equal(sb_plan_parse(text, sizeof(text) - 1, "p.ini", &pl, &err), 0);
	assert_true(sb_plan_step_has(&pl.steps[0], "--log"));
	assert_true(sb_plan_step_has(&pl.steps[0], "--resume"));
	assert_true(sb_plan_step_has(&pl.steps[0], "--iterations"));
	assert_false(sb_plan_step_has(&pl.steps[0], "--lo"));
	assert_false(sb_plan_step_has(&pl.steps[0], "soak"));
	assert_non_null(sb_plan_command_find(table, "info"));
	assert_null(sb_plan_command_find(table, "soak"));
	sb_plan_free(&pl);
}

static void test_given_history(void **state)
{
	struct sb_plan pl;
	struct sb_error err;
	static const char text[] = "[global]\ndb = a.db\nlabel = fw=1\n[s]\nrun = info\n";
	const char *labels[] = { "host=x", "run=2" };
	(void)state;
	assert_int_equal(sb_plan_parse(text, sizeof(text) - 1, "p.ini", &pl, &err), 0);
	assert_int_equal(sb_plan_given_history(&pl, NULL, NULL, 0), 0);
	assert_string_equal(pl.db, "a.db");
	assert_int_equal(pl.nlabels, 1);
	assert_int_equal(sb_plan_given_history(&pl, "b.db", labels, 2), 0);
	assert_string_equal(pl.db, "b.db");
	assert_int_equal(pl.nlabels, 3);
	assert_string_equal(pl.labels[0], "fw=1");
	assert_string_equal(pl.labels[1], "host=x");
	assert_string_equal(pl.labels[2], "run=2");
	sb_plan_free(&pl);
}

static int on_target(const char *run, const char *path, struct sb_error *err)
{
	struct sb_plan pl;
	char text[256];
	snprintf(text, sizeof(text), "[s]\nrun = %s\n", run);
	assert_int_equal(sb_plan_parse(text, strlen(text), "p.ini", &pl, err), 0);
	int e = sb_plan_check_target(&pl.steps[0], path, 0, err);
	sb_plan_free(&pl);
	return e;
}

static void test_target(void **state)
{
	struct sb_error err;
	char want[512];
	(void)state;
	const char *dir = sbt_tmpdir(), *file = sbt_path("small.bin"), *none = sbt_path("none");
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(want, 1, 100, f), 100);
	fclose(f);
	assert_int_equal(on_target("quick --size=4M", dir, &err), 0);
	assert_int_equal(on_target("verify --size=100", file, &err), 0);
	assert_int_equal(on_target("info", none, &err), -ENOENT);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	snprintf(want, sizeof(want),
		 "[s] on '%s': cannot use it: No such file or directory (info makes no file: "
		 "name an existing one)",
		 none);
	assert_string_equal(err.msg, want);
	assert_int_equal(on_target("verify --size=4M", file, &err), -EINVAL);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	snprintf(want, sizeof(want),
		 "[s] on '%s': --size: 4.00 MiB from offset 0 B goes past the end of the file "
		 "(100 B)",
		 file);
	assert_string_equal(err.msg, want);
	assert_int_equal(on_target("quick --size=1P", dir, &err), -ENOSPC);
	assert_int_equal(err.cls, SB_ERR_ENV);
	assert_non_null(strstr(err.msg, "its file of 1.00 PiB does not fit: the filesystem has"));
}

static void test_dir_name(void **state)
{
	struct sb_plan pl;
	struct sb_error err;
	char out[64];
	static const char named[] = "[global]\nname = my plan/2\n[s]\nrun = info\n";
	static const char plain[] = "[s]\nrun = info\n";
	(void)state;
	assert_int_equal(sb_plan_parse(named, sizeof(named) - 1, "x.ini", &pl, &err), 0);
	sb_plan_dir_name("/a/x.ini", &pl, out, sizeof(out));
	assert_string_equal(out, "my_plan_2");
	sb_plan_free(&pl);
	assert_int_equal(sb_plan_parse(plain, sizeof(plain) - 1, "x.ini", &pl, &err), 0);
	sb_plan_dir_name("/a/b/qualify.v2.ini", &pl, out, sizeof(out));
	assert_string_equal(out, "qualify.v2");
	sb_plan_dir_name(".hidden", &pl, out, sizeof(out));
	assert_string_equal(out, ".hidden");
	sb_plan_free(&pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted), cmocka_unit_test(test_refused),
		cmocka_unit_test(test_step_has), cmocka_unit_test(test_given_history),
		cmocka_unit_test(test_target),	 cmocka_unit_test(test_dir_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
