/* needs: none */
/*
 * storbench meta as a library call, without the program: sb_meta_run in a
 * temporary directory with hooks that record what they are told. The
 * tests begin in bonnie++'s order, each once, inside the run directory's
 * life (made before the first, given back before it is removed); a stop
 * ends the run interrupted with the tests before it kept; a directory
 * that cannot be made is said. The section written reads back
 * (sb_meta_read) as the run filled it, one process's and an aggregate of
 * ranks', and a section with a wrong type, a negative count, a missing key
 * or an unknown test is refused by key path. sb_meta_runs (bonnie++'s -x)
 * runs one after another, each begun and ended through the hooks with a
 * seed of its own, until a run's verdict is not 0.
 */
#include "tests/unit/section-json.h"
#include "lib/meta/meta.h"

#include <math.h>
#include <sys/stat.h>

struct rec {
	int phase[SB_META_NTESTS + 4];
	unsigned step[SB_META_NTESTS + 4];
	int nphase;
	int tracked, track_on, track_off; /* phases told while tracked */
	int tracked_phases;
	int stop_at; /* stop once this test began, -1 never */
	unsigned progress;
};

static int on_stop(void *ctx)
{
	const struct rec *r = ctx;
	return r->stop_at >= 0 && r->nphase && r->phase[r->nphase - 1] == r->stop_at;
}

static int on_stopped(void *ctx)
{
	(void)ctx;
	return 1;
}

static void on_phase(void *ctx, enum sb_meta_test t, unsigned step)
{
	struct rec *r = ctx;
	assert_true(r->nphase < (int)SB_ARRAY_SIZE(r->phase));
	r->phase[r->nphase] = (int)t;
	r->step[r->nphase++] = step;
	r->tracked_phases += r->tracked;
}

static void on_progress(void *ctx, const struct sb_meta_progress *p)
{
	struct rec *r = ctx;
	assert_true(p->ops <= p->total || !p->total);
	r->progress++;
}

static void on_track(void *ctx, const char *path, int dirfd, int on)
{
	struct rec *r = ctx;
	struct stat st;
	assert_true(dirfd >= 0);
	assert_int_equal(stat(path, &st), 0); /* it is there either way */
	r->tracked = on;
	r->track_on += on;
	r->track_off += !on;
}

static void opts(struct sb_meta_opts *o, const char *parent)
{
	memset(o, 0, sizeof(*o));
	o->parent = parent;
	o->seed = 42;
	o->name = "box";
	o->files = (struct sb_meta_files){ .nfiles = 40, .ndirs = 2, .nthreads = 2, .chunk = 8192 };
	o->io = (struct sb_meta_io){ .size = 1 << 20,
				     .char_size = 16 << 10,
				     .chunk = 8192,
				     .seeks = 64,
				     .seekers = 2,
				     .char_syscall = 1 };
	o->size_rule = SB_META_SIZE_GIVEN;
}

static struct sb_meta_run *run(struct rec *rec, const char *parent, int expect,
			       struct sb_error *err)
{
	struct sb_meta_opts o;
	struct sb_meta_run *m = calloc(1, sizeof(*m));
	const struct sb_meta_hooks h = { .ctx = rec,
					 .stop = on_stop,
					 .phase = on_phase,
					 .progress = on_progress,
					 .track = on_track };
	assert_non_null(m);
	opts(&o, parent);
	assert_int_equal(sb_meta_run(&o, &h, NULL, m, err), expect);
	return m;
}

