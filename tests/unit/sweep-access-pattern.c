/* needs: none */
/*
 * Each sweep test touches the file as iozone's does, seen through the
 * trace of a real run on a real file: write and read go forward record by
 * record, reread reads the same records with the same data as read, random
 * read visits every record exactly once (and random write in the same
 * order), backward read goes from the last record down to 0, record
 * rewrite writes record 0 every time, stride read follows iozone's stride
 * and wrap rule, the stdio tests go forward; what is read is what was
 * written at that offset.
 */
#include "sweep-trace.h"

#define KIB 1024ull
#define N 64 /* 256 KiB in 4 KiB records */

static struct st_trace tr;
static struct st_ev *io[ST_MAX];

static void run_all(void)
{
	struct sb_sweep_opts o;
	st_opts(&o, &tr, N * 4 * KIB, 4 * KIB, SB_SWEEP_ALL_TESTS);
	struct sb_sweep_result *r = st_run(&o, 0);
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		assert_int_equal(r->state[t][0][0], SB_SWEEP_CELL_DONE);
	assert_int_equal(r->cells_done, 1);
	free(r);
}

/* The data hash each offset holds after the last write before event i. */
static uint64_t written_at(size_t before, uint64_t off)
{
	for (size_t i = before; i-- > 0;)
		if (tr.v[i].op == SB_SWEEP_OP_WRITE && tr.v[i].off == off)
			return tr.v[i].hash;
	fail_msg("offset %llu never written", (unsigned long long)off);
	return 0;
}

static void assert_reads_match_writes(void)
{
	for (size_t i = 0; i < tr.n; i++)
		if (tr.v[i].op == SB_SWEEP_OP_READ)
			assert_int_equal(tr.v[i].hash, written_at(i, tr.v[i].off));
}

static void assert_forward(int test)
{
	assert_int_equal(st_io(&tr, test, io), N);
	for (size_t i = 0; i < N; i++) {
		assert_int_equal(io[i]->off, i * 4 * KIB);
		assert_int_equal(io[i]->len, 4 * KIB);
	}
}

static void test_sequential(void **state)
{
	run_all();
	const int fwd[] = { SB_SWEEP_WRITE,  SB_SWEEP_REWRITE,	SB_SWEEP_READ,	SB_SWEEP_REREAD,
			    SB_SWEEP_FWRITE, SB_SWEEP_FREWRITE, SB_SWEEP_FREAD, SB_SWEEP_FREREAD };
	for (size_t k = 0; k < SB_ARRAY_SIZE(fwd); k++)
		assert_forward(fwd[k]);
	/* nothing untimed was needed: every test had its input from the one before */
	assert_int_equal(st_find(&tr, 0, SB_SWEEP_LAYOUT, SB_SWEEP_OP_WRITE), -1);
	assert_reads_match_writes();
}

static void test_reread_same_data(void **state)
{
	struct st_ev *rd[N];
	run_all();
	assert_int_equal(st_io(&tr, SB_SWEEP_READ, rd), N);
	assert_int_equal(st_io(&tr, SB_SWEEP_REREAD, io), N);
	for (size_t i = 0; i < N; i++) {
		assert_int_equal(io[i]->off, rd[i]->off);
		assert_int_equal(io[i]->hash, rd[i]->hash);
	}
	/* the records differ from each other (random, scrambled per record) */
	assert_int_not_equal(rd[0]->hash, rd[1]->hash);
}

static void test_random_once(void **state)
{
	struct st_ev *wr[N];
	unsigned seen[N] = { 0 };
	size_t in_place = 0;
	run_all();
	assert_int_equal(st_io(&tr, SB_SWEEP_RANDREAD, io), N);
	for (size_t i = 0; i < N; i++) {
		assert_int_equal(io[i]->off % (4 * KIB), 0);
		assert_true(io[i]->off / (4 * KIB) < N);
		seen[io[i]->off / (4 * KIB)]++;
		in_place += io[i]->off == i * 4 * KIB;
	}
	for (size_t k = 0; k < N; k++)
		assert_int_equal(seen[k], 1);
	assert_true(in_place < N / 4); /* shuffled, not sequential */
	assert_int_equal(st_io(&tr, SB_SWEEP_RANDWRITE, wr), N);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(wr[i]->off, io[i]->off); /* iozone: the same order */
	assert_reads_match_writes();
}

