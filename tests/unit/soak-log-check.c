/* needs: none */
/*
 * The one check of a soak log's lines (lib/soak/soak_check.h), which
 * --resume and the report both go by: a table of lines after a good
 * start, each refused with the member it names, or taken; the order of
 * iterations and generations; a resumed run's start above any generation
 * a killed iteration may have written; and the log reader refusing the
 * same lines with the same words.
 */
#include "tests/lib/sbtest.h"

#include "lib/soak/soak_check.h"
#include "lib/soak/soak_json.h"

#define CONFIG                                                                    \
	"{\"type\":\"config\",\"command\":\"soak\",\"log_version\":1,\"seed\":7," \
	"\"argv\":[\"soak\",\"/x\"],\"files\":[\"/x/a.tmp\"]}"
#define IT(n) "{\"type\":\"iteration\",\"iteration\":" #n ",\"generation\":" #n "}"

/* Check lines[] in order: 0 or the first refusal's message in msg. */
static int check(const char *const *lines, size_t n, char *msg, size_t len, size_t *bad_line)
{
	struct sb_soak_check c;
	sb_soak_check_init(&c);
	for (size_t i = 0; i < n; i++) {
		struct sb_jdoc *d = NULL;
		assert_int_equal(sb_json_parse(lines[i], strlen(lines[i]), NULL, &d, NULL), 0);
		const int e = sb_soak_check_line(&c, sb_jdoc_root(d), msg, len);
		sb_jdoc_free(d);
		if (e < 0) {
			*bad_line = i + 1;
			return e;
		}
	}
	return 0;
}

static const struct {
	const char *line; /* after CONFIG, IT(1) */
	const char *msg;  /* NULL: taken */
} table[] = {
	{ IT(2), NULL },
	{ "{\"type\":\"iteration\",\"iteration\":-5}",
	  "iteration: expected an iteration number from 1, found -5" },
	{ "{\"type\":\"iteration\",\"iteration\":9223372036854775808}",
	  "iteration: expected an iteration number from 1, found 9.22337e+18" },
	{ "{\"type\":\"iteration\",\"iteration\":0}",
	  "iteration: expected an iteration number from 1, found 0" },
	{ "{\"type\":\"iteration\",\"iteration\":2.5}",
	  "iteration: expected an iteration number from 1, found 2.5" },
	{ "{\"type\":\"iteration\",\"iteration\":\"2\"}",
	  "iteration: expected an iteration number from 1, found a string" },
	{ "{\"type\":\"iteration\"}",
	  "iteration: expected an iteration number from 1, found nothing" },
	{ IT(1), "iteration: expected 2 (the one after 1), found 1" },
	{ IT(3), "iteration: expected 2 (the one after 1), found 3" },
	{ "{\"type\":\"iteration\",\"iteration\":2,\"generation\":7}",
	  "generation: expected 2 (iteration 2 of a run that started at 1 with 1), found 7" },
	{ "{\"type\":\"iteration\",\"iteration\":2,\"write_bw_bytes\":-1}",
	  "write_bw_bytes: expected a number from 0 to 1e18, found -1" },
	{ "{\"type\":\"iteration\",\"iteration\":2,\"read_bw_bytes\":1e300}",
	  "read_bw_bytes: expected a number from 0 to 1e18, found 1e+300" },
	{ "{\"type\":\"iteration\",\"iteration\":2,\"io_errors\":-3}",
	  "io_errors: expected a whole number from 0, found -3" },
	{ "{\"type\":\"iteration\",\"iteration\":2,\"verify\":{\"stale\":-1}}",
	  "verify.stale: expected a whole number from 0, found -1" },
	{ "{\"type\":\"iteration\",\"iteration\":2,\"verify\":[]}",
	  "verify: expected an object, found an array" },
	{ "{\"type\":\"iteration\",\"iteration\":2,\"kmsg\":[{\"text\":5}]}",
	  "kmsg[0].text: expected a string, found 5" },
	{ "{\"type\":\"iteration\",\"iteration\":2,\"kmsg\":{}}",
	  "kmsg: expected an array of kernel lines, found an object" },
	{ "{\"type\":\"iteration\",\"iteration\":2,\"interrupted\":1}",
	  "interrupted: expected true or false, found 1" },
	{ "{\"type\":\"iteration\",\"iteration\":2,\"generation\":0}",
	  "generation: expected a generation from 1, found 0" },
	/* a resumed run: the iteration after the last, above generation 2
	 * (iteration 2 may have written 2 before a crash) */
	{ "{\"type\":\"start\",\"iteration\":2,\"generation\":3,\"files\":[\"/x/b.tmp\"]}", NULL },
	{ "{\"type\":\"start\",\"iteration\":2,\"generation\":2}",
	  "generation: expected one above 2 (a write may have used that), found 2" },
	{ "{\"type\":\"start\",\"iteration\":5,\"generation\":9}",
	  "iteration: expected 2 (the one after 1), found 5" },
	{ "{\"type\":\"start\",\"iteration\":2,\"generation\":3,\"files\":[7]}",
	  "files[0]: expected a file name, found 7" },
	{ "{\"type\":\"cut\",\"after_iteration\":1,\"generation\":9}", NULL },
	{ "{\"type\":\"summary\",\"verdict\":\"maybe\"}",
	  "verdict: expected pass, fail, interrupted or aborted, found a string" },
	{ "{\"type\":\"summary\",\"iterations\":-1}",
	  "iterations: expected a whole number from 0, found -1" },
	{ "{\"type\":\"summary\",\"verdict\":\"interrupted\",\"iterations\":1}", NULL },
	{ "{\"type\":\"resume\",\"iterations\":-2}",
	  "iterations: expected a whole number from 0, found -2" },
	{ CONFIG, "type: a second configuration (the log's is line 1)" },
	{ "{\"iteration\":2}", "type: expected the record's type (a string), found nothing" },
	{ "{\"type\":\"later\",\"x\":-1}", NULL }, /* a later storbench's record */
};

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < SB_ARRAY_SIZE(table); i++) {
		const char *lines[] = { CONFIG, IT(1), table[i].line };
		char msg[512] = "";
		size_t at = 0;
		const int e = check(lines, 3, msg, sizeof(msg), &at);
		if (!table[i].msg && e)
			fail_msg("%s: refused (line %zu): %s", table[i].line, at, msg);
		if (table[i].msg && (!e || at != 3 || strcmp(msg, table[i].msg)))
			fail_msg("%s: '%s' (line %zu), expected '%s'", table[i].line,
				 e ? msg : "taken", at, table[i].msg);
	}
}

