/* needs: none */
/* Block size splits: explicit shares, blanks filled to sum 100, and rejects. */
#include "tests/lib/sbtest.h"
#include "lib/base/units.h"

struct split_case {
	const char *in;
	unsigned n;
	struct sb_bssplit want[4];
};

static void test_good(void **state)
{
	static const struct split_case cases[] = {
		{ "4k", 1, { { 4096, 100 } } },
		{ "4k/100", 1, { { 4096, 100 } } },
		{ "4k/60:64k/40", 2, { { 4096, 60 }, { 65536, 40 } } },
		{ "4k/60%:64k/40%", 2, { { 4096, 60 }, { 65536, 40 } } },
		{ "512/10:4k:1M", 3, { { 512, 10 }, { 4096, 45 }, { 1 << 20, 45 } } },
		/* 100 / 3 does not divide: the first blank takes the remainder */
		{ "4k:8k:16k", 3, { { 4096, 34 }, { 8192, 33 }, { 16384, 33 } } },
		{ "4k/0:8k/100", 2, { { 4096, 0 }, { 8192, 100 } } },
		{ "1k/97:2k:3k:4k", 4, { { 1024, 97 }, { 2048, 1 }, { 3072, 1 }, { 4096, 1 } } },
		/* fio's "SIZE/" with no share is a blank (t/jobs/t0023) */
		{ "4k/", 1, { { 4096, 100 } } },
		{ "512/25:1k/:2k/:4k/",
		  4,
		  { { 512, 25 }, { 1024, 25 }, { 2048, 25 }, { 4096, 25 } } },
	};

	(void)state;
	for (size_t i = 0; i < SB_ARRAY_SIZE(cases); i++) {
		struct sb_bssplit out[SB_BSSPLIT_MAX];
		unsigned n = 0;
		const int err = sb_parse_bssplit(cases[i].in, out, SB_BSSPLIT_MAX, &n);

		if (err)
			fail_msg("'%s': error %d", cases[i].in, err);
		assert_int_equal(n, cases[i].n);
		for (unsigned j = 0; j < n; j++) {
			if (out[j].bs != cases[i].want[j].bs || out[j].pct != cases[i].want[j].pct)
				fail_msg("'%s' entry %u: got %u/%u, want %u/%u", cases[i].in, j,
					 out[j].bs, out[j].pct, cases[i].want[j].bs,
					 cases[i].want[j].pct);
		}
	}
}

static void test_bad(void **state)
{
	static const char *const bad[] = {
		"",		   /* empty */
		":",		   /* empty entries */
		"4k/50:",	   /* trailing empty entry */
		"4k/50::8k/50",	   /* empty entry inside */
		"4k/60:64k/30",	   /* sums to 90 */
		"4k/60:64k/50",	   /* sums to 110 */
		"4k/60:64k/40:8k", /* nothing left for the blank */
		"1k/99:2k:3k",	   /* 1% cannot be shared by two */
		"0/100",	   /* zero size */
		"4q/100",	   /* bad size */
		"4k/x",		   /* bad percentage */
		"4k/101",	   /* percentage out of range */
		"4k/50/50",	   /* two slashes */
		"/100",		   /* missing size */
		"4k:4k:4k:4k:4k",  /* more entries than max (4) */
	};

	(void)state;
	for (size_t i = 0; i < SB_ARRAY_SIZE(bad); i++) {
		struct sb_bssplit out[SB_BSSPLIT_MAX];
		unsigned n = 12345;
		const int err = sb_parse_bssplit(bad[i], out, 4, &n);

		if (err >= 0)
			fail_msg("'%s' accepted", bad[i]);
		assert_int_equal(n, 12345);
	}
}

static void test_size_out_of_range(void **state)
{
	struct sb_bssplit out[2];
	unsigned n;

	(void)state;
	assert_int_equal(sb_parse_bssplit("4G/100", out, 2, &n), -ERANGE);
	assert_int_equal(sb_parse_bssplit("4095M/100", out, 2, &n), 0);
	assert_int_equal(out[0].bs, 4095u << 20);
}

static void test_max_entries(void **state)
{
	struct sb_bssplit out[SB_BSSPLIT_MAX];
	char s[256] = "";
	unsigned n;
	size_t len = 0;

	(void)state;
	/* exactly SB_BSSPLIT_MAX entries fit; one more does not */
	for (unsigned i = 0; i < SB_BSSPLIT_MAX; i++)
		len += (size_t)snprintf(s + len, sizeof(s) - len, "%s%uk", i ? ":" : "", i + 1);
	assert_int_equal(sb_parse_bssplit(s, out, SB_BSSPLIT_MAX, &n), 0);
	assert_int_equal(n, SB_BSSPLIT_MAX);
	snprintf(s + len, sizeof(s) - len, ":64k");
	assert_int_equal(sb_parse_bssplit(s, out, SB_BSSPLIT_MAX, &n), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_size_out_of_range),
		cmocka_unit_test(test_max_entries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
