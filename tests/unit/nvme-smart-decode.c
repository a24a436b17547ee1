/* needs: none */
/*
 * NVMe SMART / health log, Identify Controller and Firmware Slot
 * Information decoding against recorded pages (tests/fixtures/nvme-*.hex):
 * each field against the value in the fixture's comment; 128-bit counters
 * saturating at 64 bits; data units to bytes; the names of critical
 * warning bits.
 */
#include "tests/unit/hexfix.h"
#include "lib/device/nvme.h"

static void test_healthy(void **state)
{
	uint8_t log[SB_NVME_LOG_SIZE];
	struct sb_nvme_smart s;
	char w[256];
	(void)state;

	hexfix_load("nvme-smart-healthy.hex", log, sizeof(log));
	assert_int_equal(sb_nvme_smart_decode(log, &s), 0);
	assert_int_equal(s.critical_warning, 0);
	assert_string_equal(sb_nvme_warning_text(s.critical_warning, w, sizeof(w)), "none");
	assert_int_equal(s.temperature_k, 308);
	assert_int_equal(s.temperature_c, 35);
	assert_int_equal(s.avail_spare, 100);
	assert_int_equal(s.spare_thresh, 10);
	assert_int_equal(s.percent_used, 2);
	assert_int_equal(s.endurance_warning, 0);
	assert_int_equal(s.data_units_read, 22450123);
	assert_int_equal(s.data_units_written, 15234567);
	assert_int_equal(sb_nvme_units_bytes(s.data_units_written), 15234567ull * 512000);
	assert_int_equal(s.host_reads, 312456789);
	assert_int_equal(s.host_writes, 201345678);
	assert_int_equal(s.busy_minutes, 1234);
	assert_int_equal(s.power_cycles, 1045);
	assert_int_equal(s.power_on_hours, 3456);
	assert_int_equal(s.unsafe_shutdowns, 37);
	assert_int_equal(s.media_errors, 0);
	assert_int_equal(s.error_log_entries, 12);
	assert_int_equal(s.warning_temp_minutes, 0);
	assert_int_equal(s.critical_temp_minutes, 0);
	assert_int_equal(s.sensor_k[0], 308);
	assert_int_equal(s.sensor_k[1], 313);
	for (int i = 2; i < 8; i++)
		assert_int_equal(s.sensor_k[i], 0);
}

static void test_worn(void **state)
{
	uint8_t log[SB_NVME_LOG_SIZE];
	struct sb_nvme_smart s;
	char w[256];
	(void)state;

	hexfix_load("nvme-smart-worn.hex", log, sizeof(log));
	assert_int_equal(sb_nvme_smart_decode(log, &s), 0);
	assert_int_equal(s.critical_warning, SB_NVME_WARN_SPARE | SB_NVME_WARN_RELIABILITY);
	assert_string_equal(sb_nvme_warning_text(s.critical_warning, w, sizeof(w)),
			    "available spare below threshold, reliability degraded");
	assert_int_equal(s.temperature_c, 72);
	assert_int_equal(s.avail_spare, 3);
	assert_int_equal(s.percent_used, 110);
	assert_int_equal(s.endurance_warning, 1);
	assert_int_equal(s.data_units_written, 1402345678);
	assert_int_equal(s.host_reads, 9876543210ull); /* beyond 32 bits */
	assert_int_equal(s.host_writes, 23456789012ull);
	assert_int_equal(s.power_on_hours, 43210);
	assert_int_equal(s.unsafe_shutdowns, 1203);
	assert_int_equal(s.media_errors, 42);
	assert_int_equal(s.error_log_entries, 5000);
	assert_int_equal(s.warning_temp_minutes, 480);
	assert_int_equal(s.critical_temp_minutes, 12);
	assert_int_equal(s.sensor_k[0], 345);
}

/* A counter whose upper 64 bits are set reads as UINT64_MAX, and bytes of
 * a huge unit count saturate instead of wrapping. */
