/* needs: none */
/*
 * storbench cliff as a library call, without the program: sb_cliff_run on
 * a new file in a temporary directory, with hooks that record what they
 * are told. The steps come in order (the idle before, then the fill, whose
 * samples follow), the purge of a file punches a hole in its region, a
 * purge a file cannot take is refused before anything is written, a stop
 * ends the run interrupted (in the idle time: nothing measured; in the
 * fill: what it wrote kept). The section written reads back
 * (sb_cliff_read) as the run filled it, and a section with a wrong type, a
 * negative count or a missing key is refused by key path.
 */
#include "tests/unit/section-json.h"
#include "lib/cliff/cliff.h"
#include "lib/engine/engine.h"
#include "lib/target/jobtarget.h"

#include <math.h>

#define MIB (1ull << 20)

struct rec {
	int kinds[8], nkinds; /* steps told: 1 + kind */
	uint64_t idle_ns;
	unsigned samples, idle_samples;
	unsigned busy; /* samples after the first byte was written */
	uint64_t last_bytes;
	int bytes_back;	     /* a sample's bytes below the one before */
	unsigned stop_after; /* samples with bytes written; 0: never */
	int stop_now;	     /* stop at once (the idle before) */
};

static int on_stop(void *ctx)
{
	const struct rec *r = ctx;
	/* counted from the first byte: on a loaded machine the writer may not
	 * have written anything by the third sample */
	return r->stop_now || (r->stop_after && r->busy >= r->stop_after);
}

static void on_progress(void *ctx, const struct sb_cliff_progress *p)
{
	struct rec *r = ctx;
	assert_int_equal(p->phase, 0); /* no recovery asked */
	r->idle_samples += p->idle;
	r->bytes_back |= p->bytes < r->last_bytes;
	r->last_bytes = p->bytes;
	r->samples++;
	r->busy += p->bytes > 0;
	assert_true(r->nkinds > 0 && r->kinds[r->nkinds - 1] == 1 + SB_CLIFF_FILL);
}

static void on_step(void *ctx, enum sb_cliff_step_kind k, uint64_t ns)
{
	struct rec *r = ctx;
	assert_true(r->nkinds < 8);
	r->kinds[r->nkinds++] = 1 + (int)k;
	if (k == SB_CLIFF_IDLE_BEFORE)
		r->idle_ns = ns;
}

struct target {
	struct sb_jobtarget t;
	struct sb_cliff_opts o;
	char path[4096];
};

/* A new file of size bytes, written at 64 MiB/s in 1 MiB requests. */
static void target(struct target *x, const char *name, uint64_t size)
{
	struct sb_error er;
	memset(x, 0, sizeof(*x));
	snprintf(x->path, sizeof(x->path), "%s", sbt_path(name));
	struct sb_job_opts *j = &x->o.job;
	sb_job_opts_default(j);
	snprintf(j->name, sizeof(j->name), "cliff fill");
	j->rw = SB_RW_WRITE;
	j->bs = 1u << 20;
	j->iodepth = 1;
	j->direct = 1;
	j->end_fsync = 0;
	j->size = size;
	j->rate_bps = 64 * MIB;
	x->t.destroy_data = 1;
	if (sb_jobtarget_prepare(&x->t, x->path, j, 0, 0, &er))
		fail_msg("cannot make '%s': %s", x->path, er.msg);
	if (x->t.direct_fallback)
		j->direct = 0;
	j->size = x->t.region_size;
	x->o.t = &x->t;
	x->o.path = x->path;
	x->o.ops = sb_engine_find("psync");
	x->o.purge = SB_PURGE_NONE;
	assert_non_null(x->o.ops);
}

static int run(struct target *x, struct rec *rec, struct sb_cliff_result *r, struct sb_error *err)
{
	const struct sb_cliff_hooks h = { rec, on_stop, on_progress, on_step };
	memset(r, 0, sizeof(*r));
	memset(err, 0, sizeof(*err));
	return sb_cliff_run(&x->o, &h, NULL, r, err);
}

static struct sb_cliff_result res;

