/* needs: none */
/*
 * The fuzz target of the history's reading of a result
 * (tests/fuzz/fuzz-history-rec.c) without libFuzzer: run over every file
 * of its corpus (storbench's results of several commands, fio's JSON),
 * every prefix of each (truncation anywhere) and byte substitutions at
 * evenly spread positions. make fuzz runs the same target under libFuzzer
 * with ASan.
 */
#include "tests/lib/sbtest.h"
#include "tests/fuzz/fuzz-history-rec.c"

static void test_corpus(void **state)
{
	(void)state;
	static const uint8_t subst[] = { '"', '-', '{', '}', '[', ']', ',', ':', '0', '9', 'e', 0 };
	unsigned files = sbt_fuzz_corpus(LLVMFuzzerTestOneInput, "history-rec", subst,
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
