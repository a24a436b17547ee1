/* needs: none */
/*
 * EXT_CSD decoding against recorded registers (tests/fixtures/emmc*.hex):
 * every decoded field checked against the value worked out by hand from
 * JESD84 for the bytes in the fixture; fields a revision does not define
 * stay 0 whatever the bytes say; the text of life time and pre-EOL codes;
 * the sysfs life_time / pre_eol_info parsers.
 */
#include "tests/unit/hexfix.h"
#include "lib/device/mmc.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)

static void test_emmc51(void **state)
{
	uint8_t raw[SB_EXT_CSD_SIZE];
	struct sb_ext_csd e;
	(void)state;

	hexfix_load("emmc51-ext-csd.hex", raw, sizeof(raw));
	assert_int_equal(sb_ext_csd_decode(raw, &e), 0);
	assert_int_equal(e.rev, 8);
	assert_string_equal(e.version, "5.1");
	assert_int_equal(e.sectors, 30777344);
	assert_int_equal(e.life_a, 1);
	assert_int_equal(e.life_b, 2);
	assert_int_equal(e.pre_eol, 1);
	assert_int_equal(e.cache_bytes, 8 * MIB); /* 65536 kilobits */
	assert_int_equal(e.cache_on, 1);
	assert_int_equal(e.bkops_supported, 1);
	assert_int_equal(e.bkops_manual, 0);
	assert_int_equal(e.bkops_auto, 1);
	assert_int_equal(e.bkops_status, 0);
	assert_int_equal(e.part_config, 0x08);
	assert_string_equal(sb_mmc_boot_text(e.part_config), "boot0");
	assert_int_equal(e.partitioning_done, 0);
	assert_int_equal(e.hs_timing, 3); /* driver strength in the high nibble ignored */
	assert_string_equal(sb_mmc_timing_text(e.hs_timing), "HS400");
	assert_int_equal(e.enhanced_strobe, 1);
	assert_int_equal(e.device_type, 0x57);
	assert_int_equal(e.boot_size, 4 * MIB);
	assert_int_equal(e.rpmb_size, 4 * MIB);
	assert_int_equal(e.erase_group, 512 * KIB);
	assert_int_equal(e.rel_wr_sectors, 1);
	assert_int_equal(e.sec_features, 0x55);
	assert_int_equal(e.cmdq_supported, 1);
	assert_int_equal(e.cmdq_depth, 32);
	assert_int_equal(e.cmdq_on, 1);
	assert_int_equal(e.ffu_supported, 1);
	assert_int_equal(e.data_sector_size, 512);
	assert_int_equal(e.optimal_read, 16 * KIB);
	assert_int_equal(e.optimal_write, 16 * KIB);
	assert_int_equal(e.optimal_trim, 256 * KIB);
	assert_int_equal(e.fw_version[0], 0x05);
	assert_string_equal(e.fw_text, "0500000000000000"); /* binary: shown in hex */
	assert_int_equal(e.device_version, 1);
}

static void test_emmc45(void **state)
{
	uint8_t raw[SB_EXT_CSD_SIZE];
	struct sb_ext_csd e;
	(void)state;

	hexfix_load("emmc45-ext-csd.hex", raw, sizeof(raw));
	/* bytes 5.0 defined later are reserved here: garbage must not leak */
	raw[267] = 0x02;
	raw[268] = 0x05;
	raw[269] = 0x06;
	raw[308] = 0x01;
	assert_int_equal(sb_ext_csd_decode(raw, &e), 0);
	assert_int_equal(e.rev, 6);
	assert_string_equal(e.version, "4.5");
	assert_int_equal(e.sectors, 15269888);
	assert_int_equal(e.life_a, 0);
	assert_int_equal(e.life_b, 0);
	assert_int_equal(e.pre_eol, 0);
	assert_int_equal(e.cmdq_supported, 0);
	assert_int_equal(e.cmdq_depth, 0);
	assert_int_equal(e.cache_bytes, 128 * KIB);
	assert_int_equal(e.cache_on, 0);
	assert_int_equal(e.bkops_supported, 1);
	assert_int_equal(e.bkops_manual, 1);
	assert_int_equal(e.bkops_auto, 0);
	assert_int_equal(e.bkops_status, 2);
	assert_string_equal(sb_mmc_boot_text(e.part_config), "none");
	assert_string_equal(sb_mmc_timing_text(e.hs_timing), "HS200");
	assert_int_equal(e.erase_group, 4 * MIB);
	assert_int_equal(e.boot_size, 1 * MIB);
	assert_int_equal(e.rpmb_size, 512 * KIB);
	assert_int_equal(e.fw_text[0], '\0'); /* FIRMWARE_VERSION came with 5.0 */
	assert_int_equal(e.optimal_write, 0);
}