static void test_saturation(void **state)
{
	uint8_t log[SB_NVME_LOG_SIZE];
	struct sb_nvme_smart s;
	(void)state;

	hexfix_load("nvme-smart-healthy.hex", log, sizeof(log));
	log[48 + 8] = 1;      /* data units written: bit 64 */
	log[160 + 15] = 0x80; /* media errors: bit 127 */
	assert_int_equal(sb_nvme_smart_decode(log, &s), 0);
	assert_true(s.data_units_written == UINT64_MAX);
	assert_true(s.media_errors == UINT64_MAX);
	assert_int_equal(s.data_units_read, 22450123); /* neighbours untouched */
	assert_true(sb_nvme_units_bytes(UINT64_MAX) == UINT64_MAX);
	assert_true(sb_nvme_units_bytes(UINT64_MAX / 512000 + 1) == UINT64_MAX);
	assert_true(sb_nvme_units_bytes(UINT64_MAX / 512000) == UINT64_MAX / 512000 * 512000);
	assert_int_equal(sb_nvme_smart_decode(NULL, &s), -EINVAL);
}

static void test_warning_text(void **state)
{
	char w[256], small[8];
	(void)state;

	assert_string_equal(sb_nvme_warning_text(SB_NVME_WARN_TEMPERATURE, w, sizeof(w)),
			    "temperature beyond threshold");
	assert_string_equal(sb_nvme_warning_text(SB_NVME_WARN_READ_ONLY | SB_NVME_WARN_BACKUP, w,
						 sizeof(w)),
			    "media read-only, volatile memory backup failed");
	assert_string_equal(sb_nvme_warning_text(SB_NVME_WARN_PMR_READ_ONLY, w, sizeof(w)),
			    "persistent memory region read-only");
	assert_string_equal(sb_nvme_warning_text(0x80, w, sizeof(w)), "bit 7");
	/* too small a buffer: cut, terminated, no overflow */
	sb_nvme_warning_text(0x3f, small, sizeof(small));
	assert_true(strlen(small) < sizeof(small));
	assert_string_equal(small, "availab");
}

static void test_identify(void **state)
{
	uint8_t id[SB_NVME_ID_SIZE];
	struct sb_nvme_id c;
	(void)state;

	hexfix_load("nvme-id-ctrl.hex", id, sizeof(id));
	assert_int_equal(sb_nvme_id_decode(id, &c), 0);
	assert_int_equal(c.vid, 0x144d);
	assert_string_equal(c.serial, "S4EWNX0R123456A");
	assert_string_equal(c.model, "Samsung SSD 970 EVO Plus 1TB");
	assert_string_equal(c.firmware, "2B2QEXM7");
	assert_int_equal(c.vwc, 1);
	id[30] = 0x01; /* an unprintable byte inside the model */
	assert_int_equal(sb_nvme_id_decode(id, &c), 0);
	assert_string_equal(c.model, "Samsun? SSD 970 EVO Plus 1TB");
}

static void test_fw_slot(void **state)
{
	uint8_t log[SB_NVME_LOG_SIZE];
	struct sb_nvme_fw_slot f;
	(void)state;

	hexfix_load("nvme-fw-slot.hex", log, sizeof(log));
	assert_int_equal(sb_nvme_fw_slot_decode(log, &f), 0);
	assert_int_equal(f.active, 2);
	assert_int_equal(f.next, 3);
	assert_string_equal(f.rev[0], "2B2QEXM7");
	assert_string_equal(f.rev[1], "3B2QEXM7");
	assert_string_equal(f.rev[2], "4B2Q");
	for (int i = 3; i < SB_NVME_FW_SLOTS; i++)
		assert_string_equal(f.rev[i], "");
	log[0] = 0x80; /* reserved bits only: no slot told */
	log[9] = 0x07; /* an unprintable byte in FRS1 */
	assert_int_equal(sb_nvme_fw_slot_decode(log, &f), 0);
	assert_int_equal(f.active, 0);
	assert_int_equal(f.next, 0);
	assert_string_equal(f.rev[0], "2?2QEXM7");
	assert_int_equal(sb_nvme_fw_slot_decode(NULL, &f), -EINVAL);

	hexfix_load("nvme-fw-slot-qemu.hex", log, sizeof(log));
	assert_int_equal(sb_nvme_fw_slot_decode(log, &f), 0);
	assert_int_equal(f.active, 1);
	assert_int_equal(f.next, 0);
	assert_string_equal(f.rev[0], "1.0"); /* its space padding gone */
	for (int i = 1; i < SB_NVME_FW_SLOTS; i++)
		assert_string_equal(f.rev[i], "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy),	   cmocka_unit_test(test_worn),
		cmocka_unit_test(test_saturation), cmocka_unit_test(test_warning_text),
		cmocka_unit_test(test_identify),   cmocka_unit_test(test_fw_slot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
