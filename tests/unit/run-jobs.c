/* needs: none */
/* storbench run as a library call (lib/run/jobs.h), without the program:
 * a job file of two stonewall groups (two jobs together, then one alone)
 * on a new temporary file, with hooks that record what they are told.
 * The groups' events come in order with the measurements inside them,
 * every job has its result; a stop asked during group 1 ends the run
 * there with group 1's results marked interrupted and group 2 never
 * begun; the JSON written of the results reads back through the typed
 * reader (lib/results/results_read.h) field by field, and bad jobs (a
 * wrong type, a negative count, a missing name) are refused by key path. */
#include "tests/lib/sbtest.h"
#include "lib/storbench.h"

#include <math.h>

struct seen {
	enum sb_run_ev what;
	unsigned step, nsteps, first, njobs;
	int rc;
	char label[128];
};

struct rec {
	struct seen ev[64];
	unsigned nev, looks, errors;
	unsigned group;	  /* the group now (its GROUP_BEGAN's step) */
	unsigned stop_in; /* ask to stop at the first look of this group; 0 never */
	int stopping;
};

static int on_stop(void *ctx)
{
	return ((struct rec *)ctx)->stopping;
}

static void on_event(void *ctx, const struct sb_run_event *ev)
{
	struct rec *r = ctx;
	assert_true(r->nev < SB_ARRAY_SIZE(r->ev));
	struct seen *s = &r->ev[r->nev++];
	s->what = ev->what;
	s->step = ev->step;
	s->nsteps = ev->nsteps;
	s->first = ev->first;
	s->njobs = ev->njobs;
	s->rc = ev->rc;
	snprintf(s->label, sizeof(s->label), "%s", ev->label ? ev->label : "");
	if (ev->what == SB_RUN_GROUP_BEGAN)
		r->group = ev->step;
}

static void on_look(void *ctx, const struct sb_run_look *l)
{
	struct rec *r = ctx;
	r->looks++;
	assert_true(l->njobs >= 1);
	assert_true(l->pct >= 0 && l->pct <= 100);
	if (r->stop_in && r->group == r->stop_in)
		r->stopping = 1;
}

static void on_say(void *ctx, enum sb_say kind, const char *msg)
{
	struct rec *r = ctx;
	if (kind == SB_SAY_ERROR) {
		r->errors++;
		print_message("said: %s\n", msg);
	}
}

/* Group 1: a writer and a reader together, each on its part of the file,
 * for ms each (time_based); group 2: a read of the file's first MiB. */
static struct sb_jobfile *two_groups(unsigned ms)
{
	char text[512], msg[256];
	struct sb_jobfile *jf = NULL;
	const int n = snprintf(text, sizeof(text),
			       "[global]\nioengine=psync\nbs=4k\nsize=1m\n"
			       "[w]\nrw=write\ntime_based\nruntime=%ums\n"
			       "[r]\nrw=randread\noffset=1m\ntime_based\nruntime=%ums\n"
			       "[later]\nstonewall\nrw=read\n",
			       ms, ms);
	if (sb_jobfile_parse(text, (size_t)n, NULL, &jf, msg, sizeof(msg)) < 0)
		fail_msg("job file: %s", msg);
	assert_int_equal(jf->njobs, 3);
	return jf;
}

struct job_set {
	struct sb_job_opts opts[3];
	const struct sb_engine_ops *ops[3];
};

/* What the program does before the run: each job checked, its engine. */
static void checked(const struct sb_jobfile *jf, struct job_set *js)
{
	char msg[256];
	for (unsigned i = 0; i < jf->njobs; i++) {
		struct sb_engine_pick pk;
		struct sb_error er;
		js->opts[i] = jf->jobs[i].opts;
		js->opts[i].seed = 42 + i;
		if (sb_job_check(&js->opts[i], msg, sizeof(msg)) < 0)
			fail_msg("job %u: %s", i, msg);
		assert_int_equal(sb_engine_choose(js->opts[i].engine, js->opts[i].iodepth, &pk,
						  &er),
				 0);
		js->ops[i] = pk.ops;
		snprintf(js->opts[i].engine, sizeof(js->opts[i].engine), "%s", pk.ops->name);
	}
}

