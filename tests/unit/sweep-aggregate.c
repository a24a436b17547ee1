/* needs: none */
/*
 * The All clients aggregate of a sweep of many ranks (sb_sweep_aggregate),
 * from ranks with a known truth: each cell's bytes are the ranks' summed,
 * its time the earliest start to the latest end (on rank 0's clock), its
 * KiB/s those bytes over that time; a cell one rank did not measure is not
 * measured in the aggregate; the spreads are those of the stamps; ranks of
 * another shape are refused.
 */
#include "tests/lib/sbtest.h"
#include "lib/sweep/sweep.h"

#include <math.h>

#define NRANKS 3

static struct sb_sweep_opts opts(void)
{
	struct sb_sweep_opts o;
	sb_sweep_opts_default(&o);
	o.file_sizes[0] = 64 << 10;
	o.file_sizes[1] = 1 << 20;
	o.nfile = 2;
	o.record_sizes[0] = 4 << 10;
	o.record_sizes[1] = 128 << 10; /* larger than the 64k file: not run there */
	o.nrec = 2;
	o.tests = (1u << SB_SWEEP_WRITE) | (1u << SB_SWEEP_READ);
	return o;
}

static void aggregate_is_exact(void **state)
{
	(void)state;
	struct sb_sweep_opts o = opts();
	struct sb_sweep_result *agg = calloc(1, sizeof(*agg));
	struct sb_sweep_rank *rk = calloc(NRANKS, sizeof(*rk));
	assert_non_null(agg);
	assert_non_null(rk);
	assert_int_equal(sb_sweep_plan(agg, &o), 0);
	assert_false(sb_sweep_cell_runs(agg, 0, 1));
	for (unsigned k = 0; k < NRANKS; k++) {
		rk[k].r = *agg;
		for (int t = 0; t < SB_SWEEP_NTESTS; t++)
			for (unsigned fi = 0; fi < 2; fi++)
				for (unsigned ri = 0; ri < 2; ri++) {
					if (rk[k].r.state[t][fi][ri] != SB_SWEEP_CELL_PLANNED)
						continue;
					/* rank k starts k ms late and takes (k + 1) * 10 ms */
					const double s = 10.0 * t + fi + 0.1 * ri + 0.001 * k;
					rk[k].start_s[t][fi][ri] = s;
					rk[k].end_s[t][fi][ri] = s + 0.01 * (k + 1);
					rk[k].r.elapsed_ns[t][fi][ri] = 10000000ull * (k + 1);
					rk[k].r.state[t][fi][ri] = SB_SWEEP_CELL_DONE;
				}
	}
	/* rank 2 did not measure the read of (1M, 128k) */
	rk[2].r.state[SB_SWEEP_READ][1][1] = SB_SWEEP_CELL_PLANNED;
	assert_int_equal(sb_sweep_aggregate(agg, rk, NRANKS), 0);
	assert_ptr_equal(agg->ranks, rk);
	assert_int_equal(agg->nranks, NRANKS);
	/* (64k, 4k), write: 3 x 64 KiB over 2 ms + 30 ms - 0 = 32 ms */
	assert_int_equal(agg->state[SB_SWEEP_WRITE][0][0], SB_SWEEP_CELL_DONE);
	assert_int_equal(agg->elapsed_ns[SB_SWEEP_WRITE][0][0], 32000000);
	assert_int_equal(agg->kibps[SB_SWEEP_WRITE][0][0],
			 (uint64_t)(3.0 * 65536 * 1e9 / 32000000) >> 10);
	/* (1M, 128k): 8 records of 128k on each rank */
	assert_int_equal(sb_sweep_cell_bytes(agg, 1, 1), 1 << 20);
	assert_int_equal(agg->kibps[SB_SWEEP_WRITE][1][1],
			 (uint64_t)(3.0 * 1048576 * 1e9 / 32000000) >> 10);
	/* not measured by every rank: not in the aggregate, nor the cell done */
	assert_int_equal(agg->state[SB_SWEEP_READ][1][1], SB_SWEEP_CELL_PLANNED);
	assert_int_equal(agg->state[SB_SWEEP_READ][0][1], SB_SWEEP_CELL_SKIP);
	assert_int_equal(agg->cells_done, 2); /* (64k,4k), (1M,4k) */
	double s, e;
	sb_sweep_spread(agg, SB_SWEEP_WRITE, 1, 0, &s, &e);
	assert_true(fabs(s - 0.002) < 1e-9);
	assert_true(fabs(e - 0.022) < 1e-9);
	sb_sweep_spread(agg, SB_SWEEP_READ, 1, 1, &s, &e);
	assert_true(s == 0 && e == 0);
	/* a rank with another shape */
	rk[1].r.file_sizes[1] = 2 << 20;
	assert_int_equal(sb_sweep_aggregate(agg, rk, NRANKS), -EINVAL);
	free(agg);
	free(rk);
}

