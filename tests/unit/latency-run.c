/* needs: none */
/*
 * storbench latency as a library call, without the program: sb_latency_run
 * on a file made in a temporary directory, with hooks that record what
 * they are told. The probe begins once, before the first request, and
 * each request comes in order with the warm-up first; a stop ends the
 * probe interrupted with the requests before it kept; a target that
 * cannot be opened as asked is said. The section written reads back
 * (sb_latency_read) as the run filled it, and a section with a wrong
 * type, a negative count, a missing key or requests out of order is
 * refused by key path.
 */
#include "tests/unit/section-json.h"
#include "lib/latency/lat_run.h"
#include "lib/job/job.h"
#include "lib/target/jobtarget.h"

#include <math.h>

struct rec {
	int begun;
	uint64_t n[64];
	int warm[64];
	size_t nreq;
	size_t stop_after; /* 0: never */
};

static int on_stop(void *ctx)
{
	const struct rec *r = ctx;
	return r->stop_after && r->nreq >= r->stop_after;
}

static void on_begin(void *ctx, const struct sb_lat_run *lr)
{
	struct rec *r = ctx;
	assert_int_equal(r->nreq, 0);
	assert_true(lr->p.fd >= 0);
	r->begun++;
}

static void on_request(void *ctx, const struct sb_lat_run *lr, const struct sb_probe_req *q)
{
	struct rec *r = ctx;
	assert_true(r->begun);
	assert_true(r->nreq < SB_ARRAY_SIZE(r->n));
	assert_int_equal(lr->nrec, q->n); /* in the log already */
	r->n[r->nreq] = q->n;
	r->warm[r->nreq++] = q->warmup;
}

/* A 1 MiB file made in the temporary directory, prepared for reading. */
static void target(struct sb_jobtarget *t)
{
	struct sb_job_opts job;
	struct sb_error er;
	memset(t, 0, sizeof(*t));
	sb_job_opts_default(&job);
	job.rw = SB_RW_READ;
	job.size = 1 << 20;
	job.bs = 4096;
	job.direct = 0;
	if (sb_jobtarget_prepare(t, sbt_tmpdir(), &job, 1, 0, &er))
		fail_msg("the target: %s", er.msg);
}

static void opts(struct sb_latency_opts *o, const struct sb_jobtarget *t)
{
	memset(o, 0, sizeof(*o));
	o->preset = SB_LAT_IOPING;
	o->path = "dir";
	o->target = t;
	/* direct where the filesystem has it: a buffered probe drops the
	 * cache first, system-wide as root */
	o->direct = t->info.direct_ok != 0;
	o->p = (struct sb_probe_params){ .offset = t->region_offset,
					 .size = t->region_size,
					 .bs = 4096,
					 .pattern = SB_PROBE_RANDOM,
					 .count = 20,
					 .warmup = 1,
					 .seed = 7 };
}

/* o run with the recording hooks into lr (zeroed here): what it returned */
static int probe(struct rec *rec, const struct sb_latency_opts *o, struct sb_lat_run *lr,
		 struct sb_error *err)
{
	const struct sb_latency_hooks h = { rec, on_stop, on_begin, on_request, NULL };
	memset(lr, 0, sizeof(*lr));
	return sb_latency_run(o, &h, NULL, lr, err);
}

static void requests_in_order(void **state)
{
	struct sb_jobtarget t;
	struct sb_latency_opts o;
	struct sb_lat_run lr;
	struct sb_error err;
	struct rec rec = { 0 };
	(void)state;
	target(&t);
	opts(&o, &t);
	assert_int_equal(probe(&rec, &o, &lr, &err), 0);
	assert_int_equal(rec.begun, 1);
	assert_int_equal(rec.nreq, 20);
	for (size_t i = 0; i < rec.nreq; i++) {
		assert_int_equal(rec.n[i], i + 1);
		assert_int_equal(rec.warm[i], i == 0);
	}
	assert_int_equal(lr.st.count, 20);
	assert_int_equal(lr.st.valid, 19);
	assert_int_equal(lr.nrec, 20);
	assert_false(lr.interrupted);
	assert_int_equal(lr.failed, 0);
	assert_int_equal(lr.p.fd, -1); /* closed */
	for (size_t i = 0; i < lr.nrec; i++) {
		assert_int_equal(lr.rec[i].offset % 4096, 0);
		assert_true(lr.rec[i].offset < t.region_offset + t.region_size);
	}
	sb_latency_result_free(&lr);
	sb_jobtarget_cleanup(&t, 0);
}

