/* needs: none */
/* Repeats: the summary row of N runs holds the median and min..max per
 * direction (the mean of the middle two for an even count), and leaves out
 * runs and directions that did no I/O. Values by hand. */
#include "tests/lib/sbtest.h"
#include "lib/storbench.h"

/* A run that read bytes (and did as many 4 KiB requests) in one second. */
static void add_run(struct sb_results *r, uint64_t read_bytes, uint64_t write_bytes)
{
	struct sb_job_result *j = sb_job_result_create();
	assert_non_null(j);
	j->runtime_ns = 1000000000ull;
	j->dir[SB_DDIR_READ].bytes = read_bytes;
	j->dir[SB_DDIR_READ].ios = read_bytes / 4096;
	j->dir[SB_DDIR_WRITE].bytes = write_bytes;
	j->dir[SB_DDIR_WRITE].ios = write_bytes / 4096;
	for (int i = 0; i < 3; i++)
		sb_hist_add(&j->dir[SB_DDIR_READ].lat, 1000);
	assert_int_equal(sb_results_add_job(r, j), 0);
}

static void odd_count(void **state)
{
	(void)state;
	struct sb_results *r = sb_results_create("run");
	add_run(r, 1 << 20, 0); /* an earlier workload: not counted */
	add_run(r, 3 * 4096 * 100, 0);
	add_run(r, 1 * 4096 * 100, 0);
	add_run(r, 2 * 4096 * 100, 0);
	assert_int_equal(sb_repeats_summarize(r, 1, 3, "wl"), 0);
	assert_int_equal(r->nsummary, 1);
	const struct sb_summary_row *s = &r->summary[0];
	assert_string_equal(s->test, "wl");
	assert_int_equal(s->ddir, SB_DDIR_READ);
	assert_int_equal(s->nruns, 3);
	assert_true(s->bw_median == 2 * 4096 * 100.0);
	assert_true(s->bw_min == 1 * 4096 * 100.0);
	assert_true(s->bw_max == 3 * 4096 * 100.0);
	assert_true(s->iops_median == 200.0);
	assert_true(s->iops_min == 100.0 && s->iops_max == 300.0);
	sb_results_free(r);
}

static void even_count_and_directions(void **state)
{
	(void)state;
	struct sb_results *r = sb_results_create("run");
	add_run(r, 4096 * 10, 4096 * 5);
	add_run(r, 4096 * 40, 0);
	add_run(r, 4096 * 20, 4096 * 7);
	add_run(r, 4096 * 30, 0);
	assert_int_equal(sb_repeats_summarize(r, 0, 4, "mix"), 0);
	assert_int_equal(r->nsummary, 2);
	assert_int_equal(r->summary[0].ddir, SB_DDIR_READ);
	assert_true(r->summary[0].iops_median == 25.0);
	assert_true(r->summary[0].iops_min == 10.0 && r->summary[0].iops_max == 40.0);
	/* only the two runs that wrote */
	assert_int_equal(r->summary[1].ddir, SB_DDIR_WRITE);
	assert_int_equal(r->summary[1].nruns, 2);
	assert_true(r->summary[1].iops_median == 6.0);
	sb_results_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(odd_count),
		cmocka_unit_test(even_count_and_directions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
