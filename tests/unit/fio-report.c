/* needs: none */
/*
 * fio's report entries (sb_fio_report_make) from jobs with a known truth:
 * without group_reporting a job's every thread is an entry; with it the
 * jobs of a stonewall group that follow one another are one entry, named
 * for the first, its members counted; its bw and iops statistics are
 * fio's sum_stat(pure_sum) of the threads' own: min, max, mean, the sums
 * of squares and the samples added (fio: -numjobs=30 -group_reporting
 * gives every job's samples, 570 where one merged series has 19).
 */
#include "tests/lib/sbtest.h"
#include "lib/results/results.h"

#include <math.h>

#define SEC 1000000000ull

/* A thread reading rates[i] bytes in second i (n whole seconds). */
static struct sb_job_result *thread(const double *rates, unsigned n)
{
	struct sb_job_result *t = sb_job_result_create();
	assert_non_null(t);
	for (unsigned i = 0; i < n; i++) {
		struct sb_interval iv = { 0 };
		iv.t_ns = (i + 1) * SEC;
		iv.bytes[SB_DDIR_READ] = (uint64_t)rates[i];
		iv.ios[SB_DDIR_READ] = (uint64_t)rates[i] / 4096;
		assert_int_equal(sb_series_add(&t->series, &iv), 0);
		t->dir[SB_DDIR_READ].bytes += (uint64_t)rates[i];
		t->dir[SB_DDIR_READ].ios += (uint64_t)rates[i] / 4096;
		sb_hist_add(&t->dir[SB_DDIR_READ].clat, 1000 * (i + 1));
	}
	t->runtime_ns = n * SEC;
	return t;
}

/* Job NAME of nthreads threads, thread k's rates rates[k]. */
static struct sb_job_result *job(const char *name, unsigned nthreads, const double rates[][4],
				 int group_reporting)
{
	struct sb_job_result *j = sb_job_result_create();
	assert_non_null(j);
	snprintf(j->name, sizeof(j->name), "%s", name);
	sb_job_opts_default(&j->opts);
	j->opts.numjobs = nthreads;
	j->opts.group_reporting = group_reporting;
	j->usr_cpu = 30.0; /* the process's, over the run */
	j->ctx = 300;
	j->threads = calloc(nthreads, sizeof(*j->threads));
	assert_non_null(j->threads);
	for (unsigned k = 0; k < nthreads; k++) {
		j->threads[k] = thread(rates[k], 4);
		j->nthreads++;
		assert_int_equal(sb_job_result_add(j, j->threads[k]), 0);
	}
	return j;
}

static const double R[3][4] = {
	{ 100e6, 110e6, 90e6, 100e6 },
	{ 200e6, 180e6, 220e6, 200e6 },
	{ 50e6, 60e6, 40e6, 50e6 },
};

/* The figures fio's sum_stat(pure_sum) gives for threads R[0..n) */
static void expect_summed(const struct sb_rate_stats *s, unsigned n)
{
	double min = 0, max = 0, mean = 0, S = 0;
	uint64_t samples = 0;
	for (unsigned k = 0; k < n; k++) {
		double lo = INFINITY, hi = 0, m = 0;
		for (unsigned i = 0; i < 4; i++) {
			lo = fmin(lo, R[k][i]);
			hi = fmax(hi, R[k][i]);
			m += R[k][i] / 4;
		}
		for (unsigned i = 0; i < 4; i++)
			S += (R[k][i] - m) * (R[k][i] - m);
		min += lo;
		max += hi;
		mean += m;
		samples += 4;
	}
	assert_int_equal(s->samples, samples);
	assert_true(fabs(s->min - min) < 1);
	assert_true(fabs(s->max - max) < 1);
	assert_true(fabs(s->mean - mean) < 1);
	assert_true(fabs(s->dev - sqrt(S / (double)(samples - 1))) < 1);
}

