/* needs: none */
/* Every parser of lib/base/units.h on good values and on each kind of bad one. */
#include "tests/lib/sbtest.h"
#include "lib/base/units.h"

#define KI 1024ull
#define SEC 1000000000ull

struct u64_case {
	const char *in;
	int err;
	uint64_t want;
};

static const struct u64_case size_cases[] = {
	{ "0", 0, 0 },
	{ "512", 0, 512 },
	{ "4k", 0, 4 * KI },
	{ "4K", 0, 4 * KI },
	{ "4KiB", 0, 4 * KI },
	{ "4kB", 0, 4 * KI },
	{ "4ki", 0, 4 * KI },
	{ "512B", 0, 512 },
	{ "1M", 0, KI *KI },
	{ "1MiB", 0, KI *KI },
	{ "2G", 0, 2 * KI *KI *KI },
	{ "1T", 0, KI *KI *KI *KI },
	{ "1p", 0, KI *KI *KI *KI *KI },
	{ "15E", 0, 15ull << 60 },
	{ "1.5k", 0, 1536 },
	{ "1.5G", 0, 3ull << 29 },
	{ "0.5k", 0, 512 },
	{ "1.0", 0, 1 },
	{ "1.50000000000000000000000000k", 0, 1536 },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "99999999999999999999", -ERANGE, 0 },
	{ "16E", -ERANGE, 0 },
	{ "16384P", -ERANGE, 0 },
	{ "17179869184G", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ " 4k", -EINVAL, 0 },
	{ "4k ", -EINVAL, 0 },
	{ "4 k", -EINVAL, 0 },
	{ "4q", -EINVAL, 0 },
	{ "4kk", -EINVAL, 0 },
	{ "4kiBB", -EINVAL, 0 },
	{ "4i", -EINVAL, 0 },
	{ "k", -EINVAL, 0 },
	{ "1.5", -EINVAL, 0 },
	{ "0.3k", -EINVAL, 0 },
	{ "1.", -EINVAL, 0 },
	{ ".5k", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "1e3", -EINVAL, 0 },
	{ "99999999999999999999q", -EINVAL, 0 },
};

static const struct u64_case duration_cases[] = {
	{ "0", 0, 0 },
	{ "30", 0, 30 * SEC },
	{ "500ms", 0, 500000000 },
	{ "30s", 0, 30 * SEC },
	{ "5m", 0, 300 * SEC },
	{ "2h", 0, 7200 * SEC },
	{ "1d", 0, 86400 * SEC },
	{ "1.5s", 0, 1500000000 },
	{ "1.5", 0, 1500000000 },
	{ "10us", 0, 10000 },
	{ "10\xc2\xb5s", 0, 10000 },
	{ "10\xce\xbcs", 0, 10000 },
	{ "100ns", 0, 100 },
	{ "0.25ms", 0, 250000 },
	{ "1.5ns", 0, 2 }, /* rounded to the nearest ns */
	{ "18446744073709551615ns", 0, UINT64_MAX },
	{ "18446744073s", 0, 18446744073 * SEC },
	{ "18446744074s", -ERANGE, 0 },
	{ "99999999999999999999", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "ms", -EINVAL, 0 },
	{ "5x", -EINVAL, 0 },
	{ "-1s", -EINVAL, 0 },
	{ "5 s", -EINVAL, 0 },
	{ "5S", -EINVAL, 0 },
	{ "5sec", -EINVAL, 0 },
	{ "5mss", -EINVAL, 0 },
	{ ".5s", -EINVAL, 0 },
};

static const struct u64_case u64_cases[] = {
	{ "0", 0, 0 },
	{ "42", 0, 42 },
	{ "007", 0, 7 },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "4k", -EINVAL, 0 },
	{ "1.0", -EINVAL, 0 },
	{ " 1", -EINVAL, 0 },
};

static const struct u64_case percent_cases[] = {
	{ "0", 0, 0 },
	{ "50", 0, 50 },
	{ "50%", 0, 50 },
	{ "100", 0, 100 },
	{ "100%", 0, 100 },
	{ "101", -ERANGE, 0 },
	{ "99999999999999999999", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "%", -EINVAL, 0 },
	{ "-5", -EINVAL, 0 },
	{ "50%%", -EINVAL, 0 },
	{ "50.5", -EINVAL, 0 },
	{ "5o", -EINVAL, 0 },
};

static void check_u64(const struct u64_case *c, size_t n, int (*parse)(const char *, uint64_t *))
{
	for (size_t i = 0; i < n; i++) {
		uint64_t v = 0xdeadbeef;
		const int err = parse(c[i].in, &v);

		if (err != c[i].err || (!err && v != c[i].want))
			fail_msg("'%s': got %d, %llu; want %d, %llu", c[i].in, err,
				 (unsigned long long)v, c[i].err, (unsigned long long)c[i].want);
		if (err && v != 0xdeadbeef)
			fail_msg("'%s': output written on error", c[i].in);
	}
}