static void test_backward(void **state)
{
	run_all();
	assert_int_equal(st_io(&tr, SB_SWEEP_BKWDREAD, io), N);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(io[i]->off, (N - 1 - i) * 4 * KIB);
	assert_reads_match_writes();
}

static void test_record_rewrite(void **state)
{
	run_all();
	assert_int_equal(st_io(&tr, SB_SWEEP_RECREWRITE, io), N);
	for (size_t i = 0; i < N; i++) {
		assert_int_equal(io[i]->op, SB_SWEEP_OP_WRITE);
		assert_int_equal(io[i]->off, 0);
	}
}

/* iozone's rule with stride 17 over 64 records, worked by hand: a pass
 * wraps once p + 19 >= 64, i.e. from record 45 on. */
static void test_stride_default(void **state)
{
	static const uint64_t want[] = { 0, 17, 34, 51, 1, 18, 35, 52, 2, 19, 36, 53 };
	unsigned seen[N] = { 0 };
	run_all();
	assert_int_equal(st_io(&tr, SB_SWEEP_STRIDEREAD, io), N);
	for (size_t i = 0; i < SB_ARRAY_SIZE(want); i++)
		assert_int_equal(io[i]->off, want[i] * 4 * KIB);
	/* passes 0..10 read k, k+17, k+34, k+51; from 11 on k, k+17, k+34 */
	assert_int_equal(io[44]->off, 11 * 4 * KIB);
	assert_int_equal(io[45]->off, 28 * 4 * KIB);
	assert_int_equal(io[46]->off, 45 * 4 * KIB);
	assert_int_equal(io[47]->off, 12 * 4 * KIB);
	for (size_t i = 0; i < N; i++)
		seen[io[i]->off / (4 * KIB)]++;
	assert_int_equal(seen[0], 1);
	assert_int_equal(seen[17], 2); /* the 18th pass starts at 17 again */
	assert_reads_match_writes();
}

static void test_stride_option(void **state)
{
	/* stride 3 over 16 records: wrap once p + 5 >= 16 */
	static const uint64_t want[] = { 0, 3, 6, 9, 12, 1, 4, 7, 10, 13, 2, 5, 8, 11, 3, 6 };
	struct sb_sweep_opts o;
	st_opts(&o, &tr, 16 * 16 * KIB, 16 * KIB, 1u << SB_SWEEP_STRIDEREAD);
	o.stride = 3;
	free(st_run(&o, 0));
	assert_int_equal(st_io(&tr, SB_SWEEP_STRIDEREAD, io), 16);
	for (size_t i = 0; i < 16; i++)
		assert_int_equal(io[i]->off, want[i] * 16 * KIB);
}

static void test_stride_small_file(void **state)
{
	/* no more records than the stride: iozone reads record 0 each time */
	struct sb_sweep_opts o;
	st_opts(&o, &tr, 64 * KIB, 16 * KIB, 1u << SB_SWEEP_STRIDEREAD);
	free(st_run(&o, 0));
	assert_int_equal(st_io(&tr, SB_SWEEP_STRIDEREAD, io), 4);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(io[i]->off, 0);
}

static void test_uneven_file(void **state)
{
	/* 100 KiB in 16 KiB records: 6 whole records, as iozone's numrecs */
	struct sb_sweep_opts o;
	st_opts(&o, &tr, 100 * KIB, 16 * KIB, (1u << SB_SWEEP_WRITE) | (1u << SB_SWEEP_BKWDREAD));
	free(st_run(&o, 0));
	assert_int_equal(st_io(&tr, SB_SWEEP_WRITE, io), 6);
	assert_int_equal(st_io(&tr, SB_SWEEP_BKWDREAD, io), 6);
	assert_int_equal(io[0]->off, 5 * 16 * KIB);
	assert_reads_match_writes();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequential),     cmocka_unit_test(test_reread_same_data),
		cmocka_unit_test(test_random_once),    cmocka_unit_test(test_backward),
		cmocka_unit_test(test_record_rewrite), cmocka_unit_test(test_stride_default),
		cmocka_unit_test(test_stride_option),  cmocka_unit_test(test_stride_small_file),
		cmocka_unit_test(test_uneven_file),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	free(tr.v);
	return rc;
}
