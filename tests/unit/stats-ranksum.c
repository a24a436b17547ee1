/* needs: none */
/*
 * The Mann-Whitney U test and the Hodges-Lehmann interval
 * (lib/analysis/ranksum.c): exact p-values against the published table of
 * critical values and against a brute-force enumeration of every split of
 * the pooled sample (ties included), the normal approximation against the
 * exact distribution where both apply, the smallest p a sample size can
 * reach, and the interval's bounds worked out by hand.
 */
#include "tests/lib/sbtest.h"

#include <math.h>

#include "lib/analysis/ranksum.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (double)(b)) <= (tol))

/* Two-sided critical values of U at 5% (the largest U with 2 P(U <= u) <=
 * 0.05), as printed in the usual tables (e.g. Zar, Biostatistical Analysis,
 * table B.11; Siegel and Castellan): n1, n2, U; -1 where no U qualifies. */
static const int table[][3] = {
	{ 2, 2, -1 },	 { 3, 3, -1 },	{ 3, 4, -1 },	{ 3, 5, 0 },	{ 3, 6, 1 },
	{ 3, 7, 1 },	 { 3, 8, 2 },	{ 3, 10, 3 },	{ 4, 4, 0 },	{ 4, 5, 1 },
	{ 4, 6, 2 },	 { 4, 7, 3 },	{ 4, 8, 4 },	{ 4, 10, 5 },	{ 5, 5, 2 },
	{ 5, 6, 3 },	 { 5, 7, 5 },	{ 5, 8, 6 },	{ 5, 10, 8 },	{ 6, 6, 5 },
	{ 6, 8, 8 },	 { 6, 10, 11 }, { 7, 7, 8 },	{ 7, 10, 14 },	{ 8, 8, 13 },
	{ 8, 10, 17 },	 { 9, 9, 17 },	{ 10, 10, 23 }, { 12, 12, 37 }, { 15, 15, 64 },
	{ 20, 20, 127 }, { 2, 8, 0 },	{ 2, 7, -1 },
};

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < SB_ARRAY_SIZE(table); i++) {
		double cover;
		long k = sb_ranksum_ci_rank((size_t)table[i][0], (size_t)table[i][1], 0.05, &cover);
		if (k - 1 != table[i][2])
			fail_msg("n1 %d n2 %d: critical U %ld, the table has %d", table[i][0],
				 table[i][1], k - 1, table[i][2]);
		/* symmetric in the two sizes */
		assert_int_equal(sb_ranksum_ci_rank((size_t)table[i][1], (size_t)table[i][0], 0.05,
						    &cover),
				 k);
		assert_true(k ? cover >= 0.95 && cover < 1 : isnan(cover));
	}
}

/* Two samples of 5, every y above every x (U = 25, p = 2 / C(10, 5)), then
 * with two and three pairs crossed (U = 23, p = 2 * 4/252; U = 22, p = 2 *
 * 7/252: the counts of U = 0, 1, 2, 3 are 1, 1, 2, 3). */
static void test_exact_small(void **state)
{
	(void)state;
	struct sb_ranksum t;
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 6, 7, 8, 9, 10 };
	assert_int_equal(sb_ranksum(x, 5, y, 5, &t), 0);
	assert_true(t.exact);
	NEAR(t.u, 25, 0);
	NEAR(t.p, 2.0 / 252, 1e-12);
	assert_int_equal(sb_ranksum(y, 5, x, 5, &t), 0); /* the other way: same p */
	NEAR(t.u, 0, 0);
	NEAR(t.p, 2.0 / 252, 1e-12);
	double y2[] = { 4.5, 5.5, 8, 9, 10 }; /* 4.5 < 5; 5.5 above all: U = 24 - 1 */
	double x2[] = { 1, 2, 3, 4, 5 };
	assert_int_equal(sb_ranksum(x2, 5, y2, 5, &t), 0);
	NEAR(t.u, 24, 0);
	NEAR(t.p, 2 * 2.0 / 252, 1e-12);
	double y3[] = { 3.5, 4.5, 8, 9, 10 }; /* U = 25 - 2 - 1 */
	assert_int_equal(sb_ranksum(x2, 5, y3, 5, &t), 0);
	NEAR(t.u, 22, 0);
	NEAR(t.p, 2 * 7.0 / 252, 1e-12);
	/* 4 against 4, apart: 2/70; 3 against 3: 2/20 */
	assert_int_equal(sb_ranksum(x, 4, y, 4, &t), 0);
	NEAR(t.p, 2.0 / 70, 1e-12);
	assert_int_equal(sb_ranksum(x, 3, y, 3, &t), 0);
	NEAR(t.p, 0.1, 1e-12);
	/* all equal: no evidence at all */
	double same[] = { 7, 7, 7 };
	assert_int_equal(sb_ranksum(same, 3, same, 3, &t), 0);
	NEAR(t.u, 4.5, 0);
	NEAR(t.p, 1, 1e-12);
}

