/* needs: none */
/*
 * The reader's numbers are strtod's, bit for bit: the fast path it takes
 * for short figures (at most 15 significant digits, a decimal exponent
 * within 22) must round as strtod does, and everything else goes to
 * strtod. Checked on the edges of the fast path and on a million random
 * numbers of every shape a result holds (integers, rates with six
 * decimals, exponents, signs, leading zeros).
 */
#include "tests/lib/sbtest.h"
#include "lib/json/json_read.h"

#include <math.h>

static void same_as_strtod(const char *text)
{
	struct sb_jdoc *d;
	struct sb_json_error e;
	if (sb_json_parse(text, strlen(text), NULL, &d, &e) < 0)
		fail_msg("'%s' refused: %s", text, e.msg);
	double got = sb_jdoc_root(d)->num.d, want = strtod(text, NULL);
	if (memcmp(&got, &want, sizeof(got)))
		fail_msg("'%s': %.17g, strtod %.17g", text, got, want);
	sb_jdoc_free(d);
}

static void test_edges(void **state)
{
	(void)state;
	static const char *const t[] = {
		"0",
		"-0",
		"0.0",
		"-0.0",
		"1",
		"0.1",
		"0.2",
		"0.3",
		"1e22",
		"1e23",
		"1e-22",
		"1e-23",
		"123456789012345",
		"1234567890123456",
		"9007199254740992",
		"9007199254740993",
		"123456789012345e-22",
		"123456789012345e22",
		"999999999999999e22",
		"999999999999999.0",
		"0.000000000000000000000001",
		"0.00000000000000000000001",
		"51288184.753155",
		"1796150652881827520",
		"89567003.327918",
		"1.7976931348623157e308",
		"4.9e-324",
		"2.2250738585072014e-308",
		"1e0000",
		"1E+2",
		"1e-0",
		"-123.456e-7",
		"100000000000000000000000",
		"0.000100000000000000",
		"3.14159265358979",
		"3.141592653589793",
	};
	for (size_t i = 0; i < SB_ARRAY_SIZE(t); i++)
		same_as_strtod(t[i]);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_random(void **state)
{
	(void)state;
	uint64_t s = 0x9e3779b97f4a7c15ull;
	char buf[96];
	for (int i = 0; i < 1000000; i++) {
		int n = 0, intd = 1 + (int)(rnd(&s) % 18), frac = (int)(rnd(&s) % 10);
		if (rnd(&s) % 4 == 0)
			buf[n++] = '-';
		if (rnd(&s) % 8 == 0) { /* 0.000ddd */
			buf[n++] = '0';
			intd = 0;
			frac += 3;
		} else {
			buf[n++] = (char)('1' + rnd(&s) % 9);
		}
		for (int k = 1; k < intd; k++)
			buf[n++] = (char)('0' + rnd(&s) % 10);
		if (frac) {
			buf[n++] = '.';
			for (int k = 0; k < frac; k++)
				buf[n++] = (char)('0' + rnd(&s) % 10);
		}
		if (rnd(&s) % 3 == 0)
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, "e%s%d",
				      rnd(&s) % 2 ? "-" : "", (int)(rnd(&s) % 40));
		buf[n] = 0;
		same_as_strtod(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
