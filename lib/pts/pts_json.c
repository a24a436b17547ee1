/*
 * The pts section of the results: the conditions, every deviation from the
 * specification, and per test every round's figures (the tracked value and
 * the whole matrix), the steady-state determination and the averages over
 * the measurement window. docs/pts.md describes it for readers.
 */
#include "lib/pts/pts.h"
#include "lib/json/json_write.h"
#include "lib/results/results.h"

static void fig(struct sb_json *j, const struct sb_pts_cell *c, const struct sb_pts_fig *f)
{
	sb_json_obj_open(j, NULL);
	sb_json_u64(j, "read_pct", c->read_pct);
	sb_json_u64(j, "bs", c->bs);
	sb_json_double(j, "iops", f->iops);
	sb_json_double(j, "read_iops", f->read_iops);
	sb_json_double(j, "write_iops", f->write_iops);
	sb_json_double(j, "bw_bytes", f->bw);
	sb_json_double(j, "read_bw_bytes", f->read_bw);
	sb_json_double(j, "write_bw_bytes", f->write_bw);
	sb_json_double(j, "lat_mean_ns", f->lat_mean_ns);
	sb_json_double(j, "lat_max_ns", f->lat_max_ns);
	sb_json_u64(j, "bytes_written", f->bytes_written);
	sb_json_obj_close(j);
}

/* PTS-C's active-range segments (METHODS.md 3.7: "log the seed and the
 * segment map"); null for the enterprise profile. */
static void segments(struct sb_json *j, const struct sb_pts_result *r)
{
	const struct sb_segments *s = &r->segs;
	if (!s->n) {
		sb_json_null(j, "active_range_segments");
		return;
	}
	sb_json_obj_open(j, "active_range_segments");
	sb_json_u64(j, "count", s->n);
	sb_json_u64(j, "segment_bytes", s->seg_bytes);
	sb_json_u64(j, "active_bytes", sb_segments_bytes(s));
	sb_json_u64(j, "align_bytes", s->align);
	sb_json_u64(j, "seed", s->seed);
	sb_json_arr_open(j, "tests");
	for (unsigned i = 0; i < r->nparts; i++)
		if (r->parts[i].segmented)
			sb_json_str(j, NULL, r->parts[i].name);
	sb_json_arr_close(j);
	sb_json_arr_open(j, "starts");
	for (unsigned i = 0; i < s->n; i++)
		sb_json_u64(j, NULL, s->start[i]);
	sb_json_arr_close(j);
	sb_json_obj_close(j);
}

static void conditions(struct sb_json *j, const struct sb_pts_result *r)
{
	const struct sb_pts_opts *o = &r->o;
	sb_json_obj_open(j, "conditions");
	sb_json_str(j, "purge_requested", sb_purge_name(o->purge));
	sb_json_obj_open(j, "active_range");
	sb_json_u64(j, "percent", o->active_pct);
	sb_json_u64(j, "offset_bytes", 0);
	sb_json_u64(j, "bytes", r->region_bytes);
	sb_json_obj_close(j);
	segments(j, r);
	sb_json_u64(j, "device_bytes", r->device_bytes);
	sb_json_obj_open(j, "precondition");
	sb_json_u64(j, "passes", o->precondition);
	sb_json_u64(j, "bs", 128u << 10);
	sb_json_str(j, "pattern", "sequential write");
	sb_json_obj_close(j);
	sb_json_u64(j, "threads", o->threads);
	sb_json_u64(j, "iodepth", o->iodepth);
	sb_json_u64(j, "round_time_ns", o->round_ns);
	sb_json_u64(j, "max_rounds", o->max_rounds);
	sb_json_u64(j, "wsat_capacity", o->wsat_capacity);
	sb_json_obj_open(j, "write_cache");
	sb_json_str(j, "state", r->write_cache[0] ? r->write_cache : NULL);
	sb_json_str(j, "required", o->profile == SB_PTS_ENTERPRISE ? "disabled" : "enabled");
	sb_json_bool(j, "changed", r->devcache.changed);
	sb_json_str(j, "command", r->devcache.command);
	if (r->devcache.command) {
		sb_json_str(j, "before", r->devcache.before ? "on" : "off");
		sb_json_str(j, "during", "off");
		if (r->devcache.changed)
			sb_json_bool(j, "restored", r->devcache.restored);
		else
			sb_json_null(j, "restored");
	}
	sb_json_obj_close(j);
	sb_json_str(j, "data_pattern", "random");
	sb_json_bool(j, "direct", 1);
	sb_json_u64(j, "seed", o->seed);
	sb_json_obj_close(j);
}

static void steady(struct sb_json *j, const struct sb_steady *s)
{
	sb_json_obj_open(j, "steady_state");
	sb_json_bool(j, "reached", s->reached);
	sb_json_arr_open(j, "window");
	sb_json_u64(j, NULL, s->first);
	sb_json_u64(j, NULL, s->last);
	sb_json_arr_close(j);
	sb_json_double(j, "average", s->average);
	sb_json_double(j, "data_excursion", s->data_excursion);
	sb_json_double(j, "data_excursion_allowed", s->data_allowed);
	sb_json_double(j, "slope_excursion", s->slope_excursion);
	sb_json_double(j, "slope_excursion_allowed", s->slope_allowed);
	sb_json_double(j, "slope", s->slope);
	sb_json_double(j, "intercept", s->intercept);
	sb_json_obj_close(j);
}

