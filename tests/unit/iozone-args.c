/* needs: none */
/*
 * iozone's command line as iozone's getopt takes it, mapped to a sweep:
 * bundled flags, values attached or apart, -+ options, sizes in KiB unless
 * suffixed, -i groups, auto mode's ranges, and refusals that name the
 * option and say what to use instead.
 */
#include "tests/lib/sbtest.h"
#include "lib/sweep/sweep.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define B(x) (1u << SB_SWEEP_##x)

static int parse(struct sb_iozone_args *a, const char *line)
{
	static char buf[1024];
	char *argv[64];
	int argc = 0;
	snprintf(buf, sizeof(buf), "%s", line);
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	return sb_iozone_args_parse(a, argc, argv);
}

/* The first seed line: every flag of the bundle, -L/-S attached, -+b. */
static void test_seed_direct(void **state)
{
	(void)state;
	struct sb_iozone_args a;
	assert_int_equal(parse(&a, "-azecI -+n -L64 -S32 -r2m -s128m -i0 -i2 -+b 400000,30000 "
				   "-w -f testfile"),
			 0);
	assert_true(a.auto_mode && a.all_records && a.no_retest && a.keep);
	assert_true(a.o.flush && a.o.close && a.o.direct && a.o.all_records);
	assert_int_equal(a.line_bytes, 64);
	assert_int_equal(a.cache_kib, 32);
	assert_int_equal(a.o.nrec, 1);
	assert_int_equal(a.o.record_sizes[0], 2 * MIB);
	assert_int_equal(a.o.nfile, 1);
	assert_int_equal(a.o.file_sizes[0], 128 * MIB);
	/* -i0 -i2 less -+n's second passes */
	assert_int_equal(a.o.tests, B(WRITE) | B(RANDREAD) | B(RANDWRITE));
	assert_int_equal(a.tests, B(WRITE) | B(REWRITE) | B(RANDREAD) | B(RANDWRITE));
	assert_int_equal(a.o.burst_bytes, 400000 * KIB);
	assert_int_equal(a.o.burst_idle_ns, 30000ull * 1000000);
	assert_string_equal(a.file, "testfile");
	/* iozone's lines about the options, in the order given */
	assert_string_equal(a.notes, "\tAuto Mode\n"
				     "\tCross over of record size disabled.\n"
				     "\tInclude fsync in write timing\n"
				     "\tInclude close in write timing\n"
				     "\tO_DIRECT feature enabled\n"
				     "\tNo retest option selected\n"
				     "\tRecord Size 2048 kB\n"
				     "\tFile size set to 131072 kB\n"
				     "\tSetting no_unlink\n");
}

/* The second seed line: -Rb FILE (a flag, then a value in the next word). */
static void test_seed_excel(void **state)
{
	(void)state;
	struct sb_iozone_args a;
	assert_int_equal(parse(&a, "-a -s 2G -+n -i 0 -i 1 -f F -Rb iozone.xls"), 0);
	assert_true(a.auto_mode && a.excel && !a.o.flush && !a.o.close && !a.o.direct);
	assert_string_equal(a.xls, "iozone.xls");
	assert_int_equal(a.o.file_sizes[0], 2048 * MIB);
	assert_int_equal(a.o.nrec, 0); /* auto: sweep's 4k..16m */
	assert_true(a.all_records);    /* -s: no crossover, as iozone */
	assert_int_equal(a.o.tests, B(WRITE) | B(READ));
	assert_string_equal(a.notes,
			    "\tAuto Mode\n\tFile size set to 2097152 kB\n"
			    "\tNo retest option selected\n\tExcel chart generation enabled\n");
}

/* Without -a: iozone's one cell, 512 KiB file of 4 KiB records, all
 * tests; sizes without a suffix are KiB; auto mode's ranges. */
static void test_defaults_and_ranges(void **state)
{
	(void)state;
	struct sb_iozone_args a;
	assert_int_equal(parse(&a, "-i 0"), 0);
	assert_int_equal(a.o.nfile, 1);
	assert_int_equal(a.o.file_sizes[0], 512 * KIB);
	assert_int_equal(a.o.record_sizes[0], 4 * KIB);
	assert_string_equal(a.file, "iozone.tmp");
	assert_int_equal(parse(&a, "-s 64 -r 16"), 0);
	assert_int_equal(a.o.file_sizes[0], 64 * KIB);
	assert_int_equal(a.o.record_sizes[0], 16 * KIB);
	assert_int_equal(a.o.tests, SB_SWEEP_ALL_TESTS);
	assert_int_equal(parse(&a, "-a -n 64k -g 1m -y 8k -q 32k -j 3"), 0);
	assert_int_equal(a.o.nfile, 5); /* 64k 128k 256k 512k 1m */
	assert_int_equal(a.o.file_sizes[4], 1 * MIB);
	assert_int_equal(a.o.nrec, 3); /* 8k 16k 32k */
	assert_int_equal(a.o.record_sizes[0], 8 * KIB);
	assert_int_equal(a.o.record_sizes[2], 32 * KIB);
	assert_int_equal(a.o.stride, 3);
	assert_false(a.all_records);
	assert_int_equal(parse(&a, "-a"), 0);
	assert_int_equal(a.o.nfile, 14); /* 64k to 512m */
	assert_int_equal(parse(&a, "-s 64k -s 1m -r 4k -r 64k"), 0);
	assert_int_equal(a.o.nfile, 2);
	assert_int_equal(a.o.nrec, 2);
}

static void assert_refused(const char *line, const char *words)
{
	struct sb_iozone_args a;
	assert_int_equal(parse(&a, line), -EINVAL);
	if (!strstr(a.error, words))
		fail_msg("'%s': error '%s' lacks '%s'", line, a.error, words);
}

static void test_refused(void **state)
{
	(void)state;
	assert_refused("-a -t 4", "-t: throughput mode is not supported; use storbench run");
	assert_refused("-a -i 9", "-i 9: tests 8 to 12");
	assert_refused("-a -U /mnt", "-U: remounting");
	assert_refused("-aB", "-B: mmap");
	assert_refused("-+u", "-+u: CPU");
	assert_refused("-a -s 2q", "-s: '2q' is not a size");
	assert_refused("-a -s", "-s: needs a value");
	assert_refused("-a -+b 100", "-+b: '100' is not KB,MSEC");
	assert_refused("-a -%", "-%: unknown iozone option");
	assert_refused("-a testfile", "'testfile': iozone takes options only");
	assert_refused("-a --quiet", "'--quiet': not an iozone option");
	assert_refused("-n 64k", "add -a");
	assert_refused("-a -n 1m -g 64k", "-n: the minimum file size is above");
	assert_refused("-a -i x", "-i: 'x' is not a test number");
	assert_refused("-a -r 32m", "-r: '32m' is not a size");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_direct),
		cmocka_unit_test(test_seed_excel),
		cmocka_unit_test(test_defaults_and_ranges),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
