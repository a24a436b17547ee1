/* needs: none */
/*
 * The rules of a run of many ranks' entries (lib/results/clients_read.c,
 * sb_ranks_check) and of an iteration's number below a soak's summary
 * (lib/soak/soak_check.c, sb_soak_check_iterations), moved out of
 * report/check.c's walk of every document: each refusal named by its key
 * path in the words the report has always used; what other readers judge
 * (a verify object, jobs) is not walked; the results' header applies the
 * rules to its state's ranks.
 */
#include "tests/lib/sbtest.h"

#include "lib/json/json_read.h"
#include "lib/results/results_read.h"
#include "lib/soak/soak_check.h"

static struct sb_jdoc *parse(const char *s)
{
	struct sb_jdoc *d = NULL;
	assert_int_equal(sb_json_parse(s, strlen(s), NULL, &d, NULL), 0);
	return d;
}

/* text at key path at: refused with want (NULL: taken). */
static void ranks(const char *text, const char *at, const char *want)
{
	struct sb_jdoc *d = parse(text);
	struct sb_error err = { 0 };
	const int e = sb_ranks_check(sb_jdoc_root(d), at, &err);
	if (!want)
		assert_int_equal(e, 0);
	else {
		assert_int_equal(e, -EINVAL);
		assert_int_equal(err.cls, SB_ERR_INPUT);
		assert_string_equal(err.msg, want);
	}
	sb_jdoc_free(d);
}

static void test_ranks(void **state)
{
	(void)state;
	ranks("{\"ranks\":[{\"rank\":0,\"hostname\":\"a\",\"bytes\":5},{\"rank\":1}]}", "", NULL);
	ranks("{\"ranks\":[{\"rank\":0},{\"hostname\":\"b\"}]}", "meta",
	      "meta.ranks[1]: a rank's entry without its 'rank'");
	ranks("{\"ranks\":[{\"rank\":0},3]}", "",
	      "ranks[1]: expected an object of a rank's figures, found 3");
	ranks("{\"ranks\":[{\"rank\":-1}]}", "",
	      "ranks[0].rank: expected a rank number from 0, found -1");
	ranks("{\"ranks\":[{\"rank\":16777216}]}", "",
	      "ranks[0].rank: expected a rank number from 0, found 1.67772e+07");
	ranks("{\"ranks\":[{\"rank\":0,\"path\":7}]}", "",
	      "ranks[0].path: expected a string, found 7");
	ranks("{\"ranks\":[{\"rank\":0,\"tests\":{\"putc\":{\"ops\":\"x\"}}}]}", "",
	      "ranks[0].tests.putc.ops: expected a number from 0 to 1e18, found a string");
	ranks("{\"ranks\":[{\"rank\":0,\"end_s\":1e19}]}", "",
	      "ranks[0].end_s: expected a number from 0 to 1e18, found 1e+19");
	/* a skew names -1 for none measured; its figures are never negative */
	ranks("{\"skew\":{\"putc\":{\"slowest_rank\":-1,\"fastest_rank\":0}}}", "", NULL);
	ranks("{\"skew\":{\"putc\":{\"span_s\":-2}}}", "",
	      "skew.putc.span_s: expected a number from 0 to 1e18, found -2");
	ranks("{\"skew\":{\"putc\":{\"fastest_rank\":\"x\"}}}", "s",
	      "s.skew.putc.fastest_rank: expected a rank number from 0, found a string");
	/* the same names outside an entry or a skew are not judged */
	ranks("{\"start_s\":-5,\"rank\":-3,\"skew\":3}", "", NULL);
	/* a verify object below an entry is its reader's */
	ranks("{\"ranks\":[{\"rank\":0,\"verify\":{\"ranks\":[{\"x\":1}]}}]}", "", NULL);
	/* nested: a soak iteration's ranks at any depth */
	ranks("{\"a\":[{\"ranks\":[{\"rank\":0,\"write_bytes\":-1}]}]}", "it[0]",
	      "it[0].a[0].ranks[0].write_bytes: expected a number from 0 to 1e18, found -1");
}

static void test_state(void **state)
{
	(void)state;
	struct sb_jdoc *d = parse(
		"{\"command\":\"run\",\"version\":\"0\",\"state\":{\"name\":\"x\","
		"\"ranks\":[{\"rank\":0,\"hostname\":\"a\",\"path\":false}]}}");
	struct sb_results_doc x;
	struct sb_error err = { 0 };
	assert_int_equal(sb_results_head_read(sb_jdoc_root(d), "storbench", &x, &err), -EINVAL);
	assert_string_equal(err.msg, "storbench.state.ranks[0].path: expected a string, found a "
				     "boolean");
	sb_jdoc_free(d);
}

static void iterations(const char *text, const char *want)
{
	struct sb_jdoc *d = parse(text);
	char msg[512] = "";
	const int e = sb_soak_check_iterations(sb_jdoc_root(d), msg, sizeof(msg));
	if (!want)
		assert_int_equal(e, 0);
	else {
		assert_int_equal(e, -EINVAL);
		assert_string_equal(msg, want);
	}
	sb_jdoc_free(d);
}

static void test_iterations(void **state)
{
	(void)state;
	iterations("{\"stability\":{\"write_bw\":{\"change_points\":[{\"iteration\":2}]}}}", NULL);
	iterations("{\"stability\":{\"write_bw\":{\"change_points\":[{\"iteration\":2},"
		   "{\"iteration\":-5}]}}}",
		   "stability.write_bw.change_points[1].iteration: expected an iteration number "
		   "from 1, found -5");
	iterations("{\"stability\":{\"cells\":[{\"m\":{\"change_points\":[{\"iteration\":1.5}]}}]}}",
		   "stability.cells[0].m.change_points[0].iteration: expected an iteration number "
		   "from 1, found 1.5");
	iterations("{\"iteration\":0}", "iteration: expected an iteration number from 1, found 0");
	iterations("{\"iteration\":{\"iteration\":9007199254740992}}",
		   "iteration.iteration: expected an iteration number from 1, found 9.0072e+15");
	/* what another reader judges is not walked */
	iterations("{\"verify\":{\"iteration\":-1},\"argv\":[{\"iteration\":-1}]}", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranks),
		cmocka_unit_test(test_state),
		cmocka_unit_test(test_iterations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
