/* needs: none */
/*
 * The "All clients" figures of a multi-host run (sb_job_aggregate), from
 * ranks with a known truth: bytes, requests and errors are the sums; the
 * latency histogram is exactly that of every rank's samples together (not
 * an average of percentiles); the time is the earliest start to the latest
 * end, so bandwidth is all bytes over it; the skew names the slowest and
 * fastest ranks against the median.
 */
#include "tests/lib/sbtest.h"
#include "lib/results/results.h"

#include <math.h>

#define NRANKS 4

static struct sb_job_result *rank_job(unsigned r, struct sb_hist *all)
{
	struct sb_job_result *j = sb_job_result_create();
	assert_non_null(j);
	j->dir[SB_DDIR_READ].bytes = (r + 1) * 1000000ull;
	j->dir[SB_DDIR_READ].ios = (r + 1) * 100;
	j->runtime_ns = 1000000000ull;
	j->dir_runtime_ns[SB_DDIR_READ] = j->runtime_ns; /* as lib/run sets it */
	j->errors = r == 2;
	j->cpu_ns = 1000 * (r + 1);
	for (unsigned k = 0; k < 1000; k++) {
		/* rank r: latencies around (r + 1) * 100 us, so ranks differ */
		const uint64_t v = (r + 1) * 100000ull + k * 37 * (r + 1);
		sb_hist_add(&j->dir[SB_DDIR_READ].clat, v);
		sb_hist_add(all, v);
	}
	return j;
}

static void aggregate_is_exact(void **state)
{
	(void)state;
	static struct sb_hist all;
	sb_hist_init(&all);
	struct sb_client *c = calloc(NRANKS, sizeof(*c));
	assert_non_null(c);
	const double start[NRANKS] = { 10.0, 10.2, 10.1, 10.05 };
	for (unsigned r = 0; r < NRANKS; r++) {
		c[r].rank = (int)r;
		c[r].job = rank_job(r, &all);
		c[r].start_s = start[r];
		c[r].end_s = start[r] + 1.0;
	}
	struct sb_job_result *j = sb_job_result_create();
	assert_non_null(j);
	/* the aggregate starts as a copy of a rank's job: its reads' own
	 * time (1 s) must give way to the whole's */
	j->dir_runtime_ns[SB_DDIR_READ] = 1000000000ull;
	assert_int_equal(sb_job_aggregate(j, c, NRANKS), 0);

	assert_int_equal(j->nclients, NRANKS);
	assert_int_equal(j->dir[SB_DDIR_READ].bytes, 10000000ull); /* 1+2+3+4 MB */
	assert_int_equal(j->dir[SB_DDIR_READ].ios, 1000);
	assert_int_equal(j->errors, 1);
	assert_int_equal(j->cpu_ns, 10000);
	const struct sb_hist *h = &j->dir[SB_DDIR_READ].clat;
	assert_int_equal(h->count, all.count);
	assert_memory_equal(h->bucket, all.bucket, sizeof(h->bucket));
	for (unsigned i = 0; i < sb_npercentiles; i++)
		assert_int_equal(sb_hist_percentile(h, sb_percentiles[i]),
				 sb_hist_percentile(&all, sb_percentiles[i]));
	/* 10.0 .. 11.2: 1.2 s, and the bandwidth is all bytes over it */
	assert_int_equal(j->runtime_ns, 1200000000ull);
	assert_true(fabs(sb_dir_bw(j, SB_DDIR_READ) - 10e6 / 1.2) < 1e-6);
	const struct sb_skew *k = j->skew;
	assert_non_null(k);
	assert_true(fabs(k->start_spread_s - 0.2) < 1e-9);
	assert_true(fabs(k->end_spread_s - 0.2) < 1e-9);
	/* bandwidths 1, 2, 3, 4 MB/s: median 2.5 */
	assert_true(fabs(k->median_bw - 2.5e6) < 1e-3);
	assert_int_equal(k->slowest_rank, 0);
	assert_int_equal(k->fastest_rank, 3);
	assert_true(fabs(k->slowest_vs_median - (1.0 / 2.5 - 1)) < 1e-9);
	assert_true(fabs(k->fastest_vs_median - (4.0 / 2.5 - 1)) < 1e-9);

	/* the warnings: a start spread of 0.2 s in 1.2 s is past 5% */
	struct sb_results *res = sb_results_create("run");
	assert_non_null(res);
	sb_results_skew_warn(res, j);
	int started = 0;
	for (size_t i = 0; i < res->nwarnings; i++)
		started |= strstr(res->warnings[i], "started 0.200 s apart") != NULL;
	assert_true(started);
	sb_results_free(res);
	sb_job_result_free(j); /* frees the ranks' jobs too */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(aggregate_is_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
