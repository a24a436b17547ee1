/* needs: none */
/*
 * Bad blocks merge into ranges: contiguous blocks of one class become one
 * range; a gap, another class, a misplaced block that belongs somewhere
 * not contiguous, another stale generation or another errno start a new
 * one. The list stops at its cap and counts the rest; counts per class are
 * exact regardless. Accumulators of several threads merge by offset.
 */
#include "tests/lib/sbtest.h"
#include "lib/verify/ranges.h"

#define BS 4096

static void add(struct sb_verify_acc *a, uint64_t block, uint64_t n, int cls, uint64_t exp,
		uint64_t gen, int err)
{
	const struct sb_verify_finding f = { (enum sb_verify_class)cls, exp, gen, err };
	sb_verify_acc_add(a, block * BS, n, &f);
}

static void expect(const struct sb_verify_range *r, uint64_t block, uint64_t nblocks, int cls)
{
	if (r->offset != block * BS || r->length != nblocks * BS || r->cls != cls)
		fail_msg("range at %llu+%llu %s, want %llu+%llu %s",
			 (unsigned long long)(r->offset / BS), (unsigned long long)(r->length / BS),
			 sb_verify_class_name(r->cls), (unsigned long long)block,
			 (unsigned long long)nblocks, sb_verify_class_name(cls));
}

static void test_merging(void **state)
{
	struct sb_verify_acc a;

	(void)state;
	assert_int_equal(sb_verify_acc_init(&a, BS, 16), 0);
	add(&a, 0, 2, SB_VERIFY_INTACT, 0, 0, 0);
	add(&a, 2, 1, SB_VERIFY_CORRUPTED, 0, 0, 0);
	add(&a, 3, 1, SB_VERIFY_CORRUPTED, 0, 0, 0); /* joins */
	add(&a, 4, 1, SB_VERIFY_FOREIGN, 0, 0, 0);   /* another class */
	add(&a, 5, 1, SB_VERIFY_INTACT, 0, 0, 0);
	add(&a, 6, 1, SB_VERIFY_FOREIGN, 0, 0, 0); /* a gap */
	/* misplaced: 10,11 belong at 100,101 (one range); 12 belongs at 50 */
	add(&a, 10, 1, SB_VERIFY_MISPLACED, 100 * BS, 1, 0);
	add(&a, 11, 1, SB_VERIFY_MISPLACED, 101 * BS, 1, 0);
	add(&a, 12, 1, SB_VERIFY_MISPLACED, 50 * BS, 1, 0);
	/* stale: generation 3 then 2 */
	add(&a, 13, 2, SB_VERIFY_STALE, 0, 3, 0);
	add(&a, 15, 1, SB_VERIFY_STALE, 0, 2, 0);
	/* unreadable: EIO for 3 blocks, then ENODATA */
	add(&a, 16, 3, SB_VERIFY_UNREADABLE, 0, 0, EIO);
	add(&a, 19, 1, SB_VERIFY_UNREADABLE, 0, 0, ENODATA);
	sb_verify_acc_finish(&a);
	sb_verify_acc_finish(&a); /* twice is harmless */

	assert_int_equal(a.blocks, 17); /* 7..9 were never added */
	assert_int_equal(a.count[SB_VERIFY_INTACT], 3);
	assert_int_equal(a.count[SB_VERIFY_CORRUPTED], 2);
	assert_int_equal(a.count[SB_VERIFY_FOREIGN], 2);
	assert_int_equal(a.count[SB_VERIFY_MISPLACED], 3);
	assert_int_equal(a.count[SB_VERIFY_STALE], 3);
	assert_int_equal(a.count[SB_VERIFY_UNREADABLE], 4);
	assert_int_equal(sb_verify_acc_bad(&a), 14);
	assert_int_equal(a.nranges, 9);
	expect(&a.ranges[0], 2, 2, SB_VERIFY_CORRUPTED);
	expect(&a.ranges[1], 4, 1, SB_VERIFY_FOREIGN);
	expect(&a.ranges[2], 6, 1, SB_VERIFY_FOREIGN);
	expect(&a.ranges[3], 10, 2, SB_VERIFY_MISPLACED);
	assert_int_equal(a.ranges[3].expected_offset, 100 * BS);
	expect(&a.ranges[4], 12, 1, SB_VERIFY_MISPLACED);
	assert_int_equal(a.ranges[4].expected_offset, 50 * BS);
	expect(&a.ranges[5], 13, 2, SB_VERIFY_STALE);
	assert_int_equal(a.ranges[5].generation, 3);
	expect(&a.ranges[6], 15, 1, SB_VERIFY_STALE);
	assert_int_equal(a.ranges[6].generation, 2);
	expect(&a.ranges[7], 16, 3, SB_VERIFY_UNREADABLE);
	assert_int_equal(a.ranges[7].err, EIO);
	expect(&a.ranges[8], 19, 1, SB_VERIFY_UNREADABLE);
	assert_int_equal(a.ranges[8].err, ENODATA);
	assert_int_equal(a.omitted, 0);
	sb_verify_acc_free(&a);
}

