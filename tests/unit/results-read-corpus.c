/* needs: none */
/*
 * The fuzz target of the reader of a result's jobs
 * (tests/fuzz/fuzz-results-read.c) without libFuzzer: run over every file
 * of its corpus, every prefix of each file (truncation anywhere) and byte
 * substitutions at evenly spread positions. The target aborts when a job
 * reads as something the reader does not promise; make fuzz runs the same
 * target under libFuzzer with ASan.
 */
#include "tests/lib/sbtest.h"
#include "tests/fuzz/fuzz-results-read.c"

static void test_corpus(void **state)
{
	(void)state;
	static const uint8_t subst[] = { '"', '-', '{', '}', '[', ']', ',', ':', '0', '9', 'e', 0 };
	unsigned files = sbt_fuzz_corpus(LLVMFuzzerTestOneInput, "results-read", subst,
					 sizeof(subst));
	assert_true(files >= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