static void rounds(struct sb_json *j, const struct sb_pts_part *p)
{
	uint64_t written = 0;
	sb_json_arr_open(j, "rounds");
	for (unsigned k = 0; k < p->nrounds; k++) {
		const struct sb_pts_fig *row = &p->fig[(size_t)k * p->ncells];
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "round", k + 1);
		sb_json_double(j, "tracking", p->tracked[k]);
		for (unsigned c = 0; c < p->ncells; c++)
			written += row[c].bytes_written;
		sb_json_u64(j, "bytes_written_total", written);
		sb_json_arr_open(j, "cells");
		for (unsigned c = 0; c < p->ncells; c++)
			fig(j, &p->cells[c], &row[c]);
		sb_json_arr_close(j);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

/* The round a stop cut short: the cells it measured (null: none). */
static void partial_round(struct sb_json *j, const struct sb_pts_part *p)
{
	if (!p->partial_cells) {
		sb_json_null(j, "partial_round");
		return;
	}
	const struct sb_pts_fig *row = &p->fig[(size_t)p->nrounds * p->ncells];
	sb_json_obj_open(j, "partial_round");
	sb_json_u64(j, "round", p->nrounds + 1);
	sb_json_u64(j, "cells_planned", p->ncells);
	sb_json_arr_open(j, "cells");
	for (unsigned c = 0; c < p->partial_cells; c++)
		fig(j, &p->cells[c], &row[c]);
	sb_json_arr_close(j);
	sb_json_obj_close(j);
}

static void part(struct sb_json *j, const struct sb_pts_part *p)
{
	sb_json_obj_open(j, NULL);
	sb_json_str(j, "test", sb_pts_test_name(p->test));
	sb_json_str(j, "name", p->name);
	sb_json_str(j, "access", p->random ? "random" : "sequential");
	sb_json_bool(j, "segmented", p->segmented);
	sb_json_u64(j, "threads", p->threads);
	sb_json_u64(j, "iodepth", p->iodepth);
	sb_json_str(j, "purge", p->started ? sb_purge_name(p->purge_used) : NULL);
	sb_json_str(j, "purge_method", p->started && p->purge_how[0] ? p->purge_how : NULL);
	sb_json_u64(j, "precondition_bytes", p->precondition_bytes);
	sb_json_arr_open(j, "mixes");
	for (unsigned i = 0; i < p->nmix; i++)
		sb_json_u64(j, NULL, p->mixes[i]);
	sb_json_arr_close(j);
	sb_json_arr_open(j, "block_sizes");
	for (unsigned i = 0; i < p->nbs; i++)
		sb_json_u64(j, NULL, p->bss[i]);
	sb_json_arr_close(j);
	sb_json_obj_open(j, "tracking");
	sb_json_u64(j, "read_pct", p->cells[p->track_cell].read_pct);
	sb_json_u64(j, "bs", p->cells[p->track_cell].bs);
	sb_json_str(j, "metric", sb_pts_metric_name(p->track));
	sb_json_obj_close(j);
	sb_json_bool(j, "finished", p->finished);
	sb_json_u64(j, "bytes_written", p->written);
	rounds(j, p);
	partial_round(j, p);
	if (p->test == SB_PTS_WSAT || !p->nrounds) {
		sb_json_null(j, "steady_state");
		sb_json_null(j, "window_average");
	} else {
		steady(j, &p->ss);
		sb_json_arr_open(j, "window_average");
		for (unsigned c = 0; c < p->ncells; c++) {
			struct sb_pts_fig avg;
			sb_pts_window_average(p, c, &avg);
			fig(j, &p->cells[c], &avg);
		}
		sb_json_arr_close(j);
	}
	sb_json_obj_close(j);
}

static void pts_json(struct sb_json *j, const void *ctx)
{
	const struct sb_pts_result *r = ctx;
	sb_json_str(j, "spec", "SNIA SSS PTS, as METHODS.md section 3 and docs/pts.md define it");
	sb_json_str(j, "profile", sb_pts_profile_name(r->o.profile));
	sb_json_bool(j, "pts_result", r->ndeviations == 0);
	sb_json_arr_open(j, "deviations");
	for (unsigned i = 0; i < r->ndeviations; i++)
		sb_json_str(j, NULL, r->deviations[i]);
	sb_json_arr_close(j);
	conditions(j, r);
	sb_json_arr_open(j, "tests");
	for (unsigned i = 0; i < r->nparts; i++)
		if (r->parts[i].started)
			part(j, &r->parts[i]);
	sb_json_arr_close(j);
}

int sb_results_pts(struct sb_results *res, const struct sb_pts_result *r)
{
	res->extra_key = sb_section_name(SB_SECTION_PTS);
	res->extra_json = pts_json;
	res->extra_ctx = r;
	res->interrupted = r->interrupted;
	for (unsigned i = 0; i < r->nparts; i++) {
		const struct sb_pts_part *p = &r->parts[i];
		if (!p->started || p->test == SB_PTS_WSAT || p->ss.reached)
			continue;
		/* a part that ran no round has no figures: said only when a stop
		 * cut its first round (a refused purge says why itself) */
		if (!p->nrounds && !r->interrupted)
			continue;
		if (!p->nrounds) {
			if (sb_results_warn(res,
					    "%s: stopped before its first round ended (in cell %u "
					    "of %u): no round, no steady state",
					    p->name, p->partial_cells, p->ncells) < 0)
				return -ENOMEM;
			continue;
		}
		if (sb_results_warn(res,
				    "%s: steady state NOT reached in %u rounds%s: the figures are "
				    "the last %u rounds, flagged",
				    p->name, p->nrounds, p->finished ? "" : " (stopped early)",
				    p->ss.last - p->ss.first + 1) < 0)
			return -ENOMEM;
	}
	return 0;
}
