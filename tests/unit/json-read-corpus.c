/* needs: none */
/*
 * The fuzz target of the JSON reader (tests/fuzz/fuzz-json-read.c) without
 * libFuzzer: run over every file of its corpus, every prefix of each file
 * (truncation anywhere) and byte substitutions at evenly spread positions.
 * The target aborts on a crash, a refused round trip or a broken accessor;
 * make fuzz runs the same target under libFuzzer with ASan.
 */
#include "tests/lib/sbtest.h"
#include "tests/fuzz/fuzz-json-read.c"

static void test_corpus(void **state)
{
	(void)state;
	static const uint8_t subst[] = {
		'"', '\\', '{', '}', '[', ']', ',', ':', '0', 0, 0xff, 0xc3
	};
	unsigned files = sbt_fuzz_corpus(LLVMFuzzerTestOneInput, "json-read", subst, sizeof(subst));
	assert_true(files >= 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