static void stop_interrupts(void **state)
{
	struct sb_jobtarget t;
	struct sb_latency_opts o;
	struct sb_lat_run lr;
	struct sb_error err;
	struct rec rec = { .stop_after = 5 };
	(void)state;
	target(&t);
	opts(&o, &t);
	assert_int_equal(probe(&rec, &o, &lr, &err), 0);
	assert_true(lr.interrupted);
	assert_int_equal(lr.st.count, 5);
	assert_int_equal(lr.nrec, 5);
	sb_latency_result_free(&lr);
	sb_jobtarget_cleanup(&t, 0);
}

/* A target that is no longer there: said, and nothing runs. */
static void open_refused(void **state)
{
	struct sb_jobtarget t;
	struct sb_latency_opts o;
	struct sb_lat_run lr;
	struct sb_error err;
	struct rec rec = { 0 };
	char want[600], gone[512];
	(void)state;
	memset(&t, 0, sizeof(t));
	snprintf(gone, sizeof(gone), "%s", sbt_path("gone"));
	t.paths[0] = gone; /* none held open: opened by its name */
	t.npaths = 1;
	t.region_size = 1 << 20;
	opts(&o, &t);
	o.direct = 0;
	assert_int_equal(probe(&rec, &o, &lr, &err), -ENOENT);
	snprintf(want, sizeof(want), "cannot open '%s': %s", gone, strerror(ENOENT));
	assert_string_equal(err.msg, want);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	assert_int_equal(rec.begun, 0);
	assert_int_equal(lr.st.count, 0);
	sb_latency_result_free(&lr);
}

/* ---- the section both ways ---- */

static struct sb_latency_doc *round_trip(struct sb_lat_run *lr, char **text)
{
	struct sb_results *res = sb_results_create("latency");
	struct sb_latency_doc *d = calloc(1, sizeof(*d));
	struct sb_error err;
	assert_non_null(res);
	assert_non_null(d);
	assert_int_equal(sb_results_latency(res, lr), 0);
	*text = sj_write(res);
	struct sb_jdoc *jd = sj_parse(*text);
	if (sb_latency_read(sb_jdoc_root(jd), d, &err))
		fail_msg("refused: %s", err.msg);
	sb_jdoc_free(jd);
	sb_results_free(res);
	return d;
}

static void same_run(struct sb_lat_run *a, const struct sb_latency_doc *d)
{
	const struct sb_lat_run *b = &d->lr;
	assert_int_equal(a->preset, b->preset);
	assert_int_equal(a->p.pattern, b->p.pattern);
	assert_int_equal(a->p.write, b->p.write);
	assert_int_equal(a->p.bs, b->p.bs);
	assert_int_equal(a->direct, b->direct);
	assert_int_equal(a->dsync, b->dsync);
	assert_int_equal(a->p.offset, b->p.offset);
	assert_int_equal(a->p.size, b->p.size);
	assert_int_equal(a->p.interval_ns, b->p.interval_ns);
	assert_int_equal(a->p.warmup, b->p.warmup);
	assert_int_equal(a->interrupted, b->interrupted);
	assert_int_equal(a->st.count, b->st.count);
	assert_int_equal(a->st.valid, b->st.valid);
	assert_int_equal(a->st.sum_ns, b->st.sum_ns);
	assert_int_equal(a->st.wall_ns, b->st.wall_ns);
	assert_int_equal(sb_ioping_min(&a->st), d->min_ns);
	assert_int_equal(sb_ioping_max(&a->st), d->max_ns);
	assert_true(fabs(sb_ioping_iops(&a->st) - d->iops) <= 1e-6 * d->iops + 1e-6);
	assert_true(fabs(sb_ioping_avg(&a->st) - d->avg_ns) <= 1e-6);
	for (int i = 0; i < SB_LAT_NPCTS && a->st.valid; i++)
		assert_true(d->pct[i] == (double)sb_ioping_percentile(&a->st, sb_lat_pcts[i]));
	assert_string_equal(d->cache, sb_lat_cache_name(a));
	assert_int_equal(a->nrec, b->nrec);
	for (size_t i = 0; i < a->nrec; i++) {
		assert_int_equal(a->rec[i].offset, b->rec[i].offset);
		assert_int_equal(a->rec[i].ns, b->rec[i].ns);
		assert_int_equal(a->rec[i].warmup, b->rec[i].warmup);
	}
	assert_int_equal(a->rec_truncated, b->rec_truncated);
}