/* --stonewall: a rank's pass ended early counts the bytes it moved */
static void aggregate_of_ended_early(void **state)
{
	(void)state;
	struct sb_sweep_opts o = opts();
	o.tests = 1u << SB_SWEEP_WRITE;
	struct sb_sweep_result *agg = calloc(1, sizeof(*agg));
	struct sb_sweep_rank *rk = calloc(NRANKS, sizeof(*rk));
	assert_non_null(agg);
	assert_non_null(rk);
	assert_int_equal(sb_sweep_plan(agg, &o), 0);
	for (unsigned k = 0; k < NRANKS; k++) {
		rk[k].r = *agg;
		for (unsigned fi = 0; fi < 2; fi++)
			for (unsigned ri = 0; ri < 2; ri++) {
				if (rk[k].r.state[SB_SWEEP_WRITE][fi][ri] != SB_SWEEP_CELL_PLANNED)
					continue;
				rk[k].start_s[SB_SWEEP_WRITE][fi][ri] = fi + 0.001 * k;
				rk[k].end_s[SB_SWEEP_WRITE][fi][ri] = fi + 0.1;
				rk[k].r.elapsed_ns[SB_SWEEP_WRITE][fi][ri] = 100000000ull - k * 1000000ull;
				rk[k].r.bytes[SB_SWEEP_WRITE][fi][ri] = sb_sweep_cell_bytes(agg, fi, ri);
				rk[k].r.state[SB_SWEEP_WRITE][fi][ri] = SB_SWEEP_CELL_DONE;
			}
	}
	/* (1M, 4k): rank 2 was stopped after 100 records */
	rk[2].r.ended_early[SB_SWEEP_WRITE][1][0] = 1;
	rk[2].r.bytes[SB_SWEEP_WRITE][1][0] = 100 * 4096;
	assert_int_equal(sb_sweep_aggregate(agg, rk, NRANKS), 0);
	assert_int_equal(sb_sweep_pass_bytes(&rk[2].r, SB_SWEEP_WRITE, 1, 0), 100 * 4096);
	assert_int_equal(agg->bytes[SB_SWEEP_WRITE][1][0], 2 * 1048576 + 100 * 4096);
	assert_true(agg->ended_early[SB_SWEEP_WRITE][1][0]);
	assert_int_equal(agg->elapsed_ns[SB_SWEEP_WRITE][1][0], 100000000);
	assert_int_equal(agg->kibps[SB_SWEEP_WRITE][1][0],
			 (uint64_t)((2.0 * 1048576 + 100 * 4096) * 1e9 / 100000000) >> 10);
	/* the other cells: every rank's whole file */
	assert_false(agg->ended_early[SB_SWEEP_WRITE][0][0]);
	assert_int_equal(agg->bytes[SB_SWEEP_WRITE][0][0], 3 * 65536);
	assert_int_equal(agg->cells_done, 3);
	free(agg);
	free(rk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(aggregate_is_exact),
		cmocka_unit_test(aggregate_of_ended_early),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