static int run(const struct sb_jobfile *jf, const char *target, struct rec *r,
	       struct sb_run_result *out)
{
	struct job_set js;
	struct sb_error err;
	checked(jf, &js);
	const struct sb_run_jobs_opts o = { .njobs = jf->njobs,
					    .jobs = js.opts,
					    .ops = js.ops,
					    .jf = jf,
					    .job_file = "two.fio",
					    .target = target,
					    .repeat = 1 };
	const struct sb_run_hooks h = {
		.ctx = r, .stop = on_stop, .event = on_event, .look = on_look, .say = on_say
	};
	const int e = sb_run_jobs(&o, &h, NULL, out, &err);
	if (e)
		print_message("sb_run_jobs: %s\n", err.msg);
	return e;
}

static void expect_event(const struct rec *r, unsigned i, enum sb_run_ev what, unsigned step,
			 unsigned first, unsigned njobs)
{
	assert_true(i < r->nev);
	assert_int_equal(r->ev[i].what, what);
	assert_int_equal(r->ev[i].step, step);
	assert_int_equal(r->ev[i].nsteps, 2);
	if (what == SB_RUN_GROUP_BEGAN || what == SB_RUN_GROUP_ENDED) {
		assert_int_equal(r->ev[i].first, first);
		assert_int_equal(r->ev[i].njobs, njobs);
	}
}

static uint64_t moved(const struct sb_job_result *j)
{
	return j->dir[SB_DDIR_READ].bytes + j->dir[SB_DDIR_WRITE].bytes;
}

static void groups_in_order(void **state)
{
	(void)state;
	struct sb_jobfile *jf = two_groups(300);
	struct rec r = { 0 };
	struct sb_run_result out;
	assert_int_equal(run(jf, sbt_path("groups.bin"), &r, &out), 0);
	/* each group: began, its measurement, ended */
	assert_int_equal(r.nev, 8);
	expect_event(&r, 0, SB_RUN_GROUP_BEGAN, 1, 0, 2);
	expect_event(&r, 1, SB_RUN_MEASURE_BEGAN, 1, 0, 2);
	assert_string_equal(r.ev[1].label, "w + r");
	expect_event(&r, 2, SB_RUN_MEASURE_ENDED, 1, 0, 2);
	expect_event(&r, 3, SB_RUN_GROUP_ENDED, 1, 0, 2);
	assert_int_equal(r.ev[3].rc, 0);
	expect_event(&r, 4, SB_RUN_GROUP_BEGAN, 2, 2, 1);
	expect_event(&r, 5, SB_RUN_MEASURE_BEGAN, 2, 2, 1);
	assert_string_equal(r.ev[5].label, "later");
	expect_event(&r, 6, SB_RUN_MEASURE_ENDED, 2, 2, 1);
	expect_event(&r, 7, SB_RUN_GROUP_ENDED, 2, 2, 1);
	assert_true(r.looks >= 2); /* group 1 ran 300 ms: a look every 50 */
	assert_int_equal(r.errors, 0);
	/* the results: every job's, in the file's order */
	assert_int_equal(out.status, SB_RUN_OK);
	assert_true(out.write);
	assert_false(out.interrupted);
	assert_non_null(out.res);
	assert_int_equal(out.res->njobs, 3);
	assert_string_equal(out.res->job_file, "two.fio");
	assert_string_equal(out.res->jobs[0]->name, "w");
	assert_string_equal(out.res->jobs[1]->name, "r");
	assert_string_equal(out.res->jobs[2]->name, "later");
	assert_true(out.res->jobs[0]->dir[SB_DDIR_WRITE].bytes > 0);
	assert_true(out.res->jobs[1]->dir[SB_DDIR_READ].ios > 0);
	assert_int_equal(out.res->jobs[2]->dir[SB_DDIR_READ].bytes, 1u << 20);
	for (size_t i = 0; i < out.res->njobs; i++) {
		assert_false(out.res->jobs[i]->interrupted);
		assert_int_equal(out.res->jobs[i]->errors, 0);
		assert_true(out.res->jobs[i]->fio_opts.len > 0); /* its options as written */
	}
	/* group 2 started after group 1 ended */
	assert_true(out.res->jobs[2]->start_unix_ns >=
		    out.res->jobs[0]->start_unix_ns + out.res->jobs[0]->runtime_ns);
	sb_run_result_free(&out);
	sb_jobfile_free(jf);
}