static void tests_in_order(void **state)
{
	struct rec rec = { .stop_at = -1 };
	struct sb_error err;
	struct stat st;
	(void)state;
	struct sb_meta_run *m = run(&rec, sbt_tmpdir(), 0, &err);
	assert_int_equal(rec.nphase, SB_META_NTESTS);
	for (int i = 0; i < SB_META_NTESTS; i++) {
		assert_int_equal(rec.phase[i], i); /* bonnie++'s order */
		assert_int_equal(rec.step[i], i + 1);
		assert_true(m->res[i].ran);
		assert_false(m->res[i].interrupted);
	}
	/* every test inside the run directory's life, given back once */
	assert_int_equal(rec.tracked_phases, SB_META_NTESTS);
	assert_int_equal(rec.track_on, 1);
	assert_int_equal(rec.track_off, 1);
	assert_int_equal(m->res[SB_META_WRITE].ops, (1 << 20) / 8192);
	assert_int_equal(m->res[SB_META_SEEKS].ops, 64);
	assert_int_equal(m->res[SB_META_SEQ_CREATE].ops, 40);
	assert_false(m->interrupted);
	assert_false(m->kept);
	assert_int_equal(m->remove_err, 0);
	assert_int_equal(m->refused_rank, -1);
	assert_int_equal(m->failed_rank, -1);
	assert_int_equal(m->files.ndirs, 2);
	assert_int_equal(m->seed, 42);
	assert_string_equal(m->name, "box");
	assert_int_not_equal(stat(m->rundir, &st), 0); /* removed */
	sb_meta_result_free(m);
	free(m);
}

static void stop_interrupts(void **state)
{
	struct rec rec = { .stop_at = SB_META_SEQ_CREATE };
	struct sb_error err;
	struct stat st;
	(void)state;
	struct sb_meta_run *m = run(&rec, sbt_tmpdir(), -EINTR, &err);
	assert_int_equal(err.cls, SB_ERR_STOPPED);
	assert_string_equal(err.msg, "");
	assert_true(m->interrupted);
	assert_true(m->res[SB_META_SEEKS].ran);
	assert_false(m->res[SB_META_SEEKS].interrupted);
	assert_true(m->res[SB_META_SEQ_CREATE].interrupted);
	for (int t = SB_META_SEQ_STAT; t < SB_META_NTESTS; t++)
		assert_false(m->res[t].ran);
	assert_int_equal(rec.nphase, SB_META_SEQ_CREATE + 1);
	assert_int_equal(rec.track_off, 1);
	assert_int_not_equal(stat(m->rundir, &st), 0); /* removed */
	free(m);
}

static void no_run_directory(void **state)
{
	struct rec rec = { .stop_at = -1 };
	struct sb_error err;
	char want[600];
	(void)state;
	const char *parent = sbt_path("none/here");
	struct sb_meta_run *m = run(&rec, parent, -ENOENT, &err);
	snprintf(want, sizeof(want), "cannot create a run directory in '%s': %s", parent,
		 strerror(ENOENT));
	assert_string_equal(err.msg, want);
	assert_int_equal(err.cls, SB_ERR_ENV); /* a path that is not there: the target's */
	assert_int_equal(m->refused_rank, 0);
	assert_int_equal(rec.nphase, 0);
	assert_int_equal(rec.track_on, 0);
	free(m);
}

/* ---- bonnie++'s -x: runs one after another ---- */

struct runs_rec {
	unsigned begun, ended, stop_after, phases;
	int began_clear; /* out was cleared before each run */
	uint64_t seed[4];
	struct sb_meta_run *m;
};

static int on_run_begin(void *ctx, unsigned i)
{
	struct runs_rec *r = ctx;
	assert_int_equal(i, r->begun);
	r->began_clear += !r->m->res[SB_META_WRITE].ran;
	r->begun++;
	return 0;
}

static void on_runs_phase(void *ctx, enum sb_meta_test t, unsigned step)
{
	struct runs_rec *r = ctx;
	(void)t;
	assert_int_equal(step, r->phases % SB_META_NTESTS + 1); /* each run from its first test */
	r->phases++;
}

static int on_run_end(void *ctx, struct sb_meta_run *m, int e, const struct sb_error *err)
{
	struct runs_rec *r = ctx;
	(void)err;
	assert_int_equal(e, 0);
	assert_int_equal(r->ended + 1, r->begun);
	assert_true(m->res[SB_META_RAND_DELETE].ran);
	r->seed[r->ended++] = m->seed;
	return r->ended == r->stop_after ? 7 : 0;
}

