/* needs: none */
/* libaio at queue depth 32 and 1: 4 MiB written and read back in shuffled
 * 4 KiB blocks, buffered and O_DIRECT, fsync, trim, short reads, a full
 * queue. */
#include "tests/unit/engine-check.h"

static void qd32_buffered(void **state)
{
	(void)state;
	ec_roundtrip(32, 0);
}

static void qd32_direct(void **state)
{
	(void)state;
	ec_roundtrip(32, 1);
}

static void qd1_buffered(void **state)
{
	(void)state;
	ec_roundtrip(1, 0);
}

static void qd1_direct(void **state)
{
	(void)state;
	ec_roundtrip(1, 1);
}

static void trim_punches_hole(void **state)
{
	(void)state;
	ec_trim(32);
}

static void short_read_at_eof(void **state)
{
	(void)state;
	ec_short_read(32);
}

static void full_queue_qd32(void **state)
{
	(void)state;
	ec_full_queue(32);
}

static void full_queue_qd1(void **state)
{
	(void)state;
	ec_full_queue(1);
}

static void error_reported(void **state)
{
	(void)state;
	ec_error_reported(32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(qd32_buffered),     cmocka_unit_test(qd32_direct),
		cmocka_unit_test(qd1_buffered),	     cmocka_unit_test(qd1_direct),
		cmocka_unit_test(trim_punches_hole), cmocka_unit_test(short_read_at_eof),
		cmocka_unit_test(full_queue_qd32),   cmocka_unit_test(full_queue_qd1),
		cmocka_unit_test(error_reported),
	};

	ec_setup("libaio");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
