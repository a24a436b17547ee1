/* needs: none */
/*
 * The fuzz target of the methods' section readers
 * (tests/fuzz/fuzz-sections.c) without libFuzzer: run over every file of
 * its corpus (sections sweep, meta, latency and spo wrote, one process's and
 * two ranks'), every prefix of each and byte substitutions at evenly
 * spread positions. The target aborts on a crash or a reader that breaks
 * its rules; make fuzz runs it under libFuzzer with ASan.
 */
#include "tests/lib/sbtest.h"
#include "tests/fuzz/fuzz-sections.c"

static void test_corpus(void **state)
{
	(void)state;
	static const uint8_t subst[] = {
		'"', '-', '{', '}', '[', ']', ',', ':', '0', '9', 'n', 't'
	};
	unsigned files = sbt_fuzz_corpus(LLVMFuzzerTestOneInput, "sections", subst, sizeof(subst));
	assert_true(files >= 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
