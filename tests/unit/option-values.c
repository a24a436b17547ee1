/* needs: none */
/* The option values the methods parse in lib/ (their lists of names and
 * sizes, lib/base's list splitter), each on good values and on each kind
 * of bad one: what the commands' --help promises, refused as before. */
#include "tests/lib/sbtest.h"
#include "lib/base/units.h"
#include "lib/pts/pts.h"
#include "lib/sweep/sweep.h"

static int count_items(void *ctx, const char *w)
{
	unsigned *n = ctx;
	(*n)++;
	return strcmp(w, "stop") ? 0 : -E2BIG;
}

static void test_list(void **state)
{
	static const struct {
		const char *in;
		int err;
		unsigned items;
	} cases[] = {
		{ "a", 0, 1 },		{ "a,b,c", 0, 3 },	   { "", -EINVAL, 0 },
		{ ",", -EINVAL, 0 },	{ "a,", -EINVAL, 0 },	   { ",a", -EINVAL, 0 },
		{ "a,,b", -EINVAL, 0 }, { "a,stop,b", -E2BIG, 2 },
	};
	(void)state;
	for (size_t i = 0; i < SB_ARRAY_SIZE(cases); i++) {
		unsigned n = 0;
		const int err = sb_parse_list(cases[i].in, 64, count_items, &n);
		if (err != cases[i].err || n != cases[i].items)
			fail_msg("'%s': got %d, %u items; want %d, %u", cases[i].in, err, n,
				 cases[i].err, cases[i].items);
	}
	char longer[80];
	unsigned n = 0;
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	assert_int_equal(sb_parse_list(longer, 64, count_items, &n), -EINVAL);
	assert_int_equal(sb_parse_list(longer, sizeof(longer), count_items, &n), 0);
	assert_int_equal(n, 1);
}

static void test_pts(void **state)
{
	struct sb_pts_opts o;
	unsigned mask = 7;
	(void)state;
	sb_pts_opts_default(&o);
	assert_int_equal(sb_pts_parse_tests("iops,wsat", &mask), 0);
	assert_int_equal(mask, (1u << SB_PTS_IOPS) | (1u << SB_PTS_WSAT));
	assert_int_equal(sb_pts_parse_tests("all", &mask), 0);
	assert_int_equal(mask, (1u << SB_PTS_NTESTS) - 1);
	static const char *const bad_tests[] = {
		"", "iops,", ",iops", "iops,,wsat", "nope", "IOPS"
	};
	for (size_t i = 0; i < SB_ARRAY_SIZE(bad_tests); i++)
		if (sb_pts_parse_tests(bad_tests[i], &mask) != -EINVAL)
			fail_msg("--test='%s' taken", bad_tests[i]);

	assert_int_equal(sb_pts_parse_bs(&o, "0.5k,4k,1024k,128k"), 0);
	assert_int_equal(o.nbs, 4);
	assert_int_equal(o.bs[0], 512);
	assert_int_equal(o.bs[1], 4096);
	assert_int_equal(o.bs[2], 1u << 20);
	assert_int_equal(o.bs[3], 128u << 10);
	static const char *const bad_bs[] = {
		"2k",
		"256k",
		"512k",
		"3k",
		"2048k",
		"1k",
		"x",
		"4k,,8k",
		"4k,",
		"4k,4k,4k,4k,4k,4k,4k,4k,4k,4k,4k,4k,4k,4k,4k,4k,4k", /* 17: one too many */
	};
	for (size_t i = 0; i < SB_ARRAY_SIZE(bad_bs); i++)
		if (sb_pts_parse_bs(&o, bad_bs[i]) != -EINVAL)
			fail_msg("--bs='%s' taken", bad_bs[i]);

	assert_int_equal(sb_pts_parse_mix(&o, "100/0,65/35,0/100"), 0);
	assert_int_equal(o.nmix, 3);
	assert_int_equal(o.mix[0], 100);
	assert_int_equal(o.mix[1], 65);
	assert_int_equal(o.mix[2], 0);
	static const char *const bad_mix[] = { "60/40", "100/1", "50/50x",     "abc",
					       "50",	"",	 "50/50,,5/95" };
	for (size_t i = 0; i < SB_ARRAY_SIZE(bad_mix); i++)
		if (sb_pts_parse_mix(&o, bad_mix[i]) != -EINVAL)
			fail_msg("--mix='%s' taken", bad_mix[i]);
}

static void test_sweep(void **state)
{
	struct sb_sweep_opts o;
	uint32_t mask = 1;
	uint64_t sizes[SB_SWEEP_MAX_SIZES];
	unsigned n = 9;
	char many[512] = "";
	(void)state;
	assert_int_equal(sb_sweep_parse_tests("write,read", &mask), 0);
	assert_int_equal(mask, (1u << sb_sweep_test_by_name("write")) |
				       (1u << sb_sweep_test_by_name("read")));
	assert_int_equal(sb_sweep_parse_tests("all", &mask), 0);
	assert_int_equal(mask, SB_SWEEP_ALL_TESTS);
	assert_int_equal(sb_sweep_parse_tests("write,", &mask), -EINVAL);
	assert_int_equal(sb_sweep_parse_tests("bogus", &mask), -EINVAL);

	assert_int_equal(sb_sweep_parse_sizes("64k,1M", sizes, &n, 512, 1ull << 50), 0);
	assert_int_equal(n, 2);
	assert_true(sizes[0] == 65536 && sizes[1] == 1048576);
	assert_int_equal(sb_sweep_parse_sizes("1", sizes, &n, 512, 1ull << 50), -EINVAL);
	assert_int_equal(sb_sweep_parse_sizes("32M", sizes, &n, 512, 16u << 20), -EINVAL);
	assert_int_equal(sb_sweep_parse_sizes("64k,,1M", sizes, &n, 512, 1ull << 50), -EINVAL);
	for (int i = 0, len = 0; i <= SB_SWEEP_MAX_SIZES; i++)
		len += snprintf(many + len, sizeof(many) - (size_t)len, i ? ",4k" : "4k");
	assert_int_equal(sb_sweep_parse_sizes(many, sizes, &n, 512, 1ull << 50), -EINVAL);
	many[strlen(many) - 3] = '\0'; /* SB_SWEEP_MAX_SIZES of them */
	assert_int_equal(sb_sweep_parse_sizes(many, sizes, &n, 512, 1ull << 50), 0);
	assert_int_equal(n, SB_SWEEP_MAX_SIZES);

	sb_sweep_opts_default(&o);
	assert_int_equal(sb_sweep_parse_burst(&o, "1M,10ms"), 0);
	assert_true(o.burst_bytes == 1048576 && o.burst_idle_ns == 10000000);
	static const char *const bad_burst[] = { "1M", "0,1s", "1M,2h", "x,1s", "1M,x", "" };
	for (size_t i = 0; i < SB_ARRAY_SIZE(bad_burst); i++)
		if (sb_sweep_parse_burst(&o, bad_burst[i]) != -EINVAL)
			fail_msg("--burst='%s' taken", bad_burst[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_pts),
		cmocka_unit_test(test_sweep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
