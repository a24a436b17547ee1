/* needs: none */
/*
 * storbench pts as a library call, without the program: sb_pts_run on a
 * new file in a temporary directory, with hooks that record what they are
 * told. The measurements come in order (the preconditioning passes, then
 * each round's cells, the round told after its last cell) until steady
 * state; a stop ends the run interrupted with the cells measured kept; a
 * failed measurement ends it with its words, told as it happens; the
 * library's own runner measures the file when the program gives none. The
 * section written reads back (sb_pts_read) as the run filled it, and a
 * section with a wrong type, a negative count or a missing key is refused
 * by key path.
 */
#include "tests/unit/section-json.h"
#include "lib/pts/pts.h"
#include "lib/target/jobtarget.h"

#include <math.h>

#define MIB (1ull << 20)

struct step {
	int precondition;
	unsigned step, nsteps, later;
	uint32_t bs;
	unsigned rounds; /* the part's whole rounds when it came */
};

struct rec {
	struct step steps[64];
	unsigned nsteps;
	unsigned rounds[16], nrounds; /* the round each round event told */
	char said[4][160];
	unsigned nsaid;
	unsigned stop_after; /* measurements; 0: never */
	unsigned fail_at;    /* 1 + the measurement that fails; 0: none */
	double iops;	     /* what each measurement returns */
};

static int on_stop(void *ctx)
{
	const struct rec *r = ctx;
	return r->stop_after && r->nsteps >= r->stop_after;
}

static int on_measure(void *ctx, const struct sb_pts_step *s, const struct sb_job_opts *job,
		      struct sb_pts_fig *f, struct sb_error *err)
{
	struct rec *r = ctx;
	assert_true(r->nsteps < 64);
	r->steps[r->nsteps++] = (struct step){ s->precondition, s->step, s->nsteps,
					       s->later,	job->bs, s->part->nrounds };
	if (r->fail_at && r->nsteps == r->fail_at)
		return sb_error_set(err, -EIO, SB_ERR_FAIL, "%s: write error at offset 0",
				    job->name);
	f->iops = r->iops + r->nsteps % 3; /* within the window's 20% */
	f->write_iops = f->iops;
	f->write_bw = f->iops * job->bs;
	f->bw = f->write_bw;
	f->lat_mean_ns = 1e9 / f->iops;
	f->lat_max_ns = 2 * f->lat_mean_ns;
	f->bytes_written = (uint64_t)f->write_bw / 10;
	return 0;
}

static void on_round(void *ctx, const struct sb_pts_part *p)
{
	struct rec *r = ctx;
	assert_true(r->nrounds < 16);
	r->rounds[r->nrounds++] = p->nrounds;
}

static void on_error(void *ctx, const char *msg)
{
	struct rec *r = ctx;
	assert_true(r->nsaid < 4);
	snprintf(r->said[r->nsaid++], sizeof(r->said[0]), "%s", msg);
}

struct target {
	struct sb_jobtarget t;
	struct sb_pts_opts o;
	struct sb_pts_result r;
	char path[4096];
};

/* A new file of 8 MiB, planned for IOPS at 4k and 64k, 0/100 and 100/0. */
static void target(struct target *x, const char *name)
{
	struct sb_error er;
	struct sb_job_opts j;
	char msg[256];
	memset(x, 0, sizeof(*x));
	snprintf(x->path, sizeof(x->path), "%s", sbt_path(name));
	sb_job_opts_default(&j);
	j.rw = SB_RW_WRITE;
	j.size = 8 * MIB;
	x->t.destroy_data = 1;
	if (sb_jobtarget_prepare(&x->t, x->path, &j, 0, 0, &er))
		fail_msg("cannot make '%s': %s", x->path, er.msg);
	sb_pts_opts_default(&x->o);
	x->o.bs[0] = 4u << 10;
	x->o.bs[1] = 64u << 10;
	x->o.nbs = 2;
	x->o.mix[0] = 100;
	x->o.mix[1] = 0;
	x->o.nmix = 2;
	x->o.max_rounds = 8;
	x->o.precondition = 2;
	x->o.round_ns = 20000000;
	x->o.iodepth = 1;
	x->o.purge = SB_PURGE_NONE;
	x->o.seed = 5;
	x->o.t = &x->t;
	x->o.path = x->path;
	assert_int_equal(sb_pts_plan(&x->r, &x->o, 8 * MIB, 512, "write back", msg, sizeof(msg)),
			 0);
	assert_int_equal(x->r.nparts, 1);
	assert_int_equal(x->r.parts[0].ncells, 4);
}

