/*
 * The soak's JSON: the log's records and the results' soak section. They
 * are read back by soak_read.c.
 */
#include "lib/soak/soak_json.h"
#include "lib/soak/soak_check.h"
#include "lib/base/units.h"
#include "lib/results/results.h"
#include "lib/verify/verify_range_json.h"
#include "lib/sweep/sweep.h"
#include "lib/target/cache.h"

#include <math.h>


static void files_json(struct sb_json *j, const char *const *files, size_t n)
{
	sb_json_arr_open(j, "files");
	for (size_t i = 0; i < n; i++)
		sb_json_str(j, NULL, files[i]);
	sb_json_arr_close(j);
}

/* What the soak was asked, the configuration line's and a summary's. */
static void settings_members(struct sb_json *j, const struct sb_soak_settings *s)
{
	sb_json_u64(j, "size", s->size);
	sb_json_u64(j, "block_size", s->block_size);
	sb_json_u64(j, "request_size", s->request_size);
	if (s->stop_known) {
		sb_json_u64(j, "iterations", s->iterations);
		sb_json_u64(j, "duration_ns", s->duration_ns);
	} else { /* an older log's configuration: not told */
		sb_json_null(j, "iterations");
		sb_json_null(j, "duration_ns");
	}
	sb_json_u64(j, "idle_ns", s->idle_ns);
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
	settings_members(j, &c->set);
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
		sb_json_u64(j, sb_soak_lat_keys[i], lat[i]);
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

/* A metric's members: the soak's own (judged NULL: every figure), or an
 * analysis of what was read (the figures when there are values, outliers
 * and change points null where too few values judge them, each change's
 * step). */
static void metric_members(struct sb_json *j, const struct sb_soak_metric *m,
			   const struct sb_soak_judged *judged)
{
	sb_json_u64(j, "n", m->st.n);
	if (!judged || m->st.n) {
		sb_json_double(j, "median", m->st.median);
		sb_json_double(j, "p5", m->st.p5);
		sb_json_double(j, "p95", m->st.p95);
		sb_json_double(j, "mean", m->st.mean);
		sb_json_double(j, "cv", m->st.cv);
		sb_json_double(j, "min", m->st.min);
		sb_json_double(j, "max", m->st.max);
	}
	if (judged && !judged->outliers) {
		sb_json_null(j, "outliers");
		sb_json_null(j, "outliers_total");
	} else {
		sb_json_arr_open(j, "outliers");
		for (size_t i = 0; i < m->noutliers; i++)
			sb_json_u64(j, NULL, m->outliers[i]);
		sb_json_arr_close(j);
		sb_json_u64(j, "outliers_total", m->outliers_total);
	}
	if (judged && !judged->changes) {
		sb_json_null(j, "change_points");
		return;
	}
	sb_json_arr_open(j, "change_points");
	for (size_t i = 0; i < m->nchanges; i++) {
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "iteration", m->changes[i].at);
		sb_json_double(j, "before", m->changes[i].before);
		sb_json_double(j, "after", m->changes[i].after);
		if (judged)
			sb_json_double(j, "step", m->changes[i].step);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

void sb_soak_metric_json(struct sb_json *j, const char *key, const struct sb_soak_metric *m,
			 const struct sb_soak_judged *judged)
{
	sb_json_obj_open(j, key);
	metric_members(j, m, judged);
	sb_json_obj_close(j);
}

void sb_soak_stability_members(struct sb_json *j, const struct sb_soak_metric m[2],
			       const struct sb_soak_judged *judged)
{
	for (int k = 0; k < 2; k++)
		sb_soak_metric_json(j, sb_soak_metric_names[k], &m[k], judged ? &judged[k] : NULL);
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
		metric_members(j, &m->m, NULL);
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

void sb_soak_verdict_json(struct sb_json *j, const struct sb_soak_summary *sum)
{
	sb_json_str(j, "verdict", sb_soak_verdict_name(sum->verdict));
	if (!sum->stopped)
		return;
	sb_json_str(j, "stopped_early", sum->reason);
	if (sum->stopped == SB_SOAK_ABORTED)
		sb_json_str(j, "aborted_reason", sum->reason);
	if (sum->resume[0])
		sb_json_str(j, "resume", sum->resume);
}

void sb_soak_settings_json(struct sb_json *j, const char *key, const struct sb_soak_settings *s)
{
	sb_json_obj_open(j, key);
	settings_members(j, s);
	sb_json_str(j, "workload", s->iozone ? "iozone" : "verify");
	sb_json_obj_close(j);
}

/* The summary's members: the log's last line, the results' soak section. */
static void summary_json(struct sb_json *j, const struct sb_soak_result *r)
{
	const struct sb_soak_summary *sum = &r->sum;
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
	sb_soak_verdict_json(j, sum);
	if (sum->set.known)
		sb_soak_settings_json(j, "settings", &sum->set);
	sb_json_obj_open(j, "stability");
	sb_soak_stability_members(j, sum->m, NULL);
	if (r->cells)
		cells_json(j, r);
	sb_json_obj_close(j);
	if (r->health_ok[0] && r->health_ok[1])
		sb_health_pair_json(j, "health", &r->health[0], &r->health[1]);
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

/* An iozone cell's changes, as the throughput's. */
static void cell_warnings(struct sb_results *res, const struct sb_soak_cell_metric *c)
{
	char f[32], r[32];
	for (size_t i = 0; i < c->m.nchanges; i++)
		sb_results_warn(res,
				"%s (file %s, record %s) %s from %.0f KiB/s to %.0f KiB/s at "
				"iteration %llu",
				sb_sweep_test_name(c->test),
				sb_fmt_size(c->file_size, f, sizeof(f)),
				sb_fmt_size(c->record_size, r, sizeof(r)),
				c->m.changes[i].after < c->m.changes[i].before ? "fell" : "rose",
				c->m.changes[i].before, c->m.changes[i].after,
				(unsigned long long)c->m.changes[i].at);
}

void sb_soak_results(struct sb_results *res, const struct sb_soak_result *r)
{
	const struct sb_soak_summary *sum = &r->sum;
	res->extra_key = sb_section_name(SB_SECTION_SOAK);
	res->extra_json = sb_soak_results_json;
	res->extra_ctx = r;
	if (!r->kmsg_watched)
		sb_results_warn(res,
				"/dev/kmsg could not be read: kernel messages were not watched");
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < sum->m[k].nchanges; i++)
			sb_results_warn(res,
					"%s throughput %s from %.1f MiB/s to %.1f MiB/s at "
					"iteration %llu",
					k ? "read" : "write",
					sum->m[k].changes[i].after < sum->m[k].changes[i].before
						? "fell"
						: "rose",
					sum->m[k].changes[i].before / 1048576,
					sum->m[k].changes[i].after / 1048576,
					(unsigned long long)sum->m[k].changes[i].at);
	for (size_t c = 0; c < r->ncells; c++)
		cell_warnings(res, &r->cells[c]);
}

void sb_soak_results_json(struct sb_json *j, const void *ctx)
{
	const struct sb_soak_result *r = ctx;
	summary_json(j, r);
	if (r->stop_changed) {
		sb_json_obj_open(j, "stop_change");
		stop_change_members(j, &r->stop_change);
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
