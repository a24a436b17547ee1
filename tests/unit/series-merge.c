/* needs: none */
/*
 * Two series of different lengths merge interval by interval: bytes and ios
 * add, mean latency is weighted by ios, p99 is the larger, t_ns comes from
 * whichever series has it, and the longer tail is copied. Worked by hand.
 */
#include "tests/lib/sbtest.h"
#include "lib/stats/series.h"

#include <math.h>

#define R SB_DDIR_READ
#define W SB_DDIR_WRITE
#define T SB_DDIR_TRIM
#define SEC 1000000000ull

/* One direction of an interval: ios of 4 KiB, mean and p99 latency. */
static void set(struct sb_interval *iv, int ddir, uint64_t ios, double mean, uint64_t p99)
{
	iv->ios[ddir] = ios;
	iv->bytes[ddir] = ios * 4096;
	iv->lat_mean_ns[ddir] = mean;
	iv->lat_p99_ns[ddir] = p99;
}

static void add(struct sb_series *s, const struct sb_interval *iv)
{
	assert_int_equal(sb_series_add(s, iv), 0);
}

/* a: 3 intervals, the last without a time stamp */
static void make_a(struct sb_series *a)
{
	struct sb_interval iv = { .t_ns = 1 * SEC };
	sb_series_init(a, SEC);
	set(&iv, R, 10, 100, 200);
	set(&iv, W, 2, 1000, 1500);
	add(a, &iv);
	iv = (struct sb_interval){ .t_ns = 2 * SEC };
	set(&iv, R, 20, 150, 300);
	add(a, &iv);
	iv = (struct sb_interval){ .t_ns = 0 };
	set(&iv, W, 4, 500, 900);
	add(a, &iv);
}

/* b: 5 intervals */
static void make_b(struct sb_series *b)
{
	struct sb_interval iv = { .t_ns = 1 * SEC };
	sb_series_init(b, SEC);
	set(&iv, R, 30, 200, 250);
	set(&iv, W, 2, 3000, 1000);
	add(b, &iv);
	iv = (struct sb_interval){ .t_ns = 2 * SEC };
	set(&iv, W, 5, 400, 800);
	add(b, &iv);
	iv = (struct sb_interval){ .t_ns = 3 * SEC };
	set(&iv, R, 10, 250, 700);
	add(b, &iv);
	iv = (struct sb_interval){ .t_ns = 4 * SEC };
	set(&iv, R, 1, 50, 50);
	add(b, &iv);
	iv = (struct sb_interval){ .t_ns = 5 * SEC };
	set(&iv, T, 3, 10000, 20000);
	add(b, &iv);
}

static void assert_interval(const struct sb_interval *got, const struct sb_interval *want)
{
	assert_int_equal(got->t_ns, want->t_ns);
	for (int d = 0; d < SB_DDIR_N; d++) {
		assert_int_equal(got->ios[d], want->ios[d]);
		assert_int_equal(got->bytes[d], want->bytes[d]);
		assert_int_equal(got->lat_p99_ns[d], want->lat_p99_ns[d]);
		if (fabs(got->lat_mean_ns[d] - want->lat_mean_ns[d]) > 1e-9) {
			print_error("%s mean: got %.17g, want %.17g\n", sb_ddir_name(d),
				    got->lat_mean_ns[d], want->lat_mean_ns[d]);
			fail();
		}
	}
}

static void test_merge_by_hand(void **state)
{
	struct sb_series a, b;
	make_a(&a);
	make_b(&b);
	assert_int_equal(sb_series_merge(&a, &b), 0);
	assert_int_equal(a.n, 5);
	assert_int_equal(a.interval_ns, SEC);

	struct sb_interval want[5] = {
		{ .t_ns = 1 * SEC }, { .t_ns = 2 * SEC }, { .t_ns = 3 * SEC },
		{ .t_ns = 4 * SEC }, { .t_ns = 5 * SEC },
	};
	/* (10 * 100 + 30 * 200) / 40 = 175; (2 * 1000 + 2 * 3000) / 4 = 2000 */
	set(&want[0], R, 40, 175, 250);
	set(&want[0], W, 4, 2000, 1500);
	/* b read nothing in interval 1: its mean of 0 carries no weight */
	set(&want[1], R, 20, 150, 300);
	set(&want[1], W, 5, 400, 800);
	/* a's interval 2 has no time stamp: b's is taken */
	set(&want[2], R, 10, 250, 700);
	set(&want[2], W, 4, 500, 900);
	/* only b reaches intervals 3 and 4 */
	set(&want[3], R, 1, 50, 50);
	set(&want[4], T, 3, 10000, 20000);
	for (int i = 0; i < 5; i++)
		assert_interval(&a.v[i], &want[i]);

	/* the other way round gives the same figures */
	struct sb_series a2;
	make_a(&a2);
	assert_int_equal(sb_series_merge(&b, &a2), 0);
	assert_int_equal(b.n, 5);
	for (int i = 0; i < 5; i++)
		assert_interval(&b.v[i], &want[i]);

	sb_series_free(&a);
	sb_series_free(&a2);
	sb_series_free(&b);
}

static void test_merge_into_empty(void **state)
{
	struct sb_series empty, b;
	sb_series_init(&empty, 0);
	make_b(&b);
	assert_int_equal(sb_series_merge(&empty, &b), 0);
	assert_int_equal(empty.n, b.n);
	assert_int_equal(empty.interval_ns, SEC);
	for (size_t i = 0; i < b.n; i++)
		assert_interval(&empty.v[i], &b.v[i]);

	/* and merging an empty one changes nothing */
	struct sb_series none;
	sb_series_init(&none, SEC);
	assert_int_equal(sb_series_merge(&empty, &none), 0);
	assert_int_equal(empty.n, b.n);
	for (size_t i = 0; i < b.n; i++)
		assert_interval(&empty.v[i], &b.v[i]);

	sb_series_free(&empty);
	sb_series_free(&b);
	sb_series_free(&none);
	sb_series_free(NULL);
}

/* Past the first allocation, both by adding and by merging. */
static void test_growth(void **state)
{
	struct sb_series s, big;
	sb_series_init(&s, SEC);
	sb_series_init(&big, SEC);
	for (uint64_t i = 0; i < 10; i++) {
		struct sb_interval iv = { .t_ns = (i + 1) * SEC };
		set(&iv, R, 1, 100, 100);
		add(&s, &iv);
	}
	for (uint64_t i = 0; i < 1000; i++) {
		struct sb_interval iv = { .t_ns = (i + 1) * SEC };
		set(&iv, R, 3, 200, 300);
		add(&big, &iv);
	}
	assert_int_equal(sb_series_merge(&s, &big), 0);
	assert_int_equal(s.n, 1000);
	for (uint64_t i = 0; i < 1000; i++) {
		struct sb_interval want = { .t_ns = (i + 1) * SEC };
		/* (100 + 3 * 200) / 4 = 175 */
		if (i < 10)
			set(&want, R, 4, 175, 300);
		else
			set(&want, R, 3, 200, 300);
		assert_interval(&s.v[i], &want);
	}
	sb_series_free(&s);
	sb_series_free(&big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_by_hand),
		cmocka_unit_test(test_merge_into_empty),
		cmocka_unit_test(test_growth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
