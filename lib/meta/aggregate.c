/*
 * One test of many ranks (storbench meta under mpirun) as one figure, the
 * model of METHODS.md section 8 (IOR/mdtest): operations and bytes summed,
 * the time from the earliest start to the latest end, the rate all
 * operations over that time; latency from the ranks' histograms merged
 * bucket by bucket (exact, not an average of percentiles); and how far the
 * ranks were apart.
 */
#include "lib/meta/meta.h"

static int by_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void rank_of(enum sb_meta_test t, const struct sb_meta_result *r, double start_s,
		    struct sb_meta_rank_test *k)
{
	k->ran = r->ran;
	k->interrupted = r->interrupted;
	k->stonewalled = r->stonewalled;
	k->ops = r->ops;
	k->bytes = r->bytes;
	k->elapsed_ns = r->elapsed_ns;
	k->cpu_ns = r->cpu_ns;
	k->start_s = start_s;
	k->end_s = start_s + (double)r->elapsed_ns / 1e9;
	k->rate = sb_meta_rate(r, t);
	k->lat_min = r->lat.count ? r->lat.min : 0;
	k->lat_max = r->lat.count ? r->lat.max : 0;
	k->lat_p50 = sb_hist_percentile(&r->lat, 50);
	k->lat_p99 = sb_hist_percentile(&r->lat, 99);
}

static void skew_of(const struct sb_meta_rank_test *rk, unsigned n, double *rate,
		    struct sb_meta_skew *k)
{
	double s0 = rk[0].start_s, s1 = s0, e0 = rk[0].end_s, e1 = e0;
	unsigned lo = 0, hi = 0;
	for (unsigned i = 0; i < n; i++) {
		s0 = SB_MIN(s0, rk[i].start_s);
		s1 = SB_MAX(s1, rk[i].start_s);
		e0 = SB_MIN(e0, rk[i].end_s);
		e1 = SB_MAX(e1, rk[i].end_s);
		rate[i] = rk[i].rate;
		if (rk[i].rate < rk[lo].rate)
			lo = i;
		if (rk[i].rate > rk[hi].rate)
			hi = i;
	}
	k->start_spread_s = s1 - s0;
	k->end_spread_s = e1 - e0;
	k->span_s = e1 - s0;
	k->slowest_rank = (int)lo;
	k->fastest_rank = (int)hi;
	qsort(rate, n, sizeof(*rate), by_double);
	k->median_rate = n % 2 ? rate[n / 2] : (rate[n / 2 - 1] + rate[n / 2]) / 2;
	k->slowest_vs_median = k->median_rate > 0 ? rk[lo].rate / k->median_rate - 1 : 0;
	k->fastest_vs_median = k->median_rate > 0 ? rk[hi].rate / k->median_rate - 1 : 0;
}

int sb_meta_aggregate(enum sb_meta_test t, const struct sb_meta_result *r, const double *start_s,
		      unsigned n, struct sb_meta_result *agg, struct sb_meta_rank_test *rk,
		      struct sb_meta_skew *k)
{
	if (!n)
		return -EINVAL;
	double *rate = malloc(n * sizeof(*rate));
	if (!rate)
		return -ENOMEM;
	memset(agg, 0, sizeof(*agg));
	sb_hist_init(&agg->lat);
	agg->ran = 1;
	for (unsigned i = 0; i < n; i++) {
		rank_of(t, &r[i], start_s[i], &rk[i]);
		agg->ran &= !!r[i].ran;
		agg->interrupted |= r[i].interrupted;
		agg->stonewalled |= r[i].stonewalled;
		agg->ops += r[i].ops;
		agg->bytes += r[i].bytes;
		agg->cpu_ns += r[i].cpu_ns;
		sb_hist_merge(&agg->lat, &r[i].lat);
	}
	memset(k, 0, sizeof(*k));
	skew_of(rk, n, rate, k);
	free(rate);
	agg->elapsed_ns = k->span_s > 0 ? (uint64_t)(k->span_s * 1e9 + 0.5) : 0;
	return 0;
}
