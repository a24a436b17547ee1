/* needs: none */
/*
 * IDENTIFY DEVICE decoding (ACS-3): the security word 128 bit by bit, word
 * 82's validity (0000h and FFFFh mean "not reported"), the erase times of
 * words 89/90 in both formats (bit 15 clear: bits 7:0, 255 "longer"; set:
 * bits 14:0, 32767 "longer"), the sanitize bits of word 59 (which count
 * only with bit 12), and the message texts of a failed command. Values
 * worked out by hand from the words set.
 */
#include "tests/lib/sbtest.h"
#include "lib/device/ata.h"

static void test_security(void **state)
{
	uint16_t id[SB_ATA_ID_WORDS] = { 0 };
	struct sb_ata_id d;
	(void)state;

	id[82] = 0x4002;
	id[128] = 0x0021; /* supported, enhanced erase */
	id[89] = 0x0003;  /* 6 minutes */
	id[90] = 0x8002;  /* extended format: 4 minutes */
	sb_ata_id_decode(id, &d);
	assert_true(d.sec_supported);
	assert_true(d.sec_enhanced);
	assert_false(d.sec_enabled || d.sec_locked || d.sec_frozen || d.sec_expired);
	assert_int_equal(d.erase_min, 6);
	assert_int_equal(d.enh_min, 4);
	assert_false(d.erase_long || d.enh_long);

	id[128] = 0x001f; /* supported, enabled, locked, frozen, expired */
	sb_ata_id_decode(id, &d);
	assert_true(d.sec_supported && d.sec_enabled && d.sec_locked && d.sec_frozen &&
		    d.sec_expired);
	assert_false(d.sec_enhanced);
	assert_int_equal(d.w128, 0x001f);

	/* word 82 not reported: no security whatever word 128 says */
	id[82] = 0xffff;
	sb_ata_id_decode(id, &d);
	assert_false(d.sec_supported);
	id[82] = 0x0000;
	sb_ata_id_decode(id, &d);
	assert_false(d.sec_supported);
	/* word 82 says yes, word 128 bit 0 no */
	id[82] = 0x0002;
	id[128] = 0x0020;
	sb_ata_id_decode(id, &d);
	assert_false(d.sec_supported);
}

static void test_erase_times(void **state)
{
	uint16_t id[SB_ATA_ID_WORDS] = { 0 };
	struct sb_ata_id d;
	(void)state;

	id[89] = 0x00ff; /* short format, "more than 508 minutes" */
	id[90] = 0xffff; /* extended, "more than 65532 minutes" */
	sb_ata_id_decode(id, &d);
	assert_true(d.erase_long && d.enh_long);
	id[89] = 0x7f10; /* short format reads bits 7:0 only: 16 x 2 */
	id[90] = 0x8100; /* extended: 256 x 2 */
	sb_ata_id_decode(id, &d);
	assert_int_equal(d.erase_min, 32);
	assert_int_equal(d.enh_min, 512);
	assert_false(d.erase_long || d.enh_long);
	id[89] = id[90] = 0; /* not given */
	sb_ata_id_decode(id, &d);
	assert_int_equal(d.erase_min, 0);
	assert_int_equal(d.enh_min, 0);
}

static void test_sanitize(void **state)
{
	uint16_t id[SB_ATA_ID_WORDS] = { 0 };
	struct sb_ata_id d;
	(void)state;

	id[59] = 0xb000; /* sanitize, crypto, block; no overwrite */
	sb_ata_id_decode(id, &d);
	assert_true(d.sanitize && d.san_crypto && d.san_block);
	assert_false(d.san_overwrite);
	id[59] = 0xe000; /* the command bits without the feature set */
	sb_ata_id_decode(id, &d);
	assert_false(d.sanitize || d.san_crypto || d.san_block || d.san_overwrite);
	id[59] = 0x5010; /* overwrite only; bits 7:0 are the multiple count */
	sb_ata_id_decode(id, &d);
	assert_true(d.sanitize && d.san_overwrite);
	assert_false(d.san_crypto || d.san_block);
}

static void test_why(void **state)
{
	struct sb_ata_result r = { .ata = 1, .status = 0x51, .error = 0x04 };
	char b[160];
	(void)state;

	sb_ata_why(&r, -EIO, b, sizeof(b));
	assert_string_equal(b,
			    "ATA status 0x51, error 0x04 (ABRT: the device aborted the command)");
	r = (struct sb_ata_result){ .key = 5, .asc = 0x20 };
	sb_ata_why(&r, -EOPNOTSUPP, b, sizeof(b));
	assert_string_equal(b, "SCSI sense key 0x5, ASC/ASCQ 0x20/0x00");
	r = (struct sb_ata_result){ .host_status = 3 };
	sb_ata_why(&r, -EIO, b, sizeof(b));
	assert_string_equal(b, "transport error (SG_IO host status 0x3, driver status 0x0)");
	r = (struct sb_ata_result){ 0 };
	sb_ata_why(&r, -ENOTTY, b, sizeof(b));
	assert_string_equal(b, strerror(ENOTTY));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_security),
		cmocka_unit_test(test_erase_times),
		cmocka_unit_test(test_sanitize),
		cmocka_unit_test(test_why),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
