/* needs: none */
/*
 * The built-in signature probe names each format it knows from its magic at
 * the right offset, and finds nothing in zeros or random data.
 */
#include "tests/lib/sbtest.h"

#include "lib/base/rng.h"
#include "lib/target/safety.h"

#define LEN (68 * 1024)

struct sig {
	const char *expect;
	uint32_t off;
	const char *bytes;
	uint32_t len;
};

static const struct sig sigs[] = {
	{ "GPT", 512, "EFI PART", 8 },
	{ "ext2/3/4", 0x438, "\x53\xef", 2 },
	{ "xfs", 0, "XFSB", 4 },
	{ "btrfs", 65536 + 64, "_BHRfS_M", 8 },
	{ "exfat", 3, "EXFAT   ", 8 },
	{ "LUKS", 0, "LUKS\xba\xbe", 6 },
	{ "md RAID", 4096, "\xfc\x4e\x2b\xa9", 4 },
	{ "swap", 4086, "SWAPSPACE2", 10 },
	{ "LVM2", 512, "LABELONE", 8 },
};

static void test_each_magic(void **state)
{
	(void)state;
	unsigned char *b = calloc(1, LEN);
	char what[128];
	assert_non_null(b);
	for (size_t i = 0; i < SB_ARRAY_SIZE(sigs); i++) {
		memset(b, 0, LEN);
		memcpy(b + sigs[i].off, sigs[i].bytes, sigs[i].len);
		if (!strcmp(sigs[i].expect, "LVM2"))
			memcpy(b + 512 + 24, "LVM2 001", 8);
		assert_int_equal(sb_signature_scan(b, LEN, what, sizeof(what)), 1);
		if (!strstr(what, sigs[i].expect))
			fail_msg("magic %s detected as '%s'", sigs[i].expect, what);
	}
	free(b);
}

static void test_mbr_and_fat(void **state)
{
	(void)state;
	unsigned char b[4096] = { 0 };
	char what[128];
	b[510] = 0x55;
	b[511] = 0xaa;
	assert_int_equal(sb_signature_scan(b, sizeof(b), what, sizeof(what)), 1);
	assert_non_null(strstr(what, "MBR"));
	memcpy(b + 82, "FAT32   ", 8);
	assert_int_equal(sb_signature_scan(b, sizeof(b), what, sizeof(what)), 1);
	assert_non_null(strstr(what, "vfat"));
}

static void test_nothing(void **state)
{
	(void)state;
	unsigned char *b = calloc(1, LEN);
	char what[128] = "";
	struct sb_rng r;
	assert_non_null(b);
	assert_int_equal(sb_signature_scan(b, LEN, what, sizeof(what)), 0);
	sb_rng_seed(&r, 42);
	for (size_t i = 0; i < LEN; i += 8) {
		uint64_t x = sb_rng_next(&r);
		memcpy(b + i, &x, 8);
	}
	b[0x438] = 0; /* this seed's data must not look like anything */
	b[510] = 0;
	assert_int_equal(sb_signature_scan(b, LEN, what, sizeof(what)), 0);
	/* a short read: magics beyond it are not looked at */
	memcpy(b + 65536 + 64, "_BHRfS_M", 8);
	assert_int_equal(sb_signature_scan(b, 4096, what, sizeof(what)), 0);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_magic),
		cmocka_unit_test(test_mbr_and_fat),
		cmocka_unit_test(test_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
