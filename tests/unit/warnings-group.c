/* needs: none */
/*
 * The same warning from many runs is said once, with the runs it applies
 * to and the range of its figure; the results keep one sentence per run.
 * Synthetic results: jobs named as quick and run --repeat name them.
 */
#include "tests/lib/sbtest.h"
#include "lib/results/results.h"

#define SEC 1e9

struct lines {
	char v[16][2048];
	unsigned n;
};

static void collect(const char *line, void *ctx)
{
	struct lines *l = ctx;
	assert_true(l->n < 16);
	snprintf(l->v[l->n++], sizeof(l->v[0]), "%s", line);
}

static struct sb_job_result *job(struct sb_results *r, const char *name)
{
	struct sb_job_result *j = sb_job_result_create();
	assert_non_null(j);
	snprintf(j->name, sizeof(j->name), "%s", name);
	assert_int_equal(sb_results_add_job(r, j), 0);
	return j;
}

static void short_run(struct sb_results *r, const struct sb_job_result *j, double s)
{
	const struct sb_run_warning w = { "measured for only ", "", s * SEC, SB_WFIG_NS,
					  "runs under 2 s are noisy" };
	assert_int_equal(sb_results_warn_run(r, j, &w), 0);
}

static void cpu(struct sb_results *r, const struct sb_job_result *j, double share)
{
	const struct sb_run_warning w = { "a worker used ", " of a CPU core", share, SB_WFIG_PCT,
					  "the figures may be limited by the CPU" };
	assert_int_equal(sb_results_warn_run(r, j, &w), 0);
}

/* 8 tests x 2 runs, all short: one line; the JSON keeps 16 sentences. */
static void test_all_runs(void **state)
{
	struct sb_results *r = sb_results_create("quick");
	struct lines l = { .n = 0 };
	char name[96];
	for (unsigned t = 0; t < 8; t++)
		for (unsigned k = 1; k <= 2; k++) {
			snprintf(name, sizeof(name), "T%u read (run %u of 2)", t, k);
			short_run(r, job(r, name), t == 3 && k == 2 ? 1.01 : 1.0);
		}
	assert_int_equal(r->nwarnings, 16);
	assert_string_equal(r->warnings[0],
			    "measured for only 1.00 s in 'T0 read (run 1 of 2)': runs under 2 s "
			    "are noisy");
	sb_results_warnings(r, collect, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "measured for only 1.00..1.01 s in 16 of 16 runs: runs "
				    "under 2 s are noisy");
	sb_results_free(r);
}

/* Some runs: how many, and which tests (each once, the first few by name);
 * a figure in different units; a warning of the whole result keeps its
 * place and its sentence; a warning of a single run keeps its own. */
static void test_some_runs(void **state)
{
	struct sb_results *r = sb_results_create("quick");
	struct lines l = { .n = 0 };
	char name[96];
	struct sb_job_result *j[20];
	for (unsigned t = 0; t < 10; t++)
		for (unsigned k = 1; k <= 2; k++) {
			snprintf(name, sizeof(name), "T%u (run %u of 2)", t, k);
			j[t * 2 + k - 1] = job(r, name);
		}
	assert_int_equal(sb_results_warn(r, "no I/O statistics for vda"), 0);
	short_run(r, j[0], 0.999);
	short_run(r, j[1], 1.5);
	cpu(r, j[4], 0.95);
	short_run(r, j[2], 1.0);
	assert_int_equal(sb_results_warn(r, "no I/O statistics for vda"), 0); /* said once */
	short_run(r, j[2], 1.0);					      /* said once */
	sb_results_warnings(r, collect, &l);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[0], "no I/O statistics for vda");
	assert_string_equal(l.v[1], "measured for only 999 ms..1.50 s in 3 of 20 runs (T0, "
				    "T1): runs under 2 s are noisy");
	assert_string_equal(l.v[2], "a worker used 95% of a CPU core in 'T2 (run 1 of 2)': the "
				    "figures may be limited by the CPU");

	/* six tests: four by name, then how many more */
	for (unsigned t = 3; t < 9; t++)
		cpu(r, j[t * 2 + 1], 0.91 + t / 100.0);
	l.n = 0;
	sb_results_warnings(r, collect, &l);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[2], "a worker used 94..99% of a CPU core in 7 of 20 runs (T2, T3, "
				    "T4, T5 and 3 more): the figures may be limited by the CPU");
	sb_results_free(r);
}

/* The same claim with a different advice, or a different claim, is another
 * warning; a job name without a run suffix is its own test. */
static void test_groups_apart(void **state)
{
	struct sb_results *r = sb_results_create("run");
	struct lines l = { .n = 0 };
	struct sb_job_result *a = job(r, "seq"), *b = job(r, "rand");
	short_run(r, a, 0.5);
	short_run(r, b, 0.5);
	const struct sb_run_warning other = { "measured for only ", "", 0.5 * SEC, SB_WFIG_NS,
					      "something else" };
	assert_int_equal(sb_results_warn_run(r, a, &other), 0);
	sb_results_warnings(r, collect, &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0], "measured for only 500 ms in 2 of 2 runs: runs under 2 s are "
				    "noisy");
	assert_string_equal(l.v[1], "measured for only 500 ms in 'seq': something else");
	sb_results_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_runs),
		cmocka_unit_test(test_some_runs),
		cmocka_unit_test(test_groups_apart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
