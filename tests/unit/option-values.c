/* needs: none */
/* The option values the methods parse in lib/ (their lists of names and
 * sizes, lib/base's list splitter), each on good values and on each kind
 * of bad one: what the commands' --help promises, refused as before. */
#include "tests/lib/sbtest.h"
#include "lib/base/units.h"
#include "lib/pts/pts.h"
#include "lib/sweep/sweep.h"
#include "lib/latency/lat_run.h"
#include "lib/job/job.h"
#include "lib/meta/meta.h"
#include "lib/cliff/cliff.h"
#include "lib/flash/flash.h"
#include "lib/soak/soak.h"
#include "lib/target/target.h"

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
	/* the tests planned from those given: --no-retest takes the re-tests out */
	struct sb_sweep_result *r = calloc(1, sizeof(*r));
	char msg[160];
	assert_non_null(r);
	sb_sweep_opts_default(&o);
	assert_int_equal(sb_sweep_plan_given(r, &o, 0, 1, msg, sizeof(msg)), 0);
	assert_int_equal(o.tests, SB_SWEEP_ALL_TESTS & ~(uint32_t)SB_SWEEP_RETESTS);
	assert_int_equal(sb_sweep_plan_given(r, &o, SB_SWEEP_ALL_TESTS, 1, msg, sizeof(msg)), 0);
	const uint32_t rewrite = 1u << sb_sweep_test_by_name("rewrite");
	assert_int_equal(sb_sweep_plan_given(r, &o, rewrite, 1, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--no-retest: leaves out rewrite, reread, frewrite and freread, "
				 "which --tests names");
	assert_int_equal(sb_sweep_plan_given(r, &o, rewrite, 0, msg, sizeof(msg)), 0);
	assert_int_equal(o.tests, rewrite);
	o.nfile = o.nrec = 1;
	o.file_sizes[0] = 64 << 10;
	o.record_sizes[0] = 1 << 20;
	assert_int_equal(sb_sweep_plan_given(r, &o, 0, 0, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--record-sizes: no record size fits in any file size (records "
				 "are never larger than the file)");
	free(r);
	sb_sweep_opts_default(&o);
	static const char *const bad_burst[] = { "1M", "0,1s", "1M,2h", "x,1s", "1M,x", "" };
	for (size_t i = 0; i < SB_ARRAY_SIZE(bad_burst); i++)
		if (sb_sweep_parse_burst(&o, bad_burst[i]) != -EINVAL)
			fail_msg("--burst='%s' taken", bad_burst[i]);
}

static void test_latency(void **state)
{
	struct sb_lat_choice c;
	struct sb_lat_run lr;
	struct sb_job_opts job;
	char msg[160];
	(void)state;
	assert_int_equal(sb_lat_preset_by_name("hdparm-cache"), SB_LAT_HDPARM_CACHE);
	assert_int_equal(sb_lat_preset_by_name("ioping"), SB_LAT_IOPING);
	assert_int_equal(sb_lat_preset_by_name("dd"), -EINVAL);

	memset(&c, 0, sizeof(c));
	c.direct = c.buffered = 1;
	assert_int_equal(sb_lat_choice_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--direct: conflicts with --buffered (choose one)");
	memset(&c, 0, sizeof(c));
	c.flood = c.interval_set = 1;
	assert_int_equal(sb_lat_choice_check(&c, msg, sizeof(msg)), -EINVAL);
	memset(&c, 0, sizeof(c));
	c.write = 1;
	c.preset = SB_LAT_HDPARM;
	assert_int_equal(sb_lat_choice_check(&c, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--write: --preset=hdparm reads only");
	c.preset = SB_LAT_DD_SYNC;
	assert_int_equal(sb_lat_choice_check(&c, msg, sizeof(msg)), 0);

	/* each preset's defaults: dd's 1000 synchronous 512-byte writes,
	 * hdparm's buffered 2 MiB reads for 3 s after 3 s idle, ioping's 4k
	 * random direct reads a second apart, the first a warm-up */
	memset(&c, 0, sizeof(c));
	memset(&lr, 0, sizeof(lr));
	c.preset = SB_LAT_DD_SYNC;
	sb_lat_choice_apply(&c, &lr);
	assert_true(lr.p.bs == 512 && lr.p.write && lr.dsync && lr.p.count == 1000 && lr.direct);
	assert_int_equal(lr.p.pattern, SB_PROBE_SEQ);
	memset(&lr, 0, sizeof(lr));
	c.preset = SB_LAT_HDPARM;
	sb_lat_choice_apply(&c, &lr);
	assert_true(lr.p.bs == (2u << 20) && !lr.p.write && !lr.direct && lr.p.stop_at_end);
	assert_true(lr.p.min_time_ns == 3000000000ull && lr.p.settle_ns == 3000000000ull);
	memset(&lr, 0, sizeof(lr));
	c.preset = SB_LAT_IOPING;
	c.buffered = 1;
	sb_lat_choice_apply(&c, &lr);
	assert_true(lr.p.bs == 4096 && lr.p.interval_ns == 1000000000ull && lr.p.warmup == 1);
	assert_true(!lr.direct && lr.p.drop_cache && lr.p.pattern == SB_PROBE_RANDOM);
	c.flood = c.bs_set = 1;
	c.bs = 8192;
	sb_lat_choice_apply(&c, &lr);
	assert_true(lr.p.bs == 8192 && lr.p.interval_ns == 0);

	/* the test file the preset makes, and a working set smaller than a request */
	assert_int_equal(sb_lat_choice_job(&c, &lr, 1, &job, msg, sizeof(msg)), 0);
	assert_true(job.size == (1u << 20) && job.bs == 8192 && job.rw == SB_RW_READ);
	assert_int_equal(sb_lat_choice_job(&c, &lr, 0, &job, msg, sizeof(msg)), 0);
	assert_true(job.size == 0);
	c.size_set = 1;
	c.size = 1024;
	assert_int_equal(sb_lat_choice_job(&c, &lr, 1, &job, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--size: the working set (1024 bytes) is smaller than a request "
				 "(--bs, 8192 bytes)");
}

static void test_meta(void **state)
{
	uint64_t v, lo, hi, dirs;
	char msg[512];
	struct sb_target_info ti;
	(void)state;
	assert_int_equal(sb_meta_parse_mib("64", &v), 0);
	assert_true(v == 64ull << 20);
	assert_int_equal(sb_meta_parse_mib("4G", &v), 0);
	assert_true(v == 4ull << 30);
	assert_int_equal(sb_meta_parse_mib("0", &v), 0);
	assert_true(v == 0);
	assert_int_equal(sb_meta_parse_mib("1500k", &v), -EINVAL); /* not whole MiB */
	assert_int_equal(sb_meta_parse_mib("x", &v), -EINVAL);
	assert_int_equal(sb_meta_parse_mib("1099511627777", &v), -EINVAL); /* over 2^40 MiB */
	assert_int_equal(sb_meta_parse_pow2("8k", &v), 0);
	assert_true(v == 8192);
	assert_int_equal(sb_meta_parse_pow2("300", &v), -EINVAL);
	assert_int_equal(sb_meta_parse_pow2("128", &v), -EINVAL);
	assert_int_equal(sb_meta_parse_pow2("2M", &v), -EINVAL);
	assert_int_equal(sb_meta_parse_file_size("4k", &lo, &hi), 0);
	assert_true(lo == 4096 && hi == 4096);
	assert_int_equal(sb_meta_parse_file_size("1k:64k", &lo, &hi), 0);
	assert_true(lo == 1024 && hi == 65536);
	static const char *const bad_fs[] = { "64k:1k", "2G", "1k:", ":1k", "x" };
	for (size_t i = 0; i < SB_ARRAY_SIZE(bad_fs); i++)
		if (sb_meta_parse_file_size(bad_fs[i], &lo, &hi) != -EINVAL)
			fail_msg("--file-size='%s' taken", bad_fs[i]);

	assert_int_equal(sb_meta_check_counts(0, 0, 0, &dirs, 1, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--files: nothing to do with --files=0 and --size=0");
	dirs = 4;
	assert_int_equal(sb_meta_check_counts(16, 0, 1, &dirs, 8, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--dirs: 4 directories for 8 threads; each thread needs its own "
				 "(give at least --dirs=8)");
	assert_int_equal(sb_meta_check_counts(16, 0, 0, &dirs, 3, msg, sizeof(msg)), 0);
	assert_true(dirs == 3);
	dirs = 8;
	assert_int_equal(sb_meta_check_counts(4, 0, 1, &dirs, 1, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--dirs: more directories (8) than files (4)");

	/* the machine name of bonnie++'s CSV line, and the size rule here */
	char name[8];
	sb_meta_machine_name("a,b,c", name, sizeof(name));
	assert_string_equal(name, "a_b_c");
	sb_meta_machine_name("longer-than-8", name, sizeof(name));
	assert_string_equal(name, "longer-");
	sb_meta_machine_name(NULL, name, sizeof(name));
	assert_true(name[0] && !strchr(name, ','));
	enum sb_meta_size_rule rule;
	uint64_t size = 5, twice;
	sb_meta_size_here(1, &size, &twice, &rule);
	assert_true(size == 5 && rule == SB_META_SIZE_GIVEN && twice > 0);
	sb_meta_size_here(0, &size, &twice, &rule);
	assert_true(rule != SB_META_SIZE_GIVEN && size > 0 && size <= twice);

	memset(&ti, 0, sizeof(ti));
	ti.kind = SB_TARGET_FILE;
	assert_int_equal(sb_meta_check_dir(&ti, "/x", 0, 8192, 0, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "meta needs a directory: '/x' is not one");
	ti.kind = SB_TARGET_DIR;
	ti.direct_ok = 1;
	ti.logical_bs = 4096;
	assert_int_equal(sb_meta_check_dir(&ti, "/x", 1, 512, 0, msg, sizeof(msg)), -EINVAL);
	assert_int_equal(sb_meta_check_dir(&ti, "/x", 1, 8192, 0, msg, sizeof(msg)), 0);
	ti.fs_free = 1 << 20;
	assert_int_equal(sb_meta_check_dir(&ti, "/x", 0, 8192, 2 << 20, msg, sizeof(msg)), -ENOSPC);
	assert_int_equal(sb_meta_check_dir(&ti, "/x", 0, 8192, 1 << 20, msg, sizeof(msg)), 0);
}

static void test_cliff(void **state)
{
	uint64_t ns[SB_CLIFF_MAX_RECOVERY];
	unsigned n = 3;
	(void)state;
	assert_int_equal(sb_cliff_parse_recovery("1m,5m,30m", ns, &n), 0);
	assert_true(n == 3 && ns[0] == 60000000000ull && ns[2] == 1800000000000ull);
	static const char *const bad[] = {
		"x", "1s,x", "0", "1m,,5m", "1m,", "", "1s,1s,1s,1s,1s,1s,1s,1s,1s"
	};
	for (size_t i = 0; i < SB_ARRAY_SIZE(bad); i++)
		if (sb_cliff_parse_recovery(bad[i], ns, &n) != -EINVAL)
			fail_msg("--recovery='%s' taken", bad[i]);
}

static void test_flash(void **state)
{
	uint32_t bs[SB_FLASH_MAX_BS];
	unsigned n;
	struct sb_flash_opts o;
	char msg[128];
	(void)state;
	assert_int_equal(sb_flash_parse_bs("1k..16k", bs, &n), 0);
	assert_true(n == 5 && bs[0] == 1024 && bs[4] == 16384);
	assert_int_equal(sb_flash_parse_bs("4k,512", bs, &n), 0);
	assert_true(n == 2 && bs[0] == 4096 && bs[1] == 512);
	assert_int_equal(sb_flash_parse_bs("4k,,8k", bs, &n), 0); /* as it always took it */
	assert_int_equal(n, 2);
	assert_int_equal(sb_flash_parse_bs("512..64M", bs, &n), -E2BIG);
	static const char *const bad[] = { "3k", "4k,3k", "256", "128M", "16k..1k", ",", "x..4k" };
	for (size_t i = 0; i < SB_ARRAY_SIZE(bad); i++)
		if (sb_flash_parse_bs(bad[i], bs, &n) != -EINVAL)
			fail_msg("--bs='%s' taken", bad[i]);

	memset(&o, 0, sizeof(o));
	assert_int_equal(sb_flash_opts_check(&o, 0, 0, msg, sizeof(msg)), 0);
	assert_true(o.align && o.fat_nr == 6 && o.sc_order == 9 && o.sc_span == 1);
	assert_true(o.count == 8 && o.max_au == 8 && o.orders == 3);
	memset(&o, 0, sizeof(o));
	o.fat_nr = 4;
	assert_int_equal(sb_flash_opts_check(&o, 0, 0, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--fat-nr applies to --find-fat only");
	memset(&o, 0, sizeof(o));
	assert_int_equal(sb_flash_opts_check(&o, 1, 0, msg, sizeof(msg)), -EINVAL);
	memset(&o, 0, sizeof(o)); /* the defaults are written as it goes */
	o.scatter = 1;
	assert_int_equal(sb_flash_opts_check(&o, 1, 0, msg, sizeof(msg)), 0);
	memset(&o, 0, sizeof(o));
	o.orders = 1;
	assert_int_equal(sb_flash_opts_check(&o, 0, 0, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--offset, --max-au and --order apply to --open-au only");
	memset(&o, 0, sizeof(o));
	o.orders = 1;
	o.open_au = 1;
	assert_int_equal(sb_flash_opts_check(&o, 0, 1, msg, sizeof(msg)), 0);
	assert_true(!o.align && o.orders == 1);
	memset(&o, 0, sizeof(o));
	assert_int_equal(sb_flash_opts_check(&o, 0, 1, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "--erase-size applies to --open-au and --find-fat only");
}

static void test_soak_resume(void **state)
{
	char *ok[] = { "soak",	 "--resume", "x.jsonl", "--iterations=3", "--output",
		       "o.json", "--quiet",  "--db",	"h.db",		  "--label",
		       "a=b",	 "--",	     "--bs=4k" };
	char *bad[] = { "soak", "--resume=x.jsonl", "--quiet", "--size", "4M" };
	char msg[320];
	(void)state;
	assert_int_equal(sb_soak_resume_args_ok((int)SB_ARRAY_SIZE(ok), ok, msg, sizeof(msg)), 0);
	assert_int_equal(sb_soak_resume_args_ok((int)SB_ARRAY_SIZE(bad), bad, msg, sizeof(msg)),
			 -EINVAL);
	assert_string_equal(msg, "--size: not with --resume: the soak goes on with the options it "
				 "started with (only --iterations, --duration, --output, --format, "
				 "--quiet, --db and --label may be given)");
	/* a value after an option that takes one is not an option */
	char *value[] = { "soak", "--output", "--size" };
	assert_int_equal(sb_soak_resume_args_ok(3, value, msg, sizeof(msg)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list),  cmocka_unit_test(test_pts),
		cmocka_unit_test(test_sweep), cmocka_unit_test(test_latency),
		cmocka_unit_test(test_meta),  cmocka_unit_test(test_cliff),
		cmocka_unit_test(test_flash), cmocka_unit_test(test_soak_resume),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