static void one_entry_per_thread(void **state)
{
	(void)state;
	struct sb_results *r = sb_results_create("run");
	assert_non_null(r);
	assert_int_equal(sb_results_add_job(r, job("a", 3, R, 0)), 0);
	const unsigned group[1] = { 0 };
	struct sb_fio_report rep;
	assert_int_equal(sb_fio_report_make(r, group, &rep), 0);
	assert_int_equal(rep.njobs, 3);
	for (unsigned k = 0; k < 3; k++) {
		const struct sb_job_result *e = rep.jobs[k];
		assert_string_equal(e->name, "a");
		assert_int_equal(e->members, 1);
		assert_int_equal(e->dir[SB_DDIR_READ].bytes, r->jobs[0]->threads[k]->dir[0].bytes);
		struct sb_rate_stats b;
		sb_job_rate_stats(e, SB_DDIR_READ, 0, &b);
		assert_int_equal(b.samples, 4);
		/* a thread's share of the process's CPU (fio's per thread) */
		assert_true(fabs(e->usr_cpu - 10.0) < 1e-9);
		assert_int_equal(e->ctx, 100);
	}
	sb_fio_report_free(&rep);
	sb_results_free(r);
}

static void group_reporting_sums_as_fio(void **state)
{
	(void)state;
	struct sb_results *r = sb_results_create("run");
	assert_non_null(r);
	assert_int_equal(sb_results_add_job(r, job("a", 2, R, 1)), 0);
	assert_int_equal(sb_results_add_job(r, job("b", 1, R + 2, 1)), 0);
	const unsigned group[2] = { 0, 0 };
	struct sb_fio_report rep;
	assert_int_equal(sb_fio_report_make(r, group, &rep), 0);
	assert_int_equal(rep.njobs, 1);
	const struct sb_job_result *e = rep.jobs[0];
	assert_string_equal(e->name, "a");
	assert_int_equal(e->members, 3);
	assert_int_equal(e->dir[SB_DDIR_READ].bytes,
			 r->jobs[0]->dir[0].bytes + r->jobs[1]->dir[0].bytes);
	assert_int_equal(e->dir[SB_DDIR_READ].clat.count, 12);
	struct sb_rate_stats b;
	sb_job_rate_stats(e, SB_DDIR_READ, 0, &b);
	expect_summed(&b, 3);
	sb_fio_report_free(&rep);

	/* a stonewall between them: two groups, two entries */
	const unsigned two[2] = { 0, 1 };
	assert_int_equal(sb_fio_report_make(r, two, &rep), 0);
	assert_int_equal(rep.njobs, 2);
	assert_int_equal(rep.jobs[0]->members, 2);
	assert_int_equal(rep.jobs[1]->members, 1);
	assert_int_equal(rep.group[1], 1);
	assert_int_equal(rep.jobs[1]->groupid, 1);
	sb_fio_report_free(&rep);
	sb_results_free(r);
}

/* A job read back from a file has no threads: one entry of numjobs. */
static void no_threads_one_entry(void **state)
{
	(void)state;
	struct sb_results *r = sb_results_create("run");
	assert_non_null(r);
	struct sb_job_result *j = thread(R[0], 4);
	sb_job_opts_default(&j->opts);
	j->opts.numjobs = 4;
	assert_int_equal(sb_results_add_job(r, j), 0);
	const unsigned group[1] = { 0 };
	struct sb_fio_report rep;
	assert_int_equal(sb_fio_report_make(r, group, &rep), 0);
	assert_int_equal(rep.njobs, 1);
	assert_int_equal(rep.jobs[0]->members, 4);
	sb_fio_report_free(&rep);
	sb_results_free(r);
}

/* Many ranks: the All clients job stays whole, its threads (rank 0's own)
 * left aside, however many there are. */
static void ranks_stay_whole(void **state)
{
	(void)state;
	struct sb_results *r = sb_results_create("run");
	assert_non_null(r);
	struct sb_job_result *j = job("a", 2, R, 0);
	j->clients = calloc(1, sizeof(*j->clients));
	assert_non_null(j->clients);
	j->clients[0].job = sb_job_result_create();
	assert_non_null(j->clients[0].job);
	j->nclients = 1;
	assert_int_equal(sb_results_add_job(r, j), 0);
	const unsigned group[1] = { 0 };
	struct sb_fio_report rep;
	assert_int_equal(sb_fio_report_make(r, group, &rep), 0);
	assert_int_equal(rep.njobs, 1);
	assert_ptr_equal(rep.jobs[0], j);
	assert_int_equal(rep.owned[0], 0);
	sb_fio_report_free(&rep);
	sb_results_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_entry_per_thread),
		cmocka_unit_test(group_reporting_sums_as_fio),
		cmocka_unit_test(no_threads_one_entry),
		cmocka_unit_test(ranks_stay_whole),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
