/* needs: none */
/*
 * The fuzz target of the spo journal reader (tests/fuzz/fuzz-spo-journal.c)
 * without libFuzzer: run over every file of its corpus, every prefix of
 * each file (a cut anywhere) and byte substitutions at evenly spread
 * positions. The target aborts on a crash, a refusal without a line or an
 * inconsistent journal read; make fuzz runs it under libFuzzer with ASan.
 */
#include "tests/lib/sbtest.h"
#include "tests/fuzz/fuzz-spo-journal.c"

static void test_corpus(void **state)
{
	(void)state;
	static const uint8_t subst[] = {
		' ', '\n', '=', '0', '9', 'I', 'A', 'C', 'E', 'f', 0, 0xff
	};
	unsigned files = sbt_fuzz_corpus(LLVMFuzzerTestOneInput, "spo-journal", subst,
					 sizeof(subst));
	assert_true(files >= 4);
}

/* A journal of known content reads back as written. */
static void test_known(void **state)
{
	static const char j[] = "storbench-spo-journal 1 run=00000000000000ff bs=4096 offset=0 "
				"size=65536 canary=8192 sync=fdatasync rw=randwrite iodepth=1 "
				"start=7\n"
				"I 1 8192 10\nA 1 20\nI 2 61440 30\nC 40\nI 3 8192 50";
	struct sb_spo_journal jn;
	char msg[128];
	(void)state;
	assert_int_equal(sb_spo_journal_parse(j, sizeof(j) - 1, &jn, msg, sizeof(msg)), 0);
	assert_int_equal(jn.h.run_id, 0xff);
	assert_int_equal(jn.nw, 2); /* the torn third intent is left out */
	assert_true(jn.torn_tail);
	assert_int_equal(jn.nacked, 1);
	assert_int_equal(jn.w[0].t_ack, 20);
	assert_true(jn.w[1].t_ack == UINT64_MAX);
	assert_true(jn.cut_known);
	assert_int_equal(jn.t_cut, 40);
	sb_spo_journal_free(&jn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