static void test_size(void **state)
{
	(void)state;
	check_u64(size_cases, SB_ARRAY_SIZE(size_cases), sb_parse_size);
}

static void test_duration(void **state)
{
	(void)state;
	check_u64(duration_cases, SB_ARRAY_SIZE(duration_cases), sb_parse_duration_ns);
}

static void test_u64(void **state)
{
	(void)state;
	check_u64(u64_cases, SB_ARRAY_SIZE(u64_cases), sb_parse_u64);
}

static int parse_percent_u64(const char *s, uint64_t *out)
{
	unsigned v;
	const int err = sb_parse_percent(s, &v);

	if (!err)
		*out = v;
	return err;
}

static void test_percent(void **state)
{
	(void)state;
	check_u64(percent_cases, SB_ARRAY_SIZE(percent_cases), parse_percent_u64);
}

static void test_double(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		int err;
		double want;
	} cases[] = {
		{ "0", 0, 0 },		 { "1.5", 0, 1.5 },	 { "-2.25", 0, -2.25 },
		{ "1e3", 0, 1000 },	 { ".5", 0, 0.5 },	 { "1e-400", 0, 0 },
		{ "1e400", -ERANGE, 0 }, { "", -EINVAL, 0 },	 { "nan", -EINVAL, 0 },
		{ "inf", -EINVAL, 0 },	 { "-inf", -EINVAL, 0 }, { "0x10", -EINVAL, 0 },
		{ " 1", -EINVAL, 0 },	 { "1 ", -EINVAL, 0 },	 { "1.5x", -EINVAL, 0 },
		{ "-", -EINVAL, 0 },	 { "1e", -EINVAL, 0 },
	};

	for (size_t i = 0; i < SB_ARRAY_SIZE(cases); i++) {
		double v = -1;
		const int err = sb_parse_double(cases[i].in, &v);

		if (err != cases[i].err || (!err && v != cases[i].want))
			fail_msg("'%s': got %d, %g; want %d, %g", cases[i].in, err, v, cases[i].err,
				 cases[i].want);
	}
}

static void test_date(void **state)
{
	static const struct {
		const char *in;
		int err;
		int64_t want;
	} cases[] = {
		{ "2026-12-01", 0, 1796083200 },
		{ "2026-12-01T08:00", 0, 1796083200 + 8 * 3600 },
		{ "2026-12-01 08:00:30", 0, 1796083200 + 8 * 3600 + 30 },
		{ "1700000000", 0, 1700000000 },
		{ "1970-01-01", 0, 0 },
		{ "99", -EINVAL, 0 },
		{ "2026-13-01", -EINVAL, 0 },
		{ "2026-12-01T25:00", -EINVAL, 0 },
		{ "2026-12-01x", -EINVAL, 0 },
		{ "2026-12-01T", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
	};
	(void)state;
	for (size_t i = 0; i < SB_ARRAY_SIZE(cases); i++) {
		int64_t v = 0;
		const int err = sb_parse_date(cases[i].in, &v);
		if (err != cases[i].err || (!err && v != cases[i].want))
			fail_msg("'%s': got %d, %lld; want %d, %lld", cases[i].in, err,
				 (long long)v, cases[i].err, (long long)cases[i].want);
	}
}

static void test_count(void **state)
{
	unsigned n = 0;
	(void)state;
	assert_int_equal(sb_parse_count("4", 1, 100, 0, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(sb_parse_count("3x", 1, 16, 1, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(sb_parse_count("3X", 1, 16, 1, &n), 0);
	assert_int_equal(sb_parse_count("3x", 1, 16, 0, &n), -EINVAL);
	assert_int_equal(sb_parse_count("17x", 1, 16, 1, &n), -EINVAL);
	assert_int_equal(sb_parse_count("0", 1, 16, 0, &n), -EINVAL);
	assert_int_equal(sb_parse_count("x", 1, 16, 1, &n), -EINVAL);
	assert_int_equal(sb_parse_count("", 1, 16, 1, &n), -EINVAL);
	assert_int_equal(sb_parse_count("-1", 1, 16, 0, &n), -EINVAL);
	assert_int_equal(sb_parse_count("0000000000000000000000000000004", 1, 16, 0, &n), 0);
	assert_int_equal(sb_parse_count("00000000000000000000000000000004", 1, 16, 0, &n),
			 -EINVAL); /* 32 characters: longer than any count */
	assert_int_equal(n, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size),   cmocka_unit_test(test_duration),
		cmocka_unit_test(test_u64),    cmocka_unit_test(test_percent),
		cmocka_unit_test(test_double), cmocka_unit_test(test_date),
		cmocka_unit_test(test_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