/* The reference: every way to pick which nx of the pooled values are x's,
 * each as likely; p = the share of them whose U lies at least as far from
 * nx ny / 2 as the observed one (U by counting pairs, ties a half). */
static double u_of(const double *x, size_t nx, const double *y, size_t ny)
{
	double u = 0;
	for (size_t i = 0; i < nx; i++)
		for (size_t j = 0; j < ny; j++)
			u += y[j] > x[i] ? 1 : y[j] == x[i] ? 0.5 : 0;
	return u;
}

static double brute_p(const double *x, size_t nx, const double *y, size_t ny)
{
	double all[24], px[24], py[24], hit = 0, n = 0;
	size_t N = nx + ny;
	memcpy(all, x, nx * sizeof(double));
	memcpy(all + nx, y, ny * sizeof(double));
	double mid = (double)nx * (double)ny / 2, obs = fabs(u_of(x, nx, y, ny) - mid);
	for (unsigned mask = 0; mask < (1u << N); mask++) {
		if ((size_t)__builtin_popcount(mask) != nx)
			continue;
		size_t a = 0, b = 0;
		for (size_t i = 0; i < N; i++) {
			if (mask & (1u << i))
				px[a++] = all[i];
			else
				py[b++] = all[i];
		}
		n++;
		hit += fabs(u_of(px, nx, py, ny) - mid) >= obs - 1e-9;
	}
	return hit / n;
}

static void test_against_brute_force(void **state)
{
	(void)state;
	/* values on a coarse grid so that ties are common */
	uint64_t seed = 12345;
	for (int round = 0; round < 300; round++) {
		double x[12], y[12];
		size_t nx = 1 + (size_t)(round % 7), ny = 1 + (size_t)((round / 7) % 9);
		if (nx + ny > 16)
			continue;
		for (size_t i = 0; i < nx + ny; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			double v = (double)((seed >> 33) % (round % 3 ? 6 : 1000));
			if (i < nx)
				x[i] = v;
			else
				y[i - nx] = v + (round % 5 == 0 ? 2 : 0);
		}
		struct sb_ranksum t;
		assert_int_equal(sb_ranksum(x, nx, y, ny, &t), 0);
		NEAR(t.u, u_of(x, nx, y, ny), 1e-12);
		double want = brute_p(x, nx, y, ny);
		if (fabs(t.p - want) > 1e-9)
			fail_msg("round %d (%zu vs %zu): p %.12g, enumeration %.12g", round, nx, ny,
				 t.p, want);
	}
}

/* Past SB_RANKSUM_EXACT_MAX the normal approximation takes over; just
 * below it, the two agree to about a hundredth. */
static void test_normal(void **state)
{
	(void)state;
	double x[40], y[40];
	struct sb_ranksum t;
	for (int i = 0; i < 40; i++) {
		x[i] = i;
		y[i] = i + 6.5; /* overlapping by 34 of 40 */
	}
	assert_int_equal(sb_ranksum(x, 30, y, 30, &t), 0);
	assert_true(t.exact);
	double exact = t.p;
	/* the same figures by the approximation: U, sd = sqrt(30*30*61/12) */
	double u = u_of(x, 30, y, 30), sd = sqrt(900.0 * 61 / 12);
	double approx = erfc((fabs(u - 450) - 0.5) / sd / sqrt(2));
	NEAR(exact, approx, 0.01);
	assert_int_equal(sb_ranksum(x, 40, y, 40, &t), 0);
	assert_false(t.exact);
	u = u_of(x, 40, y, 40);
	sd = sqrt(1600.0 * 81 / 12);
	NEAR(t.p, erfc((fabs(u - 800) - 0.5) / sd / sqrt(2)), 1e-12);
	assert_true(t.p > 0 && t.p < 0.05);
	/* ties shrink the variance: 40 zeros and 40 ones split evenly */
	for (int i = 0; i < 40; i++)
		x[i] = y[i] = i % 2;
	assert_int_equal(sb_ranksum(x, 40, y, 40, &t), 0);
	NEAR(t.p, 1, 1e-12);
}

static void test_min_p(void **state)
{
	(void)state;
	NEAR(sb_ranksum_min_p(1, 1), 1, 0);
	NEAR(sb_ranksum_min_p(2, 2), 1.0 / 3, 1e-15);
	NEAR(sb_ranksum_min_p(3, 3), 0.1, 1e-15);
	NEAR(sb_ranksum_min_p(4, 4), 2.0 / 70, 1e-15);
	NEAR(sb_ranksum_min_p(3, 5), 2.0 / 56, 1e-15);
	NEAR(sb_ranksum_min_p(5, 3), 2.0 / 56, 1e-15);
	NEAR(sb_ranksum_min_p(1, 40), 2.0 / 41, 1e-15);
	assert_true(sb_ranksum_min_p(500, 500) < 1e-25); /* as small as any p can be */
}

