/* needs: none */
/* The decision of storbench flash --align on synthetic diff profiles whose
 * truth is known (a clear step, two and three steps, pure noise, the zram
 * rows METHODS.md 1.7 observed), and the LFSR order --open-au visits. */
#include "tests/lib/sbtest.h"

#include "lib/base/rng.h"
#include "lib/flash/flash.h"

#define US 1000.0

/* rows from 128 MiB down to 8 KiB (bs 4 KiB): a plain read of base ns, a
 * read across boundary a costs extra(a) more, every read off by up to
 * +-jitter ns */
static void make(struct sb_flash_profile *p, double base, double jitter, double (*extra)(uint64_t),
		 uint64_t seed)
{
	struct sb_rng r;
	sb_rng_seed(&r, seed);
	memset(p, 0, sizeof(*p));
	p->bs = 4096;
	p->count = 8;
	p->maxalign = 128ull << 20;
	for (uint64_t a = p->maxalign; a >= 8192; a /= 2) {
		struct sb_flash_align_row *w = &p->rows[p->nrows++];
		w->align = a;
		w->pre_ns = base + jitter * (2 * sb_rng_double(&r) - 1);
		w->post_ns = base + jitter * (2 * sb_rng_double(&r) - 1);
		w->on_ns = base + extra(a) + jitter * (2 * sb_rng_double(&r) - 1);
		w->diff_ns = w->on_ns - (w->pre_ns + w->post_ns) / 2;
		w->positions = SB_FLASH_POSITIONS;
	}
}

static double one_step(uint64_t a)
{
	return a >= (4u << 20) ? 300 * US : 0;
}

static double two_steps(uint64_t a)
{
	return a >= (4u << 20) ? 300 * US : a >= (16u << 10) ? 165 * US : 0;
}

/* flashbench's README card: 300 us from 4 MiB, 165 down to 16 KiB, 53 at
 * 8 KiB, 5 below (here there is no row below 8 KiB) */
static double readme(uint64_t a)
{
	return a >= (4u << 20) ? 300 * US : a >= (16u << 10) ? 165 * US : 53 * US;
}

static double page_only(uint64_t a)
{
	return a >= (16u << 10) ? 40 * US : 0;
}

static double nothing(uint64_t a)
{
	(void)a;
	return 0;
}

static double top_only(uint64_t a)
{
	return a == (128u << 20) ? 20 * US : 0;
}

static uint64_t size_of(const struct sb_flash_decision *d, int k)
{
	return k >= 0 ? d->steps[k].align : 0;
}

static void test_clear_step(void **state)
{
	(void)state;
	struct sb_flash_profile p;
	struct sb_flash_decision d;
	for (uint64_t seed = 1; seed <= 50; seed++) {
		make(&p, 500 * US, 5 * US, one_step, seed);
		assert_int_equal(sb_flash_decide(&p, &d), 0);
		assert_int_equal(d.nsteps, 1);
		assert_int_equal(size_of(&d, d.erase), 4u << 20);
		assert_int_equal(d.page, -1);
		assert_int_equal(d.steps[0].conf, SB_FLASH_CONF_HIGH);
	}
}

static void test_two_steps(void **state)
{
	(void)state;
	struct sb_flash_profile p;
	struct sb_flash_decision d;
	for (uint64_t seed = 1; seed <= 50; seed++) {
		make(&p, 500 * US, 5 * US, two_steps, seed);
		assert_int_equal(sb_flash_decide(&p, &d), 0);
		assert_int_equal(d.nsteps, 2);
		assert_int_equal(size_of(&d, d.erase), 4u << 20);
		assert_int_equal(size_of(&d, d.page), 16u << 10);
	}
	/* three steps: the largest is the erase block, the smallest the page */
	make(&p, 500 * US, 5 * US, readme, 7);
	assert_int_equal(sb_flash_decide(&p, &d), 0);
	assert_int_equal(size_of(&d, d.erase), 4u << 20);
	assert_int_equal(size_of(&d, d.page), 16u << 10);
	/* a lone low step is a page, not an erase block */
	make(&p, 500 * US, 2 * US, page_only, 3);
	assert_int_equal(sb_flash_decide(&p, &d), 0);
	assert_int_equal(d.erase, -1);
	assert_int_equal(size_of(&d, d.page), 16u << 10);
}

