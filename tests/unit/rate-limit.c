/* needs: none */
/*
 * Rate schedule, with synthetic clocks: back-to-back requests never get
 * ahead of the rate, do not fall behind it either, and a late caller
 * catches up.
 */
#include "tests/lib/sbtest.h"
#include "lib/job/rate.h"
#include "lib/base/u128.h"

#define NS 1000000000ull
#define MIB (1024ull * 1024)

/*
 * Issue count requests of len bytes as fast as the schedule allows, each
 * taking service_ns of caller time; checks that the bytes before every
 * request fit under bps since start. Returns when the last one was issued.
 */
static uint64_t issue(struct sb_rate *r, uint64_t now, uint32_t len, int count, uint64_t service_ns)
{
	for (int i = 0; i < count; i++) {
		const uint64_t before = r->bytes;

		now += sb_rate_delay(r, now, len);
		if (sb_u128_cmp(sb_u128_mul(before, NS), sb_u128_mul(r->bps, now - r->start_ns)) >
		    0)
			fail_msg("request %d at %llu ns: %llu bytes before it, over the rate", i,
				 (unsigned long long)(now - r->start_ns),
				 (unsigned long long)before);
		now += service_ns;
	}
	return now;
}

static void test_back_to_back(void **state)
{
	const uint64_t start = 123456789;
	struct sb_rate r;
	uint64_t t;

	(void)state;
	sb_rate_init(&r, MIB, start);
	assert_int_equal(sb_rate_delay(&r, start, 4096), 0); /* the first goes at once */
	assert_int_equal(sb_rate_delay(&r, start, 4096), 4096 * NS / MIB);
	sb_rate_init(&r, MIB, start);
	t = issue(&r, start, 4096, 2560, 0); /* 10 MiB */
	/* the last request starts when the 10 MiB - 4 KiB before it are due */
	assert_int_equal(t - start, (10 * MIB - 4096) * NS / MIB);
	assert_int_equal(r.bytes, 10 * MIB);
}

static void test_with_service_time(void **state)
{
	const uint64_t start = 5;
	struct sb_rate r;
	uint64_t t;

	(void)state;
	/* each request costs the caller 1 ms of its 3.9 ms budget */
	sb_rate_init(&r, MIB, start);
	t = issue(&r, start, 4096, 1000, 1000000);
	/* not slower than the rate: the caller's own time is absorbed */
	assert_true(t - start <= 1000 * 4096 * NS / MIB + 1000000);
}

static void test_odd_rate_rounds_up(void **state)
{
	struct sb_rate r;

	(void)state;
	/* 3 bytes/s: 1 byte is due after 333333333.3 ns, so wait 333333334 */
	sb_rate_init(&r, 3, 0);
	assert_int_equal(sb_rate_delay(&r, 0, 1), 0);
	assert_int_equal(sb_rate_delay(&r, 0, 1), 333333334);
	issue(&r, 0, 7, 100, 0);
}

static void test_late_caller_catches_up(void **state)
{
	struct sb_rate r;
	int free_ones = 0;

	(void)state;
	sb_rate_init(&r, MIB, 0);
	/* idle for a second: 256 requests of 4 KiB are then due at once */
	while (sb_rate_delay(&r, NS, 4096) == 0)
		free_ones++;
	assert_int_equal(free_ones, 257);
}

static void test_unlimited_and_large(void **state)
{
	struct sb_rate r;

	(void)state;
	sb_rate_init(&r, 0, 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(sb_rate_delay(&r, 0, 1 << 20), 0);
	/* 100 GB/s for a day: bytes * 1e9 is far past 64 bits */
	sb_rate_init(&r, 100000000000ull, 0);
	r.bytes = 86400ull * 100000000000ull;
	assert_int_equal(sb_rate_delay(&r, 0, 4096), 86400 * NS);
	assert_int_equal(sb_rate_delay(&r, 86400 * NS, 4096), 41); /* 4096 / 100 per ns, up */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_back_to_back),
		cmocka_unit_test(test_with_service_time),
		cmocka_unit_test(test_odd_rate_rounds_up),
		cmocka_unit_test(test_late_caller_catches_up),
		cmocka_unit_test(test_unlimited_and_large),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