static void test_emmc50_worn(void **state)
{
	uint8_t raw[SB_EXT_CSD_SIZE];
	struct sb_ext_csd e;
	(void)state;

	hexfix_load("emmc50-worn-ext-csd.hex", raw, sizeof(raw));
	assert_int_equal(sb_ext_csd_decode(raw, &e), 0);
	assert_int_equal(e.rev, 7);
	assert_string_equal(e.version, "5.0");
	assert_int_equal(e.sectors, 7667712);
	assert_int_equal(e.life_a, 10);
	assert_int_equal(e.life_b, 11);
	assert_int_equal(e.pre_eol, 3);
	assert_string_equal(sb_mmc_life_text(e.life_a), "90-100%");
	assert_string_equal(sb_mmc_life_text(e.life_b), "exceeded");
	assert_string_equal(sb_mmc_pre_eol_text(e.pre_eol), "urgent");
	assert_int_equal(e.cache_bytes, 0);
	assert_int_equal(e.cache_on, 0); /* CACHE_CTRL set, but there is no cache */
	assert_string_equal(e.fw_text, "V1.02");
	assert_string_equal(sb_mmc_boot_text(e.part_config), "boot0");
	assert_string_equal(sb_mmc_timing_text(e.hs_timing), "high speed");
	assert_int_equal(e.bkops_auto, 0); /* 5.1 only */
}

static void test_unknown_rev(void **state)
{
	uint8_t raw[SB_EXT_CSD_SIZE];
	struct sb_ext_csd e;
	(void)state;

	hexfix_load("emmc51-ext-csd.hex", raw, sizeof(raw));
	raw[192] = 9; /* a revision newer than this decoder: decoded as 5.1 */
	assert_int_equal(sb_ext_csd_decode(raw, &e), 0);
	assert_int_equal(e.rev, 9);
	assert_string_equal(e.version, "");
	assert_int_equal(e.life_b, 2);
	raw[192] = 4; /* obsolete revision */
	assert_int_equal(sb_ext_csd_decode(raw, &e), 0);
	assert_string_equal(e.version, "");
	assert_int_equal(sb_ext_csd_decode(NULL, &e), -EINVAL);
	assert_int_equal(sb_ext_csd_decode(raw, NULL), -EINVAL);
}

static void test_texts(void **state)
{
	(void)state;
	assert_string_equal(sb_mmc_life_text(0), "not defined");
	assert_string_equal(sb_mmc_life_text(1), "0-10%");
	assert_string_equal(sb_mmc_life_text(5), "40-50%");
	assert_string_equal(sb_mmc_life_text(10), "90-100%");
	assert_string_equal(sb_mmc_life_text(11), "exceeded");
	assert_string_equal(sb_mmc_life_text(12), "reserved");
	assert_string_equal(sb_mmc_life_text(255), "reserved");
	assert_string_equal(sb_mmc_pre_eol_text(0), "not defined");
	assert_string_equal(sb_mmc_pre_eol_text(1), "normal");
	assert_string_equal(sb_mmc_pre_eol_text(2), "warning");
	assert_string_equal(sb_mmc_pre_eol_text(3), "urgent");
	assert_string_equal(sb_mmc_pre_eol_text(4), "reserved");
	assert_string_equal(sb_mmc_timing_text(0), "legacy");
	assert_string_equal(sb_mmc_timing_text(4), "reserved");
	assert_string_equal(sb_mmc_boot_text(0x38), "user");
	assert_string_equal(sb_mmc_boot_text(0x10), "boot1");
	assert_string_equal(sb_mmc_boot_text(0x18), "reserved");
}

/* The kernel writes life_time as "0x%02x 0x%02x" and pre_eol_info as
 * "0x%02x". */
static void test_sysfs_parse(void **state)
{
	unsigned a = 99, b = 99, v = 99;
	(void)state;

	assert_int_equal(sb_mmc_parse_life_time("0x01 0x02\n", &a, &b), 0);
	assert_int_equal(a, 1);
	assert_int_equal(b, 2);
	assert_int_equal(sb_mmc_parse_life_time("0x0b 0x0a", &a, &b), 0);
	assert_int_equal(a, 11);
	assert_int_equal(b, 10);
	assert_int_equal(sb_mmc_parse_life_time("0x01", &a, &b), -EINVAL);
	assert_int_equal(sb_mmc_parse_life_time("0x01 0x02 0x03", &a, &b), -EINVAL);
	assert_int_equal(sb_mmc_parse_life_time("", &a, &b), -EINVAL);
	assert_int_equal(sb_mmc_parse_life_time(NULL, &a, &b), -EINVAL);
	assert_int_equal(sb_mmc_parse_hex("0x03\n", &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(sb_mmc_parse_hex("0x000015", &v), 0);
	assert_int_equal(v, 0x15);
	assert_int_equal(sb_mmc_parse_hex("zz", &v), -EINVAL);
	assert_int_equal(sb_mmc_parse_hex("0x1 junk", &v), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_emmc51),	    cmocka_unit_test(test_emmc45),
		cmocka_unit_test(test_emmc50_worn), cmocka_unit_test(test_unknown_rev),
		cmocka_unit_test(test_texts),	    cmocka_unit_test(test_sysfs_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
