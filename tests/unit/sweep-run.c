/* needs: none */
/*
 * storbench sweep as a library call, without the program: sb_sweep_run on
 * a file in a temporary directory, with hooks that record what they are
 * told. The progress comes cell by cell and test by test in iozone's
 * order, each timed pass between its begin and end; a stop ends the run
 * interrupted with the cells before it kept; a failure is said with where
 * it happened. The section written reads back (sb_sweep_read) as the run
 * filled it, one process's and an aggregate of ranks', and a section with
 * a wrong type, a negative count or a missing key is refused by key path.
 */
#include "tests/unit/section-json.h"
#include "lib/sweep/sweep.h"

#include <math.h>
#include <sys/stat.h>

#define KIB 1024ull
#define TESTS ((1u << SB_SWEEP_WRITE) | (1u << SB_SWEEP_READ) | (1u << SB_SWEEP_RANDREAD))

struct told {
	int kind, test; /* progress: SB_SWEEP_TELL_*; timed: 100 + end */
	unsigned fi, ri, cell, ncells;
	int size_begins;
	uint64_t done, total;
};

struct rec {
	struct told v[4096];
	size_t n;
	int stop_at_test, stop_at_cell; /* stop once this test of this cell began */
	int stopping;
};

static void on_progress(void *ctx, const struct sb_sweep_progress *p)
{
	struct rec *r = ctx;
	if (p->kind != SB_SWEEP_TELL_STEP)
		return; /* MiB ticks: their count depends on the records */
	assert_true(r->n < SB_ARRAY_SIZE(r->v));
	r->v[r->n++] = (struct told){ p->kind,	 p->test,	 p->fi,	  p->ri,   p->cell,
				      p->ncells, p->size_begins, p->done, p->total };
	if (p->test == r->stop_at_test && p->cell == (unsigned)r->stop_at_cell)
		r->stopping = 1;
}

static void on_timed(void *ctx, int test, unsigned fi, unsigned ri, int end)
{
	struct rec *r = ctx;
	assert_true(r->n < SB_ARRAY_SIZE(r->v));
	r->v[r->n++] = (struct told){ .kind = 100 + end, .test = test, .fi = fi, .ri = ri };
}

static int on_stop(void *ctx)
{
	return ((struct rec *)ctx)->stopping;
}

static void opts(struct sb_sweep_opts *o, const char *path)
{
	sb_sweep_opts_default(o);
	o->file_sizes[0] = 64 * KIB;
	o->file_sizes[1] = 128 * KIB;
	o->nfile = 2;
	o->record_sizes[0] = 16 * KIB;
	o->record_sizes[1] = 128 * KIB; /* larger than the 64k file: not run there */
	o->nrec = 2;
	o->tests = TESTS;
	o->warm = 1; /* a drop as root is system-wide */
	o->path = path;
	o->fd = -1;
}

static struct sb_sweep_result *run(struct rec *rec, const char *path, int expect,
				   struct sb_error *err)
{
	struct sb_sweep_opts *o = calloc(1, sizeof(*o));
	struct sb_sweep_result *r = calloc(1, sizeof(*r));
	const struct sb_sweep_hooks h = {
		.ctx = rec, .stop = on_stop, .progress = on_progress, .timed = on_timed
	};
	assert_non_null(o);
	assert_non_null(r);
	opts(o, path);
	assert_int_equal(sb_sweep_plan(r, o), 0);
	assert_int_equal(sb_sweep_run(o, &h, NULL, r, err), expect);
	r->opts = NULL; /* o goes: the run's results would point at it */
	free(o);
	return r;
}

/* The cells that run, in order: (64k, 16k), (128k, 16k), (128k, 128k). */
static const unsigned cell_fi[] = { 0, 1, 1 }, cell_ri[] = { 0, 0, 1 };
static const int order[] = { SB_SWEEP_WRITE, SB_SWEEP_READ, SB_SWEEP_RANDREAD };

