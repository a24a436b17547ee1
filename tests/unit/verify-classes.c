/* needs: none */
/*
 * Each class of sb_verify_check_block, produced by damaging filled buffers
 * directly, is found at the damaged block and nowhere else, with both
 * checksum algorithms and several block sizes: a flipped payload bit, a
 * flipped header bit and a torn block are corrupted; a block copied from
 * elsewhere is misplaced (naming where it belongs); an older generation is
 * stale; zeros, ones, garbage and another run's block are foreign.
 */
#include "tests/lib/sbtest.h"
#include "lib/verify/block.h"
#include "lib/verify/ranges.h"

#define NBLOCKS 16
#define BASE (1ull << 20) /* absolute offset of block 0 */
#define SEED 0x5eed1234abcdull
#define GEN 2

static unsigned char *filled(const struct sb_verify_fmt *f)
{
	unsigned char *b = malloc((size_t)NBLOCKS * f->block_size);
	assert_non_null(b);
	sb_verify_fill(f, b, (size_t)NBLOCKS * f->block_size, BASE, 123456789);
	return b;
}

/* The damage done to the buffer, block by block, and what it must read as. */
struct expect {
	int cls;
	uint64_t expected_offset, generation;
};

static void damage(const struct sb_verify_fmt *f, unsigned char *b, struct expect *want)
{
	const uint32_t bs = f->block_size;
	struct sb_verify_fmt other = *f;

	for (int i = 0; i < NBLOCKS; i++)
		want[i] = (struct expect){ SB_VERIFY_INTACT, 0, 0 };
	b[3 * bs + bs / 2] ^= 0x10; /* a payload bit */
	want[3].cls = SB_VERIFY_CORRUPTED;
	b[5 * bs + 2] ^= 0x01; /* the magic */
	want[5].cls = SB_VERIFY_CORRUPTED;
	b[6 * bs + 24] ^= 0x80; /* the offset field */
	want[6].cls = SB_VERIFY_CORRUPTED;
	memcpy(b + 7 * bs, b + 1 * bs, bs); /* block 1 landed at 7 */
	want[7] = (struct expect){ SB_VERIFY_MISPLACED, BASE + bs, GEN };
	other.generation = GEN - 1; /* the write of generation 2 was lost */
	sb_verify_fill(&other, b + 9 * bs, bs, BASE + 9 * bs, 1);
	want[9] = (struct expect){ SB_VERIFY_STALE, 0, GEN - 1 };
	memset(b + 10 * bs, 0, bs);
	want[10].cls = SB_VERIFY_FOREIGN;
	memset(b + 11 * bs, 0xff, bs);
	want[11].cls = SB_VERIFY_FOREIGN;
	for (uint32_t k = 0; k < bs; k++)
		b[12 * bs + k] = (unsigned char)(k * 2654435761u >> 13);
	want[12].cls = SB_VERIFY_FOREIGN;
	other = *f;
	other.seed = SEED + 1; /* another run */
	sb_verify_fill(&other, b + 13 * bs, bs, BASE + 13 * bs, 1);
	want[13].cls = SB_VERIFY_FOREIGN;
	/* torn: the second half is still the previous generation's */
	unsigned char *prev = malloc(bs);
	assert_non_null(prev);
	other.seed = SEED;
	other.generation = GEN - 1;
	sb_verify_fill(&other, prev, bs, BASE + 15 * bs, 1);
	memcpy(b + 15 * bs + bs / 2, prev + bs / 2, bs / 2);
	free(prev);
	want[15].cls = SB_VERIFY_CORRUPTED;
}

