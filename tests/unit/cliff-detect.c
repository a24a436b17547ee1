/* needs: none */
/*
 * The cliff's drop against simulated writes whose answer is known by
 * construction: a device writing at given levels up to given byte counts,
 * sampled every 100 ms with noise on each sample's rate, as storbench
 * cliff samples a real one. One drop, two drops, noise without a drop, a
 * short garbage-collection dip that is not a cliff, and bins that stay
 * bounded however much is written.
 */
#include "tests/lib/sbtest.h"

#include <math.h>

#include "lib/base/rng.h"
#include "lib/cliff/cliff.h"

#define MiB (1024.0 * 1024)
#define GiB (1024.0 * MiB)

struct level {
	double until; /* bytes */
	double bw;    /* bytes/s */
};

static double noise(struct sb_rng *r, double sd)
{
	double u = sb_rng_double(r) + 1e-12, v = sb_rng_double(r);
	return sd * sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* Writes through the levels in 100 ms samples; each sample's rate is the
 * level's times (1 + noise), and a sample that crosses a level's end
 * writes at each level for its part of the time. */
static void simulate(struct sb_cliff_bins *b, const struct level *lv, size_t n, double sd,
		     uint64_t seed)
{
	struct sb_rng r;
	sb_rng_seed(&r, seed);
	double done = 0;
	size_t k = 0;
	sb_cliff_bins_init(b, 0);
	while (k < n) {
		double t = 0.1, bytes = 0, f = SB_MAX(0.2, 1 + noise(&r, sd));
		while (t > 0 && k < n) {
			double bw = lv[k].bw * f, room = lv[k].until - done;
			if (bw * t < room) {
				bytes += bw * t;
				done += bw * t;
				t = 0;
			} else {
				bytes += room;
				done = lv[k].until;
				t -= room / bw;
				k++;
			}
		}
		sb_cliff_bins_add(b, (uint64_t)bytes, (uint64_t)((0.1 - t) * 1e9));
	}
}

static int within(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b);
}

static struct sb_cliff_bins bins;
static struct sb_cliff_find find;

static void test_one_drop(void **state)
{
	(void)state;
	const struct level lv[] = { { 2 * GiB, 400 * MiB }, { 6 * GiB, 100 * MiB } };
	for (uint64_t seed = 1; seed <= 5; seed++) {
		simulate(&bins, lv, 2, 0.05, seed);
		assert_int_equal(sb_cliff_detect(&bins, &find, NULL), 0);
		assert_true(find.found);
		assert_true(within((double)find.cache_bytes, 2 * GiB, 0.02));
		assert_true(within(find.cache_ns / 1e9, 2 * GiB / (400 * MiB), 0.05));
		assert_true(within(find.before_bw, 400 * MiB, 0.05));
		assert_true(within(find.after_bw, 100 * MiB, 0.05));
		assert_int_equal(find.nsteps, 0);
	}
}

static void test_two_drops(void **state)
{
	(void)state;
	/* SLC, then TLC written directly, then folding */
	const struct level lv[] = { { 1 * GiB, 400 * MiB },
				    { 3 * GiB, 150 * MiB },
				    { 5 * GiB, 60 * MiB } };
	simulate(&bins, lv, 3, 0.05, 9);
	assert_int_equal(sb_cliff_detect(&bins, &find, NULL), 0);
	assert_true(find.found);
	assert_true(within((double)find.cache_bytes, 1 * GiB, 0.03));
	assert_true(within(find.after_bw, 150 * MiB, 0.05));
	assert_int_equal(find.nsteps, 1);
	assert_true(within((double)find.steps[0].at_bytes, 3 * GiB, 0.03));
	assert_true(within(find.steps[0].before_bw, 150 * MiB, 0.05));
	assert_true(within(find.steps[0].after_bw, 60 * MiB, 0.05));
	assert_true(find.last_change_ns > find.cache_ns);
}

static void test_no_drop(void **state)
{
	(void)state;
	const struct level lv[] = { { 4 * GiB, 200 * MiB } };
	for (uint64_t seed = 1; seed <= 10; seed++) {
		simulate(&bins, lv, 1, 0.10, seed);
		assert_int_equal(sb_cliff_detect(&bins, &find, NULL), 0);
		assert_false(find.found);
		assert_true(within(find.avg_bw, 200 * MiB, 0.05));
		assert_true(within((double)find.total_bytes, 4 * GiB, 0.001));
	}
}

static void test_gc_dip(void **state)
{
	(void)state;
	/* a dip to a fifth for 64 MiB (0.8 s), then the fast level again */
	const struct level dip_only[] = { { 1 * GiB, 400 * MiB },
					  { 1 * GiB + 64 * MiB, 80 * MiB },
					  { 4 * GiB, 400 * MiB } };
	simulate(&bins, dip_only, 3, 0.05, 3);
	assert_int_equal(sb_cliff_detect(&bins, &find, NULL), 0);
	assert_false(find.found);
	/* the same dip before a real cliff: the cliff is where the cache ends */
	const struct level dip_then_cliff[] = { { 1 * GiB, 400 * MiB },
						{ 1 * GiB + 64 * MiB, 80 * MiB },
						{ 3 * GiB, 400 * MiB },
						{ 5 * GiB, 100 * MiB } };
	simulate(&bins, dip_then_cliff, 4, 0.05, 4);
	assert_int_equal(sb_cliff_detect(&bins, &find, NULL), 0);
	assert_true(find.found);
	assert_true(within((double)find.cache_bytes, 3 * GiB, 0.02));
	assert_true(within(find.after_bw, 100 * MiB, 0.05));
}

static void test_bounded(void **state)
{
	(void)state;
	/* 256 GiB in 1 MiB bins would be 262144 bins: they merge */
	const struct level lv[] = { { 100 * GiB, 3000 * MiB }, { 256 * GiB, 1000 * MiB } };
	simulate(&bins, lv, 2, 0.05, 5);
	assert_true(bins.n <= SB_CLIFF_MAX_BINS);
	assert_true(bins.bin_bytes > SB_CLIFF_FIRST_BIN);
	assert_true(within((double)bins.total_bytes, 256 * GiB, 1e-6));
	double sum = bins.part_ns;
	for (size_t i = 0; i < bins.n; i++)
		sum += bins.ns[i];
	assert_true(within(sum, bins.total_ns, 1e-9)); /* no time lost in merges */
	assert_int_equal(sb_cliff_detect(&bins, &find, NULL), 0);
	assert_true(find.found);
	assert_true(within((double)find.cache_bytes, 100 * GiB, 0.02));
	assert_true(within(find.after_bw, 1000 * MiB, 0.05));
}

static void test_short(void **state)
{
	(void)state;
	/* too few bins for a change point: nothing claimed */
	sb_cliff_bins_init(&bins, 0);
	sb_cliff_bins_add(&bins, 100 << 20, 100000000);
	sb_cliff_bins_add(&bins, 10 << 20, 100000000);
	assert_int_equal(sb_cliff_detect(&bins, &find, NULL), 0);
	assert_false(find.found);
	assert_int_equal(find.total_bytes, 110 << 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_drop), cmocka_unit_test(test_two_drops),
		cmocka_unit_test(test_no_drop),	 cmocka_unit_test(test_gc_dip),
		cmocka_unit_test(test_bounded),	 cmocka_unit_test(test_short),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
