/* needs: none */
/*
 * The shape of the sweep's matrix, counted by hand from iozone's auto mode:
 * file sizes 64 KiB..512 MiB (14) and records 4 KiB..16 MiB (13) in powers
 * of two, records never larger than the file, and on files over 16 MiB no
 * records under 64 KiB unless all_records. Explicit lists are sorted and
 * deduplicated and choose the records themselves (no rule). Bad shapes are
 * refused. Names and titles are iozone's.
 */
#include "tests/lib/sbtest.h"
#include "lib/sweep/sweep.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)

static struct sb_sweep_result r;

static unsigned cells(void)
{
	unsigned n = 0;
	for (unsigned fi = 0; fi < r.nfile; fi++)
		for (unsigned ri = 0; ri < r.nrec; ri++)
			n += sb_sweep_cell_runs(&r, fi, ri);
	return n;
}

static int idx(const uint64_t *v, unsigned n, uint64_t x)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i] == x)
			return (int)i;
	fail_msg("size %llu not in the list", (unsigned long long)x);
	return -1;
}

static int runs(uint64_t f, uint64_t rec)
{
	return sb_sweep_cell_runs(&r, (unsigned)idx(r.file_sizes, r.nfile, f),
				  (unsigned)idx(r.record_sizes, r.nrec, rec));
}

static void test_auto(void **state)
{
	struct sb_sweep_opts o;
	sb_sweep_opts_default(&o);
	assert_int_equal(sb_sweep_plan(&r, &o), 0);
	assert_int_equal(r.nfile, 14);
	assert_int_equal(r.nrec, 13);
	assert_int_equal(r.file_sizes[0], 64 * KIB);
	assert_int_equal(r.file_sizes[13], 512 * MIB);
	assert_int_equal(r.record_sizes[0], 4 * KIB);
	assert_int_equal(r.record_sizes[12], 16 * MIB);
	assert_true(r.small_record_rule);
	/* 64 KiB..16 MiB files: 5+6+...+13 = 81 cells; 32..512 MiB: 9 each */
	assert_int_equal(cells(), 81 + 5 * 9);
	assert_int_equal(r.cells_planned, 126);
	assert_true(runs(64 * KIB, 64 * KIB));
	assert_false(runs(64 * KIB, 128 * KIB));
	assert_true(runs(16 * MIB, 4 * KIB)); /* 16 MiB is not over the crossover */
	assert_false(runs(32 * MIB, 32 * KIB));
	assert_true(runs(32 * MIB, 64 * KIB));
	assert_true(runs(512 * MIB, 16 * MIB));
	/* every test planned where the shape allows, nowhere else */
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		for (unsigned fi = 0; fi < r.nfile; fi++)
			for (unsigned ri = 0; ri < r.nrec; ri++)
				assert_int_equal(r.state[t][fi][ri], sb_sweep_cell_runs(&r, fi, ri)
									     ? SB_SWEEP_CELL_PLANNED
									     : SB_SWEEP_CELL_SKIP);
}

static void test_all_records(void **state)
{
	struct sb_sweep_opts o;
	sb_sweep_opts_default(&o);
	o.all_records = 1;
	assert_int_equal(sb_sweep_plan(&r, &o), 0);
	assert_false(r.small_record_rule);
	assert_int_equal(cells(), 81 + 5 * 13);
	assert_true(runs(32 * MIB, 4 * KIB));
	assert_true(runs(512 * MIB, 32 * KIB));
}