static void check_all(uint32_t bs, unsigned csum)
{
	struct sb_verify_fmt f;
	struct expect want[NBLOCKS];
	struct sb_verify_finding fd;

	assert_int_equal(sb_verify_fmt_init(&f, SEED, GEN, bs), 0);
	f.csum = (uint16_t)csum;
	unsigned char *b = filled(&f);
	for (int i = 0; i < NBLOCKS; i++)
		assert_int_equal(sb_verify_check_block(&f, b + (size_t)i * bs,
						       BASE + (uint64_t)i * bs, &fd),
				 SB_VERIFY_INTACT);
	damage(&f, b, want);
	for (int i = 0; i < NBLOCKS; i++) {
		int got = sb_verify_check_block(&f, b + (size_t)i * bs, BASE + (uint64_t)i * bs,
						&fd);
		if (got != want[i].cls)
			fail_msg("bs %u csum %u block %d: %s, want %s", bs, csum, i,
				 sb_verify_class_name(got), sb_verify_class_name(want[i].cls));
		assert_int_equal(fd.cls, got);
		if (got == SB_VERIFY_MISPLACED)
			assert_int_equal(fd.expected_offset, want[i].expected_offset);
		if (got == SB_VERIFY_MISPLACED || got == SB_VERIFY_STALE)
			assert_int_equal(fd.generation, want[i].generation);
	}

	/* the same through the accumulator: counts and one range per bad block
	 * (5 and 6 are one range: both corrupted and adjacent) */
	struct sb_verify_acc acc;
	assert_int_equal(sb_verify_acc_init(&acc, bs, 32), 0);
	assert_int_equal(sb_verify_check(&f, b, (size_t)NBLOCKS * bs, BASE, &acc), 10);
	sb_verify_acc_finish(&acc);
	assert_int_equal(acc.blocks, NBLOCKS);
	assert_int_equal(acc.count[SB_VERIFY_INTACT], 6);
	assert_int_equal(acc.count[SB_VERIFY_CORRUPTED], 4);
	assert_int_equal(acc.count[SB_VERIFY_MISPLACED], 1);
	assert_int_equal(acc.count[SB_VERIFY_STALE], 1);
	assert_int_equal(acc.count[SB_VERIFY_FOREIGN], 4);
	assert_int_equal(acc.nranges, 6);
	const struct sb_verify_range *r = acc.ranges;
	assert_int_equal(r[0].offset, BASE + 3 * bs);
	assert_int_equal(r[1].offset, BASE + 5 * bs);
	assert_int_equal(r[1].length, 2 * bs);
	assert_int_equal(r[2].cls, SB_VERIFY_MISPLACED);
	assert_int_equal(r[2].expected_offset, BASE + bs);
	assert_int_equal(r[3].cls, SB_VERIFY_STALE);
	assert_int_equal(r[3].generation, GEN - 1);
	assert_int_equal(r[4].cls, SB_VERIFY_FOREIGN);
	assert_int_equal(r[4].offset, BASE + 10 * bs);
	assert_int_equal(r[4].length, 4 * bs);
	assert_int_equal(r[5].cls, SB_VERIFY_CORRUPTED);
	assert_int_equal(r[5].offset, BASE + 15 * bs);
	assert_int_equal(acc.omitted, 0);
	sb_verify_acc_free(&acc);
	free(b);
}

static void test_xxh3(void **state)
{
	(void)state;
	if (!sb_verify_csum_supported(SB_VERIFY_CSUM_XXH3))
		skip();
	check_all(4096, SB_VERIFY_CSUM_XXH3);
	check_all(512, SB_VERIFY_CSUM_XXH3);
	check_all(65536, SB_VERIFY_CSUM_XXH3);
}

static void test_crc32c(void **state)
{
	(void)state;
	check_all(4096, SB_VERIFY_CSUM_CRC32C);
	check_all(512, SB_VERIFY_CSUM_CRC32C);
	check_all(65536, SB_VERIFY_CSUM_CRC32C);
}

/* Filling is deterministic but for the time; generations and offsets give
 * different payloads; a valid block is recognised with its header. */
static void test_fill_identity(void **state)
{
	struct sb_verify_fmt f, g;
	struct sb_verify_header h;
	unsigned char a[8192], b[8192];

	(void)state;
	sb_verify_fmt_init(&f, SEED, GEN, 4096);
	g = f;
	g.generation = GEN + 1;
	sb_verify_fill(&f, a, sizeof(a), 4096, 1);
	sb_verify_fill(&f, b, sizeof(b), 4096, 2);
	assert_memory_not_equal(a, b, 64);
	assert_memory_equal(a + 64, b + 64, 4096 - 64);
	assert_memory_not_equal(a + 64, a + 4096 + 64, 4096 - 64);
	sb_verify_fill(&g, b, sizeof(b), 4096, 1);
	assert_memory_not_equal(a + 64, b + 64, 4096 - 64);
	assert_int_equal(sb_verify_block_valid(a + 4096, 4096, &h), 1);
	assert_int_equal(h.seed, SEED);
	assert_int_equal(h.offset, 8192);
	assert_int_equal(h.generation, GEN);
	assert_int_equal(h.block_size, 4096);
	assert_int_equal(sb_verify_block_valid(a + 4096, 2048, &h), 0);
	a[4096 + 100] ^= 1;
	assert_int_equal(sb_verify_block_valid(a + 4096, 4096, &h), 0);
	memset(a, 0, 4096);
	assert_int_equal(sb_verify_block_valid(a, 4096, &h), 0);
}

static void test_fmt_init(void **state)
{
	struct sb_verify_fmt f;

	(void)state;
	assert_int_equal(sb_verify_fmt_init(&f, 1, 1, 511), -EINVAL);
	assert_int_equal(sb_verify_fmt_init(&f, 1, 1, 1000), -EINVAL);
	assert_int_equal(sb_verify_fmt_init(&f, 1, 1, 0), -EINVAL);
	assert_int_equal(sb_verify_fmt_init(&f, 1, 1, SB_VERIFY_MAX_BS + 512), -EINVAL);
	assert_int_equal(sb_verify_fmt_init(&f, 1, 1, 1536), 0);
	assert_string_equal(sb_verify_class_name(SB_VERIFY_MISPLACED), "misplaced");
	assert_string_equal(sb_verify_class_name(99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xxh3),
		cmocka_unit_test(test_crc32c),
		cmocka_unit_test(test_fill_identity),
		cmocka_unit_test(test_fmt_init),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