/* y - x over all pairs of {1, 2, 3} and {4, 5, 6}: 1 2 2 3 3 3 4 4 5, median
 * 3. At 10% the table for 3 and 3 has U = 0 (P = 1/20 each side): k = 1,
 * the interval is the extremes, 90% exactly. At 5% there is none. */
static void test_interval(void **state)
{
	(void)state;
	double x[] = { 1, 2, 3 }, y[] = { 4, 5, 6 }, q[3], cover;
	long k = sb_ranksum_ci_rank(3, 3, 0.10, &cover);
	assert_int_equal(k, 1);
	NEAR(cover, 0.9, 1e-12);
	assert_int_equal(sb_pairwise_bounds(x, 3, y, 3, 0, k, q), 0);
	NEAR(q[0], 1, 0);
	NEAR(q[1], 5, 0);
	NEAR(q[2], 3, 0);
	assert_int_equal(sb_ranksum_ci_rank(3, 3, 0.05, &cover), 0);
	assert_true(isnan(cover));
	assert_int_equal(sb_pairwise_bounds(x, 3, y, 3, 0, 0, q), 0);
	assert_true(isnan(q[0]) && isnan(q[1]));
	NEAR(q[2], 3, 0);
	/* ratios y / x: 4/3 5/3 2 2 2.5 3 4 5 6, the fifth of nine is 2.5 */
	assert_int_equal(sb_pairwise_bounds(x, 3, y, 3, 1, 1, q), 0);
	NEAR(q[0], 4.0 / 3, 1e-15);
	NEAR(q[1], 6, 0);
	NEAR(q[2], 2.5, 0);
	/* 5 and 5 at 5%: k = 3 (P(U <= 2) = 4/252), cover 1 - 8/252 */
	assert_int_equal(sb_ranksum_ci_rank(5, 5, 0.05, &cover), 3);
	NEAR(cover, 1 - 8.0 / 252, 1e-12);
	/* large samples: the normal rank, about m/2 - 1.96 sd */
	k = sb_ranksum_ci_rank(50, 50, 0.05, &cover);
	NEAR((double)k, 1250 - 1.959964 * sqrt(2500.0 * 101 / 12) + 0.5, 1);
	NEAR(cover, 0.95, 0.002);
	/* bad calls */
	assert_int_equal(sb_pairwise_bounds(x, 3, y, 3, 0, 6, q), -EINVAL);
	double zero[] = { 0, 1 };
	assert_int_equal(sb_pairwise_bounds(zero, 2, y, 3, 1, 1, q), -EINVAL);
	struct sb_ranksum t;
	assert_int_equal(sb_ranksum(x, 0, y, 3, &t), -EINVAL);
	double bad[] = { 1, NAN };
	assert_int_equal(sb_ranksum(bad, 2, y, 3, &t), -EINVAL);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The bounds and the median as every pair sorted gives them, on samples
 * with many ties (figures rounded to a few values), odd and even counts of
 * pairs, differences and ratios, every k up to the middle. */
static void test_interval_against_sort(void **state)
{
	(void)state;
	unsigned seed = 7;
	for (int round = 0; round < 60; round++) {
		size_t nx = 1 + (size_t)(round % 9), ny = 1 + (size_t)((round * 7) % 12);
		double x[16], y[16], d[16 * 16], q[3];
		const int ratio = round % 2, levels = 2 + round % 5;
		for (size_t i = 0; i < nx; i++)
			x[i] = 1 + (seed = seed * 1103515245u + 12345u) / 65536 % (unsigned)levels;
		for (size_t j = 0; j < ny; j++)
			y[j] = 1 + (seed = seed * 1103515245u + 12345u) / 65536 % (unsigned)levels;
		const size_t m = nx * ny;
		for (size_t i = 0; i < nx; i++)
			for (size_t j = 0; j < ny; j++)
				d[i * ny + j] = ratio ? y[j] / x[i] : y[j] - x[i];
		qsort(d, m, sizeof(*d), cmp_d);
		const double med = m % 2   ? d[m / 2]
				   : ratio ? sqrt(d[m / 2 - 1] * d[m / 2])
					   : (d[m / 2 - 1] + d[m / 2]) / 2;
		for (long k = 0; (size_t)k <= (m + 1) / 2; k++) {
			assert_int_equal(sb_pairwise_bounds(x, nx, y, ny, ratio, k, q), 0);
			if (k) {
				assert_true(q[0] == d[k - 1]);
				assert_true(q[1] == d[m - (size_t)k]);
			}
			assert_true(q[2] == med);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_exact_small),
		cmocka_unit_test(test_against_brute_force),
		cmocka_unit_test(test_normal),
		cmocka_unit_test(test_min_p),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_interval_against_sort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
