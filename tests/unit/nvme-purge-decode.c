/* needs: none */
/*
 * What an NVMe purge reads and sends, against Identify and log pages
 * built here byte by byte at the NVM Express 2.0 offsets: OACS, SANICAP,
 * NN, FNA of Identify Controller; NSZE, NLBAF, FLBAS (with the upper index
 * bits above 16 formats), DPS and the LBA format table of Identify
 * Namespace; the Format NVM and Sanitize CDW10 made from them; the
 * Sanitize Status log; status code names.
 */
#include "tests/lib/sbtest.h"
#include "lib/device/nvme.h"

static uint8_t ctrl[SB_NVME_ID_SIZE], ns[SB_NVME_ID_SIZE];

/* Identify Controller: OACS 0x0017 (bit 1 format), SANICAP 0x60000003,
 * NN 32, FNA 0x05; a namespace of 20 formats, format i with LBADS 9 + 3 x
 * (i odd) and 8 metadata bytes when i & 2. */
static void build(uint8_t flbas, uint8_t dps)
{
	memset(ctrl, 0, sizeof(ctrl));
	memset(ns, 0, sizeof(ns));
	ctrl[256] = 0x17;
	ctrl[328] = 0x03;
	ctrl[331] = 0x60;
	ctrl[516] = 32;
	ctrl[524] = 0x05;
	ns[0] = 0x00; /* NSZE 0x12345600 */
	ns[1] = 0x56;
	ns[2] = 0x34;
	ns[3] = 0x12;
	ns[25] = 19;
	ns[26] = flbas;
	ns[29] = dps;
	for (int i = 0; i < 20; i++) {
		ns[128 + 4 * i] = i & 2 ? 8 : 0;
		ns[128 + 4 * i + 2] = i % 2 ? 12 : 9;
	}
}

static void test_caps(void **state)
{
	struct sb_nvme_caps c;
	(void)state;

	build(0x01, 0);
	assert_int_equal(sb_nvme_caps_decode(ctrl, ns, 7, &c), 0);
	assert_int_equal(c.nsid, 7);
	assert_int_equal(c.oacs, 0x17);
	assert_true(c.oacs & SB_NVME_OACS_FORMAT);
	assert_int_equal(c.sanicap, 0x60000003u);
	assert_int_equal(c.nn, 32);
	assert_int_equal(c.fna, 0x05);
	assert_int_equal(c.nsze, 0x12345600u);
	assert_int_equal(c.nlbaf, 19);
	assert_int_equal(c.lbaf, 1);
	assert_int_equal(c.lba_size, 4096);
	assert_int_equal(c.ms, 0);

	build(0x33, 0x09); /* bits 6:5 = 1: index 16 + 3 = 19, extended */
	assert_int_equal(sb_nvme_caps_decode(ctrl, ns, 1, &c), 0);
	assert_int_equal(c.lbaf, 19);
	assert_int_equal(c.lba_size, 4096);
	assert_int_equal(c.ms, 8);

	/* 16 formats or fewer: bits 6:5 are reserved, not the index */
	build(0x23, 0);
	ns[25] = 15;
	assert_int_equal(sb_nvme_caps_decode(ctrl, ns, 1, &c), 0);
	assert_int_equal(c.lbaf, 3);
	assert_int_equal(c.ms, 8);

	assert_int_equal(sb_nvme_caps_decode(NULL, ns, 1, &c), -EINVAL);
}

static void test_format_cdw10(void **state)
{
	struct sb_nvme_caps c;
	(void)state;

	build(0x00, 0);
	sb_nvme_caps_decode(ctrl, ns, 1, &c);
	assert_int_equal(sb_nvme_format_cdw10(&c, 1), 0x200); /* SES 1, bits 11:9 */
	assert_int_equal(sb_nvme_format_cdw10(&c, 2), 0x400);
	build(0x13, 0x09); /* LBAF 3, MSET, PI type 1, PIL */
	sb_nvme_caps_decode(ctrl, ns, 1, &c);
	assert_int_equal(sb_nvme_format_cdw10(&c, 1), 0x3 | 1 << 4 | 1 << 5 | 1 << 8 | 1 << 9);
	build(0x22, 0x03); /* index 18: LBAF 2, LBAFU 1 (bits 13:12); PI type 3 */
	sb_nvme_caps_decode(ctrl, ns, 1, &c);
	assert_int_equal(sb_nvme_format_cdw10(&c, 1), 0x2 | 3 << 5 | 1 << 9 | 1 << 12);
}

static void test_sanitize(void **state)
{
	uint8_t log[SB_NVME_SANITIZE_LOG_SIZE];
	struct sb_nvme_sanitize_status s;
	(void)state;

	/* SANACT bits 2:0, AUSE bit 3, OWPASS bits 7:4 = 1 for overwrite */
	assert_int_equal(sb_nvme_sanitize_cdw10(SB_NVME_SANACT_BLOCK), 0x0a);
	assert_int_equal(sb_nvme_sanitize_cdw10(SB_NVME_SANACT_CRYPTO), 0x0c);
	assert_int_equal(sb_nvme_sanitize_cdw10(SB_NVME_SANACT_OVERWRITE), 0x1b);

	memset(log, 0, sizeof(log));
	log[0] = 0x00; /* SPROG 0x4000: a quarter */
	log[1] = 0x40;
	log[2] = 0x0a; /* SSTAT: 2 in progress, overwrite passes 1 (bits 7:3) */
	log[3] = 0x01; /* bit 8: global data erased */
	log[4] = 0x0a; /* SCDW10 */
	log[8] = 100;  /* overwrite 100 s */
	log[12] = 30;  /* block erase 30 s */
	memset(log + 16, 0xff, 4);
	assert_int_equal(sb_nvme_sanitize_decode(log, &s), 0);
	assert_int_equal(s.progress, 0x4000);
	assert_int_equal(s.state, SB_NVME_SSTAT_RUNNING);
	assert_int_equal(s.cdw10, 0x0a);
	assert_int_equal(s.est_s[SB_NVME_SANACT_OVERWRITE], 100);
	assert_int_equal(s.est_s[SB_NVME_SANACT_BLOCK], 30);
	assert_int_equal(s.est_s[SB_NVME_SANACT_CRYPTO], UINT32_MAX);
	log[2] = 0x03;
	sb_nvme_sanitize_decode(log, &s);
	assert_int_equal(s.state, SB_NVME_SSTAT_FAILED);
}

static void test_status_text(void **state)
{
	char b[96];
	(void)state;

	assert_string_equal(sb_nvme_status_text(0x4002, b, sizeof(b)),
			    "Invalid Field in Command (status 0x002)");
	assert_string_equal(sb_nvme_status_text(0x01d, b, sizeof(b)),
			    "Sanitize In Progress (status 0x01d)");
	assert_string_equal(sb_nvme_status_text(0x084, b, sizeof(b)),
			    "Format In Progress (status 0x084)");
	assert_string_equal(sb_nvme_status_text(0x10a, b, sizeof(b)),
			    "Invalid Format (status 0x10a)");
	assert_string_equal(sb_nvme_status_text(0x6286, b, sizeof(b)),
			    "Access Denied (status 0x286)");
	assert_string_equal(sb_nvme_status_text(0x181, b, sizeof(b)),
			    "status 0x181 (type 1, code 0x81)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_format_cdw10),
		cmocka_unit_test(test_sanitize),
		cmocka_unit_test(test_status_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
