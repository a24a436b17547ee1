/*
 * The soak's JSON: the log's records and the results' soak section, and
 * reading them back (--resume, the report's chart).
 */
#include "lib/results/soak_json.h"
#include "lib/results/soak_check.h"
#include "lib/verify/verify_range_json.h"
#include "lib/sweep/sweep.h"
#include "lib/target/cache.h"

#include <math.h>

static const char *const lat_keys[3] = { "p50_ns", "p99_ns", "max_ns" };
static const char *const metric_names[2] = { "write_bw", "read_bw" };

static void files_json(struct sb_json *j, const char *const *files, size_t n)
{
	sb_json_arr_open(j, "files");
	for (size_t i = 0; i < n; i++)
		sb_json_str(j, NULL, files[i]);
	sb_json_arr_close(j);
}

void sb_soak_config_record(struct sb_json *j, const struct sb_soak_config *c)
{
	sb_json_obj_open(j, NULL);
	sb_json_str(j, "type", "config");
	sb_json_str(j, "command", "soak");
	sb_json_u64(j, "log_version", SB_SOAK_LOG_VERSION);
	sb_json_str(j, "storbench", sb_version());
	sb_json_u64(j, "started_ns", c->started_ns);
	sb_json_u64(j, "seed", c->seed);
	sb_json_str(j, "target", c->target);
	if (c->nfiles)
		files_json(j, c->files, c->nfiles);
	sb_json_arr_open(j, "argv");
	for (int i = 0; i < c->argc; i++)
		sb_json_str(j, NULL, c->argv[i]);
	sb_json_arr_close(j);
	sb_json_u64(j, "size", c->size);
	sb_json_u64(j, "block_size", c->block_size);
	sb_json_u64(j, "request_size", c->request_size);
	sb_json_str(j, "engine", c->engine);
	sb_json_bool(j, "direct", c->direct);
	sb_json_bool(j, "region_mode", c->region_mode);
	sb_json_str(j, "device", c->device);
	sb_json_str(j, "model", c->model);
	if (c->health_before)
		sb_health_json(j, "health_before", c->health_before);
	if (c->workload)
		sb_json_str(j, "workload", c->workload);
	if (c->ranks > 1) {
		sb_json_u64(j, "ranks", c->ranks);
		if (c->aggregate)
			sb_json_bool(j, "aggregate", 1);
		else
			sb_json_u64(j, "rank", (uint64_t)c->rank);
	}
	sb_json_obj_close(j);
}

static void lat_json(struct sb_json *j, const char *key, const uint64_t lat[3])
{
	sb_json_obj_open(j, key);
	for (int i = 0; i < 3; i++)
		sb_json_u64(j, lat_keys[i], lat[i]);
	sb_json_obj_close(j);
}

static void verify_json(struct sb_json *j, const struct sb_soak_iter *it)
{
	sb_json_obj_open(j, "verify");
	sb_json_u64(j, "blocks_checked", it->blocks);
	for (int c = 0; c < SB_VERIFY_NCLASS; c++)
		sb_json_u64(j, sb_verify_class_name(c), it->count[c]);
	sb_json_arr_open(j, "bad_ranges");
	for (size_t i = 0; i < it->nranges; i++)
		sb_verify_range_json(j, &it->ranges[i], -1);
	sb_json_arr_close(j);
	sb_json_u64(j, "bad_ranges_omitted", it->ranges_omitted);
	sb_json_obj_close(j);
}

/* What names an iozone cell: its test, file size and record size. */
static void cell_json(struct sb_json *j, const struct sb_soak_cell *c)
{
	sb_json_str(j, "test", sb_sweep_test_name(c->test));
	sb_json_u64(j, "file_size", c->file_size);
	sb_json_u64(j, "record_size", c->record_size);
}

