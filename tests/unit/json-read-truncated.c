/* needs: none */
/*
 * A document cut short anywhere is refused as "unexpected end of input"
 * with at_end set (how the report reader tells a truncated last line of a
 * JSON Lines log from a corrupt one), and a whole document still parses.
 * Run over a storbench result written by the real writer and over
 * documents that end inside every kind of token.
 */
#include "tests/lib/sbtest.h"
#include "lib/json/json_write.h"
#include "lib/json/json_read.h"
#include "lib/results/results.h"

static void all_prefixes(const char *doc, size_t len)
{
	struct sb_jdoc *d;
	struct sb_json_error e;
	while (len && (doc[len - 1] == '\n' || doc[len - 1] == ' '))
		len--;
	assert_int_equal(sb_json_parse(doc, len, NULL, &d, &e), 0);
	sb_jdoc_free(d);
	for (size_t n = 0; n < len; n++) {
		int rc = sb_json_parse(doc, n, NULL, &d, &e);
		if (rc != -EBADMSG || !e.at_end || !strstr(e.msg, "unexpected end of input"))
			fail_msg("prefix of %zu bytes: rc %d at_end %d '%s'", n, rc, e.at_end,
				 e.msg);
		assert_null(d);
	}
}

static void test_tokens(void **state)
{
	(void)state;
	static const char *const docs[] = {
		"{\"a\": [1, -2.5e+3, true, false, null, \"x\\u00e9\\ud83d\\ude00\\n\"], \"b\": {}}",
		"[[], {}, [{}], \"\\\\\", \"\\\"\"]",
		"{\"k\": \"\xf0\x9f\x98\x80\"}",
	};
	for (size_t i = 0; i < SB_ARRAY_SIZE(docs); i++)
		all_prefixes(docs[i], strlen(docs[i]));
}

static void test_storbench_result(void **state)
{
	(void)state;
	struct sb_results *r = sb_results_create("run");
	struct sb_job_result *j = sb_job_result_create();
	assert_non_null(r);
	assert_non_null(j);
	snprintf(j->name, sizeof(j->name), "job");
	j->runtime_ns = 1000000000;
	j->dir[0].bytes = 4096 * 1000;
	j->dir[0].ios = 1000;
	for (uint64_t v = 1000; v < 2000; v++)
		sb_hist_add(&j->dir[0].lat, v);
	sb_results_add_job(r, j);
	sb_results_warn(r, "a \"quoted\" warning");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(sb_results_write_json(r, f), 0);
	fclose(f);
	all_prefixes(buf, len);
	free(buf);
	sb_results_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_storbench_result),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
