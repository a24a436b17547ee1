/* needs: none */
/*
 * The plan reader: the fuzz target (tests/fuzz/fuzz-plan.c) without
 * libFuzzer over its corpus, every prefix and byte substitutions; values
 * read in their figures' units; the nearest names of an unknown figure;
 * criteria judged; the journal written whole and read back.
 */
#include "tests/lib/sbtest.h"
#include "tests/fuzz/fuzz-plan.c"

#include <math.h>
#include <unistd.h>

static void test_corpus(void **state)
{
	(void)state;
	static const uint8_t subst[] = {
		' ', '\n', '=', '[', ']', '<', '>', '!', '"', '#', 0, 0xff
	};
	unsigned files = sbt_fuzz_corpus(LLVMFuzzerTestOneInput, "plan", subst, sizeof(subst));
	assert_true(files >= 4);
}

static const char known[] =
	"[global]\nname = k\n"
	"[q]\nrun = quick  --size='64 M' \"--repeat=5\"\n"
	"expect = SEQ1M-Q8T1.write.bw >= 40MiB/s\n"
	"expect=RND4K-Q1T1.read.iops>2k\n"
	"expect = RND4K-Q1T1.read.lat_p99 < 5ms\n"
	"[s]\nrun = soak\nexpect = write.bw.cv <= 10%\nexpect = status != fail\n";

static void test_values(void **state)
{
	struct sb_plan p;
	struct sb_error err;
	(void)state;
	assert_int_equal(sb_plan_parse(known, sizeof(known) - 1, "k.ini", &p, &err), 0);
	assert_string_equal(p.name, "k");
	assert_int_equal(p.nsteps, 2);
	const struct sb_plan_step *q = &p.steps[0], *s = &p.steps[1];
	assert_int_equal(q->argc, 3);
	assert_string_equal(q->argv[1], "--size=64 M");
	assert_string_equal(q->argv[2], "--repeat=5");
	/* status == pass implied first, then the three as written */
	assert_int_equal(q->nex, 4);
	assert_string_equal(q->ex[0].figure, "status");
	assert_int_equal(q->ex[0].line, 0);
	assert_true(q->ex[1].value == 40.0 * 1048576 && q->ex[1].op == SB_PLAN_GE);
	assert_int_equal(q->ex[1].line, 5);
	assert_true(q->ex[2].value == 2000 && q->ex[2].op == SB_PLAN_GT);
	assert_true(q->ex[3].value == 5e6 && q->ex[3].op == SB_PLAN_LT);
	assert_string_equal(q->ex[3].text, "5ms");
	/* a step naming status gets no other */
	assert_int_equal(s->nex, 2);
	assert_true(fabs(s->ex[0].value - 0.1) < 1e-12);
	assert_string_equal(s->ex[1].word, "fail");

	struct sb_figures f = { 0 };
	struct sb_plan_judged j;
	assert_int_equal(sb_figures_set_status(&f, 1), 0);
	sb_plan_judge(&s->ex[1], &f, &j);
	assert_true(j.found && !j.pass); /* status is fail: != fail fails */
	sb_plan_judge(&s->ex[0], &f, &j);
	assert_true(!j.found && !j.pass); /* missing: fails */
	sb_figures_free(&f);
	sb_plan_free(&p);
}

static void test_nearest(void **state)
{
	char near[3][SB_FIGURE_NAME];
	(void)state;
	size_t n = sb_figure_nearest("quick", "RND4K-Q1T1.read.iop", near, 3);
	assert_int_equal(n, 3);
	assert_string_equal(near[0], "RND4K-Q1T1.read.iops");
	n = sb_figure_nearest("soak", "failed_iteration", near, 1);
	assert_int_equal(n, 1);
	assert_string_equal(near[0], "failed_iterations");
	assert_non_null(sb_figure_def_of("run", "a.b.c.read.lat_p99"));
	assert_null(sb_figure_def_of("run", ".read.iops"));
	assert_null(sb_figure_def_of("quick", "RND4K Q1T1.read.iops"));
	assert_non_null(sb_figure_def_of("quick", "RND4K-Q32T16.write.iops_min"));
}

static void test_journal(void **state)
{
	char dir[] = "/tmp/sb-plan-journal.XXXXXX", path[64];
	struct sb_plan_journal j;
	struct sb_error err;
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/journal.json", dir);
	assert_int_equal(sb_plan_journal_read(path, &j, &err), 0); /* none: empty */
	assert_int_equal(j.n, 0);
	struct sb_plan_done a = { "/dev/x \"q\"", "one", "quick --size=1G", "/r/one.json", 0 };
	struct sb_plan_done b = { "/dev/x \"q\"", "two", "verify", "/r/two.json", 1 };
	assert_int_equal(sb_plan_journal_add(path, &j, &a, &err), 0);
	assert_int_equal(sb_plan_journal_add(path, &j, &b, &err), 0);
	sb_plan_journal_free(&j);
	assert_int_equal(sb_plan_journal_read(path, &j, &err), 0);
	assert_int_equal(j.n, 2);
	const struct sb_plan_done *d = sb_plan_journal_find(&j, "/dev/x \"q\"", "two", "verify");
	assert_non_null(d);
	assert_int_equal(d->status, 1);
	assert_string_equal(d->result, "/r/two.json");
	assert_null(sb_plan_journal_find(&j, "/dev/x \"q\"", "two", "verify --size=1M"));
	sb_plan_journal_free(&j);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"storbench_plan_journal\": 1, \"steps\": [{\"step\": \"x\"}]}", f);
	fclose(f);
	assert_int_equal(sb_plan_journal_read(path, &j, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "steps[0]: expected target"));
	sb_plan_journal_free(&j);
	unlink(path);
	rmdir(dir);
}

/* spo --check's figures from a result of the corpus (its section read by
 * sb_spo_read): 46 acknowledged blocks lost, a fail. */
static void test_spo_figures(void **state)
{
	char path[4096], *text = NULL;
	const char *top = getenv("SB_TOP");
	(void)state;
	snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/sections/spo.json", top ? top : ".");
	FILE *f = fopen(path, "r");
	if (!f)
		skip();
	size_t cap = 1 << 20, n;
	text = malloc(cap);
	assert_non_null(text);
	static const char head[] = "{\"storbench\":{\"command\":\"spo\",",
			  was[] = "{\"storbench\":{";
	const size_t hl = sizeof(head) - 1, wl = sizeof(was) - 1;
	memcpy(text, head, hl);
	n = fread(text + hl, 1, cap - hl - 1, f);
	fclose(f);
	assert_true(n > wl && !memcmp(text + hl, was, wl));
	memmove(text + hl, text + hl + wl, n - wl);
	n = hl + n - wl;
	struct sb_jdoc *doc;
	struct sb_figures fs = { 0 };
	struct sb_error err;
	assert_int_equal(sb_json_parse(text, n, NULL, &doc, NULL), 0);
	assert_int_equal(sb_figures_read(sb_jdoc_root(doc), &fs, &err), 0);
	assert_string_equal(fs.command, "spo");
	assert_non_null(sb_figures_find(&fs, "lost_acked"));
	assert_true(sb_figures_find(&fs, "lost_acked")->value == 46);
	assert_true(sb_figures_find(&fs, "ok")->value == 16);
	assert_string_equal(sb_figures_find(&fs, "result")->word, "fail");
	assert_true(sb_figures_find(&fs, "blocks")->value == 62);
	sb_figures_free(&fs);
	sb_jdoc_free(doc);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),	cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_journal), cmocka_unit_test(test_spo_figures),
		cmocka_unit_test(test_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
