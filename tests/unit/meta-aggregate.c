/* needs: none */
/*
 * One meta test of many ranks as the All clients figure
 * (sb_meta_aggregate), from ranks with a known truth: operations, bytes and
 * CPU are the sums; the latency histogram is exactly that of every rank's
 * samples together; the time runs from the earliest start to the latest
 * end, so the rate is all operations over it; each rank keeps its own
 * figures; the skew names the slowest and fastest ranks against the median.
 */
#include "tests/lib/sbtest.h"
#include "lib/meta/meta.h"

#include <math.h>

#define NRANKS 4

static void aggregate_is_exact(void **state)
{
	(void)state;
	static struct sb_meta_result r[NRANKS], agg;
	static struct sb_hist all;
	struct sb_meta_rank_test rk[NRANKS];
	struct sb_meta_skew k;
	/* rank i creates (i + 1) * 100 files in 1 s: 100, 200, 300, 400 files/s */
	const double start[NRANKS] = { 5.0, 5.3, 5.1, 5.05 };
	sb_hist_init(&all);
	for (unsigned i = 0; i < NRANKS; i++) {
		sb_hist_init(&r[i].lat);
		r[i].ran = 1;
		r[i].ops = (i + 1) * 100;
		r[i].elapsed_ns = 1000000000ull;
		r[i].cpu_ns = 1000 * (i + 1);
		r[i].interrupted = i == 2;
		for (unsigned n = 0; n < r[i].ops; n++) {
			const uint64_t v = (i + 1) * 20000ull + n * 53 * (i + 1);
			sb_hist_add(&r[i].lat, v);
			sb_hist_add(&all, v);
		}
	}
	assert_int_equal(sb_meta_aggregate(SB_META_SEQ_CREATE, r, start, NRANKS, &agg, rk, &k), 0);
	assert_true(agg.ran);
	assert_true(agg.interrupted); /* rank 2 was */
	assert_int_equal(agg.ops, 1000);
	assert_int_equal(agg.cpu_ns, 10000);
	assert_int_equal(agg.lat.count, all.count);
	assert_memory_equal(agg.lat.bucket, all.bucket, sizeof(all.bucket));
	assert_int_equal(agg.lat.min, all.min);
	assert_int_equal(agg.lat.max, all.max);
	for (unsigned i = 0; i < sb_npercentiles; i++)
		assert_int_equal(sb_hist_percentile(&agg.lat, sb_percentiles[i]),
				 sb_hist_percentile(&all, sb_percentiles[i]));
	/* 5.0 .. 6.3: 1.3 s, and the rate all files over it */
	assert_int_equal(agg.elapsed_ns, 1300000000ull);
	assert_true(fabs(sb_meta_rate(&agg, SB_META_SEQ_CREATE) - 1000 / 1.3) < 1e-6);
	/* each rank's own */
	for (unsigned i = 0; i < NRANKS; i++) {
		assert_int_equal(rk[i].ops, (i + 1) * 100);
		assert_true(fabs(rk[i].rate - (i + 1) * 100.0) < 1e-9);
		assert_true(fabs(rk[i].start_s - start[i]) < 1e-12);
		assert_true(fabs(rk[i].end_s - (start[i] + 1)) < 1e-12);
		assert_int_equal(rk[i].lat_min, r[i].lat.min);
		assert_int_equal(rk[i].lat_max, r[i].lat.max);
		assert_int_equal(rk[i].lat_p99, sb_hist_percentile(&r[i].lat, 99));
	}
	assert_true(fabs(k.start_spread_s - 0.3) < 1e-9);
	assert_true(fabs(k.end_spread_s - 0.3) < 1e-9);
	assert_true(fabs(k.span_s - 1.3) < 1e-9);
	/* 100, 200, 300, 400 files/s: median 250 */
	assert_true(fabs(k.median_rate - 250) < 1e-9);
	assert_int_equal(k.slowest_rank, 0);
	assert_int_equal(k.fastest_rank, 3);
	assert_true(fabs(k.slowest_vs_median - (100 / 250.0 - 1)) < 1e-9);
	assert_true(fabs(k.fastest_vs_median - (400 / 250.0 - 1)) < 1e-9);

	/* a test one rank did not run is not the aggregate's */
	r[1].ran = 0;
	assert_int_equal(sb_meta_aggregate(SB_META_SEQ_CREATE, r, start, NRANKS, &agg, rk, &k), 0);
	assert_false(agg.ran);
	assert_int_equal(sb_meta_aggregate(SB_META_SEQ_CREATE, r, start, 0, &agg, rk, &k), -EINVAL);
}

/* The block tests: bytes summed, the rate in bytes over the span. */
static void io_rate_is_bytes_over_span(void **state)
{
	(void)state;
	static struct sb_meta_result r[2], agg;
	struct sb_meta_rank_test rk[2];
	struct sb_meta_skew k;
	const double start[2] = { 0.0, 0.5 };
	for (unsigned i = 0; i < 2; i++) {
		sb_hist_init(&r[i].lat);
		r[i].ran = 1;
		r[i].ops = 128;
		r[i].bytes = 1 << 20;
		r[i].elapsed_ns = 2000000000ull;
	}
	assert_int_equal(sb_meta_aggregate(SB_META_WRITE, r, start, 2, &agg, rk, &k), 0);
	assert_int_equal(agg.bytes, 2 << 20);
	assert_int_equal(agg.elapsed_ns, 2500000000ull);
	assert_true(fabs(sb_meta_rate(&agg, SB_META_WRITE) - (2 << 20) / 2.5) < 1e-6);
	assert_int_equal(agg.lat.count, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(aggregate_is_exact),
		cmocka_unit_test(io_rate_is_bytes_over_span),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
