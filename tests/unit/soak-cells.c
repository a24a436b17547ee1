/* needs: none */
/*
 * soak --workload=iozone's figures: the cells of a sweep become an
 * iteration's (in iozone's order, with the write and read tests'
 * throughput as bytes over time), they go through the log and back, and
 * each cell gets the soak's verdict: a cell whose level falls is found at
 * the iteration it fell, a steady one is not, an interrupted iteration and
 * one without the cell are left out, and with fail_on_anomaly the change
 * fails the soak.
 */
#include "tests/lib/sbtest.h"

#include <math.h>

#include "lib/soak/soak_verdict.h"
#include "lib/soak/soak_json.h"
#include "lib/sweep/sweep.h"

static void test_from_sweep(void **state)
{
	(void)state;
	struct sb_sweep_result *r = calloc(1, sizeof(*r));
	struct sb_soak_iter it;
	assert_non_null(r);
	memset(&it, 0, sizeof(it));
	r->nfile = 2;
	r->nrec = 1;
	r->file_sizes[0] = 1 << 20;
	r->file_sizes[1] = 2 << 20;
	r->record_sizes[0] = 64 << 10;
	/* write: 1 MiB in 10 ms, 2 MiB in 10 ms; randread: 1 MiB in 5 ms;
	 * randread of 2 MiB planned, not done (interrupted) */
	const int cells[][4] = { { SB_SWEEP_WRITE, 0, 100000, 10 },
				 { SB_SWEEP_WRITE, 1, 200000, 10 },
				 { SB_SWEEP_RANDREAD, 0, 300000, 5 } };
	for (size_t i = 0; i < 3; i++) {
		const int t = cells[i][0], fi = cells[i][1];
		r->state[t][fi][0] = SB_SWEEP_CELL_DONE;
		r->kibps[t][fi][0] = (uint64_t)cells[i][2];
		r->elapsed_ns[t][fi][0] = (uint64_t)cells[i][3] * 1000000;
	}
	r->state[SB_SWEEP_RANDREAD][1][0] = SB_SWEEP_CELL_PLANNED;
	assert_int_equal(sb_soak_cells_from_sweep(&it, r), 0);
	assert_int_equal(it.ncells, 3);
	assert_int_equal(it.cells[0].test, SB_SWEEP_WRITE);
	assert_int_equal(it.cells[1].file_size, 2 << 20);
	assert_int_equal(it.cells[2].test, SB_SWEEP_RANDREAD);
	assert_true(it.cells[2].kibps == 300000);
	/* 3 MiB written in 20 ms; 1 MiB read in 5 ms */
	assert_true(fabs(it.write_bw - 3.0 * 1048576 / 0.020) < 1);
	assert_true(fabs(it.read_bw - 1048576 / 0.005) < 1);
	assert_true(sb_sweep_test_writes(SB_SWEEP_RANDWRITE));
	assert_false(sb_sweep_test_writes(SB_SWEEP_STRIDEREAD));
	free(it.cells);
	free(r);
}

static void iteration(struct sb_json *j, const struct sb_soak_iter *it)
{
	sb_json_begin(j, j->f, 1);
	sb_soak_iter_record(j, it);
	assert_int_equal(sb_json_end(j), 0);
}

