/* needs: none */
/* Human formatting: IEC units, three significant digits, unit changes at rounding edges. */
#include "tests/lib/sbtest.h"
#include "lib/base/units.h"

struct fmt_case {
	double in;
	const char *want;
};

static void check(const struct fmt_case *c, size_t n, char *(*fmt)(double, char *, size_t))
{
	for (size_t i = 0; i < n; i++) {
		char buf[32];
		const char *got = fmt(c[i].in, buf, sizeof(buf));

		assert_ptr_equal(got, buf);
		if (strcmp(got, c[i].want))
			fail_msg("%.17g: got '%s', want '%s'", c[i].in, got, c[i].want);
	}
}

static char *fmt_size_d(double v, char *buf, size_t len)
{
	return sb_fmt_size((uint64_t)v, buf, len);
}

static void test_size(void **state)
{
	static const struct fmt_case cases[] = {
		{ 0, "0 B" },
		{ 1, "1 B" },
		{ 512, "512 B" },
		{ 1023, "1023 B" },
		{ 1024, "1.00 KiB" },
		{ 1536, "1.50 KiB" },
		{ 4096, "4.00 KiB" },
		{ 10 * 1024, "10.0 KiB" },
		{ 123 * 1024 + 100, "123 KiB" },
		{ 1000 * 1024, "1000 KiB" },
		{ 1024 * 1024 - 1, "1.00 MiB" }, /* 1023.999 KiB rounds up */
		{ 1024 * 1024, "1.00 MiB" },
		{ 1536.0 * 1024 * 1024, "1.50 GiB" },
		{ 1024.0 * 1024 * 1024 * 1024, "1.00 TiB" },
		{ 1024.0 * 1024 * 1024 * 1024 * 1024, "1.00 PiB" },
	};

	char buf[32];

	(void)state;
	check(cases, SB_ARRAY_SIZE(cases), fmt_size_d);
	assert_string_equal(sb_fmt_size(UINT64_MAX, buf, sizeof(buf)), "16.0 EiB");
}

static void test_rate(void **state)
{
	static const struct fmt_case cases[] = {
		{ 0, "0 B/s" },
		{ 512, "512 B/s" },
		{ 12.5, "12.5 B/s" },
		{ 2048, "2.00 KiB/s" },
		{ 123.0 * 1024 * 1024, "123 MiB/s" },
		{ 123.4 * 1024 * 1024, "123 MiB/s" },
		{ 99.96 * 1024 * 1024, "100 MiB/s" },
		{ 9.996 * 1024 * 1024, "10.0 MiB/s" },
		{ 3.5 * 1024 * 1024 * 1024, "3.50 GiB/s" },
	};

	(void)state;
	check(cases, SB_ARRAY_SIZE(cases), sb_fmt_rate);
}

/* --units=si (issue 30 item 10): powers of 1000, as MB/s on a datasheet. */
static void test_rate_si(void **state)
{
	static const struct fmt_case cases[] = {
		{ 0, "0 B/s" },
		{ 512, "512 B/s" },
		{ 2048, "2.05 kB/s" },
		{ 123e6, "123 MB/s" },
		{ 123.0 * 1024 * 1024, "129 MB/s" },
		{ 999.6e6, "1.00 GB/s" },
		{ 9.996e6, "10.0 MB/s" },
		{ 3.5e9, "3.50 GB/s" },
		{ 1e12, "1.00 TB/s" },
	};

	(void)state;
	check(cases, SB_ARRAY_SIZE(cases), sb_fmt_rate_si);
}

static void test_ns(void **state)
{
	static const struct fmt_case cases[] = {
		{ 0, "0 ns" },		{ 850, "850 ns" },	    { 999.4, "999 ns" },
		{ 999.7, "1.00 us" },	{ 12.5, "12.5 ns" },	    { 12300, "12.3 us" },
		{ 1200000, "1.20 ms" }, { 2500000000.0, "2.50 s" }, { 125e9, "125 s" },
	};

	(void)state;
	check(cases, SB_ARRAY_SIZE(cases), sb_fmt_ns);
}

static void test_count(void **state)
{
	static const struct fmt_case cases[] = {
		{ 0, "0" },	     { 5, "5" },	  { 950, "950" },      { 999, "999" },
		{ 1000, "1.00k" },   { 12300, "12.3k" },  { 999999, "1.00M" }, { 1.2e6, "1.20M" },
		{ 4.56e9, "4.56G" }, { -1500, "-1.50k" }, { 0.5, "0.50" },
	};

	(void)state;
	check(cases, SB_ARRAY_SIZE(cases), sb_fmt_count);
}

static void test_short_buffer(void **state)
{
	char buf[4] = "xyz";

	(void)state;
	assert_string_equal(sb_fmt_size(1536, buf, sizeof(buf)), "1.5");
	assert_ptr_equal(sb_fmt_ns(1, buf, 0), buf); /* len 0 writes nothing */
	assert_string_equal(buf, "1.5");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size),	cmocka_unit_test(test_rate),
		cmocka_unit_test(test_rate_si), cmocka_unit_test(test_ns),
		cmocka_unit_test(test_count),	cmocka_unit_test(test_short_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