static int run(struct target *x, struct rec *rec, struct sb_error *err)
{
	const struct sb_pts_hooks h = { .ctx = rec,
					.stop = on_stop,
					.measure = on_measure,
					.round = on_round,
					.error = on_error };
	return sb_pts_run(&x->o, &h, NULL, &x->r, err);
}

static void done(struct target *x)
{
	sb_pts_result_free(&x->r);
	sb_jobtarget_cleanup(&x->t, 0);
	free(x);
}

static void events_in_order(void **state)
{
	struct target *x = calloc(1, sizeof(*x));
	struct rec rec = { .iops = 1000 };
	struct sb_error err;
	(void)state;
	target(x, "steady.bin");
	assert_int_equal(run(x, &rec, &err), 0);
	/* two preconditioning passes of 128 KiB writes, then 5 rounds of 4
	 * cells: steady at the fifth */
	assert_int_equal(rec.nsteps, 2 + 5 * 4);
	for (unsigned i = 0; i < 2; i++) {
		assert_true(rec.steps[i].precondition);
		assert_int_equal(rec.steps[i].step, i + 1);
		assert_int_equal(rec.steps[i].nsteps, 2);
		assert_int_equal(rec.steps[i].bs, 128u << 10);
	}
	for (unsigned i = 2; i < rec.nsteps; i++) {
		const struct step *s = &rec.steps[i];
		const unsigned round = (i - 2) / 4, cell = (i - 2) % 4;
		assert_false(s->precondition);
		assert_int_equal(s->step, round + 1);
		assert_int_equal(s->nsteps, 8);
		assert_int_equal(s->rounds, round); /* the round event came before */
		assert_int_equal(s->later, (4 - cell - 1) + (8 - round - 1) * 4);
		assert_int_equal(s->bs,
				 cell % 2 ? 4u << 10 : 64u << 10); /* bs inner, largest first */
	}
	assert_int_equal(rec.nrounds, 5);
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(rec.rounds[i], i + 1);
	assert_int_equal(rec.nsaid, 0);
	/* what the run did */
	const struct sb_pts_part *p = &x->r.parts[0];
	assert_false(x->r.interrupted);
	assert_true(x->r.steady);
	assert_true(p->started && p->finished);
	assert_int_equal(p->nrounds, 5);
	assert_int_equal(p->partial_cells, 0);
	assert_true(p->ss.reached);
	assert_int_equal(p->ss.first, 1);
	assert_int_equal(p->ss.last, 5);
	assert_int_equal(p->purge_used, SB_PURGE_NONE);
	assert_true(p->precondition_bytes > 0);
	assert_true(p->tracked[0] >= 1000 && p->tracked[0] < 1003);
	assert_false(x->r.devcache.changed);
	done(x);
}

static void stop_keeps_the_cells(void **state)
{
	struct target *x = calloc(1, sizeof(*x));
	struct rec rec = { .iops = 1000, .stop_after = 2 + 4 + 3 };
	struct sb_error err;
	(void)state;
	target(x, "stopped.bin");
	assert_int_equal(run(x, &rec, &err), -EINTR);
	assert_int_equal(err.cls, SB_ERR_STOPPED);
	assert_int_equal(rec.nsteps, 2 + 4 + 3);
	assert_int_equal(rec.nrounds, 1);
	const struct sb_pts_part *p = &x->r.parts[0];
	assert_true(x->r.interrupted);
	assert_false(x->r.steady); /* rounds, no steady state */
	assert_false(p->finished);
	assert_int_equal(p->nrounds, 1);
	assert_int_equal(p->partial_cells, 3);
	assert_true(p->fig[4 + 2].iops > 0); /* the third cell of round 2 */
	/* stopped before the first measurement: nothing measured, no round */
	done(x);
	x = calloc(1, sizeof(*x));
	rec = (struct rec){ .iops = 1000, .stop_after = 1, .nsteps = 1 }; /* asked at once */
	target(x, "at-once.bin");
	assert_int_equal(run(x, &rec, &err), -EINTR);
	assert_int_equal(rec.nsteps, 1);
	assert_true(x->r.interrupted);
	assert_int_equal(x->r.parts[0].nrounds, 0);
	done(x);
}

