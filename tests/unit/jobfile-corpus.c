/* needs: none */
/*
 * The fuzz target of the fio job-file reader (tests/fuzz/fuzz-jobfile.c) without
 * libFuzzer: run over every file of its corpus, every prefix of each file
 * (truncation anywhere) and byte substitutions at evenly spread positions.
 * The target aborts on a crash, a refusal without a line, an option out of
 * range or a CRLF copy read differently; make fuzz runs the same target
 * under libFuzzer with ASan.
 */
#include "tests/lib/sbtest.h"
#include "tests/fuzz/fuzz-jobfile.c"

static void test_corpus(void **state)
{
	(void)state;
	static const uint8_t subst[] = { '[', ']', '=', '\n', '\r', ' ', ';', '#', '$',
					 '{', '}', ',', ':',  '%',  '0', 0,   0xff };
	unsigned files = sbt_fuzz_corpus(LLVMFuzzerTestOneInput, "jobfile", subst, sizeof(subst));
	assert_true(files >= 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
