/* needs: none */
/* The workers publish what completed many times a second (the progress
 * line's rate over its last second is never 0 while requests complete),
 * the ramp's requests too; the snapshot says what bounds the run (total_ns,
 * total_bytes), its fraction only grows, and a size-bound run ends with
 * every byte of every job counted. Null engine: no device, so the counters
 * move as fast as the worker loops. */
#include "tests/lib/sbtest.h"
#include "lib/storbench.h"

#include <time.h>

static void nap_ms(long ms)
{
	const struct timespec ts = { ms / 1000, (ms % 1000) * 1000000l };
	nanosleep(&ts, NULL);
}

static uint64_t moved(const struct sb_progress *p)
{
	uint64_t b = 0;
	for (int d = 0; d < SB_DDIR_N; d++)
		b += p->bytes[d];
	return b;
}

static struct sb_run *start(const struct sb_job_opts *o, uint64_t region)
{
	struct sb_run_params p;
	struct sb_run *r = NULL;
	const char *why = NULL;
	memset(&p, 0, sizeof(p));
	p.job = *o;
	p.engine = sb_engine_find("null");
	assert_non_null(p.engine);
	p.region_size = region;
	p.align = 512;
	assert_int_equal(sb_run_create(&r, &p, &why), 0);
	assert_int_equal(sb_run_start(r), 0);
	return r;
}

static void job(struct sb_job_opts *o)
{
	sb_job_opts_default(o);
	snprintf(o->engine, sizeof(o->engine), "null");
	o->rw = SB_RW_RANDREAD;
	o->bs = 4096;
	o->iodepth = 1;
	o->numjobs = 1;
	o->direct = 0;
}

/* Snapshots 100 ms apart: between nearly all of them the counters moved
 * (published once a second, as before, 1 in 10 would), the ramp's
 * included; the fraction never goes back. */
static void watch_often(const struct sb_job_opts *o, unsigned min_moves)
{
	struct sb_run *r = start(o, 64u << 20);
	struct sb_progress p, prev;
	unsigned moves = 0, looks = 0, ramp_moves = 0;
	memset(&prev, 0, sizeof(prev));
	while (!sb_run_progress(r, &p)) {
		if (looks++) {
			moves += moved(&p) > moved(&prev);
			ramp_moves += p.ramping && moved(&p) > moved(&prev);
			assert_true(p.fraction >= prev.fraction);
		}
		assert_int_equal(p.total_ns, o->ramp_ns + o->runtime_ns);
		assert_int_equal(p.total_bytes, 0); /* time-based: bound by time only */
		prev = p;
		nap_ms(100);
	}
	print_message("%u of %u snapshots moved (%u in the ramp)\n", moves, looks - 1, ramp_moves);
	assert_true(looks >= 10);
	assert_true(moves >= min_moves);
	assert_true(ramp_moves >= 1);
	struct sb_job_result *res = sb_job_result_create();
	assert_non_null(res);
	assert_int_equal(sb_run_wait(r, res), 0);
	sb_run_progress(r, &p);
	/* the last publication is everything, the ramp's requests included */
	assert_true(moved(&p) > res->dir[SB_DDIR_READ].bytes);
	assert_true(p.fraction >= 0.99);
	sb_job_result_free(res);
	sb_run_free(r);
}

static void publishes_often(void **state)
{
	struct sb_job_opts o;
	(void)state;
	job(&o);
	o.time_based = 1;
	o.ramp_ns = 400000000ull;
	o.runtime_ns = 1600000000ull;
	/* about 19 snapshots: at least 12 of them moved */
	watch_often(&o, 12);
}

/* Throttled to 1000 requests a second, the worker sleeps between them and
 * still publishes after the ones that complete. */
static void publishes_often_throttled(void **state)
{
	struct sb_job_opts o;
	(void)state;
	job(&o);
	o.time_based = 1;
	o.ramp_ns = 400000000ull;
	o.runtime_ns = 1600000000ull;
	o.rate_bps = 4096000;
	watch_often(&o, 12);
}

/* Bound by size, two jobs: the total is both regions, and at the end every
 * byte of both is counted (the null engine never fails a request). */
static void size_bound_counts_all(void **state)
{
	struct sb_job_opts o;
	struct sb_progress p;
	(void)state;
	job(&o);
	o.numjobs = 2;
	o.rate_bps = 40u << 20; /* 8 MiB each: some 200 ms */
	struct sb_run *r = start(&o, 8u << 20);
	double last = 0;
	while (!sb_run_progress(r, &p)) {
		assert_int_equal(p.total_bytes, 16u << 20);
		assert_int_equal(p.total_ns, 0);
		assert_true(p.fraction >= last && p.fraction <= 1);
		last = p.fraction;
		nap_ms(20);
	}
	struct sb_job_result *res = sb_job_result_create();
	assert_int_equal(sb_run_wait(r, res), 0);
	sb_run_progress(r, &p);
	assert_int_equal(moved(&p), 16u << 20);
	assert_int_equal(p.ios[SB_DDIR_READ], 2 * ((8u << 20) / 4096));
	assert_true(p.fraction == 1.0);
	assert_int_equal(res->dir[SB_DDIR_READ].bytes, 16u << 20);
	sb_job_result_free(res);
	sb_run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(publishes_often),
		cmocka_unit_test(publishes_often_throttled),
		cmocka_unit_test(size_bound_counts_all),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