/* Kernel lines: when, what kind, about which device, the text. */
static void klines_json(struct sb_json *j, const char *key, const struct sb_soak_kline *l, size_t n)
{
	sb_json_arr_open(j, key);
	for (size_t i = 0; i < n; i++) {
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "time_us", l[i].time_us);
		sb_json_str(j, "category", l[i].category);
		if (l[i].device[0])
			sb_json_str(j, "device", l[i].device);
		sb_json_str(j, "text", l[i].text);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

void sb_soak_iter_json(struct sb_json *j, const struct sb_soak_iter *it)
{
	sb_json_u64(j, "iteration", it->n);
	if (it->generation)
		sb_json_u64(j, "generation", it->generation);
	sb_json_u64(j, "start_ns", it->start_ns);
	sb_json_u64(j, "end_ns", it->end_ns);
	sb_json_double(j, "write_bw_bytes", it->write_bw);
	sb_json_double(j, "read_bw_bytes", it->read_bw);
	if (!it->iozone) {
		lat_json(j, "write_lat", it->wlat);
		lat_json(j, "read_lat", it->rlat);
		verify_json(j, it);
	}
	sb_json_u64(j, "io_errors", it->io_errors);
	if (it->first_errno) {
		sb_json_i64(j, "first_errno", it->first_errno);
		sb_json_u64(j, "first_error_offset", it->first_error_offset);
	}
	if (it->unwritten)
		sb_json_u64(j, "unwritten_blocks", it->unwritten);
	sb_json_str(j, "cache", it->cache > 0 ? sb_cache_method_name(it->cache) : "direct");
	klines_json(j, "kmsg", it->kmsg, it->nkmsg);
	sb_json_u64(j, "kmsg_omitted", it->kmsg_omitted);
	if (it->nkother || it->kother_omitted) {
		klines_json(j, "kmsg_other", it->kother, it->nkother);
		sb_json_u64(j, "kmsg_other_omitted", it->kother_omitted);
	}
	sb_json_bool(j, "interrupted", it->interrupted);
	sb_json_bool(j, "failed", sb_soak_iter_failed(it));
	if (!it->iozone)
		return;
	sb_json_arr_open(j, "cells");
	for (size_t i = 0; i < it->ncells; i++) {
		sb_json_obj_open(j, NULL);
		cell_json(j, &it->cells[i]);
		sb_json_double(j, "kibps", it->cells[i].kibps);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

void sb_soak_start_record(struct sb_json *j, uint64_t n, uint64_t generation,
			  const char *const *files, size_t nfiles)
{
	sb_json_obj_open(j, NULL);
	sb_json_str(j, "type", "start");
	sb_json_u64(j, "iteration", n);
	sb_json_u64(j, "generation", generation);
	files_json(j, files, nfiles);
	sb_json_obj_close(j);
}

void sb_soak_cut_record(struct sb_json *j, uint64_t after, uint64_t generation,
			const char *const *files, size_t nfiles)
{
	sb_json_obj_open(j, NULL);
	sb_json_str(j, "type", "cut");
	sb_json_u64(j, "after_iteration", after);
	sb_json_u64(j, "generation", generation);
	files_json(j, files, nfiles);
	sb_json_obj_close(j);
}

void sb_soak_iter_record(struct sb_json *j, const struct sb_soak_iter *it)
{
	sb_json_obj_open(j, NULL);
	sb_json_str(j, "type", "iteration");
	sb_soak_iter_json(j, it);
	sb_json_obj_close(j);
}

static void metric_members(struct sb_json *j, const struct sb_soak_metric *m)
{
	sb_json_u64(j, "n", m->st.n);
	sb_json_double(j, "median", m->st.median);
	sb_json_double(j, "p5", m->st.p5);
	sb_json_double(j, "p95", m->st.p95);
	sb_json_double(j, "mean", m->st.mean);
	sb_json_double(j, "cv", m->st.cv);
	sb_json_double(j, "min", m->st.min);
	sb_json_double(j, "max", m->st.max);
	sb_json_arr_open(j, "outliers");
	for (size_t i = 0; i < m->noutliers; i++)
		sb_json_u64(j, NULL, m->outliers[i]);
	sb_json_arr_close(j);
	sb_json_u64(j, "outliers_total", m->outliers_total);
	sb_json_arr_open(j, "change_points");
	for (size_t i = 0; i < m->nchanges; i++) {
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "iteration", m->changes[i].at);
		sb_json_double(j, "before", m->changes[i].before);
		sb_json_double(j, "after", m->changes[i].after);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

static void metric_json(struct sb_json *j, const char *key, const struct sb_soak_metric *m)
{
	sb_json_obj_open(j, key);
	metric_members(j, m);
	sb_json_obj_close(j);
}

/* An iozone workload's cells: each one's stability, as a metric's. */
static void cells_json(struct sb_json *j, const struct sb_soak_result *r)
{
	sb_json_arr_open(j, "cells");
	for (size_t i = 0; i < r->ncells; i++) {
		const struct sb_soak_cell_metric *m = &r->cells[i];
		const struct sb_soak_cell c = { m->file_size, m->record_size, m->test, 0 };
		sb_json_obj_open(j, NULL);
		cell_json(j, &c);
		metric_members(j, &m->m);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

/* Kernel lines about devices outside the target's stack: not counted,
 * told by device. */
static void other_devices_json(struct sb_json *j, const struct sb_soak_summary *sum)
{
	sb_json_u64(j, "kmsg_other_lines", sum->kmsg_other_lines);
	sb_json_arr_open(j, "kmsg_other_devices");
	for (size_t i = 0; i < sum->nother; i++) {
		sb_json_obj_open(j, NULL);
		sb_json_str(j, "device", sum->other[i].device);
		sb_json_u64(j, "lines", sum->other[i].lines);
		sb_json_str(j, "first", sum->other[i].first);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

/* The summary's members: the log's last line, the results' soak section. */
static void summary_json(struct sb_json *j, const struct sb_soak_result *r)
{
	const struct sb_soak_summary *sum = r->sum;
	sb_json_u64(j, "iterations", sum->iterations);
	sb_json_u64(j, "failed_iterations", sum->failed);
	sb_json_u64(j, "verify_bad_blocks", sum->verify_bad);
	sb_json_u64(j, "io_errors", sum->io_errors);
	sb_json_u64(j, "kmsg_lines", sum->kmsg_lines);
	sb_json_bool(j, "kmsg_watched", r->kmsg_watched);
	other_devices_json(j, sum);
	sb_json_u64(j, "anomalies", (uint64_t)sum->anomalies);
	if (sum->cut_short)
		sb_json_u64(j, "cut_short_iterations", sum->cut_short);
	sb_json_str(j, "verdict", sb_soak_verdict_name(sum->verdict));
	if (sum->stopped) {
		sb_json_str(j, "stopped_early", sum->reason);
		if (sum->stopped == SB_SOAK_ABORTED)
			sb_json_str(j, "aborted_reason", sum->reason);
		if (sum->resume[0])
			sb_json_str(j, "resume", sum->resume);
	}
	sb_json_obj_open(j, "stability");
	for (int k = 0; k < 2; k++)
		metric_json(j, metric_names[k], &sum->m[k]);
	if (r->cells)
		cells_json(j, r);
	sb_json_obj_close(j);
	if (r->health_before && r->health_after)
		sb_health_pair_json(j, "health", r->health_before, r->health_after);
}

void sb_soak_summary_record(struct sb_json *j, const struct sb_soak_result *r)
{
	sb_json_obj_open(j, NULL);
	sb_json_str(j, "type", "summary");
	summary_json(j, r);
	sb_json_obj_close(j);
}

static void stop_change_members(struct sb_json *j, const struct sb_soak_stop_change *c)
{
	sb_json_u64(j, "after_iteration", c->after_iteration);
	sb_json_u64(j, "iterations_before", c->iterations_before);
	sb_json_u64(j, "duration_ns_before", c->duration_ns_before);
	sb_json_u64(j, "iterations", c->iterations);
	sb_json_u64(j, "duration_ns", c->duration_ns);
}

void sb_soak_resume_record(struct sb_json *j, const struct sb_soak_stop_change *c)
{
	sb_json_obj_open(j, NULL);
	sb_json_str(j, "type", "resume");
	stop_change_members(j, c);
	sb_json_obj_close(j);
}

static void ranks_members(struct sb_json *j, const struct sb_soak_rank *r, unsigned n);

void sb_soak_results_json(struct sb_json *j, const void *ctx)
{
	const struct sb_soak_result *r = ctx;
	summary_json(j, r);
	if (r->stop_change) {
		sb_json_obj_open(j, "stop_change");
		stop_change_members(j, r->stop_change);
		sb_json_obj_close(j);
	}
	sb_json_arr_open(j, "iteration_records");
	for (size_t i = 0; i < r->nit; i++) {
		sb_json_obj_open(j, NULL);
		sb_soak_iter_json(j, &r->it[i]);
		if (r->iter_ranks && r->iter_ranks[i])
			ranks_members(j, r->iter_ranks[i], r->nranks);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

/* The spread of the ranks' starts and ends, and each rank's own
 * iteration in "ranks" (times in seconds from the earliest start). */
static void ranks_members(struct sb_json *j, const struct sb_soak_rank *r, unsigned n)
{
	double t0 = 0, t1 = 0, s0 = 0, e0 = 0;
	for (unsigned i = 0; i < n; i++) {
		t0 = i && t0 < r[i].start_s ? t0 : r[i].start_s;
		t1 = i && t1 > r[i].start_s ? t1 : r[i].start_s;
		s0 = i && s0 < r[i].end_s ? s0 : r[i].end_s;
		e0 = i && e0 > r[i].end_s ? e0 : r[i].end_s;
	}
	sb_json_double(j, "start_spread_s", t1 - t0);
	sb_json_double(j, "end_spread_s", e0 - s0);
	/* --burst: the pauses every rank shared, not in the write's time */
	if (n && r[0].wshared_s > 0)
		sb_json_double(j, "write_shared_pause_s", r[0].wshared_s);
	sb_json_arr_open(j, "ranks");
	for (unsigned i = 0; i < n; i++) {
		const struct sb_soak_rank *k = &r[i];
		sb_json_obj_open(j, NULL);
		sb_json_i64(j, "rank", k->rank);
		sb_json_str(j, "host", k->host);
		sb_json_double(j, "start_s", k->start_s - t0);
		sb_json_double(j, "end_s", k->end_s - t0);
		sb_json_double(j, "write_start_s", k->wstart_s - t0);
		sb_json_double(j, "write_end_s", k->wend_s - t0);
		sb_json_double(j, "check_start_s", k->rstart_s - t0);
		sb_json_double(j, "check_end_s", k->rend_s - t0);
		sb_json_u64(j, "write_bytes", k->write_bytes);
		sb_json_u64(j, "checked_bytes", k->read_bytes);
		if (k->wpause_s > 0)
			sb_json_double(j, "write_pause_s", k->wpause_s);
		sb_soak_iter_json(j, &k->it);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

void sb_soak_iter_record_ranks(struct sb_json *j, const struct sb_soak_iter *all,
			       const struct sb_soak_rank *r, unsigned n)
{
	sb_json_obj_open(j, NULL);
	sb_json_str(j, "type", "iteration");
	sb_soak_iter_json(j, all);
	ranks_members(j, r, n);
	sb_json_obj_close(j);
}

/* ---- reading back ---- */

static void copy_str(char *dst, size_t len, const struct sb_jv *v)
{
	snprintf(dst, len, "%s", sb_jv_str(v) ? sb_jv_str(v) : "");
}

/* An iteration's cells back; those without a known test or with sizes
 * of 0 are left out. 0 or -ENOMEM. */
static int cells_from_json(const struct sb_jv *a, struct sb_soak_iter *it)
{
	const size_t n = sb_jv_len(a);
	if (!sb_jv_is(a, SB_JV_ARR))
		return 0;
	it->iozone = 1;
	if (!n)
		return 0;
	if (!(it->cells = calloc(n, sizeof(*it->cells))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct sb_jv *c = sb_jv_at(a, i);
		struct sb_soak_cell *o = &it->cells[it->ncells];
		const char *t = sb_jv_str(sb_jv_get(c, "test"));
		o->test = t ? sb_sweep_test_by_name(t) : -EINVAL;
		if (o->test < 0 || sb_jv_u64(sb_jv_get(c, "file_size"), &o->file_size) < 0 ||
		    sb_jv_u64(sb_jv_get(c, "record_size"), &o->record_size) < 0 || !o->file_size ||
		    !o->record_size)
			continue;
		o->kibps = sb_jv_num(sb_jv_get(c, "kibps"), NAN);
		it->ncells++;
	}
	return 0;
}

static void kline_from_json(const struct sb_jv *v, struct sb_soak_kline *l)
{
	memset(l, 0, sizeof(*l));
	sb_jv_u64(sb_jv_get(v, "time_us"), &l->time_us);
	copy_str(l->category, sizeof(l->category), sb_jv_get(v, "category"));
	copy_str(l->device, sizeof(l->device), sb_jv_get(v, "device"));
	copy_str(l->text, sizeof(l->text), sb_jv_get(v, "text"));
}

int sb_soak_iter_from_json(const struct sb_jv *v, struct sb_soak_iter *it)
{
	const struct sb_jv *ver = sb_jv_get(v, "verify"), *k = sb_jv_get(v, "kmsg");
	uint64_t x = 0;
	const struct sb_jv *wl = sb_jv_get(v, "write_lat"), *rl = sb_jv_get(v, "read_lat");
	memset(it, 0, sizeof(*it));
	sb_jv_u64(sb_jv_get(v, "iteration"), &it->n);
	sb_jv_u64(sb_jv_get(v, "start_ns"), &it->start_ns);
	sb_jv_u64(sb_jv_get(v, "end_ns"), &it->end_ns);
	it->write_bw = sb_jv_num(sb_jv_get(v, "write_bw_bytes"), 0);
	it->read_bw = sb_jv_num(sb_jv_get(v, "read_bw_bytes"), 0);
	for (int i = 0; i < 3; i++) {
		sb_jv_u64(sb_jv_get(wl, lat_keys[i]), &it->wlat[i]);
		sb_jv_u64(sb_jv_get(rl, lat_keys[i]), &it->rlat[i]);
	}
	sb_jv_u64(sb_jv_get(ver, "blocks_checked"), &it->blocks);
	for (int c = 0; c < SB_VERIFY_NCLASS; c++)
		sb_jv_u64(sb_jv_get(ver, sb_verify_class_name(c)), &it->count[c]);
	sb_jv_u64(sb_jv_get(v, "io_errors"), &it->io_errors);
	sb_jv_u64(sb_jv_get(v, "unwritten_blocks"), &it->unwritten);
	sb_jv_u64(sb_jv_get(v, "generation"), &it->generation);
	/* counted for the verdict, their text kept */
	it->nkmsg = SB_MIN(sb_jv_len(k), (size_t)SB_SOAK_MAX_KMSG);
	for (size_t i = 0; i < it->nkmsg; i++)
		kline_from_json(sb_jv_at(k, i), &it->kmsg[i]);
	sb_jv_u64(sb_jv_get(v, "kmsg_omitted"), &x);
	it->kmsg_omitted = (size_t)x + (sb_jv_len(k) - it->nkmsg);
	/* the other devices' lines, for information */
	const struct sb_jv *ko = sb_jv_get(v, "kmsg_other");
	for (size_t i = 0; i < sb_jv_len(ko); i++) {
		struct sb_soak_kline l;
		kline_from_json(sb_jv_at(ko, i), &l);
		sb_soak_iter_add_other(it, &l);
	}
	x = 0;
	sb_jv_u64(sb_jv_get(v, "kmsg_other_omitted"), &x);
	it->kother_omitted += (size_t)x;
	it->interrupted = sb_jv_bool(sb_jv_get(v, "interrupted"), 0);
	return cells_from_json(sb_jv_get(v, "cells"), it);
}

static int metric_from_json(const struct sb_jv *v, struct sb_soak_metric *m)
{
	const struct sb_jv *out = sb_jv_get(v, "outliers"), *cp = sb_jv_get(v, "change_points");
	uint64_t n = 0, total = 0;
	memset(m, 0, sizeof(*m));
	if (!sb_jv_is(out, SB_JV_ARR) || !sb_jv_is(cp, SB_JV_ARR))
		return -ENOENT;
	sb_jv_u64(sb_jv_get(v, "n"), &n);
	m->st.n = (size_t)n;
	m->st.median = sb_jv_num(sb_jv_get(v, "median"), 0);
	m->st.p5 = sb_jv_num(sb_jv_get(v, "p5"), 0);
	m->st.p95 = sb_jv_num(sb_jv_get(v, "p95"), 0);
	m->st.mean = sb_jv_num(sb_jv_get(v, "mean"), 0);
	m->st.cv = sb_jv_num(sb_jv_get(v, "cv"), 0);
	m->st.min = sb_jv_num(sb_jv_get(v, "min"), 0);
	m->st.max = sb_jv_num(sb_jv_get(v, "max"), 0);
	for (size_t i = 0; i < sb_jv_len(out) && m->noutliers < SB_ANOMALY_MAX_OUTLIERS; i++)
		if (sb_jv_u64(sb_jv_at(out, i), &m->outliers[m->noutliers]) == 0)
			m->noutliers++;
	/* logs written before outliers_total: the list was all of them */
	m->outliers_total = SB_MAX(m->noutliers, sb_jv_len(out));
	if (sb_jv_u64(sb_jv_get(v, "outliers_total"), &total) == 0 && total > m->outliers_total)
		m->outliers_total = (size_t)total;
	for (size_t i = 0; i < sb_jv_len(cp) && m->nchanges < SB_ANOMALY_MAX_CHANGES; i++) {
		const struct sb_jv *c = sb_jv_at(cp, i);
		if (sb_jv_u64(sb_jv_get(c, "iteration"), &m->changes[m->nchanges].at) < 0)
			continue;
		m->changes[m->nchanges].before = sb_jv_num(sb_jv_get(c, "before"), 0);
		m->changes[m->nchanges++].after = sb_jv_num(sb_jv_get(c, "after"), 0);
	}
	return 0;
}

int sb_soak_summary_from_json(const struct sb_jv *v, struct sb_soak_summary *out)
{
	const struct sb_jv *st = sb_jv_get(v, "stability");
	uint64_t x = 0;
	memset(out, 0, sizeof(*out));
	for (int k = 0; k < 2; k++) {
		if (metric_from_json(sb_jv_get(st, metric_names[k]), &out->m[k]) < 0)
			return -ENOENT;
		out->m[k].name = metric_names[k];
		out->anomalies += (int)(out->m[k].outliers_total + out->m[k].nchanges);
	}
	if (sb_jv_u64(sb_jv_get(v, "iterations"), &x) == 0)
		out->iterations = (size_t)x;
	if (sb_jv_u64(sb_jv_get(v, "failed_iterations"), &x) == 0)
		out->failed = (size_t)x;
	sb_jv_u64(sb_jv_get(v, "verify_bad_blocks"), &out->verify_bad);
	sb_jv_u64(sb_jv_get(v, "io_errors"), &out->io_errors);
	sb_jv_u64(sb_jv_get(v, "kmsg_lines"), &out->kmsg_lines);
	sb_jv_u64(sb_jv_get(v, "kmsg_other_lines"), &out->kmsg_other_lines);
	if (sb_jv_u64(sb_jv_get(v, "cut_short_iterations"), &x) == 0)
		out->cut_short = (size_t)x;
	const struct sb_jv *od = sb_jv_get(v, "kmsg_other_devices");
	for (size_t i = 0; i < sb_jv_len(od) && out->nother < SB_SOAK_MAX_OTHER; i++) {
		struct sb_soak_other_device *o = &out->other[out->nother++];
		const struct sb_jv *e = sb_jv_at(od, i);
		copy_str(o->device, sizeof(o->device), sb_jv_get(e, "device"));
		copy_str(o->first, sizeof(o->first), sb_jv_get(e, "first"));
		sb_jv_u64(sb_jv_get(e, "lines"), &o->lines);
	}
	/* the verdict as written (an unknown word is no pass) */
	const int verdict = sb_soak_verdict_by_name(sb_jv_str(sb_jv_get(v, "verdict")));
	out->verdict = verdict < 0 ? SB_SOAK_FAIL : (enum sb_soak_verdict)verdict;
	out->pass = out->verdict == SB_SOAK_PASS;
	const char *why = sb_jv_str(sb_jv_get(v, "stopped_early"));
	if (!why)
		why = sb_jv_str(sb_jv_get(v, "aborted_reason"));
	if (out->verdict == SB_SOAK_INTERRUPTED || out->verdict == SB_SOAK_ABORTED || why) {
		out->stopped = out->verdict == SB_SOAK_INTERRUPTED ? SB_SOAK_INTERRUPTED
			       : out->verdict == SB_SOAK_ABORTED   ? SB_SOAK_ABORTED
			       : sb_jv_get(v, "aborted_reason")	   ? SB_SOAK_ABORTED
								   : SB_SOAK_INTERRUPTED;
		snprintf(out->reason, sizeof(out->reason), "%s", why ? why : "unknown");
		copy_str(out->resume, sizeof(out->resume), sb_jv_get(v, "resume"));
	}
	return 0;
}

static int take_config(const struct sb_jv *v, struct sb_soak_log *log)
{
	const struct sb_jv *av = sb_jv_get(v, "argv");
	const char *type = sb_jv_str(sb_jv_get(v, "type"));
	uint64_t ver = 0;
	if (!type || strcmp(type, "config") || sb_jv_u64(sb_jv_get(v, "log_version"), &ver) < 0 ||
	    ver != SB_SOAK_LOG_VERSION || !sb_jv_is(av, SB_JV_ARR))
		return -EINVAL;
	sb_jv_u64(sb_jv_get(v, "seed"), &log->seed);
	sb_jv_u64(sb_jv_get(v, "started_ns"), &log->started_ns);
	uint64_t x = 0;
	if (sb_jv_u64(sb_jv_get(v, "ranks"), &x) == 0 && x > 1 && x < 1u << 24) {
		log->ranks = (unsigned)x;
		log->aggregate = sb_jv_bool(sb_jv_get(v, "aggregate"), 0);
		if (sb_jv_u64(sb_jv_get(v, "rank"), &x) == 0 && x < log->ranks)
			log->rank = (int)x;
	}
	if (!(log->argv = calloc(sb_jv_len(av) + 1, sizeof(char *))))
		return -ENOMEM;
	for (size_t i = 0; i < sb_jv_len(av); i++) {
		const char *a = sb_jv_str(sb_jv_at(av, i));
		if (!a)
			return -EINVAL;
		if (!(log->argv[log->argc] = strdup(a)))
			return -ENOMEM;
		log->argc++;
	}
	return 0;
}

/* The files a run listed (its configuration, start or cut record): what
 * a resume removes when they prove to be the soak's (once per path). */
static int take_files(const struct sb_jv *v, struct sb_soak_log *log)
{
	const struct sb_jv *files = sb_jv_get(v, "files");
	for (size_t i = 0; i < sb_jv_len(files); i++) {
		const char *path = sb_jv_str(sb_jv_at(files, i));
		size_t k = 0;
		while (k < log->nleft && strcmp(log->left[k].path, path))
			k++;
		if (k < log->nleft)
			continue;
		struct sb_soak_leftover *nv = realloc(log->left, (log->nleft + 1) * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		log->left = nv;
		if (!(nv[log->nleft].path = strdup(path)))
			return -ENOMEM;
		log->nleft++;
	}
	return 0;
}

static int take_iteration(const struct sb_jv *v, struct sb_soak_log *log)
{
	struct sb_soak_iter it;
	int e = sb_soak_iter_from_json(v, &it);
	if (!e)
		e = sb_soak_iter_append(&log->it, &log->nit, &log->capit, &it);
	if (e)
		sb_soak_iter_release(&it);
	return e;
}

/* One whole line (lineno 1-based) into the log. */
static int take_line(const char *line, size_t len, struct sb_soak_log *log)
{
	struct sb_jdoc *d = NULL;
	int e = sb_json_parse(line, len, NULL, &d, NULL);
	if (e < 0) {
		snprintf(log->why, sizeof(log->why), "not JSON");
		return e == -ENOMEM ? e : -EBADMSG;
	}
	const struct sb_jv *v = sb_jdoc_root(d);
	const char *type = sb_jv_str(sb_jv_get(v, "type"));
	const size_t lineno = log->check.line + 1;
	if (sb_soak_check_line(&log->check, v, log->why, sizeof(log->why)) < 0)
		e = lineno == 1 ? -EINVAL : -EBADMSG;
	else if (lineno == 1)
		e = take_config(v, log);
	else if (!strcmp(type, "iteration"))
		e = take_iteration(v, log);
	if (!e && (lineno == 1 || !strcmp(type, "start") || !strcmp(type, "cut")))
		e = take_files(v, log);
	else if (!e && !strcmp(type, "resume")) {
		/* a limit given at an earlier resume replaces the configuration's */
		log->iterations = log->duration_ns = 0;
		sb_jv_u64(sb_jv_get(v, "iterations"), &log->iterations);
		sb_jv_u64(sb_jv_get(v, "duration_ns"), &log->duration_ns);
		log->stop_changed = 1;
	}
	sb_jdoc_free(d);
	return e;
}

int sb_soak_log_parse(const char *text, size_t len, struct sb_soak_log *log)
{
	memset(log, 0, sizeof(*log));
	sb_soak_check_init(&log->check);
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		if (!nl)
			break; /* torn last line */
		size_t ll = (size_t)(nl - (text + at));
		log->line++;
		int e = take_line(text + at, ll, log);
		if (e < 0)
			return e;
		at += ll + 1;
		log->good = at;
	}
	if (!log->line)
		return -ENODATA;
	log->generation = sb_soak_check_used(&log->check);
	return 0;
}

void sb_soak_log_free(struct sb_soak_log *log)
{
	for (size_t i = 0; i < log->nleft; i++)
		free(log->left[i].path);
	free(log->left);
	for (int i = 0; log->argv && i < log->argc; i++)
		free(log->argv[i]);
	free(log->argv);
	sb_soak_iters_free(log->it, log->nit);
	memset(log, 0, sizeof(*log));
}