static void failure_is_said(void **state)
{
	struct target *x = calloc(1, sizeof(*x));
	struct rec rec = { .iops = 1000, .fail_at = 2 + 2 };
	struct sb_error err;
	(void)state;
	target(x, "failed.bin");
	assert_int_equal(run(x, &rec, &err), -EIO);
	assert_int_equal(err.cls, SB_ERR_FAIL);
	assert_int_equal(rec.nsaid, 1);
	assert_string_equal(rec.said[0], err.msg);
	assert_non_null(strstr(err.msg, ": write error at offset 0"));
	assert_int_equal(rec.nsteps, 4);
	assert_false(x->r.interrupted);
	assert_int_equal(x->r.parts[0].nrounds, 0);
	assert_int_equal(x->r.parts[0].partial_cells, 2); /* what it measured, the failed one */
	/* nothing planned, or under more than one process: refused */
	done(x);
	x = calloc(1, sizeof(*x));
	target(x, "unplanned.bin");
	sb_pts_result_free(&x->r);
	memset(&x->r, 0, sizeof(x->r));
	assert_int_equal(sb_pts_run(&x->o, NULL, NULL, &x->r, &err), -EINVAL);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	done(x);
}

/* Without the program's runner: the library measures the file itself. */
static void library_runner(void **state)
{
	struct target *x = calloc(1, sizeof(*x));
	struct sb_error err;
	(void)state;
	target(x, "lib.bin");
	x->o.precondition = 1;
	x->o.max_rounds = 1;
	/* a cell long enough to hold requests on a loaded machine under
	 * qemu-user (20 ms measured none in the armhf cross stage) */
	x->o.round_ns = 250000000;
	sb_pts_result_free(&x->r);
	char msg[256];
	assert_int_equal(sb_pts_plan(&x->r, &x->o, 8 * MIB, 512, "", msg, sizeof(msg)), 0);
	assert_int_equal(sb_pts_run(&x->o, NULL, NULL, &x->r, &err), 0);
	const struct sb_pts_part *p = &x->r.parts[0];
	assert_int_equal(p->nrounds, 1);
	assert_true(p->finished);
	assert_false(x->r.steady); /* one round: no steady state */
	assert_int_equal(p->precondition_bytes, 8 * MIB);
	for (unsigned c = 0; c < p->ncells; c++)
		assert_true(p->fig[c].iops > 0);
	assert_int_equal(p->fig[0].bytes_written, 0); /* 100/0 at 64k reads */
	assert_true(p->fig[3].bytes_written > 0);     /* 0/100 at 4k writes */
	done(x);
}

static void same(double a, double b)
{
	if (isnan(b))
		assert_true(isnan(a));
	else
		assert_true(fabs(a - b) <= 1e-6 * fabs(b) + 1e-6);
}

static void same_fig(const struct sb_pts_fig *a, const struct sb_pts_fig *b)
{
	same(a->iops, b->iops);
	same(a->read_iops, b->read_iops);
	same(a->write_iops, b->write_iops);
	same(a->bw, b->bw);
	same(a->read_bw, b->read_bw);
	same(a->write_bw, b->write_bw);
	same(a->lat_mean_ns, b->lat_mean_ns);
	same(a->lat_max_ns, b->lat_max_ns);
	assert_int_equal(a->bytes_written, b->bytes_written);
}