static void events_in_order(void **state)
{
	struct rec *rec = calloc(1, sizeof(*rec));
	struct sb_error err;
	struct stat st;
	(void)state;
	assert_non_null(rec);
	rec->stop_at_test = -2;
	const char *path = sbt_path("sweep.tmp");
	struct sb_sweep_result *r = run(rec, path, 0, &err);
	size_t i = 0;
	for (unsigned c = 0; c < 3; c++) {
		for (unsigned k = 0; k < 3; k++) {
			const struct told *s = &rec->v[i++], *b = &rec->v[i++], *e = &rec->v[i++];
			assert_int_equal(s->kind, SB_SWEEP_TELL_STEP);
			assert_int_equal(s->test, order[k]);
			assert_int_equal(s->fi, cell_fi[c]);
			assert_int_equal(s->ri, cell_ri[c]);
			assert_int_equal(s->cell, c + 1);
			assert_int_equal(s->ncells, 3);
			/* a line for each file size: the first cell of each */
			assert_int_equal(s->size_begins, k == 0 && c != 2);
			assert_int_equal(b->kind, 100);
			assert_int_equal(e->kind, 101);
			assert_int_equal(b->test, order[k]);
			assert_int_equal(e->test, order[k]);
		}
		const struct told *end = &rec->v[i++];
		assert_int_equal(end->kind, SB_SWEEP_TELL_STEP);
		assert_int_equal(end->test, -1);
	}
	assert_int_equal(i, rec->n);
	/* each test of a cell moves its file: the whole sweep at the end */
	assert_int_equal(rec->v[i - 1].total, 3 * (64 + 128 + 128) * KIB);
	assert_int_equal(rec->v[i - 1].done, rec->v[i - 1].total);
	assert_int_equal(r->cells_done, 3);
	assert_false(r->interrupted);
	for (unsigned c = 0; c < 3; c++)
		for (unsigned k = 0; k < 3; k++) {
			assert_int_equal(r->state[order[k]][cell_fi[c]][cell_ri[c]],
					 SB_SWEEP_CELL_DONE);
			assert_true(r->kibps[order[k]][cell_fi[c]][cell_ri[c]] > 0);
		}
	assert_int_not_equal(lstat(path, &st), 0); /* removed after each cell */
	free(r);
	free(rec);
}

static void stop_interrupts(void **state)
{
	struct rec *rec = calloc(1, sizeof(*rec));
	struct sb_error err;
	(void)state;
	assert_non_null(rec);
	rec->stop_at_test = SB_SWEEP_READ; /* in the second cell */
	rec->stop_at_cell = 2;
	struct sb_sweep_result *r = run(rec, sbt_path("stop.tmp"), -EINTR, &err);
	assert_true(r->interrupted);
	assert_int_equal(err.cls, SB_ERR_STOPPED);
	assert_string_equal(err.msg, "");
	assert_int_equal(r->cells_done, 1);
	assert_int_equal(r->state[SB_SWEEP_RANDREAD][0][0], SB_SWEEP_CELL_DONE);
	assert_int_equal(r->state[SB_SWEEP_WRITE][1][0], SB_SWEEP_CELL_DONE);
	assert_int_equal(r->state[SB_SWEEP_READ][1][0], SB_SWEEP_CELL_PLANNED);
	/* the stopped pass began and ended (failed), none after it */
	assert_int_equal(rec->v[rec->n - 1].kind, 99);
	assert_int_equal(rec->v[rec->n - 1].test, SB_SWEEP_READ);
	free(r);
	free(rec);
}

static void failure_said(void **state)
{
	struct rec *rec = calloc(1, sizeof(*rec));
	struct sb_error err;
	char want[600];
	(void)state;
	assert_non_null(rec);
	rec->stop_at_test = -2;
	const char *path = sbt_path("none/sweep.tmp"); /* no such directory */
	struct sb_sweep_result *r = run(rec, path, -ENOENT, &err);
	snprintf(want, sizeof(want), "cannot create '%s': %s", path, strerror(ENOENT));
	assert_string_equal(err.msg, want);
	assert_int_equal(err.cls, SB_ERR_FAIL);
	assert_int_equal(r->cells_done, 0);
	free(r);
	free(rec);
}

/* ---- the section both ways ---- */

