/* needs: none */
/*
 * A good block of this run for its offset but of a newer generation than
 * the check asks for is "newer", not "stale" (which is kept for older
 * ones: a lost write); the finding carries the generation found, and
 * contiguous blocks of one newer generation merge into one range, of two
 * generations into two. The region end every header carries is no part of
 * a block's identity.
 */
#include "tests/lib/sbtest.h"
#include "lib/verify/block.h"
#include "lib/verify/ranges.h"

#define BS 4096u
#define SEED 0x5eedull
#define GEN 5

static void test_newer_is_not_stale(void **state)
{
	struct sb_verify_fmt f, g;
	struct sb_verify_finding fd;
	unsigned char b[8 * BS];

	(void)state;
	sb_verify_fmt_init(&f, SEED, GEN, BS);
	sb_verify_fill(&f, b, sizeof(b), 0, 1);
	g = f;
	g.generation = GEN + 1;
	sb_verify_fill(&g, b + 2 * BS, 2 * BS, 2 * BS, 1);
	g.generation = GEN + 2;
	sb_verify_fill(&g, b + 4 * BS, BS, 4 * BS, 1);
	g.generation = GEN - 1;
	sb_verify_fill(&g, b + 6 * BS, BS, 6 * BS, 1);

	assert_int_equal(sb_verify_check_block(&f, b + 2 * BS, 2 * BS, &fd), SB_VERIFY_NEWER);
	assert_int_equal(fd.generation, GEN + 1);
	assert_int_equal(sb_verify_check_block(&f, b + 6 * BS, 6 * BS, &fd), SB_VERIFY_STALE);
	assert_int_equal(fd.generation, GEN - 1);
	assert_string_equal(sb_verify_class_name(SB_VERIFY_NEWER), "newer");

	struct sb_verify_acc acc;
	assert_int_equal(sb_verify_acc_init(&acc, BS, 8), 0);
	assert_int_equal(sb_verify_check(&f, b, sizeof(b), 0, &acc), 4);
	sb_verify_acc_finish(&acc);
	assert_int_equal(acc.count[SB_VERIFY_NEWER], 3);
	assert_int_equal(acc.count[SB_VERIFY_STALE], 1);
	assert_int_equal(acc.nranges, 3);
	assert_int_equal(acc.ranges[0].offset, 2 * BS);
	assert_int_equal(acc.ranges[0].length, 2 * BS);
	assert_int_equal(acc.ranges[0].generation, GEN + 1);
	assert_int_equal(acc.ranges[1].cls, SB_VERIFY_NEWER);
	assert_int_equal(acc.ranges[1].generation, GEN + 2);
	assert_int_equal(acc.ranges[2].cls, SB_VERIFY_STALE);
	sb_verify_acc_free(&acc);
}

static void test_region_end_in_every_header(void **state)
{
	struct sb_verify_fmt f, g;
	struct sb_verify_header h;
	struct sb_verify_finding fd;
	unsigned char b[4 * BS];

	(void)state;
	sb_verify_fmt_init(&f, SEED, GEN, BS);
	assert_int_equal(f.region_end, 0);
	f.region_end = 123 * BS;
	sb_verify_fill(&f, b, sizeof(b), 0, 1);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(sb_verify_block_valid(b + i * BS, BS, &h), 1);
		assert_int_equal(h.region_end, 123 * BS);
	}
	/* a check that records another end (or none) finds the block intact */
	g = f;
	g.region_end = 0;
	assert_int_equal(sb_verify_check_block(&g, b + BS, BS, &fd), SB_VERIFY_INTACT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_newer_is_not_stale),
		cmocka_unit_test(test_region_end_in_every_header),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