static void stop_in_group_one(void **state)
{
	(void)state;
	struct sb_jobfile *jf = two_groups(30000);
	struct rec r = { .stop_in = 1 };
	struct sb_run_result out;
	const uint64_t t0 = sb_now_ns();
	assert_int_equal(run(jf, sbt_path("stop.bin"), &r, &out), 0);
	assert_true(sb_now_ns() - t0 < 20000000000ull); /* not the 30 s asked for */
	assert_true(out.interrupted);
	assert_non_null(out.res);
	assert_true(out.res->interrupted);
	/* group 1's jobs ran and were stopped; group 2 never began */
	assert_int_equal(out.res->njobs, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_true(out.res->jobs[i]->interrupted);
		assert_true(moved(out.res->jobs[i]) > 0);
	}
	for (unsigned i = 0; i < r.nev; i++)
		assert_int_equal(r.ev[i].step, 1);
	assert_int_equal(r.ev[r.nev - 1].what, SB_RUN_GROUP_ENDED);
	sb_run_result_free(&out);
	sb_jobfile_free(jf);
}

/* ---- the reader ---- */

static struct sb_jdoc *written(const struct sb_results *res)
{
	char *text = NULL;
	size_t len = 0;
	struct sb_jdoc *doc = NULL;
	struct sb_json_error je;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(sb_results_write_json(res, f), 0);
	fclose(f);
	if (sb_json_parse(text, len, NULL, &doc, &je) < 0)
		fail_msg("the JSON written: %s", je.msg);
	free(text);
	return doc;
}

static void same_lat(const struct sb_lat_doc *l, const struct sb_hist *h)
{
	assert_int_equal(l->n, h->count);
	if (!h->count)
		return;
	assert_true(l->min == (double)h->min && l->max == (double)h->max);
	assert_true(fabs(l->mean - sb_hist_mean(h)) <= 1e-6 * sb_hist_mean(h) + 1e-9);
	assert_int_equal(l->npct, sb_npercentiles);
	for (unsigned i = 0; i < l->npct; i++) {
		assert_true(fabs(l->pct[i] - sb_percentiles[i]) < 1e-6);
		assert_true(l->val[i] == (double)sb_hist_percentile(h, sb_percentiles[i]));
	}
}