/* 1000 isolated bad blocks with room for 10 ranges: 10 listed (the
 * first ones), 990 omitted, every block counted. */
static void test_cap(void **state)
{
	struct sb_verify_acc a;

	(void)state;
	assert_int_equal(sb_verify_acc_init(&a, BS, 10), 0);
	for (uint64_t i = 0; i < 2000; i++)
		add(&a, i, 1, i % 2 ? SB_VERIFY_INTACT : SB_VERIFY_CORRUPTED, 0, 0, 0);
	sb_verify_acc_finish(&a);
	assert_int_equal(a.nranges, 10);
	assert_int_equal(a.omitted, 990);
	assert_int_equal(a.count[SB_VERIFY_CORRUPTED], 1000);
	for (int i = 0; i < 10; i++)
		expect(&a.ranges[i], 2 * (uint64_t)i, 1, SB_VERIFY_CORRUPTED);
	sb_verify_acc_free(&a);

	/* no room at all: counts only */
	assert_int_equal(sb_verify_acc_init(&a, BS, 0), 0);
	add(&a, 0, 5, SB_VERIFY_FOREIGN, 0, 0, 0);
	add(&a, 9, 5, SB_VERIFY_FOREIGN, 0, 0, 0);
	sb_verify_acc_finish(&a);
	assert_int_equal(a.nranges, 0);
	assert_int_equal(a.omitted, 2);
	assert_int_equal(a.count[SB_VERIFY_FOREIGN], 10);
	sb_verify_acc_free(&a);
}

/* Two workers: one saw blocks 0..9, the other 10..19; the foreign run
 * that crosses from one to the other becomes one range. */
static void test_merge(void **state)
{
	struct sb_verify_acc a, b;

	(void)state;
	assert_int_equal(sb_verify_acc_init(&a, BS, 4), 0);
	assert_int_equal(sb_verify_acc_init(&b, BS, 4), 0);
	add(&b, 10, 3, SB_VERIFY_FOREIGN, 0, 0, 0);
	add(&b, 13, 7, SB_VERIFY_INTACT, 0, 0, 0);
	add(&a, 0, 1, SB_VERIFY_STALE, 0, 1, 0);
	add(&a, 1, 7, SB_VERIFY_INTACT, 0, 0, 0);
	add(&a, 8, 2, SB_VERIFY_FOREIGN, 0, 0, 0);
	assert_int_equal(sb_verify_acc_merge(&a, &b), 0);
	assert_int_equal(a.blocks, 20);
	assert_int_equal(a.count[SB_VERIFY_FOREIGN], 5);
	assert_int_equal(a.nranges, 2);
	expect(&a.ranges[0], 0, 1, SB_VERIFY_STALE);
	expect(&a.ranges[1], 8, 5, SB_VERIFY_FOREIGN);

	/* over the cap: the lowest offsets are kept */
	struct sb_verify_acc c;
	assert_int_equal(sb_verify_acc_init(&c, BS, 8), 0);
	for (uint64_t i = 0; i < 6; i++)
		add(&c, 100 + 2 * i, 1, SB_VERIFY_CORRUPTED, 0, 0, 0);
	assert_int_equal(sb_verify_acc_merge(&a, &c), 0);
	assert_int_equal(a.nranges, 4);
	assert_int_equal(a.omitted, 4);
	expect(&a.ranges[3], 102, 1, SB_VERIFY_CORRUPTED);
	assert_int_equal(a.count[SB_VERIFY_CORRUPTED], 6);
	sb_verify_acc_free(&a);
	sb_verify_acc_free(&b);
	sb_verify_acc_free(&c);
}

/* Two clean checks (a job file's verify= jobs in one verdict): counts
 * add, no ranges, nothing undefined (UBSan: no sort of a NULL list). */
static void test_merge_clean(void **state)
{
	struct sb_verify_acc a, b;

	(void)state;
	assert_int_equal(sb_verify_acc_init(&a, BS, 4), 0);
	assert_int_equal(sb_verify_acc_init(&b, BS, 4), 0);
	add(&a, 0, 8, SB_VERIFY_INTACT, 0, 0, 0);
	add(&b, 0, 8, SB_VERIFY_INTACT, 0, 0, 0);
	assert_int_equal(sb_verify_acc_merge(&a, &b), 0);
	assert_int_equal(a.blocks, 16);
	assert_int_equal(a.count[SB_VERIFY_INTACT], 16);
	assert_int_equal(a.nranges, 0);
	sb_verify_acc_free(&a);
	sb_verify_acc_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merging),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_merge_clean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
