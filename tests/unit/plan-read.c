/* needs: none */
/*
 * A plan's result read back (lib/plan/plan_read.c): a doc written by
 * lib/plan's writer and read again is the same, field by field; bad
 * documents (a wrong type, a negative count, a missing key, an unknown
 * word) are refused by their key path.
 */
#include "tests/lib/sbtest.h"

#include "lib/json/json_read.h"
#include "lib/json/json_write.h"
#include "lib/plan/plan.h"

static struct sb_plan_doc_crit crit_a[] = {
	{ "status", "word", "==", 0, "pass", 0, 1, 0, "pass", "pass" },
	{ "RND4K-Q1T1.read.iops", "IOPS", ">=", 2000, NULL, 8, 1, 29012.5, NULL, "pass" },
	{ "SEQ1M-Q8T1.write.bw", "B/s", ">=", 41943040, NULL, 9, 0, 0, NULL, "fail" },
};
static struct sb_plan_doc_crit crit_b[] = {
	{ "damaged_blocks", "-", "==", 0, NULL, 13, 0, 0, NULL, "not run" },
};
static const char *labels[] = { "firmware=1.2b", "board=\"rk\"" };
static struct sb_plan_doc_step steps[] = {
	{ "speed", "quick --repeat=3", "/mnt/a", "done", "/p/speed.json", NULL, crit_a, 3 },
	{ "integrity", "verify", "/mnt/a", "could not run", NULL, "exit code 3", crit_b, 1 },
	{ "none", "info", "/mnt/a", "never ran", NULL, NULL, NULL, 0 },
};
static struct sb_plan_doc_target targets[] = {
	{ "/mnt/a", { 2, 1, 0, 1, "INCOMPLETE" } }, /* counts unlike the plan's */
};
static const struct sb_plan_doc doc = {
	.version = "0.1.0",
	.file = "q.ini",
	.name = "qualify",
	.tally = { .passed = 2, .failed = 1, .not_run = 1, .verdict = "INCOMPLETE" },
	.stopped = "exit code 3",
	.directory = "/p",
	.labels = labels,
	.nlabels = 2,
	.targets = targets,
	.ntargets = 1,
	.steps = steps,
	.nsteps = 3,
};

static char *written(const struct sb_plan_doc *d, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct sb_json j;
	assert_non_null(f);
	sb_json_begin(&j, f, 0);
	sb_plan_doc_write(&j, d);
	assert_int_equal(sb_json_end(&j), 0);
	fclose(f);
	return buf;
}

static void same_str(const char *a, const char *b)
{
	if (!a || !b)
		assert_true(a == b);
	else
		assert_string_equal(a, b);
}

/* One tally as written, field by field. */
static void same_tally(const struct sb_plan_tally *a, const struct sb_plan_tally *b)
{
	same_str(a->verdict, b->verdict);
	assert_int_equal(a->passed, b->passed);
	assert_int_equal(a->failed, b->failed);
	assert_int_equal(a->not_run, b->not_run);
	assert_int_equal(a->skipped, b->skipped);
}

static void test_round_trip(void **state)
{
	size_t len;
	char *text = written(&doc, &len);
	struct sb_jdoc *jd;
	struct sb_plan_doc d;
	struct sb_error err;
	(void)state;
	assert_int_equal(sb_json_parse(text, len, NULL, &jd, NULL), 0);
	assert_true(sb_plan_result_is(sb_jdoc_root(jd)));
	assert_false(sb_plan_journal_is(sb_jdoc_root(jd)));
	assert_int_equal(sb_plan_result_read(sb_jdoc_root(jd), &d, &err), 0);
	same_str(d.version, doc.version);
	same_str(d.file, doc.file);
	same_str(d.name, doc.name);
	same_tally(&d.tally, &doc.tally);
	same_str(d.stopped, doc.stopped);
	assert_null(d.interrupted);
	same_str(d.directory, doc.directory);
	assert_int_equal(d.nlabels, 2);
	for (size_t i = 0; i < d.nlabels; i++)
		same_str(d.labels[i], labels[i]);
	assert_int_equal(d.ntargets, 1);
	same_str(d.targets[0].target, "/mnt/a");
	same_tally(&d.targets[0].tally, &targets[0].tally);
	assert_int_equal(d.nsteps, 3);
	for (size_t s = 0; s < d.nsteps; s++) {
		const struct sb_plan_doc_step *a = &d.steps[s], *b = &steps[s];
		same_str(a->step, b->step);
		same_str(a->run, b->run);
		same_str(a->target, b->target);
		same_str(a->state, b->state);
		same_str(a->result, b->result);
		same_str(a->why, b->why);
		assert_int_equal(a->ncrit, b->ncrit);
		for (size_t k = 0; k < a->ncrit; k++) {
			const struct sb_plan_doc_crit *x = &a->crit[k], *y = &b->crit[k];
			same_str(x->figure, y->figure);
			same_str(x->unit, y->unit);
			same_str(x->op, y->op);
			same_str(x->limit_word, y->limit_word);
			assert_true(y->limit_word || x->limit == y->limit);
			assert_int_equal(x->line, y->line);
			assert_int_equal(x->measured_found, y->measured_found);
			same_str(x->measured_word, y->measured_word);
			assert_true(!y->measured_found || y->measured_word ||
				    x->measured == y->measured);
			same_str(x->result, y->result);
		}
	}
	/* what is read is written the same again */
	size_t len2;
	char *again = written(&d, &len2);
	assert_int_equal(len2, len);
	assert_memory_equal(again, text, len);
	free(again);
	sb_plan_doc_free(&d);
	sb_plan_doc_free(NULL);
	sb_jdoc_free(jd);
	free(text);
}