static void steps_in_order(void **state)
{
	struct target *x = calloc(1, sizeof(*x));
	struct rec rec = { 0 };
	struct sb_error err;
	(void)state;
	target(x, "fill.bin", 16 * MIB);
	x->o.purge = SB_PURGE_DISCARD;
	x->o.idle_before_ns = 150000000;
	assert_int_equal(run(x, &rec, &res, &err), 0);
	assert_int_equal(rec.nkinds, 2);
	assert_int_equal(rec.kinds[0], 1 + SB_CLIFF_IDLE_BEFORE);
	assert_int_equal(rec.kinds[1], 1 + SB_CLIFF_FILL);
	assert_int_equal(rec.idle_ns, 150000000);
	assert_true(rec.samples >= 2);
	assert_int_equal(rec.idle_samples, 0);
	assert_false(rec.bytes_back);
	/* what ran */
	assert_true(res.measured);
	assert_false(res.interrupted);
	assert_string_equal(res.purge, "discard");
	assert_string_equal(res.purge_method, "FALLOC_FL_PUNCH_HOLE");
	assert_int_equal(res.purge_bytes, 16 * MIB);
	assert_int_equal(res.idle_before_ns, 150000000);
	assert_int_equal(res.region_size, 16 * MIB);
	assert_int_equal(res.job.bs, 1u << 20);
	/* the whole region written at a steady rate, sampled from the fill's
	 * start (not the idle time's) */
	assert_int_equal(res.find.total_bytes, 16 * MIB);
	assert_true(res.find.total_ns > 0.1e9 && res.find.total_ns < 60e9);
	assert_true(res.find.nbins >= 1 && res.bw[0] > 0);
	assert_int_equal(res.jr->dir[SB_DDIR_WRITE].bytes, 16 * MIB);
	assert_false(res.jr->interrupted);
	assert_true(!strcmp(res.stop_reason, "region end") || !strcmp(res.stop_reason, "stable"));
	assert_int_equal(res.nrecovery, 0);
	sb_cliff_result_free(&res);
	assert_null(res.jr);
	sb_jobtarget_cleanup(&x->t, 0);
	free(x);
}

static void stop_in_the_fill(void **state)
{
	struct target *x = calloc(1, sizeof(*x));
	struct rec rec = { .stop_after = 3 };
	struct sb_error err;
	(void)state;
	target(x, "stop.bin", 256 * MIB); /* 4 s at the rate: stopped long before */
	x->o.nrecovery = 1;
	x->o.recovery_ns[0] = 1000000000;
	assert_int_equal(run(x, &rec, &res, &err), -EINTR);
	assert_int_equal(err.cls, SB_ERR_STOPPED);
	assert_string_equal(err.msg, "");
	assert_true(res.measured && res.interrupted && res.jr->interrupted);
	assert_string_equal(res.stop_reason, "interrupted");
	assert_int_equal(rec.busy, 3);
	assert_true(res.find.total_bytes > 0 && res.find.total_bytes < 256 * MIB);
	assert_int_equal(res.nrecovery, 0); /* none after a stop */
	sb_cliff_result_free(&res);
	sb_jobtarget_cleanup(&x->t, 0);
	free(x);
}

static void stop_in_the_idle_before(void **state)
{
	struct target *x = calloc(1, sizeof(*x));
	struct rec rec = { .stop_now = 1 };
	struct sb_error err;
	(void)state;
	target(x, "idle.bin", 4 * MIB);
	x->o.idle_before_ns = 3600ull * 1000000000ull; /* an hour: the stop ends it */
	assert_int_equal(run(x, &rec, &res, &err), -EINTR);
	assert_int_equal(err.cls, SB_ERR_STOPPED);
	assert_true(res.interrupted);
	assert_false(res.measured);
	assert_null(res.jr);
	assert_int_equal(rec.nkinds, 1); /* the fill never began */
	assert_int_equal(rec.samples, 0);
	sb_cliff_result_free(&res);
	sb_jobtarget_cleanup(&x->t, 0);
	free(x);
}

static void purge_refused(void **state)
{
	struct target *x = calloc(1, sizeof(*x));
	struct rec rec = { 0 };
	struct sb_error err;
	char want[4352];
	(void)state;
	target(x, "refused.bin", 4 * MIB);
	x->o.purge = SB_PURGE_SANITIZE;
	assert_int_equal(run(x, &rec, &res, &err), -EINVAL);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	snprintf(want, sizeof(want),
		 "--purge=sanitize: '%s' is not a block device (a file takes "
		 "--purge=discard: a hole punched in its region)",
		 x->path);
	assert_string_equal(err.msg, want);
	assert_false(res.measured);
	assert_int_equal(rec.nkinds, 0);
	sb_cliff_result_free(&res);
	sb_jobtarget_cleanup(&x->t, 0);
	free(x);
}