/* Line 1 must be the configuration (its version is each reader's to
 * judge: the report reads a later one too). */
static void test_first_line(void **state)
{
	(void)state;
	char msg[256];
	size_t at;
	const char *a[] = { IT(1) };
	assert_int_equal(check(a, 1, msg, sizeof(msg), &at), -EINVAL);
	assert_string_equal(msg, "type: expected the configuration on line 1, found 'iteration'");
	const char *b[] = { "{\"type\":\"config\",\"seed\":-1}" };
	assert_int_equal(check(b, 1, msg, sizeof(msg), &at), -EINVAL);
	assert_string_equal(msg, "seed: expected a whole number from 0, found -1");
	const char *c[] = { "{\"type\":\"config\",\"log_version\":1,\"argv\":[\"soak\",3]}" };
	assert_int_equal(check(c, 1, msg, sizeof(msg), &at), -EINVAL);
	assert_string_equal(msg, "argv[1]: expected a string, found 3");
}

/* Generations: a run's iterations write its start's, one more each; a
 * later run starts above what any write may have used (the iteration
 * after the last logged one included: a crash may have cut it after its
 * write); a cut keeps what the lines cut away used. */
static void test_generations(void **state)
{
	(void)state;
	struct sb_soak_check c;
	char msg[256];
	const char *lines[] = {
		CONFIG,
		IT(1),
		IT(2),
		/* killed in iteration 3 (which may have written 3) */
		"{\"type\":\"start\",\"iteration\":3,\"generation\":4}",
		"{\"type\":\"iteration\",\"iteration\":3,\"generation\":4}",
		"{\"type\":\"iteration\",\"iteration\":4,\"generation\":5}",
		"{\"type\":\"cut\",\"after_iteration\":4,\"generation\":8}",
	};
	const uint64_t used[] = { 1, 2, 3, 4, 5, 6, 8 };
	sb_soak_check_init(&c);
	for (size_t i = 0; i < SB_ARRAY_SIZE(lines); i++) {
		struct sb_jdoc *d = NULL;
		assert_int_equal(sb_json_parse(lines[i], strlen(lines[i]), NULL, &d, NULL), 0);
		assert_int_equal(sb_soak_check_line(&c, sb_jdoc_root(d), msg, sizeof(msg)), 0);
		sb_jdoc_free(d);
		if (sb_soak_check_used(&c) != used[i])
			fail_msg("after line %zu: %llu used, expected %llu", i + 1,
				 (unsigned long long)sb_soak_check_used(&c),
				 (unsigned long long)used[i]);
	}
}

/* The log reader (--resume) refuses the lines the check refuses, with its
 * words and the line; it learns the generations used and the files
 * listed. */
static void test_reader(void **state)
{
	(void)state;
	struct sb_soak_log log;
	char text[1024];
	snprintf(text, sizeof(text), "%s\n%s\n{\"type\":\"iteration\",\"iteration\":-5}\n", CONFIG,
		 IT(1));
	assert_int_equal(sb_soak_log_parse(text, strlen(text), &log), -EBADMSG);
	assert_int_equal(log.line, 3);
	assert_string_equal(log.why, "iteration: expected an iteration number from 1, found -5");
	sb_soak_log_free(&log);
	snprintf(text, sizeof(text),
		 "%s\n%s\n{\"type\":\"start\",\"iteration\":2,\"generation\":3,\"files\":"
		 "[\"/x/b.tmp\",\"/x/a.tmp\"]}\n"
		 "{\"type\":\"iteration\",\"iteration\":2,\"generation\":3}\n",
		 CONFIG, IT(1));
	assert_int_equal(sb_soak_log_parse(text, strlen(text), &log), 0);
	assert_int_equal(log.nit, 2);
	assert_int_equal(log.it[1].generation, 3);
	assert_int_equal(log.generation, 4); /* iteration 3 may have written 4 */
	assert_int_equal(log.nleft, 2);	     /* once each */
	assert_string_equal(log.left[0].path, "/x/a.tmp");
	assert_string_equal(log.left[1].path, "/x/b.tmp");
	sb_soak_log_free(&log);
	/* an older log (no generations): iteration n wrote n, n + 1 maybe */
	const char *old = "{\"type\":\"config\",\"log_version\":1,\"argv\":[\"soak\"]}\n"
			  "{\"type\":\"iteration\",\"iteration\":1}\n"
			  "{\"type\":\"iteration\",\"iteration\":2}\n";
	assert_int_equal(sb_soak_log_parse(old, strlen(old), &log), 0);
	assert_int_equal(log.generation, 3);
	assert_int_equal(log.nleft, 0);
	sb_soak_log_free(&log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_first_line),
		cmocka_unit_test(test_generations),
		cmocka_unit_test(test_reader),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
