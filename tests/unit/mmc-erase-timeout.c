/* needs: none */
/*
 * eMMC ERASE and SANITIZE timeouts (lib/device/mmc.c, JESD84-B51 7.4.62,
 * 7.4.63): the high-capacity erase group and 300 ms x ERASE_TIMEOUT_MULT
 * per group when ERASE_GROUP_DEF is set, the 64 MiB bound otherwise; a
 * range split into chunks of whole groups, each within the 10 min cap,
 * that cover every sector once and carry the timeout of the groups they
 * span; sanitize's bound between 240 s and 24 h.
 */
#include "tests/unit/hexfix.h"
#include "lib/device/mmc.h"

struct seen {
	uint32_t first[4096], last[4096];
	unsigned ms[4096];
	unsigned n;
};

static int note(uint32_t first, uint32_t last, unsigned ms, void *ctx)
{
	struct seen *s = ctx;
	assert_true(s->n < 4096);
	s->first[s->n] = first;
	s->last[s->n] = last;
	s->ms[s->n++] = ms;
	return 0;
}

static struct sb_ext_csd hc(unsigned grp, unsigned mult, uint64_t sectors)
{
	struct sb_ext_csd e;
	memset(&e, 0, sizeof(e));
	e.erase_group = grp * 512ull * 1024;
	e.erase_timeout_mult = mult;
	e.erase_group_def = 1;
	e.sectors = sectors;
	return e;
}

/* The chunks cover [first, last] in order, each sector once, each within
 * the cap, each timeout = groups spanned x per-group ms. */
static void check_cover(const struct sb_ext_csd *e, const struct seen *s, uint32_t first,
			uint32_t last)
{
	uint32_t unit;
	unsigned ms;
	sb_mmc_erase_unit(e, &unit, &ms);
	uint64_t at = first;
	for (unsigned i = 0; i < s->n; i++) {
		assert_int_equal(s->first[i], at);
		assert_true(s->last[i] >= s->first[i]);
		assert_true(s->ms[i] <= SB_MMC_ERASE_CAP_MS);
		assert_int_equal(s->ms[i], (s->last[i] / unit - s->first[i] / unit + 1) * ms);
		if (i + 1 < s->n) /* a chunk ends on a group's end */
			assert_int_equal((s->last[i] + 1) % unit, 0);
		at = (uint64_t)s->last[i] + 1;
	}
	assert_int_equal(at, (uint64_t)last + 1);
}