/* A result with everything a section can hold: a drop, steps, recoveries. */
static void made_up(struct sb_cliff_result *r)
{
	memset(r, 0, sizeof(*r));
	sb_job_opts_default(&r->job);
	r->job.rw = SB_RW_RANDWRITE;
	r->job.bs = 128 << 10;
	r->job.iodepth = 8;
	r->job.direct = 1;
	r->region_offset = 4 * MIB;
	r->region_size = 64ull << 30;
	r->purge = "sanitize";
	snprintf(r->purge_method, sizeof(r->purge_method), "NVMe Sanitize block erase, SANACT 2");
	r->purge_bytes = 64ull << 30;
	r->idle_before_ns = 300000000000ull;
	r->measured = 1;
	r->stop_reason = "stable";
	struct sb_cliff_find *f = &r->find;
	f->found = 1;
	f->cache_bytes = 12ull << 30;
	f->cache_ns = 30e9;
	f->before_bw = 400.5 * MIB;
	f->after_bw = 95.25 * MIB;
	f->nsteps = 2;
	f->steps[0] = (struct sb_cliff_step){ 20ull << 30, 120e9, 95.25 * MIB, 60 * MIB };
	f->steps[1] = (struct sb_cliff_step){ 30ull << 30, 300e9, 60 * MIB, 80 * MIB };
	f->avg_bw = 150.125 * MIB;
	f->total_bytes = 40ull << 30;
	f->total_ns = 500e9;
	f->nbins = 5;
	f->bin_bytes = 8ull << 30;
	f->last_bytes = 8ull << 30;
	for (size_t i = 0; i < f->nbins; i++)
		r->bw[i] = (double)(500 - 90 * i) * MIB;
	r->bw[3] = NAN; /* written null */
	r->nrecovery = 2;
	r->recovery[0] = (struct sb_cliff_recovery){ 60e9, 3ull << 30, 9e9, 2ull << 30,
						     0.5,  390 * MIB,  0,   0 };
	r->recovery[1] = (struct sb_cliff_recovery){ 300e9, 15ull << 30, 40e9, 12ull << 30,
						     1.0,   401 * MIB,	 1,    0 };
	assert_non_null(r->jr = sb_job_result_create());
}

static void same_rate(double a, double b)
{
	if (isnan(b))
		assert_true(isnan(a));
	else
		assert_true(fabs(a - b) <= 1e-6 * fabs(b) + 1e-6);
}