static void same_job(const struct sb_job_doc *x, const struct sb_job_result *jr)
{
	assert_string_equal(x->name, jr->name);
	assert_true(x->have_sb);
	assert_true(x->runtime_ns == (double)jr->runtime_ns);
	assert_int_equal(x->errors, jr->errors);
	assert_int_equal(x->interrupted, jr->interrupted);
	assert_string_equal(x->engine, jr->engine);
	assert_int_equal(x->iodepth, jr->opts.iodepth);
	assert_int_equal(x->numjobs, jr->opts.numjobs);
	assert_int_equal(x->direct, jr->opts.direct);
	assert_string_equal(x->opts.rw, sb_rw_name(jr->opts.rw));
	assert_true(x->log_interval_ns == (double)jr->series.interval_ns);
	for (int d = 0; d < SB_DDIR_N; d++) {
		const struct sb_dir_doc *o = &x->dir[d];
		assert_true(o->present);
		assert_int_equal(o->bytes, jr->dir[d].bytes);
		assert_int_equal(o->ios, jr->dir[d].ios);
		assert_true(fabs(o->bw_bytes - sb_dir_bw(jr, d)) <= 0.5);
		assert_true(fabs(o->iops - sb_dir_iops(jr, d)) <= 1e-6 * sb_dir_iops(jr, d) + 1e-9);
		same_lat(&o->lat, &jr->dir[d].lat);
		same_lat(&o->clat, &jr->dir[d].clat);
		same_lat(&o->slat, &jr->dir[d].slat);
		struct sb_rate_stats io;
		sb_series_rate_stats(&jr->series, d, 1, &io);
		assert_true(o->iops_min == (double)llround(io.min));
		assert_true(o->iops_max == (double)llround(io.max));
	}
	assert_false(x->mixed.present);
	assert_int_equal(x->sync_ios, jr->sync_lat.count);
	same_lat(&x->sync_lat, &jr->sync_lat);
	assert_int_equal(x->first_error.present, jr->first_error.err != 0);
	if (jr->first_error.err) {
		assert_int_equal(x->first_error.ddir, jr->first_error.ddir);
		assert_int_equal(x->first_error.offset, jr->first_error.offset);
		assert_int_equal(x->first_error.length, jr->first_error.len);
		assert_true(x->first_error.err == jr->first_error.err);
	}
	/* the series, interval by interval */
	assert_int_equal(sb_jv_len(x->series), jr->series.n);
	for (size_t i = 0; i < jr->series.n; i++) {
		struct sb_interval_doc iv;
		struct sb_error er;
		assert_int_equal(sb_interval_read(sb_jv_at(x->series, i), "", &iv, &er), 0);
		assert_true(iv.t_ns == (double)jr->series.v[i].t_ns);
		for (int d = 0; d < SB_DDIR_N; d++) {
			assert_int_equal(iv.has[d], jr->series.v[i].ios[d] > 0);
			assert_int_equal(iv.bytes[d], jr->series.v[i].bytes[d]);
			assert_int_equal(iv.ios[d], jr->series.v[i].ios[d]);
		}
	}
}

static void reads_back(void **state)
{
	(void)state;
	struct sb_jobfile *jf = two_groups(200);
	struct rec r = { 0 };
	struct sb_run_result out;
	assert_int_equal(run(jf, sbt_path("back.bin"), &r, &out), 0);
	struct sb_jdoc *doc = written(out.res);
	const struct sb_jv *root = sb_jdoc_root(doc), *jobs = sb_jv_get(root, "jobs");
	assert_int_equal(sb_jv_len(jobs), out.res->njobs);
	for (size_t i = 0; i < out.res->njobs; i++) {
		struct sb_job_doc x;
		struct sb_error er;
		if (sb_job_read(sb_jv_at(jobs, i), sb_jv_get(root, "global options"), "jobs[0]", &x,
				&er) < 0)
			fail_msg("%s", er.msg);
		same_job(&x, out.res->jobs[i]);
	}
	/* the document's own section */
	struct sb_results_doc h;
	struct sb_error er;
	const struct sb_results *res = out.res;
	assert_int_equal(sb_results_head_read(sb_jv_get(root, "storbench"), "storbench", &h, &er),
			 0);
	assert_string_equal(h.command, "run");
	assert_string_equal(h.job_file, "two.fio");
	assert_string_equal(h.version, sb_version());
	assert_int_equal(h.interrupted, res->interrupted);
	assert_string_equal(h.host.hostname, res->host.hostname);
	assert_int_equal(h.host.cpus, res->host.ncpus);
	assert_int_equal(h.host.mem_total, res->host.mem_total);
	assert_string_equal(h.target.path, res->target_path);
	assert_string_equal(h.target.kind, "new file");
	assert_int_equal(h.target.created, res->target_created);
	assert_null(h.state.name);
	assert_int_equal(sb_jv_len(h.warnings), res->nwarnings);
	for (size_t i = 0; i < res->nwarnings; i++)
		assert_string_equal(sb_jv_str(sb_jv_at(h.warnings, i)), res->warnings[i]);
	sb_jdoc_free(doc);
	sb_run_result_free(&out);
	sb_jobfile_free(jf);
}