static void test_hc(void **state)
{
	(void)state;
	uint32_t unit;
	unsigned ms;
	/* 4 x 512 KiB groups, 300 ms x 16 = 4.8 s each: 125 groups a chunk */
	struct sb_ext_csd e = hc(4, 16, 0);
	sb_mmc_erase_unit(&e, &unit, &ms);
	assert_int_equal(unit, 4096);
	assert_int_equal(ms, 4800);
	struct seen s = { .n = 0 };
	assert_int_equal(sb_mmc_erase_chunks(&e, 0, 4096 * 300 - 1, note, &s), 0);
	assert_int_equal(s.n, 3); /* 125 + 125 + 50 groups */
	assert_int_equal(s.ms[0], 600000);
	assert_int_equal(s.last[0], 4096 * 125 - 1);
	assert_int_equal(s.ms[2], 50 * 4800);
	check_cover(&e, &s, 0, 4096 * 300 - 1);
	/* a small range inside one group: one command, one group's timeout */
	s.n = 0;
	assert_int_equal(sb_mmc_erase_chunks(&e, 10, 20, note, &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.ms[0], 4800);
	/* unaligned ends: the groups the range touches count */
	s.n = 0;
	assert_int_equal(sb_mmc_erase_chunks(&e, 4000, 4096 * 125 + 5, note, &s), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.last[0], 4096 * 125 - 1);
	assert_int_equal(s.ms[0], 125 * 4800);
	assert_int_equal(s.ms[1], 4800);
	check_cover(&e, &s, 4000, 4096 * 125 + 5);
	/* the largest multiplier: 76.5 s a group, 7 groups a chunk */
	e = hc(1, 255, 0);
	s.n = 0;
	assert_int_equal(sb_mmc_erase_chunks(&e, 0, 65535, note, &s), 0);
	assert_int_equal(s.n, 10); /* 64 groups: 9 x 7 + 1 */
	assert_int_equal(s.ms[0], 7 * 76500);
	assert_int_equal(s.ms[9], 76500);
	check_cover(&e, &s, 0, 65535);
	/* the last sector a 32-bit address reaches */
	e = hc(16, 1, 0);
	s.n = 0;
	assert_int_equal(sb_mmc_erase_chunks(&e, 0, UINT32_MAX, note, &s), 0);
	check_cover(&e, &s, 0, UINT32_MAX);
	assert_int_equal(sb_mmc_erase_chunks(&e, 5, 4, note, &s), -EINVAL);
}

static void test_legacy(void **state)
{
	(void)state;
	uint32_t unit;
	unsigned ms;
	/* ERASE_GROUP_DEF clear: the 64 MiB bound, whatever [223]/[224] say */
	struct sb_ext_csd e = hc(4, 16, 0);
	e.erase_group_def = 0;
	sb_mmc_erase_unit(&e, &unit, &ms);
	assert_int_equal(unit, 131072);
	assert_int_equal(ms, SB_MMC_ERASE_CAP_MS);
	/* set, but ERASE_TIMEOUT_MULT 0 (not given): the same */
	e = hc(4, 0, 0);
	sb_mmc_erase_unit(&e, &unit, &ms);
	assert_int_equal(unit, 131072);
	struct seen s = { .n = 0 };
	assert_int_equal(sb_mmc_erase_chunks(&e, 0, 3 * 131072 + 7, note, &s), 0);
	assert_int_equal(s.n, 4);
	check_cover(&e, &s, 0, 3 * 131072 + 7);
	/* the fixture: no [175], no [223] */
	uint8_t raw[SB_EXT_CSD_SIZE];
	hexfix_load("emmc51-ext-csd.hex", raw, sizeof(raw));
	assert_int_equal(sb_ext_csd_decode(raw, &e), 0);
	assert_int_equal(e.erase_group_def, 0);
	assert_int_equal(e.erase_timeout_mult, 0);
	raw[175] = 1;
	raw[223] = 0x20;
	assert_int_equal(sb_ext_csd_decode(raw, &e), 0);
	sb_mmc_erase_unit(&e, &unit, &ms);
	assert_int_equal(unit, 1024); /* HC_ERASE_GRP_SIZE 1 */
	assert_int_equal(ms, 9600);
}

static void test_sanitize(void **state)
{
	(void)state;
	/* 1 GiB of 512 KiB groups at 300 ms: 614 s */
	struct sb_ext_csd e = hc(1, 1, 2097152);
	assert_int_equal(sb_mmc_sanitize_timeout_ms(&e), 2048 * 300);
	/* small: the kernel's 240 s at least */
	e = hc(1, 1, 2048);
	assert_int_equal(sb_mmc_sanitize_timeout_ms(&e), SB_MMC_SANITIZE_MIN_MS);
	/* huge: 24 h at most */
	e = hc(1, 255, UINT32_MAX);
	assert_int_equal(sb_mmc_sanitize_timeout_ms(&e), SB_MMC_SANITIZE_MAX_MS);
	/* legacy, 16 MiB: one 64 MiB unit */
	e = hc(1, 1, 32768);
	e.erase_group_def = 0;
	assert_int_equal(sb_mmc_sanitize_timeout_ms(&e), SB_MMC_ERASE_CAP_MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hc),
		cmocka_unit_test(test_legacy),
		cmocka_unit_test(test_sanitize),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