/* Cells through the log and back; an iozone iteration has no verify. */
static void test_log_roundtrip(void **state)
{
	(void)state;
	char *argv[] = { "soak", "--workload=iozone", "--", "-s1m" };
	const struct sb_soak_config c = {
		.target = "tf", .argc = 4, .argv = argv, .workload = "iozone"
	};
	struct sb_soak_cell cells[2] = { { 1 << 20, 64 << 10, SB_SWEEP_WRITE, 1234.5 },
					 { 2 << 20, 4 << 10, SB_SWEEP_RANDWRITE, 99 } };
	struct sb_soak_iter it[2];
	struct sb_soak_log log;
	struct sb_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	memset(it, 0, sizeof(it));
	it[0].n = 1, it[0].iozone = 1, it[0].cells = cells, it[0].ncells = 2;
	it[1].n = 2, it[1].iozone = 1; /* interrupted before a cell */
	sb_json_begin(&j, f, 1);
	sb_soak_config_record(&j, &c);
	assert_int_equal(sb_json_end(&j), 0);
	iteration(&j, &it[0]);
	iteration(&j, &it[1]);
	fflush(f);
	assert_non_null(strstr(buf, "\"workload\":\"iozone\""));
	assert_null(strstr(buf, "\"verify\""));
	assert_int_equal(sb_soak_log_parse(buf, len, &log), 0);
	assert_int_equal(log.nit, 2);
	assert_int_equal(log.it[0].ncells, 2);
	assert_true(log.it[0].iozone && log.it[1].iozone);
	assert_int_equal(log.it[0].cells[1].test, SB_SWEEP_RANDWRITE);
	assert_int_equal(log.it[0].cells[1].file_size, 2 << 20);
	assert_int_equal(log.it[0].cells[1].record_size, 4 << 10);
	assert_true(log.it[0].cells[0].kibps == 1234.5);
	assert_int_equal(log.it[1].ncells, 0);
	sb_soak_log_free(&log);
	fclose(f);
	free(buf);
}

/* 20 iterations: cell A steady about 1000, cell B at 1000 then 500 from
 * iteration 11; iteration 5 interrupted (A at 1: left out) and iteration 7
 * without B. */
static void test_verdict(void **state)
{
	(void)state;
	enum { N = 20 };
	static struct sb_soak_iter it[N];
	static struct sb_soak_cell c[N][2];
	struct sb_soak_summary sum;
	struct sb_soak_cell_metric *m = NULL;
	size_t nm = 0;
	for (int i = 0; i < N; i++) {
		memset(&it[i], 0, sizeof(it[i]));
		it[i].n = (uint64_t)i + 1;
		it[i].iozone = 1;
		it[i].write_bw = it[i].read_bw = 1e8;
		c[i][0] = (struct sb_soak_cell){ 1 << 20, 64 << 10, SB_SWEEP_WRITE,
						 1000 + (i % 3) };
		c[i][1] = (struct sb_soak_cell){ 1 << 20, 64 << 10, SB_SWEEP_RANDREAD,
						 i < 10 ? 1000 + (i % 2) : 500 + (i % 2) };
		it[i].cells = c[i];
		it[i].ncells = i == 6 ? 1 : 2;
	}
	it[4].interrupted = 1;
	c[4][0].kibps = 1;
	assert_int_equal(sb_soak_summarize(it, N, 0, &sum), 0);
	const int before = sum.anomalies;
	assert_int_equal(sb_soak_summarize_cells(it, N, 0, &sum, &m, &nm), 0);
	assert_int_equal(nm, 2);
	assert_int_equal(m[0].test, SB_SWEEP_WRITE);
	assert_int_equal(m[0].m.st.n, N - 1);
	assert_int_equal(m[0].m.nchanges, 0);
	assert_int_equal(m[0].m.outliers_total, 0);
	assert_true(m[0].m.st.min >= 1000);
	assert_int_equal(m[1].test, SB_SWEEP_RANDREAD);
	assert_int_equal(m[1].m.st.n, N - 2);
	assert_int_equal(m[1].m.nchanges, 1);
	assert_int_equal(m[1].m.changes[0].at, 11);
	assert_true(fabs(m[1].m.changes[0].after - 500.5) < 1);
	assert_int_equal(sum.anomalies, before + 1);
	assert_true(sum.pass);
	free(m);
	assert_int_equal(sb_soak_summarize(it, N, 1, &sum), 0);
	assert_int_equal(sb_soak_summarize_cells(it, N, 1, &sum, &m, &nm), 0);
	assert_false(sum.pass);
	free(m);
	/* a verify soak: no cells, nothing added */
	for (int i = 0; i < N; i++)
		it[i].ncells = 0;
	assert_int_equal(sb_soak_summarize(it, N, 1, &sum), 0);
	assert_int_equal(sb_soak_summarize_cells(it, N, 1, &sum, &m, &nm), 0);
	assert_null(m);
	assert_int_equal(nm, 0);
	assert_true(sum.pass);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_from_sweep),
		cmocka_unit_test(test_log_roundtrip),
		cmocka_unit_test(test_verdict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