/* pure noise, however loud against the plain read, names nothing */
static void test_noise(void **state)
{
	(void)state;
	struct sb_flash_profile p;
	struct sb_flash_decision d;
	const double jitter[] = { 0.01, 0.05, 0.2, 0.5 };
	for (size_t j = 0; j < SB_ARRAY_SIZE(jitter); j++)
		for (uint64_t seed = 1; seed <= 500; seed++) {
			make(&p, 500 * US, jitter[j] * 500 * US, nothing, seed);
			assert_int_equal(sb_flash_decide(&p, &d), 0);
			assert_int_equal(d.erase, -1);
			assert_int_equal(d.page, -1);
		}
	/* one boundary alone a little above the rest is no plateau */
	make(&p, 500 * US, 5 * US, top_only, 9);
	assert_int_equal(sb_flash_decide(&p, &d), 0);
	assert_int_equal(d.nsteps, 0);
}

/* METHODS.md 1.7: flashbench -a --blocksize=8192 on /dev/zram0 */
static void test_zram_rows(void **state)
{
	(void)state;
	static const double rows[][4] = {
		{ 687, 719, 686, 33 }, { 683, 681, 683, -2 }, { 688, 684, 688, -4 },
		{ 684, 678, 691, -9 }, { 689, 688, 686, 1 },  { 690, 681, 683, -5 },
	};
	struct sb_flash_profile p = { .bs = 8192, .count = 8 };
	for (size_t i = 0; i < SB_ARRAY_SIZE(rows); i++) {
		struct sb_flash_align_row *w = &p.rows[p.nrows++];
		w->align = (128ull << 20) >> i;
		w->pre_ns = rows[i][0];
		w->on_ns = rows[i][1];
		w->post_ns = rows[i][2];
		w->diff_ns = rows[i][3];
	}
	struct sb_flash_decision d;
	assert_int_equal(sb_flash_decide(&p, &d), 0);
	assert_int_equal(d.nsteps, 0);
	p.nrows = 2;
	assert_int_equal(sb_flash_decide(&p, &d), -EINVAL);
}

static void test_sizes(void **state)
{
	(void)state;
	assert_int_equal(sb_flash_bs_ok(4096, 4096), -EINVAL); /* the on read: bs/2 */
	assert_int_equal(sb_flash_bs_ok(8192, 4096), 0);
	assert_int_equal(sb_flash_bs_ok(1024, 512), 0);
	assert_int_equal(sb_flash_bs_ok(3072, 512), -EINVAL);
	/* all seven positions inside: 8 x maxalign <= size */
	assert_int_equal(sb_flash_maxalign(256ull << 20, 4096), 32ull << 20);
	assert_int_equal(sb_flash_maxalign(512ull << 20, 8192), 64ull << 20);
	assert_int_equal(sb_flash_maxalign(128 << 10, 4096), 16 << 10);
	assert_int_equal(sb_flash_maxalign((128 << 10) - 512, 4096), 0);
	assert_int_equal(sb_flash_au_offset(4u << 20), 16u << 20);
	assert_int_equal(sb_flash_au_offset(6u << 20), 18u << 20);
}

/* every index once in n calls, and the order is not the identity */
static void test_lfsr(void **state)
{
	(void)state;
	static unsigned char seen[1u << 17];
	const uint32_t ns[] = { 1, 2, 3, 7, 200, 255, 256, 257, 4096, 5000, 65535, 1u << 17 };
	for (size_t k = 0; k < SB_ARRAY_SIZE(ns); k++) {
		struct sb_lfsr l;
		assert_int_equal(sb_lfsr_init(&l, ns[k]), 0);
		memset(seen, 0, ns[k]);
		unsigned inorder = 0;
		for (uint32_t i = 0; i < ns[k]; i++) {
			const uint32_t v = sb_lfsr_next(&l);
			assert_true(v < ns[k]);
			assert_int_equal(seen[v], 0);
			seen[v] = 1;
			inorder += v == i;
		}
		if (ns[k] > 7)
			assert_true(inorder < ns[k] / 2);
	}
	/* the full period of every width: 2^w - 1 states before the first returns */
	for (uint32_t w = 8; w <= 24; w++) {
		struct sb_lfsr l;
		assert_int_equal(sb_lfsr_init(&l, (1u << w) - 1), 0);
		const uint32_t first = sb_lfsr_next(&l);
		uint32_t period = 1;
		while (sb_lfsr_next(&l) != first)
			period++;
		assert_int_equal(period, (1u << w) - 1);
	}
	struct sb_lfsr l;
	assert_int_equal(sb_lfsr_init(&l, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clear_step), cmocka_unit_test(test_two_steps),
		cmocka_unit_test(test_noise),	   cmocka_unit_test(test_zram_rows),
		cmocka_unit_test(test_sizes),	   cmocka_unit_test(test_lfsr),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
