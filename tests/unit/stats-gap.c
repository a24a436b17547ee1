/* needs: none */
/*
 * fio's rate_process=poisson gaps: -ln(1 - u) * mean on fixed draws, and
 * over many draws of a seeded generator the mean and the standard
 * deviation of an exponential (both the mean), so the requests keep the
 * rate and their gaps vary.
 */
#include "tests/lib/sbtest.h"
#include "lib/stats/gap.h"
#include "lib/base/rng.h"
#include "lib/job/rate.h"

#include <math.h>

static void test_fixed(void **state)
{
	(void)state;
	assert_true(sb_exp_gap(1000, 0) == 0);
	assert_true(fabs(sb_exp_gap(1000, 0.5) - 1000 * log(2)) < 1e-9);
	assert_true(fabs(sb_exp_gap(500, 1 - exp(-3)) - 1500) < 1e-6);
	/* outside [0, 1), or no mean: none */
	assert_true(sb_exp_gap(1000, 1) == 0);
	assert_true(sb_exp_gap(1000, -0.1) == 0);
	assert_true(sb_exp_gap(0, 0.5) == 0);
	assert_true(sb_exp_gap(1000, NAN) == 0);
}

static void test_mean_and_spread(void **state)
{
	struct sb_rng r;
	double sum = 0, sq = 0;
	const int n = 200000;
	(void)state;
	sb_rng_seed(&r, 42);
	for (int i = 0; i < n; i++) {
		const double g = sb_exp_gap(1000, sb_rng_double(&r));
		assert_true(g >= 0);
		sum += g;
		sq += g * g;
	}
	const double mean = sum / n, sd = sqrt(sq / n - mean * mean);
	assert_true(fabs(mean - 1000) < 10);
	assert_true(fabs(sd - 1000) < 20);
}

/* the schedule: due times the sum of the gaps, the same mean rate as the
 * even pace, the same draws from the same seed */
static void test_schedule(void **state)
{
	struct sb_rate a, b;
	(void)state;
	sb_rate_init(&a, 1000, 0); /* 1000 requests a second: 1 ms apart on average */
	sb_rate_poisson(&a, 7);
	sb_rate_init(&b, 1000, 0);
	sb_rate_poisson(&b, 7);
	uint64_t now = 0, prev = 0, min = UINT64_MAX, max = 0;
	for (int i = 0; i < 10000; i++) {
		now += sb_rate_delay(&a, now, 1);
		assert_int_equal(sb_rate_delay(&b, 0, 1), now); /* the same draws */
		if (i) {
			min = SB_MIN(min, now - prev);
			max = SB_MAX(max, now - prev);
		}
		prev = now;
	}
	/* 10000 requests in about 10 s */
	assert_true(now > 9500000000ull && now < 10500000000ull);
	assert_true(min < 100000 && max > 5000000); /* gaps vary: 0.1 ms to 5 ms */
	assert_int_equal(a.bytes, 10000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_mean_and_spread),
		cmocka_unit_test(test_schedule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