static void same_figures(const struct sb_sweep_result *a, const struct sb_sweep_result *b,
			 uint32_t tests, int bytes)
{
	assert_int_equal(a->nfile, b->nfile);
	assert_int_equal(a->nrec, b->nrec);
	for (unsigned fi = 0; fi < a->nfile; fi++)
		assert_int_equal(a->file_sizes[fi], b->file_sizes[fi]);
	for (unsigned ri = 0; ri < a->nrec; ri++)
		assert_int_equal(a->record_sizes[ri], b->record_sizes[ri]);
	assert_int_equal(a->cells_done, b->cells_done);
	assert_int_equal(a->interrupted, b->interrupted);
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		for (unsigned fi = 0; fi < a->nfile; fi++)
			for (unsigned ri = 0; ri < a->nrec; ri++) {
				const int done = a->state[t][fi][ri] == SB_SWEEP_CELL_DONE;
				if (!(tests & (1u << t)))
					continue;
				assert_int_equal(a->state[t][fi][ri], b->state[t][fi][ri]);
				if (!done)
					continue;
				assert_int_equal(a->kibps[t][fi][ri], b->kibps[t][fi][ri]);
				assert_int_equal(a->elapsed_ns[t][fi][ri],
						 b->elapsed_ns[t][fi][ri]);
				if (bytes)
					assert_int_equal(sb_sweep_pass_bytes(a, t, fi, ri),
							 sb_sweep_pass_bytes(b, t, fi, ri));
				assert_int_equal(a->ended_early[t][fi][ri],
						 b->ended_early[t][fi][ri]);
			}
}

/* The run's section written and read back: every figure as it was. */
static struct sb_sweep_doc *round_trip(const struct sb_sweep_result *r, char **text)
{
	struct sb_results *res = sb_results_create("sweep");
	struct sb_sweep_doc *d = calloc(1, sizeof(*d));
	struct sb_error err;
	assert_non_null(res);
	assert_non_null(d);
	assert_int_equal(sb_results_sweep(res, r), 0);
	*text = sj_write(res);
	struct sb_jdoc *jd = sj_parse(*text);
	assert_int_equal(sb_sweep_read(sb_jdoc_root(jd), d, &err), 0);
	sb_jdoc_free(jd);
	sb_results_free(res);
	return d;
}

static void section_reads_back(void **state)
{
	struct rec *rec = calloc(1, sizeof(*rec));
	struct sb_sweep_opts o;
	struct sb_error err;
	char *text;
	(void)state;
	assert_non_null(rec);
	rec->stop_at_test = -2;
	struct sb_sweep_result *r = run(rec, sbt_path("rt.tmp"), 0, &err);
	opts(&o, "x");
	o.stride = 5;
	o.burst_bytes = 1 << 20;
	o.burst_idle_ns = 7;
	r->opts = &o;
	struct sb_sweep_doc *d = round_trip(r, &text);
	same_figures(r, &d->r, TESTS, 0);
	assert_int_equal(d->o.tests, TESTS);
	assert_int_equal(d->r.cells_planned, r->cells_planned);
	assert_int_equal(d->r.small_record_rule, r->small_record_rule);
	assert_int_equal(d->o.flush, o.flush);
	assert_int_equal(d->o.close, o.close);
	assert_int_equal(d->o.warm, 1);
	assert_int_equal(d->o.stride, 5);
	assert_int_equal(d->o.burst_bytes, 1 << 20);
	assert_int_equal(d->o.burst_idle_ns, 7);
	assert_string_equal(d->cache, "warm");
	assert_int_equal(d->r.nranks, 0);
	assert_null(d->spread);

	/* refused by key path: wrong type, negative count, missing key, a
	 * figure that is not one, a test that is not one */
	SJ_REFUSED(sb_sweep_read, sb_sweep_doc_free, d, text, "\"interrupted\":false",
		   "\"interrupted\":0", "interrupted: expected a boolean, found 0");
	SJ_REFUSED(sb_sweep_read, sb_sweep_doc_free, d, text, "\"cells_done\":3",
		   "\"cells_done\":-3",
		   "cells_done: expected a whole number from 0 to 3, found -3");
	SJ_REFUSED(sb_sweep_read, sb_sweep_doc_free, d, text, "\"file_sizes\"", "\"file_size\"",
		   "file_sizes: expected an array, found nothing");
	SJ_REFUSED(sb_sweep_read, sb_sweep_doc_free, d, text, "\"elapsed_ns\":[[",
		   "\"elapsed_ns\":[[\"x\",",
		   "tests[0].elapsed_ns[0]: expected a row of 2 values, found an array");
	SJ_REFUSED(sb_sweep_read, sb_sweep_doc_free, d, text, "\"kib_per_s\":[[",
		   "\"kib_per_s\":[[-1,",
		   "tests[0].kib_per_s[0]: expected a row of 2 values, found an array");
	SJ_REFUSED(sb_sweep_read, sb_sweep_doc_free, d, text, "\"test\":\"read\"",
		   "\"test\":\"reed\"",
		   "tests[1].test: expected a sweep test (write, rewrite, read, ...) after the one "
		   "before, found 'reed'");
	SJ_REFUSED(sb_sweep_read, sb_sweep_doc_free, d, text, "\"options\":{",
		   "\"options\":{\"x\":1,\"stride\":-1,",
		   "options.stride: expected a whole number from 0 to 1000000, found -1");
	free(text);
	free(d);
	free(r);
	free(rec);
}