static void runs_one_after_another(void **state)
{
	struct runs_rec r = { .stop_after = 2 };
	struct sb_meta_opts o;
	struct sb_error err;
	(void)state;
	const struct sb_meta_hooks h = {
		.ctx = &r, .phase = on_runs_phase, .run_begin = on_run_begin, .run_end = on_run_end
	};
	assert_non_null(r.m = calloc(1, sizeof(*r.m)));
	opts(&o, sbt_tmpdir());
	o.seed = 0; /* each run its own */
	o.runs = 3;
	/* the verdict that ended them */
	assert_int_equal(sb_meta_runs(&o, &h, NULL, r.m, &err), 7);
	assert_int_equal(r.begun, 2);
	assert_int_equal(r.ended, 2);
	assert_int_equal(r.began_clear, 2);
	assert_int_equal(r.phases, 2 * SB_META_NTESTS);
	assert_int_not_equal(r.seed[0], 0);
	assert_int_not_equal(r.seed[0], r.seed[1]);
	/* a stop before a run: it does not begin */
	struct runs_rec s = { 0 };
	const struct sb_meta_hooks hs = {
		.ctx = &s, .stop = on_stopped, .run_begin = on_run_begin, .run_end = on_run_end
	};
	s.m = r.m;
	assert_int_equal(sb_meta_runs(&o, &hs, NULL, s.m, &err), 0);
	assert_int_equal(s.begun, 0);
	free(r.m);
}

/* ---- the section both ways ---- */

static struct sb_meta_doc *round_trip(const struct sb_meta_run *m, char **text)
{
	struct sb_results *res = sb_results_create("meta");
	struct sb_meta_doc *d = calloc(1, sizeof(*d));
	struct sb_error err;
	assert_non_null(res);
	assert_non_null(d);
	assert_int_equal(sb_results_meta(res, m), 0);
	*text = sj_write(res);
	struct sb_jdoc *jd = sj_parse(*text);
	if (sb_meta_read(sb_jdoc_root(jd), d, &err))
		fail_msg("refused: %s", err.msg);
	sb_jdoc_free(jd);
	sb_results_free(res);
	return d;
}

static void same_params(const struct sb_meta_run *a, const struct sb_meta_run *b)
{
	assert_string_equal(a->rundir, b->rundir);
	assert_int_equal(a->kept, b->kept);
	assert_int_equal(a->interrupted, b->interrupted);
	assert_int_equal(a->io.size, b->io.size);
	assert_int_equal(a->io.char_size, b->io.char_size);
	assert_int_equal(a->io.chunk, b->io.chunk);
	assert_int_equal(a->io.seeks, b->io.seeks);
	assert_int_equal(a->io.seekers, b->io.seekers);
	assert_int_equal(a->io.direct, b->io.direct);
	assert_int_equal(a->io.fsync, b->io.fsync);
	assert_int_equal(a->io.char_syscall, b->io.char_syscall);
	assert_int_equal(a->io.bonnie_data, b->io.bonnie_data);
	assert_int_equal(a->files.nfiles, b->files.nfiles);
	assert_int_equal(a->files.size_min, b->files.size_min);
	assert_int_equal(a->files.size_max, b->files.size_max);
	assert_int_equal(a->files.chunk, b->files.chunk);
	assert_int_equal(a->files.ndirs, b->files.ndirs);
	assert_int_equal(a->files.nthreads, b->files.nthreads);
	assert_int_equal(a->seed, b->seed);
	assert_int_equal(a->size_rule, b->size_rule);
	assert_int_equal(a->twice_ram, b->twice_ram);
}

