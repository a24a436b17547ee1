/* needs: none */
/*
 * Every reported percentile of the histogram is within 1% of the exact
 * percentile of the samples (same rank definition), for several
 * distributions spanning 1 ns to over an hour; min and max are exact; mean
 * and the sample stddev (N - 1, as fio) agree with a two-pass computation to 1e-9.
 */
#include "tests/lib/sbtest.h"
#include "lib/stats/hist.h"

#include <math.h>

#define NSAMPLES 200000
#define MAX_NS 4000000000000ull /* 4e12 ns: 67 minutes */
#define MAX_REL_ERR 0.01
#define MOMENT_REL_ERR 1e-9

static uint64_t rng_state = 0x5eed5eed12345678ull;

/* splitmix64: deterministic, so a failure reproduces */
static uint64_t rnd_u64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in (0, 1] */
static double rnd_unit(void)
{
	return (double)((rnd_u64() >> 11) + 1) * 0x1p-53;
}

static double rnd_normal(void)
{
	return sqrt(-2.0 * log(rnd_unit())) * cos(2.0 * M_PI * rnd_unit());
}

static uint64_t to_ns(double x)
{
	if (x < 1)
		return 1;
	if (x > (double)MAX_NS)
		return MAX_NS;
	return (uint64_t)llround(x);
}

static uint64_t gen_uniform(void)
{
	return 1 + rnd_u64() % MAX_NS;
}

/* small values, where the histogram must be exact (0 included) */
static uint64_t gen_uniform_small(void)
{
	return rnd_u64() % 1000;
}

/* log-uniform over the whole range: every octave equally represented */
static uint64_t gen_log_uniform(void)
{
	return to_ns(exp(rnd_unit() * log((double)MAX_NS)));
}

/* median 100 us, a wide tail both ways */
static uint64_t gen_lognormal(void)
{
	return to_ns(exp(log(100e3) + 2.5 * rnd_normal()));
}

/* fast path around 50 us, slow path around 2 s, rare stalls of an hour */
static uint64_t gen_bimodal(void)
{
	uint64_t r = rnd_u64() % 1000;
	if (r < 899)
		return to_ns(50e3 + 5e3 * rnd_normal());
	if (r < 999)
		return to_ns(2e9 + 2e8 * rnd_normal());
	return to_ns(3.6e12 + 1e11 * rnd_unit());
}

struct dist {
	const char *name;
	uint64_t (*gen)(void);
};