/* A cell's figure that is not a number, where the cell was measured. */
static void cell_refused(void **state)
{
	struct rec *rec = calloc(1, sizeof(*rec));
	struct sb_error err;
	char *text, num[48], bad[48];
	(void)state;
	assert_non_null(rec);
	rec->stop_at_test = -2;
	struct sb_sweep_result *r = run(rec, sbt_path("cell.tmp"), 0, &err);
	struct sb_sweep_opts o;
	opts(&o, "x");
	r->opts = &o;
	struct sb_sweep_doc *d = round_trip(r, &text);
	snprintf(num, sizeof(num), "\"elapsed_ns\":[[%llu,",
		 (unsigned long long)r->elapsed_ns[SB_SWEEP_WRITE][0][0]);
	snprintf(bad, sizeof(bad), "\"elapsed_ns\":[[-%llu,",
		 (unsigned long long)r->elapsed_ns[SB_SWEEP_WRITE][0][0]);
	char want[160];
	snprintf(want, sizeof(want),
		 "tests[0].elapsed_ns[0][0]: expected a whole number from 0 to 1e18, found -%g",
		 (double)r->elapsed_ns[SB_SWEEP_WRITE][0][0]);
	SJ_REFUSED(sb_sweep_read, sb_sweep_doc_free, d, text, num, bad, want);
	SJ_REFUSED(sb_sweep_read, sb_sweep_doc_free, d, text, "\"shape\":[[true,false]",
		   "\"shape\":[[true,true]",
		   "shape[0][1]: expected false (the record is larger than the file, or skipped "
		   "by the small-record rule), found true");
	free(text);
	free(d);
	free(r);
	free(rec);
}

/* Two ranks' results (the second a little slower, its stamps later), as
 * rank 0 gathers them, aggregated, written and read back. */