static void section_reads_back(void **state)
{
	struct sb_jobtarget t;
	struct sb_latency_opts o;
	struct sb_lat_run lr;
	struct sb_error err;
	char *text;
	(void)state;
	target(&t);
	opts(&o, &t);
	o.p.interval_ns = 1000;
	memset(&lr, 0, sizeof(lr));
	assert_int_equal(sb_latency_run(&o, NULL, NULL, &lr, &err), 0);
	struct sb_latency_doc *d = round_trip(&lr, &text);
	same_run(&lr, d);
	SJ_REFUSED(sb_latency_read, sb_latency_doc_free, d, text, "\"preset\":\"ioping\"",
		   "\"preset\":\"iping\"",
		   "preset: expected ioping, dd-sync, hdparm or hdparm-cache, found 'iping'");
	SJ_REFUSED(sb_latency_read, sb_latency_doc_free, d, text, "\"valid\":19", "\"valid\":-1",
		   "valid: expected a whole number from 0 to 20, found -1");
	SJ_REFUSED(sb_latency_read, sb_latency_doc_free, d, text, "\"log\":[", "\"logs\":[",
		   "log: expected an array, found nothing");
	SJ_REFUSED(sb_latency_read, sb_latency_doc_free, d, text, "{\"n\":2,", "{\"n\":3,",
		   "log[1].n: expected the request's number (1, 2, ...), found 3");
	SJ_REFUSED(sb_latency_read, sb_latency_doc_free, d, text,
		   "\"direct\":", "\"direct\":1,\"x\":", "direct: expected a boolean, found 1");
	sb_latency_doc_free(d);
	free(d);
	free(text);
	sb_latency_result_free(&lr);
	sb_jobtarget_cleanup(&t, 0);
}

/* dd's figures, made by hand: its line and what it says read back. */
static void dd_reads_back(void **state)
{
	struct sb_lat_run lr;
	char *text, line[512];
	(void)state;
	memset(&lr, 0, sizeof(lr));
	lr.preset = SB_LAT_DD_SYNC;
	lr.p = (struct sb_probe_params){
		.size = 1 << 20, .bs = 512, .write = 1, .pattern = SB_PROBE_SEQ
	};
	lr.direct = lr.dsync = 1;
	sb_ioping_init(&lr.st, 512);
	for (int i = 0; i < 1000; i++)
		sb_ioping_add(&lr.st, 100000 + (uint64_t)i, 1);
	sb_ioping_set_wall(&lr.st, 123456789);
	lr.interrupted = 1;
	struct sb_latency_doc *d = round_trip(&lr, &text);
	same_run(&lr, d);
	sb_lat_dd_lines(&lr, line, sizeof(line));
	assert_string_equal(d->line, strrchr(line, '\n') + 1);
	assert_int_equal(d->bytes, 1000 * 512);
	assert_true(fabs(d->seconds - 0.123456789) < 1e-6);
	SJ_REFUSED(sb_latency_read, sb_latency_doc_free, d, text, "\"dd\":{", "\"hdparm\":{",
		   "dd: expected an object, found nothing");
	sb_latency_doc_free(d);
	free(d);
	free(text);
	sb_latency_result_free(&lr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(requests_in_order), cmocka_unit_test(stop_interrupts),
		cmocka_unit_test(open_refused),	     cmocka_unit_test(section_reads_back),
		cmocka_unit_test(dd_reads_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