/* The doc d holds what the run r filled, field by field. */
static void same_result(const struct sb_pts_doc *d, const struct sb_pts_result *r)
{
	const struct sb_pts_result *g = &d->r;
	assert_int_equal(g->o.profile, r->o.profile);
	assert_int_equal(g->o.purge, r->o.purge);
	assert_int_equal(g->o.active_pct, r->o.active_pct);
	assert_int_equal(g->o.precondition, r->o.precondition);
	assert_int_equal(g->o.threads, r->o.threads);
	assert_int_equal(g->o.iodepth, r->o.iodepth);
	assert_int_equal(g->o.round_ns, r->o.round_ns);
	assert_int_equal(g->o.max_rounds, r->o.max_rounds);
	assert_int_equal(g->o.wsat_capacity, r->o.wsat_capacity);
	assert_int_equal(g->o.seed, r->o.seed);
	assert_int_equal(g->device_bytes, r->device_bytes);
	assert_int_equal(g->region_bytes, r->region_bytes);
	assert_string_equal(g->write_cache, r->write_cache);
	assert_string_equal(d->cache_required,
			    r->o.profile == SB_PTS_ENTERPRISE ? "disabled" : "enabled");
	assert_int_equal(g->devcache.changed, r->devcache.changed);
	assert_int_equal(d->pts_result, r->ndeviations == 0);
	assert_int_equal(g->ndeviations, r->ndeviations);
	for (unsigned i = 0; i < r->ndeviations; i++)
		assert_string_equal(g->deviations[i], r->deviations[i]);
	assert_int_equal(g->segs.n, r->segs.n);
	if (r->segs.n) {
		assert_int_equal(g->segs.seg_bytes, r->segs.seg_bytes);
		assert_int_equal(g->segs.align, r->segs.align);
		assert_int_equal(g->segs.seed, r->segs.seed);
		assert_int_equal(d->active_bytes, sb_segments_bytes(&r->segs));
		assert_memory_equal(g->segs.start, r->segs.start, r->segs.n * sizeof(uint64_t));
	}
	unsigned k = 0;
	for (unsigned i = 0; i < r->nparts; i++) {
		const struct sb_pts_part *w = &r->parts[i];
		if (!w->started)
			continue;
		assert_true(k < g->nparts);
		const struct sb_pts_part *p = &g->parts[k];
		const struct sb_pts_doc_part *dp = &d->parts[k++];
		assert_int_equal(p->test, w->test);
		assert_string_equal(p->name, w->name);
		assert_int_equal(p->random, w->random);
		assert_int_equal(p->segmented, w->segmented);
		assert_int_equal(p->threads, w->threads);
		assert_int_equal(p->iodepth, w->iodepth);
		assert_int_equal(p->purge_used, w->purge_used);
		assert_string_equal(p->purge_how, w->purge_how);
		assert_int_equal(p->precondition_bytes, w->precondition_bytes);
		assert_int_equal(p->nmix, w->nmix);
		assert_memory_equal(p->mixes, w->mixes, w->nmix * sizeof(w->mixes[0]));
		assert_int_equal(p->nbs, w->nbs);
		assert_memory_equal(p->bss, w->bss, w->nbs * sizeof(w->bss[0]));
		assert_int_equal(p->ncells, w->ncells);
		assert_memory_equal(p->cells, w->cells, w->ncells * sizeof(w->cells[0]));
		assert_int_equal(p->track_cell, w->track_cell);
		assert_int_equal(p->track, w->track);
		assert_int_equal(p->finished, w->finished);
		assert_int_equal(p->written, w->written);
		assert_int_equal(p->nrounds, w->nrounds);
		assert_int_equal(p->partial_cells, w->partial_cells);
		uint64_t total = 0;
		for (unsigned n = 0; n < w->nrounds; n++) {
			same(p->tracked[n], w->tracked[n]);
			for (unsigned c = 0; c < w->ncells; c++)
				total += w->fig[n * w->ncells + c].bytes_written;
			assert_int_equal(dp->written_total[n], total);
		}
		for (unsigned c = 0; c < w->nrounds * w->ncells + w->partial_cells; c++)
			same_fig(&p->fig[c], &w->fig[c]);
		assert_int_equal(dp->has_window, w->nrounds > 0 && w->test != SB_PTS_WSAT);
		if (!dp->has_window) {
			assert_null(dp->avg);
			continue;
		}
		assert_int_equal(p->ss.reached, w->ss.reached);
		assert_int_equal(p->ss.first, w->ss.first);
		assert_int_equal(p->ss.last, w->ss.last);
		same(p->ss.average, w->ss.average);
		same(p->ss.data_excursion, w->ss.data_excursion);
		same(p->ss.data_allowed, w->ss.data_allowed);
		same(p->ss.slope_excursion, w->ss.slope_excursion);
		same(p->ss.slope_allowed, w->ss.slope_allowed);
		same(p->ss.slope, w->ss.slope);
		same(p->ss.intercept, w->ss.intercept);
		assert_non_null(dp->avg);
		for (unsigned c = 0; c < w->ncells; c++) {
			struct sb_pts_fig avg;
			sb_pts_window_average(w, c, &avg);
			same_fig(&dp->avg[c], &avg);
		}
	}
	assert_int_equal(g->nparts, k);
}

static void read_ok(struct sb_jdoc *jd, struct sb_pts_doc *d)
{
	struct sb_error err;
	memset(&err, 0, sizeof(err));
	if (sb_pts_read(sb_jdoc_root(jd), d, &err))
		fail_msg("refused: %s", err.msg);
}

