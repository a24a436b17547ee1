/* The "cliff" section of the results (storbench cliff, docs/cliff.md):
 * where the fast write cache ended, the levels either side, the further
 * steps, the binned series the drop was found in, and the recoveries. */
#include "lib/cliff/cliff.h"
#include "lib/json/json_write.h"
#include "lib/results/results.h"

static void steps_json(struct sb_json *j, const struct sb_cliff_find *f)
{
	sb_json_arr_open(j, "steps");
	for (size_t i = 0; i < f->nsteps; i++) {
		const struct sb_cliff_step *s = &f->steps[i];
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "at_bytes", s->at_bytes);
		sb_json_u64(j, "at_ns", (uint64_t)s->at_ns);
		sb_json_double(j, "before_bw_bytes", s->before_bw);
		sb_json_double(j, "after_bw_bytes", s->after_bw);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

static void series_json(struct sb_json *j, const struct sb_cliff_result *r)
{
	const struct sb_cliff_find *f = &r->find;
	sb_json_obj_open(j, "series");
	sb_json_u64(j, "bin_bytes", f->bin_bytes);
	sb_json_u64(j, "last_bin_bytes", f->last_bytes);
	sb_json_arr_open(j, "bw_bytes");
	for (size_t i = 0; i < f->nbins; i++)
		sb_json_double(j, NULL, r->bw[i]);
	sb_json_arr_close(j);
	sb_json_obj_close(j);
}

static void recovery_json(struct sb_json *j, const struct sb_cliff_result *r)
{
	sb_json_arr_open(j, "recovery");
	for (unsigned i = 0; i < r->nrecovery; i++) {
		const struct sb_cliff_recovery *c = &r->recovery[i];
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "idle_ns", c->idle_ns);
		sb_json_u64(j, "burst_bytes", c->burst_bytes);
		sb_json_u64(j, "burst_ns", (uint64_t)c->burst_ns);
		sb_json_u64(j, "recovered_bytes", c->recovered_bytes);
		sb_json_double(j, "fraction", c->fraction);
		sb_json_double(j, "fast_bw_bytes", c->fast_bw);
		sb_json_bool(j, "at_least", c->at_least);
		sb_json_bool(j, "interrupted", c->interrupted);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

static void extra_json(struct sb_json *j, const void *ctx)
{
	const struct sb_cliff_result *r = ctx;
	const struct sb_cliff_find *f = &r->find;
	sb_json_str(j, "pattern", sb_rw_name(r->job.rw));
	sb_json_u64(j, "request_size", r->job.bs);
	sb_json_u64(j, "iodepth", r->job.iodepth);
	sb_json_bool(j, "direct", r->job.direct);
	sb_json_u64(j, "region_offset", r->region_offset);
	sb_json_u64(j, "region_size", r->region_size);
	sb_json_str(j, "purge", r->purge ? r->purge : "none");
	if (r->purge_method[0]) {
		sb_json_str(j, "purge_method", r->purge_method);
		sb_json_u64(j, "purge_bytes", r->purge_bytes);
	}
	sb_json_u64(j, "idle_before_ns", r->idle_before_ns);
	sb_json_u64(j, "sample_interval_ns", SB_CLIFF_SAMPLE_NS);
	sb_json_double(j, "min_step", SB_CLIFF_MIN_STEP);
	sb_json_str(j, "stop_reason", r->stop_reason);
	sb_json_bool(j, "interrupted", r->interrupted);
	sb_json_u64(j, "bytes_written", f->total_bytes);
	sb_json_u64(j, "time_ns", (uint64_t)f->total_ns);
	sb_json_double(j, "avg_bw_bytes", f->avg_bw);
	sb_json_bool(j, "found", f->found);
	if (f->found) {
		sb_json_u64(j, "cache_bytes", f->cache_bytes);
		sb_json_u64(j, "cache_ns", (uint64_t)f->cache_ns);
		sb_json_double(j, "before_bw_bytes", f->before_bw);
		sb_json_double(j, "after_bw_bytes", f->after_bw);
	} else {
		sb_json_null(j, "cache_bytes");
		sb_json_null(j, "cache_ns");
		sb_json_null(j, "before_bw_bytes");
		sb_json_null(j, "after_bw_bytes");
	}
	steps_json(j, f);
	series_json(j, r);
	recovery_json(j, r);
}

int sb_results_cliff(struct sb_results *res, struct sb_cliff_result *r)
{
	if (!r->jr || sb_results_add_job(res, r->jr) < 0)
		return -ENOMEM;
	r->jr = NULL; /* res's now */
	res->interrupted = r->interrupted;
	res->extra_key = sb_section_name(SB_SECTION_CLIFF);
	res->extra_json = extra_json;
	res->extra_ctx = r;
	return 0;
}