static const struct dist dists[] = {
	{ "uniform", gen_uniform },	    { "uniform-small", gen_uniform_small },
	{ "log-uniform", gen_log_uniform }, { "lognormal", gen_lognormal },
	{ "bimodal", gen_bimodal },
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void assert_close(double got, double want, double rel, const char *what, const char *name)
{
	if (fabs(got - want) <= rel * fabs(want))
		return;
	print_error("%s %s: got %.17g, want %.17g (rel err %.3g)\n", name, what, got, want,
		    fabs(got - want) / fabs(want));
	fail();
}

/* Returns the largest relative percentile error seen. */
static double check_percentiles(const struct sb_hist *h, const uint64_t *sorted, size_t n,
				const char *name)
{
	static const double extra[] = { 0, 0.1, 25, 75, 99.999, 100 };
	double worst = 0;

	for (unsigned i = 0; i < sb_npercentiles + SB_ARRAY_SIZE(extra); i++) {
		double pct = i < sb_npercentiles ? sb_percentiles[i] : extra[i - sb_npercentiles];
		uint64_t exact = sorted[sb_hist_rank(n, pct) - 1];
		uint64_t got = sb_hist_percentile(h, pct);
		if (exact < 2 * SB_HIST_SUB) {
			if (got != exact) {
				print_error("%s n=%zu p%g: got %llu, want exactly %llu\n", name, n,
					    pct, (unsigned long long)got,
					    (unsigned long long)exact);
				fail();
			}
			continue;
		}
		double err = fabs((double)got - (double)exact) / (double)exact;
		if (err > MAX_REL_ERR) {
			print_error("%s n=%zu p%g: got %llu, exact %llu (rel err %.4f)\n", name, n,
				    pct, (unsigned long long)got, (unsigned long long)exact, err);
			fail();
		}
		worst = SB_MAX(worst, err);
	}
	return worst;
}

static void check_moments(const struct sb_hist *h, const uint64_t *v, size_t n, const char *name)
{
	long double sum = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	long double mean = sum / n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	assert_close(sb_hist_mean(h), (double)mean, MOMENT_REL_ERR, "mean", name);
	assert_close(sb_hist_stddev(h), n > 1 ? (double)sqrtl(ss / (n - 1)) : 0, MOMENT_REL_ERR,
		     "stddev", name);
}

static double check_samples(uint64_t *v, size_t n, const char *name)
{
	struct sb_hist h;
	sb_hist_init(&h);
	for (size_t i = 0; i < n; i++)
		sb_hist_add(&h, v[i]);
	/* moments first: they take the samples in recording order */
	check_moments(&h, v, n, name);
	qsort(v, n, sizeof(*v), cmp_u64);
	assert_int_equal(h.count, n);
	assert_int_equal(h.min, v[0]);
	assert_int_equal(h.max, v[n - 1]);
	return check_percentiles(&h, v, n, name);
}

static void test_distributions(void **state)
{
	uint64_t *v = malloc(NSAMPLES * sizeof(*v));
	assert_non_null(v);
	for (size_t d = 0; d < SB_ARRAY_SIZE(dists); d++) {
		for (size_t i = 0; i < NSAMPLES; i++)
			v[i] = dists[d].gen();
		double worst = check_samples(v, NSAMPLES, dists[d].name);
		print_message("%-14s n=%d  max %-5llu  worst percentile error %.4f%%\n",
			      dists[d].name, NSAMPLES, (unsigned long long)v[NSAMPLES - 1],
			      100 * worst);
	}
	free(v);
}

/* Few samples: ranks near both ends and the rank rounding matter. */
static void test_small_counts(void **state)
{
	static const size_t sizes[] = { 1, 2, 3, 5, 10, 99, 100, 101, 1000, 2001 };
	uint64_t v[2001];
	for (size_t d = 0; d < SB_ARRAY_SIZE(dists); d++) {
		for (size_t s = 0; s < SB_ARRAY_SIZE(sizes); s++) {
			for (size_t i = 0; i < sizes[s]; i++)
				v[i] = dists[d].gen();
			check_samples(v, sizes[s], dists[d].name);
		}
	}
}

/* The extremes of the range, and values above it (last bucket). */
static void test_extremes(void **state)
{
	uint64_t v[] = { 1,
			 127,
			 128,
			 255,
			 256,
			 3600000000000ull,
			 (1ull << 43) - 1,
			 1ull << 43,
			 MAX_NS,
			 10 * MAX_NS,
			 UINT64_MAX / 2 };
	struct sb_hist h;
	sb_hist_init(&h);
	for (size_t i = 0; i < SB_ARRAY_SIZE(v); i++)
		sb_hist_add(&h, v[i]);
	assert_int_equal(sb_hist_percentile(&h, 0), 1);
	assert_int_equal(sb_hist_percentile(&h, 100), UINT64_MAX / 2);
	assert_int_equal(h.min, 1);
	assert_int_equal(h.max, UINT64_MAX / 2);
	/* rank 6 of 11 is one hour */
	uint64_t p50 = sb_hist_percentile(&h, 50);
	assert_true(fabs((double)p50 - 3.6e12) <= 0.01 * 3.6e12);
}

static void test_empty(void **state)
{
	struct sb_hist h;
	sb_hist_init(&h);
	for (unsigned i = 0; i < sb_npercentiles; i++)
		assert_int_equal(sb_hist_percentile(&h, sb_percentiles[i]), 0);
	assert_true(sb_hist_mean(&h) == 0);
	assert_true(sb_hist_stddev(&h) == 0);
}

static void test_percentile_table(void **state)
{
	static const double want[] = { 1,  5,  10, 20, 30,   40,   50,	  60,	70,
				       80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };
	assert_int_equal(sb_npercentiles, SB_ARRAY_SIZE(want));
	for (unsigned i = 0; i < sb_npercentiles; i++)
		assert_true(sb_percentiles[i] == want[i]);
}

/* Rank ceil(pct/100 * n), against integer arithmetic on pct in hundredths. */
static void test_rank_definition(void **state)
{
	static const uint64_t big[] = { 1000003, 123456789, 1000000000, 999999999 };
	assert_int_equal(sb_hist_rank(0, 50), 0);
	assert_int_equal(sb_hist_rank(10, 0), 1);
	assert_int_equal(sb_hist_rank(10, 50), 5);
	assert_int_equal(sb_hist_rank(10, 55), 6);
	assert_int_equal(sb_hist_rank(10, 100), 10);
	assert_int_equal(sb_hist_rank(1000, 99.9), 999);
	assert_int_equal(sb_hist_rank(1000, 99.95), 1000);
	assert_int_equal(sb_hist_rank(100000, 99.99), 99990);
	assert_int_equal(sb_hist_rank(7, 99.99), 7);
	/* every pct with two decimals, for small n */
	for (uint64_t hundredths = 0; hundredths <= 10000; hundredths++) {
		double pct = (double)hundredths / 100;
		for (uint64_t n = 1; n <= 1000; n++) {
			uint64_t want = SB_MAX((hundredths * n + 9999) / 10000, 1);
			if (sb_hist_rank(n, pct) != want) {
				print_error("rank of p%g in %llu: got %llu, want %llu\n", pct,
					    (unsigned long long)n,
					    (unsigned long long)sb_hist_rank(n, pct),
					    (unsigned long long)want);
				fail();
			}
		}
	}
	for (unsigned i = 0; i < sb_npercentiles; i++) {
		uint64_t hundredths = (uint64_t)llround(sb_percentiles[i] * 100);
		for (uint64_t n = 1; n <= 20000 + SB_ARRAY_SIZE(big); n++) {
			uint64_t m = n <= 20000 ? n : big[n - 20001];
			uint64_t want = (hundredths * m + 9999) / 10000;
			if (sb_hist_rank(m, sb_percentiles[i]) != want) {
				print_error("rank of p%g in %llu: got %llu, want %llu\n",
					    sb_percentiles[i], (unsigned long long)m,
					    (unsigned long long)sb_hist_rank(m, sb_percentiles[i]),
					    (unsigned long long)want);
				fail();
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentile_table), cmocka_unit_test(test_rank_definition),
		cmocka_unit_test(test_distributions),	 cmocka_unit_test(test_small_counts),
		cmocka_unit_test(test_extremes),	 cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