static void reads_back(void **state)
{
	struct target *x = calloc(1, sizeof(*x));
	struct sb_pts_doc *d = calloc(1, sizeof(*d));
	struct rec rec = { .iops = 1000 };
	struct sb_error err;
	(void)state;
	target(x, "back.bin");
	assert_int_equal(run(x, &rec, &err), 0);
	/* what only a device run fills: the purge's command, the cache switched */
	snprintf(x->r.parts[0].purge_how, sizeof(x->r.parts[0].purge_how), "BLKDISCARD");
	x->r.parts[0].purge_used = SB_PURGE_DISCARD;
	x->r.devcache.command = "NVMe Set Features 06h";
	x->r.devcache.before = x->r.devcache.changed = x->r.devcache.restored = 1;
	char *text = SJ_SECTION("pts", sb_results_pts, &x->r);
	struct sb_jdoc *jd = sj_parse(text);
	read_ok(jd, d);
	same_result(d, &x->r);
	assert_string_equal(d->r.devcache.command, "NVMe Set Features 06h");
	assert_true(d->r.devcache.before && d->r.devcache.restored);
	sb_pts_doc_free(d);
	sb_jdoc_free(jd);

	/* refused by key path: a wrong type, a negative count, a missing
	 * key, a cell off the matrix, a window past the rounds */
	SJ_REFUSED(sb_pts_read, sb_pts_doc_free, d, text, "\"threads\":1", "\"threads\":\"1\"",
		   "conditions.threads: expected a whole number from 0 to 1024, found '1'");
	SJ_REFUSED(sb_pts_read, sb_pts_doc_free, d, text,
		   "\"precondition_bytes\":", "\"precondition_bytes\":-1,\"was\":",
		   "tests[0].precondition_bytes: expected a whole number from 0 to 1e18, found -1");
	SJ_REFUSED(sb_pts_read, sb_pts_doc_free, d, text, "\"finished\":true,", "",
		   "tests[0].finished: expected a boolean, found nothing");
	SJ_REFUSED(sb_pts_read, sb_pts_doc_free, d, text, "{\"read_pct\":100,\"bs\":65536,\"iops\"",
		   "{\"read_pct\":100,\"bs\":4096,\"iops\"",
		   "tests[0].rounds[0].cells[0].bs: expected the matrix's block size here, found "
		   "4096");
	SJ_REFUSED(sb_pts_read, sb_pts_doc_free, d, text, "\"window\":[1,5]", "\"window\":[1,6]",
		   "tests[0].steady_state.window: expected the first and last rounds of the "
		   "window, found an array");
	SJ_REFUSED(sb_pts_read, sb_pts_doc_free, d, text, "\"profile\":\"enterprise\"",
		   "\"profile\":\"home\"", "profile: expected client or enterprise, found 'home'");
	free(text);

	/* a run stopped within a round: its partial round reads back */
	rec = (struct rec){ .iops = 1000, .stop_after = 2 + 4 + 3 };
	done(x);
	x = calloc(1, sizeof(*x));
	target(x, "partial.bin");
	assert_int_equal(run(x, &rec, &err), -EINTR);
	text = SJ_SECTION("pts", sb_results_pts, &x->r);
	jd = sj_parse(text);
	read_ok(jd, d);
	same_result(d, &x->r);
	assert_int_equal(d->r.parts[0].partial_cells, 3);
	sb_pts_doc_free(d);
	sb_jdoc_free(jd);
	free(text);
	/* the client profile's segments */
	done(x);
	x = calloc(1, sizeof(*x));
	target(x, "client.bin");
	sb_pts_result_free(&x->r);
	x->o.profile = SB_PTS_CLIENT;
	x->o.ar_amount = 8 * MIB; /* 2048 segments of 4k, 4k apart: a plan of 64 MiB */
	x->o.bs[0] = 4u << 10;
	x->o.nbs = 1;
	x->o.mix[0] = 0;
	x->o.nmix = 1;
	char msg[256];
	if (sb_pts_plan(&x->r, &x->o, 64 * MIB, 512, "", msg, sizeof(msg)))
		fail_msg("%s", msg);
	assert_true(x->r.segs.n > 0);
	rec = (struct rec){ .iops = 1000 };
	assert_int_equal(run(x, &rec, &err), 0);
	text = SJ_SECTION("pts", sb_results_pts, &x->r);
	jd = sj_parse(text);
	read_ok(jd, d);
	same_result(d, &x->r);
	sb_pts_doc_free(d);
	sb_jdoc_free(jd);
	free(text);
	done(x);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(events_in_order), cmocka_unit_test(stop_keeps_the_cells),
		cmocka_unit_test(failure_is_said), cmocka_unit_test(library_runner),
		cmocka_unit_test(reads_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