static void ranks_read_back(void **state)
{
	struct rec *rec = calloc(1, sizeof(*rec));
	struct sb_sweep_rank *rk = calloc(2, sizeof(*rk));
	struct sb_sweep_result *agg = calloc(1, sizeof(*agg));
	struct sb_sweep_opts o;
	struct sb_error err;
	char *text;
	(void)state;
	assert_non_null(rec);
	assert_non_null(rk);
	assert_non_null(agg);
	rec->stop_at_test = -2;
	struct sb_sweep_result *r = run(rec, sbt_path("ranks.tmp"), 0, &err);
	opts(&o, "x");
	for (int k = 0; k < 2; k++) {
		rk[k].rank = k;
		snprintf(rk[k].host, sizeof(rk[k].host), "node-%d", k);
		rk[k].clock_offset_s = 0.25 * k;
		rk[k].r = *r;
		double at = 1000 + k * 0.001;
		for (int t = 0; t < SB_SWEEP_NTESTS; t++)
			for (unsigned fi = 0; fi < r->nfile; fi++)
				for (unsigned ri = 0; ri < r->nrec; ri++) {
					rk[k].r.elapsed_ns[t][fi][ri] += 1000000 * (uint64_t)k;
					rk[k].start_s[t][fi][ri] = at;
					rk[k].end_s[t][fi][ri] =
						at + (double)rk[k].r.elapsed_ns[t][fi][ri] / 1e9;
					at += 1;
				}
	}
	rk[1].r.ended_early[SB_SWEEP_READ][1][0] = 1;
	rk[1].r.bytes[SB_SWEEP_READ][1][0] = 16 * KIB;
	*agg = *r;
	agg->opts = &o;
	assert_int_equal(sb_sweep_aggregate(agg, rk, 2), 0);
	agg->stonewall = 1;
	struct sb_sweep_doc *d = round_trip(agg, &text);
	same_figures(agg, &d->r, TESTS, 1);
	assert_int_equal(d->r.nranks, 2);
	assert_true(d->r.stonewall);
	assert_non_null(d->spread);
	for (int k = 0; k < 2; k++) {
		const struct sb_sweep_rank *x = &d->r.ranks[k];
		assert_int_equal(x->rank, k);
		assert_string_equal(x->host, rk[k].host);
		assert_true(fabs(x->clock_offset_s - rk[k].clock_offset_s) < 1e-6);
		same_figures(&rk[k].r, &x->r, TESTS, 1);
		for (int t = 0; t < SB_SWEEP_NTESTS; t++)
			for (unsigned c = 0; c < 3 && (TESTS & (1u << t)); c++) {
				const unsigned fi = cell_fi[c], ri = cell_ri[c];
				double s, e;
				/* from the earliest start of the run (rank 0's first) */
				assert_true(fabs(x->start_s[t][fi][ri] -
						 (rk[k].start_s[t][fi][ri] - 1000)) < 1e-6);
				assert_true(fabs(x->end_s[t][fi][ri] -
						 (rk[k].end_s[t][fi][ri] - 1000)) < 1e-6);
				sb_sweep_spread(agg, t, fi, ri, &s, &e);
				assert_true(fabs(d->spread[t][0][fi][ri] - s) < 1e-6);
				assert_true(fabs(d->spread[t][1][fi][ri] - e) < 1e-6);
			}
	}
	/* the rank's rate: its bytes over its time */
	assert_true(sb_sweep_rank_rate(&d->r.ranks[1].r, SB_SWEEP_READ) > 0);
	SJ_REFUSED(sb_sweep_read, sb_sweep_doc_free, d, text, "\"hostname\":\"node-1\"",
		   "\"hostname\":1", "ranks[1].hostname: expected a string, found 1");
	/* every section's rules of a rank's entry (sb_ranks_check), worded as
	 * the report has said them */
	SJ_REFUSED(sb_sweep_read, sb_sweep_doc_free, d, text, "\"rank\":1,", "",
		   "ranks[1]: a rank's entry without its 'rank'");
	sb_sweep_doc_free(d);
	free(text);
	free(d);
	free(agg);
	free(rk);
	free(r);
	free(rec);
}

static void not_an_object(void **state)
{
	struct sb_sweep_doc *d = calloc(1, sizeof(*d));
	struct sb_error err;
	(void)state;
	assert_non_null(d);
	struct sb_jdoc *jd = sj_parse("[1]");
	assert_int_equal(sb_sweep_read(sb_jdoc_root(jd), d, &err), -EINVAL);
	assert_string_equal(err.msg, "expected an object, found an array");
	sb_sweep_doc_free(d);
	sb_jdoc_free(jd);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(events_in_order), cmocka_unit_test(stop_interrupts),
		cmocka_unit_test(failure_said),	   cmocka_unit_test(section_reads_back),
		cmocka_unit_test(cell_refused),	   cmocka_unit_test(ranks_read_back),
		cmocka_unit_test(not_an_object),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