/* A job's JSON, refused by key path. */
static void refused(const char *json, const char *path)
{
	struct sb_jdoc *doc = NULL;
	struct sb_job_doc x;
	struct sb_error er;
	assert_int_equal(sb_json_parse(json, strlen(json), NULL, &doc, NULL), 0);
	assert_true(sb_job_read(sb_jdoc_root(doc), NULL, "jobs[3]", &x, &er) < 0);
	assert_int_equal(er.cls, SB_ERR_INPUT);
	if (strncmp(er.msg, path, strlen(path)) || er.msg[strlen(path)] != ':')
		fail_msg("'%s' does not name %s", er.msg, path);
	sb_jdoc_free(doc);
}

static void bad_jobs(void **state)
{
	(void)state;
	refused("{\"jobname\": \"a\", \"read\": {\"io_bytes\": \"many\"}}",
		"jobs[3].read.io_bytes");
	refused("{\"jobname\": \"a\", \"write\": {\"total_ios\": -5}}", "jobs[3].write.total_ios");
	refused("{\"jobname\": \"a\", \"read\": {\"lat_ns\": {\"percentile\": {\"99.0\": -1}}}}",
		"jobs[3].read.lat_ns.percentile.99.0");
	refused("{\"read\": {}}", "jobs[3].jobname");
	refused("{\"jobname\": 7}", "jobs[3].jobname");
	refused("{\"jobname\": \"a\", \"storbench\": {\"errors\": 1e300}}",
		"jobs[3].storbench.errors");
	refused("{\"jobname\": \"a\", \"storbench\": {\"conditions\": {\"direct\": \"yes\"}}}",
		"jobs[3].storbench.conditions.direct");
	refused("{\"jobname\": \"a\", \"job options\": {\"bs\": 4096}}", "jobs[3].job options.bs");
	refused("{\"jobname\": \"All clients\", \"storbench\": {\"skew\": {\"slowest_rank\": 1.5}}}",
		"jobs[3].storbench.skew.slowest_rank");
	/* what the writer writes beyond what is drawn is read and checked too */
	refused("{\"jobname\": \"a\", \"read\": {\"slat_ns\": {\"min\": -1}}}",
		"jobs[3].read.slat_ns.min");
	refused("{\"jobname\": \"a\", \"write\": {\"iops_min\": \"x\"}}", "jobs[3].write.iops_min");
	refused("{\"jobname\": \"a\", \"trim\": {\"iops_max\": -3}}", "jobs[3].trim.iops_max");
	refused("{\"jobname\": \"a\", \"sync\": {\"total_ios\": -1}}", "jobs[3].sync.total_ios");
	refused("{\"jobname\": \"a\", \"sync\": {\"lat_ns\": {\"percentile\": {\"50.0\": -2}}}}",
		"jobs[3].sync.lat_ns.percentile.50.0");
	refused("{\"jobname\": \"a\", \"sync\": 4}", "jobs[3].sync");
	refused("{\"jobname\": \"a\", \"mixed\": {\"total_ios\": \"x\"}}",
		"jobs[3].mixed.total_ios");
	refused("{\"jobname\": \"a\", \"storbench\": {\"first_error\": {\"offset\": -5}}}",
		"jobs[3].storbench.first_error.offset");
	refused("{\"jobname\": \"a\", \"storbench\": {\"first_error\": {\"length\": \"x\"}}}",
		"jobs[3].storbench.first_error.length");
	/* the document's own section, and a summary row */
	struct sb_results_doc h;
	struct sb_summary_doc row;
	const char *head[][2] = {
		{ "{\"target\": {\"kind\": 3}}", "storbench.target.kind" },
		{ "{\"host\": {\"cpus\": -2}}", "storbench.host.cpus" },
		{ "{\"warnings\": [\"a\", 4]}", "storbench.warnings[1]" },
		{ "{\"state\": {\"written_bytes\": \"x\"}}", "storbench.state.written_bytes" },
	};
	for (size_t i = 0; i < SB_ARRAY_SIZE(head); i++) {
		struct sb_jdoc *hd = NULL;
		struct sb_error he;
		assert_int_equal(sb_json_parse(head[i][0], strlen(head[i][0]), NULL, &hd, NULL), 0);
		assert_true(sb_results_head_read(sb_jdoc_root(hd), "storbench", &h, &he) < 0);
		if (strncmp(he.msg, head[i][1], strlen(head[i][1])))
			fail_msg("'%s' does not name %s", he.msg, head[i][1]);
		sb_jdoc_free(hd);
	}
	const char *r = "{\"test\": \"SEQ1M Q8T1\", \"direction\": \"write\", \"runs\": 3, "
			"\"bw_bytes_median\": 5e8}";
	struct sb_jdoc *rd = NULL;
	struct sb_error re;
	assert_int_equal(sb_json_parse(r, strlen(r), NULL, &rd, NULL), 0);
	assert_int_equal(sb_summary_read(sb_jdoc_root(rd), "summary[0]", &row, &re), 0);
	assert_string_equal(row.test, "SEQ1M Q8T1");
	assert_int_equal(row.ddir, SB_DDIR_WRITE);
	assert_true(row.runs == 3 && row.bw_median == 5e8 && isnan(row.iops_median));
	sb_jdoc_free(rd);
	/* null: a figure there is none of, read as not written */
	struct sb_jdoc *doc = NULL;
	struct sb_job_doc x;
	struct sb_error er;
	const char *ok = "{\"jobname\": \"a\", \"read\": {\"io_bytes\": null, \"io_kbytes\": 2}}";
	assert_int_equal(sb_json_parse(ok, strlen(ok), NULL, &doc, NULL), 0);
	assert_int_equal(sb_job_read(sb_jdoc_root(doc), NULL, "", &x, &er), 0);
	assert_int_equal(x.dir[SB_DDIR_READ].bytes, 0);
	assert_int_equal(x.dir[SB_DDIR_READ].kbytes, 2);
	assert_true(isnan(x.dir[SB_DDIR_READ].bw_bytes));
	assert_false(x.dir[SB_DDIR_WRITE].present);
	assert_int_equal(x.rank, -1);
	assert_int_equal(x.direct, -1);
	assert_false(x.first_error.present);
	sb_jdoc_free(doc);
	/* a job's first failed request, as the writer writes it */
	const char *fe = "{\"jobname\": \"a\", \"storbench\": {\"first_error\": {\"direction\": "
			 "\"write\", \"offset\": 8192, \"length\": 4096, \"errno\": 5, "
			 "\"error\": \"Input/output error\"}}}";
	assert_int_equal(sb_json_parse(fe, strlen(fe), NULL, &doc, NULL), 0);
	assert_int_equal(sb_job_read(sb_jdoc_root(doc), NULL, "", &x, &er), 0);
	assert_true(x.first_error.present);
	assert_int_equal(x.first_error.ddir, SB_DDIR_WRITE);
	assert_int_equal(x.first_error.offset, 8192);
	assert_int_equal(x.first_error.length, 4096);
	assert_true(x.first_error.err == 5);
	assert_string_equal(x.first_error.error, "Input/output error");
	sb_jdoc_free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(groups_in_order),
		cmocka_unit_test(stop_in_group_one),
		cmocka_unit_test(reads_back),
		cmocka_unit_test(bad_jobs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