static void reads_back(void **state)
{
	struct sb_cliff_doc *d = calloc(1, sizeof(*d));
	struct sb_error err;
	(void)state;
	made_up(&res);
	char *text = SJ_SECTION("cliff", sb_results_cliff, &res);
	assert_null(res.jr); /* taken */
	struct sb_jdoc *jd = sj_parse(text);
	assert_int_equal(sb_cliff_read(sb_jdoc_root(jd), d, &err), 0);
	const struct sb_cliff_result *r = &d->r;
	assert_int_equal(r->job.rw, res.job.rw);
	assert_int_equal(r->job.bs, res.job.bs);
	assert_int_equal(r->job.iodepth, res.job.iodepth);
	assert_int_equal(r->job.direct, res.job.direct);
	assert_int_equal(r->region_offset, res.region_offset);
	assert_int_equal(r->region_size, res.region_size);
	assert_string_equal(r->purge, res.purge);
	assert_string_equal(r->purge_method, res.purge_method);
	assert_int_equal(r->purge_bytes, res.purge_bytes);
	assert_int_equal(r->idle_before_ns, res.idle_before_ns);
	assert_string_equal(r->stop_reason, res.stop_reason);
	assert_int_equal(r->interrupted, res.interrupted);
	assert_int_equal(d->sample_interval_ns, SB_CLIFF_SAMPLE_NS);
	same_rate(d->min_step, SB_CLIFF_MIN_STEP);
	const struct sb_cliff_find *f = &r->find, *w = &res.find;
	assert_int_equal(f->found, 1);
	assert_int_equal(f->cache_bytes, w->cache_bytes);
	same_rate(f->cache_ns, w->cache_ns);
	same_rate(f->before_bw, w->before_bw);
	same_rate(f->after_bw, w->after_bw);
	same_rate(f->avg_bw, w->avg_bw);
	assert_int_equal(f->total_bytes, w->total_bytes);
	same_rate(f->total_ns, w->total_ns);
	assert_int_equal(f->nsteps, w->nsteps);
	for (size_t i = 0; i < f->nsteps; i++) {
		assert_int_equal(f->steps[i].at_bytes, w->steps[i].at_bytes);
		same_rate(f->steps[i].at_ns, w->steps[i].at_ns);
		same_rate(f->steps[i].before_bw, w->steps[i].before_bw);
		same_rate(f->steps[i].after_bw, w->steps[i].after_bw);
	}
	assert_int_equal(f->nbins, w->nbins);
	assert_int_equal(f->bin_bytes, w->bin_bytes);
	assert_int_equal(f->last_bytes, w->last_bytes);
	for (size_t i = 0; i < f->nbins; i++)
		same_rate(r->bw[i], res.bw[i]);
	assert_int_equal(r->nrecovery, res.nrecovery);
	for (unsigned i = 0; i < r->nrecovery; i++) {
		const struct sb_cliff_recovery *a = &r->recovery[i], *b = &res.recovery[i];
		assert_int_equal(a->idle_ns, b->idle_ns);
		assert_int_equal(a->burst_bytes, b->burst_bytes);
		same_rate(a->burst_ns, b->burst_ns);
		assert_int_equal(a->recovered_bytes, b->recovered_bytes);
		same_rate(a->fraction, b->fraction);
		same_rate(a->fast_bw, b->fast_bw);
		assert_int_equal(a->at_least, b->at_least);
		assert_int_equal(a->interrupted, b->interrupted);
	}
	sb_cliff_doc_free(d);
	sb_jdoc_free(jd);
	/* no drop: its figures null */
	res.find.found = 0;
	assert_non_null(res.jr = sb_job_result_create());
	free(text);
	text = SJ_SECTION("cliff", sb_results_cliff, &res);
	jd = sj_parse(text);
	assert_int_equal(sb_cliff_read(sb_jdoc_root(jd), d, &err), 0);
	assert_int_equal(d->r.find.found, 0);
	assert_int_equal(d->r.find.cache_bytes, 0);
	sb_cliff_doc_free(d);
	sb_jdoc_free(jd);
	free(text);
	free(d);
}

static void bad_sections_refused(void **state)
{
	struct sb_cliff_doc *d = calloc(1, sizeof(*d));
	(void)state;
	made_up(&res);
	char *text = SJ_SECTION("cliff", sb_results_cliff, &res);
	SJ_REFUSED(sb_cliff_read, sb_cliff_doc_free, d, text, "\"iodepth\":8", "\"iodepth\":\"8\"",
		   "iodepth: expected a whole number from 0 to 1024, found '8'");
	SJ_REFUSED(sb_cliff_read, sb_cliff_doc_free, d, text, "\"burst_bytes\":3221225472",
		   "\"burst_bytes\":-3",
		   "recovery[0].burst_bytes: expected a whole number from 0 to 1e18, found -3");
	SJ_REFUSED(sb_cliff_read, sb_cliff_doc_free, d, text, "\"time_ns\"", "\"time_nz\"",
		   "time_ns: expected a whole number from 0 to 1e18, found nothing");
	SJ_REFUSED(sb_cliff_read, sb_cliff_doc_free, d, text, "\"at_bytes\":32212254720",
		   "\"at_bytes\":true",
		   "steps[1].at_bytes: expected a whole number from 0 to 1e18, found true");
	SJ_REFUSED(sb_cliff_read, sb_cliff_doc_free, d, text, "\"pattern\":\"randwrite\"",
		   "\"pattern\":\"read\"", "pattern: expected write or randwrite, found 'read'");
	SJ_REFUSED(sb_cliff_read, sb_cliff_doc_free, d, text, "\"bw_bytes\":[", "\"bw_bytes\":[-1,",
		   "series.bw_bytes[0]: expected a number from 0 to 1e+18 or null, found -1");
	SJ_REFUSED(sb_cliff_read, sb_cliff_doc_free, d, text, "\"found\":true", "\"found\":false",
		   "cache_bytes: expected null (no drop found), found 1.28849e+10");
	free(text);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steps_in_order),
		cmocka_unit_test(stop_in_the_fill),
		cmocka_unit_test(stop_in_the_idle_before),
		cmocka_unit_test(purge_refused),
		cmocka_unit_test(reads_back),
		cmocka_unit_test(bad_sections_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