/* The written document with from replaced by to: refused naming path. */
static void refused(const char *from, const char *to, const char *msg)
{
	size_t len;
	char *text = written(&doc, &len), *at = strstr(text, from);
	struct sb_jdoc *jd;
	struct sb_plan_doc d;
	struct sb_error err = { 0 };
	assert_non_null(at);
	size_t fl = strlen(from), tl = strlen(to);
	char *bad = malloc(len - fl + tl + 1);
	assert_non_null(bad);
	memcpy(bad, text, (size_t)(at - text));
	memcpy(bad + (at - text), to, tl);
	memcpy(bad + (at - text) + tl, at + fl, len - (size_t)(at - text) - fl + 1);
	if (sb_json_parse(bad, strlen(bad), NULL, &jd, NULL) < 0)
		fail_msg("not JSON: %s", bad);
	assert_int_equal(sb_plan_result_read(sb_jdoc_root(jd), &d, &err), -EINVAL);
	assert_string_equal(err.msg, msg);
	sb_plan_doc_free(&d);
	sb_jdoc_free(jd);
	free(bad);
	free(text);
}

static void test_refused(void **state)
{
	(void)state;
	refused("\"criteria_failed\" : 1", "\"criteria_failed\" : -1",
		"plan.criteria_failed: expected a whole number from 0 to 1e09, found -1");
	refused("\"criteria_failed\" : 1,", "",
		"plan.criteria_failed: expected a whole number from 0 to 1e09, found nothing");
	refused("\"verdict\" : \"INCOMPLETE\"", "\"verdict\" : \"OK\"",
		"plan.verdict: expected PASS, FAIL, INCOMPLETE or INTERRUPTED, found 'OK'");
	refused("\"op\" : \">=\"", "\"op\" : \"=>\"",
		"plan.steps[0].criteria[1].op: expected one of >= <= > < == !=, found '=>'");
	refused("\"limit\" : 2000.000000", "\"limit\" : \"2k\"",
		"plan.steps[0].criteria[1].limit: expected a number from -1e300 to 1e300, "
		"found '2k'");
	refused("\"measured\" : 29012.500000", "\"measured\" : true",
		"plan.steps[0].criteria[1].measured: expected a number from -1e300 to 1e300, "
		"found true");
	refused("\"result\" : \"/p/speed.json\"", "\"result\" : 7",
		"plan.steps[0].result: expected a string or null, found 7");
	refused("\"state\" : \"never ran\"", "\"state\" : \"gone\"",
		"plan.steps[2].state: expected done, done before, interrupted, could not run, "
		"skipped or never ran, found 'gone'");
	refused("\"firmware=1.2b\"", "3", "plan.labels[0]: expected a string, found 3");
	refused("\"verdict\" : \"INCOMPLETE\",\n        \"criteria_passed\" : 2",
		"\"verdict\" : \"MAYBE\",\n        \"criteria_passed\" : 2",
		"plan.targets[0].verdict: expected PASS, FAIL, INCOMPLETE or INTERRUPTED, found "
		"'MAYBE'");
	refused("\"criteria_skipped\" : 1", "\"criteria_skipped\" : -1",
		"plan.targets[0].criteria_skipped: expected a whole number from 0 to 1e09, found -1");
	refused("\"criteria_not_run\" : 0,", "",
		"plan.targets[0].criteria_not_run: expected a whole number from 0 to 1e09, found "
		"nothing");
	refused("\"command\" : \"plan\"", "\"command\" : \"quick\"",
		"storbench.command: expected plan, found 'quick'");
	refused("\"result\" : \"not run\"", "\"result\" : null",
		"plan.steps[1].criteria[0].result: expected a string, found null");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