static void test_explicit_lists(void **state)
{
	struct sb_sweep_opts o;
	sb_sweep_opts_default(&o);
	const uint64_t f[] = { 256 * KIB, 64 * MIB, 64 * KIB, 256 * KIB };
	const uint64_t rec[] = { 16 * KIB, 4 * KIB, 1 * MIB };
	memcpy(o.file_sizes, f, sizeof(f));
	o.nfile = 4;
	memcpy(o.record_sizes, rec, sizeof(rec));
	o.nrec = 3;
	o.tests = (1u << SB_SWEEP_READ) | (1u << SB_SWEEP_FREAD);
	assert_int_equal(sb_sweep_plan(&r, &o), 0);
	assert_int_equal(r.nfile, 3);
	assert_int_equal(r.file_sizes[0], 64 * KIB);
	assert_int_equal(r.file_sizes[1], 256 * KIB);
	assert_int_equal(r.file_sizes[2], 64 * MIB);
	assert_int_equal(r.nrec, 3);
	assert_int_equal(r.record_sizes[0], 4 * KIB);
	assert_int_equal(r.record_sizes[2], 1 * MIB);
	assert_false(r.small_record_rule); /* the user chose the records */
	assert_true(runs(64 * MIB, 4 * KIB));
	assert_false(runs(256 * KIB, 1 * MIB));
	assert_int_equal(cells(), 2 + 2 + 3);
	assert_int_equal(r.state[SB_SWEEP_READ][0][0], SB_SWEEP_CELL_PLANNED);
	assert_int_equal(r.state[SB_SWEEP_WRITE][0][0], SB_SWEEP_CELL_SKIP);
	assert_int_equal(r.state[SB_SWEEP_FREAD][2][2], SB_SWEEP_CELL_PLANNED);
}

static void test_explicit_files_keep_rule(void **state)
{
	struct sb_sweep_opts o;
	sb_sweep_opts_default(&o);
	o.file_sizes[0] = 1024 * MIB;
	o.nfile = 1;
	assert_int_equal(sb_sweep_plan(&r, &o), 0);
	assert_true(r.small_record_rule);
	assert_int_equal(cells(), 9); /* 64 KiB..16 MiB */
}

static void test_refused(void **state)
{
	struct sb_sweep_opts o;
	sb_sweep_opts_default(&o);
	o.file_sizes[0] = 8 * KIB;
	o.nfile = 1;
	o.record_sizes[0] = 16 * KIB;
	o.nrec = 1;
	assert_int_equal(sb_sweep_plan(&r, &o), -EINVAL); /* no record fits */
	o.record_sizes[0] = 32 * MIB;
	assert_int_equal(sb_sweep_plan(&r, &o), -EINVAL); /* over 16 MiB */
	o.record_sizes[0] = 0;
	assert_int_equal(sb_sweep_plan(&r, &o), -EINVAL);
	o.record_sizes[0] = 4 * KIB;
	o.tests = 0;
	assert_int_equal(sb_sweep_plan(&r, &o), -EINVAL);
	o.tests = SB_SWEEP_ALL_TESTS;
	o.stride = 0;
	assert_int_equal(sb_sweep_plan(&r, &o), -EINVAL);
	o.stride = 17;
	o.nfile = SB_SWEEP_MAX_SIZES + 1;
	assert_int_equal(sb_sweep_plan(&r, &o), -E2BIG);
}

static void test_names(void **state)
{
	static const char *const titles[] = {
		"Writer report",	"Re-writer report",	 "Reader report",
		"Re-Reader report",	"Random read report",	 "Random write report",
		"Backward read report", "Record rewrite report", "Stride read report",
		"Fwrite report",	"Re-Fwrite report",	 "Fread report",
		"Re-Fread report",
	};
	for (int t = 0; t < SB_SWEEP_NTESTS; t++) {
		assert_int_equal(sb_sweep_test_by_name(sb_sweep_test_name(t)), t);
		assert_string_equal(sb_sweep_test_title(t), titles[t]);
	}
	assert_int_equal(sb_sweep_test_by_name("layout"), -EINVAL);
	assert_int_equal(sb_sweep_test_by_name("Write"), -EINVAL);
	assert_string_equal(sb_sweep_test_name(SB_SWEEP_RANDREAD), "randread");
	assert_string_equal(sb_sweep_test_name(99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_all_records),
		cmocka_unit_test(test_explicit_lists),
		cmocka_unit_test(test_explicit_files_keep_rule),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
