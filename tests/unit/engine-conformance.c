/* needs: none */
/* Every real I/O engine of the registry (psync, io_uring, libaio) passes
 * the same checks (engine-check.h), at queue depth 32 and 1: 4 MiB written
 * and read back in shuffled 4 KiB blocks, buffered and O_DIRECT (also from
 * and into registered buffers: io_uring's fixed buffers), fsync,
 * trim, short reads at the end of the file, a full queue, an error
 * reported. An engine not built in, or not usable here (io_uring disabled
 * by the kernel), is named and left out; the program skips only when none
 * is left. */
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

/* the buffers registered (io_uring's fixed buffers), all or only the
 * written ones: the same bytes come back */
static void qd32_direct_fixed_bufs(void **state)
{
	(void)state;
	ec_roundtrip_bufs(32, 1, EC_BUFS_BOTH);
	ec_roundtrip_bufs(32, 1, EC_BUFS_WRITES);
}

static void qd32_buffered_fixed_bufs(void **state)
{
	(void)state;
	ec_roundtrip_bufs(32, 0, EC_BUFS_BOTH);
	ec_roundtrip_bufs(32, 0, EC_BUFS_WRITES);
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
	static const char *const engines[] = { "psync", "io_uring", "libaio",
					       "mmap",	"vsync",    "splice" };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(qd32_buffered),
		cmocka_unit_test(qd32_direct),
		cmocka_unit_test(qd1_buffered),
		cmocka_unit_test(qd1_direct),
		cmocka_unit_test(trim_punches_hole),
		cmocka_unit_test(short_read_at_eof),
		cmocka_unit_test(full_queue_qd32),
		cmocka_unit_test(full_queue_qd1),
		cmocka_unit_test(error_reported),
		cmocka_unit_test(qd32_direct_fixed_bufs),
		cmocka_unit_test(qd32_buffered_fixed_bufs),
	};
	int failed = 0, ran = 0;

	for (size_t i = 0; i < SB_ARRAY_SIZE(engines); i++) {
		const char *why = ec_usable(engines[i]);
		if (why) {
			printf("engine '%s' left out: %s\n", engines[i], why);
			continue;
		}
		ran++;
		failed += cmocka_run_group_tests_name(engines[i], tests, NULL, NULL);
	}
	if (!ran)
		sbt_skip("no engine to check");
	return failed ? 1 : 0;
}
