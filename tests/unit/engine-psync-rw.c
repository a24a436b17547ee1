/* needs: none */
/* psync: 4 MiB written and read back in shuffled 4 KiB blocks, fsync, trim,
 * short reads at the end of the file. */
#include "tests/unit/engine-check.h"

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

static void qd32_buffered(void **state)
{
	(void)state;
	ec_roundtrip(32, 0);
}

static void trim_punches_hole(void **state)
{
	(void)state;
	ec_trim(1);
}

static void short_read_at_eof(void **state)
{
	(void)state;
	ec_short_read(1);
}

static void full_queue(void **state)
{
	(void)state;
	ec_full_queue(8);
}

static void error_reported(void **state)
{
	(void)state;
	ec_error_reported(1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(qd1_buffered),	     cmocka_unit_test(qd1_direct),
		cmocka_unit_test(qd32_buffered),     cmocka_unit_test(trim_punches_hole),
		cmocka_unit_test(short_read_at_eof), cmocka_unit_test(full_queue),
		cmocka_unit_test(error_reported),
	};

	ec_setup("psync");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