static void same_tests(const struct sb_meta_run *m, const struct sb_meta_doc *d)
{
	for (int t = 0; t < SB_META_NTESTS; t++) {
		const struct sb_meta_result *a = &m->res[t], *b = &d->m.res[t];
		const struct sb_meta_doc_test *x = &d->t[t];
		assert_int_equal(!!(d->tests & (1u << t)), a->ran);
		if (!a->ran)
			continue;
		assert_int_equal(a->interrupted, b->interrupted);
		assert_int_equal(a->stonewalled, b->stonewalled);
		assert_int_equal(a->ops, b->ops);
		if (sb_meta_is_io((enum sb_meta_test)t) || t == SB_META_SEEKS)
			assert_int_equal(a->bytes, b->bytes);
		assert_int_equal(a->elapsed_ns, b->elapsed_ns);
		assert_int_equal(a->cpu_ns, b->cpu_ns);
		assert_true(fabs(x->rate - sb_meta_rate(a, (enum sb_meta_test)t)) <=
			    1e-6 * x->rate + 1e-6);
		assert_int_equal(x->lat_n, a->lat.count);
		assert_int_equal(x->lat_min, a->lat.count ? a->lat.min : 0);
		assert_int_equal(x->lat_max, a->lat.count ? a->lat.max : 0);
		assert_int_equal(x->too_short, a->elapsed_ns < SB_META_MIN_TIME_NS);
		for (int p = 0; p < SB_META_NPCTS && a->lat.count; p++)
			assert_true(x->lat_pct[p] ==
				    (double)sb_hist_percentile(&a->lat, sb_meta_pcts[p]));
	}
}

static void section_reads_back(void **state)
{
	struct rec rec = { .stop_at = -1 };
	struct sb_error err;
	char *text, csv[2048];
	(void)state;
	struct sb_meta_run *m = run(&rec, sbt_tmpdir(), 0, &err);
	m->twice_ram = 3ull << 30;
	m->size_rule = SB_META_SIZE_TWICE_RAM;
	struct sb_meta_doc *d = round_trip(m, &text);
	same_params(m, &d->m);
	same_tests(m, d);
	sb_meta_run_csv(m, csv, sizeof(csv));
	csv[strcspn(csv, "\n")] = '\0';
	assert_string_equal(d->bonnie_csv, csv);
	assert_int_equal(d->m.nranks, 0);

	SJ_REFUSED(sb_meta_read, sb_meta_doc_free, d, text, "\"interrupted\":false",
		   "\"interrupted\":null", "interrupted: expected a boolean, found null");
	SJ_REFUSED(sb_meta_read, sb_meta_doc_free, d, text, "\"params\"", "\"parms\"",
		   "params: expected an object, found nothing");
	SJ_REFUSED(sb_meta_read, sb_meta_doc_free, d, text, "\"per_char\":\"syscall\"",
		   "\"per_char\":\"byte\"",
		   "params.per_char: expected syscall or putc, found 'byte'");
	SJ_REFUSED(sb_meta_read, sb_meta_doc_free, d, text, "\"seq_create\":{", "\"seq_creat\":{",
		   "tests.seq_creat: expected a meta test's name, found nothing");
	SJ_REFUSED(sb_meta_read, sb_meta_doc_free, d, text, "\"write\":{\"ran\":true,",
		   "\"write\":{\"ran\":true,\"ops\":-4,",
		   "tests.write.ops: expected a whole number from 0 to 1e18, found -4");
	SJ_REFUSED(sb_meta_read, sb_meta_doc_free, d, text, "\"bw_bytes\"", "\"bw\"",
		   "tests.putc.bw_bytes: expected a number from 0 to 1e18, found nothing");
	free(text);
	free(d);
	free(m);
}

/* Two ranks' figures, as rank 0 gathers them: written, read back. */
static void ranks_read_back(void **state)
{
	struct rec rec = { .stop_at = -1 };
	struct sb_error err;
	char *text;
	(void)state;
	struct sb_meta_run *m = run(&rec, sbt_tmpdir(), 0, &err);
	struct sb_meta_rank *rk = calloc(2, sizeof(*rk));
	assert_non_null(rk);
	for (int k = 0; k < 2; k++) {
		rk[k].rank = 4 + k;
		snprintf(rk[k].host, sizeof(rk[k].host), "node-%d", k);
		snprintf(rk[k].rundir, sizeof(rk[k].rundir), "/x/storbench-rank-%d/d", k);
		rk[k].clock_offset_s = 0.5 * k;
		rk[k].kept = k;
		rk[k].interrupted = k;
		for (int t = 0; t < SB_META_NTESTS; t++) {
			struct sb_meta_rank_test *x = &rk[k].t[t];
			*x = (struct sb_meta_rank_test){ 1,	   0,
							 k,	   100 + t,
							 4096 * t, 1000000,
							 5000,	   10.0 + k + t,
							 11.5 + t, 2e3 * (k + 1),
							 1,	   2,
							 3 + k,	   4 };
		}
		m->skew[k] = (struct sb_meta_skew){ 0.25, 0.5, 1.5, 2000, 1, 0, -0.25, 0.25 };
	}
	m->ranks = rk;
	m->nranks = 2;
	m->stonewall = 1;
	struct sb_meta_doc *d = round_trip(m, &text);
	assert_int_equal(d->m.nranks, 2);
	assert_true(d->m.stonewall);
	for (int k = 0; k < 2; k++) {
		const struct sb_meta_rank *a = &rk[k], *b = &d->m.ranks[k];
		assert_int_equal(a->rank, b->rank);
		assert_string_equal(a->host, b->host);
		assert_string_equal(a->rundir, b->rundir);
		assert_int_equal(a->kept, b->kept);
		assert_int_equal(a->interrupted, b->interrupted);
		assert_true(fabs(a->clock_offset_s - b->clock_offset_s) < 1e-6);
		for (int t = 0; t < SB_META_NTESTS; t++) {
			const struct sb_meta_rank_test *x = &a->t[t], *y = &b->t[t];
			assert_true(y->ran);
			assert_int_equal(x->stonewalled, y->stonewalled);
			assert_int_equal(x->ops, y->ops);
			assert_int_equal(x->bytes, y->bytes);
			assert_int_equal(x->elapsed_ns, y->elapsed_ns);
			assert_int_equal(x->cpu_ns, y->cpu_ns);
			/* from the test's earliest start on any rank (rank 4's) */
			assert_true(fabs(y->start_s - (x->start_s - (10.0 + t))) < 1e-6);
			assert_true(fabs(y->end_s - (x->end_s - (10.0 + t))) < 1e-6);
			assert_true(fabs(y->rate - x->rate) < 1e-6);
			assert_int_equal(x->lat_p99, y->lat_p99);
		}
	}
	for (int t = 0; t < 2; t++) {
		const struct sb_meta_skew *a = &m->skew[t], *b = &d->m.skew[t];
		assert_true(d->skews & (1u << t));
		assert_true(fabs(a->start_spread_s - b->start_spread_s) < 1e-6);
		assert_true(fabs(a->median_rate - b->median_rate) < 1e-6);
		assert_int_equal(a->slowest_rank, b->slowest_rank); /* an index again */
		assert_int_equal(a->fastest_rank, b->fastest_rank);
		assert_true(fabs(a->slowest_vs_median - b->slowest_vs_median) < 1e-6);
	}
	SJ_REFUSED(sb_meta_read, sb_meta_doc_free, d, text, "\"slowest_rank\":5",
		   "\"slowest_rank\":7",
		   "skew.putc.slowest_rank: expected the number of a rank the section's ranks have, "
		   "found 7");
	SJ_REFUSED(sb_meta_read, sb_meta_doc_free, d, text, "\"hostname\":\"node-1\"",
		   "\"hostname\":false", "ranks[1].hostname: expected a string, found a boolean");
	/* every section's rules of a rank's entry (sb_ranks_check), worded as
	 * the report has said them */
	SJ_REFUSED(sb_meta_read, sb_meta_doc_free, d, text, "\"rank\":5,", "",
		   "ranks[1]: a rank's entry without its 'rank'");
	SJ_REFUSED(sb_meta_read, sb_meta_doc_free, d, text, "\"slowest_rank\":5",
		   "\"slowest_rank\":\"x\"",
		   "skew.putc.slowest_rank: expected a rank number from 0, found a string");
	sb_meta_doc_free(d);
	free(text);
	free(d);
	m->ranks = NULL;
	free(rk);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tests_in_order),   cmocka_unit_test(stop_interrupts),
		cmocka_unit_test(no_run_directory), cmocka_unit_test(section_reads_back),
		cmocka_unit_test(ranks_read_back),  cmocka_unit_test(runs_one_after_another),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
