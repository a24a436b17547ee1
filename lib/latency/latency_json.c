/* The "latency" section of the results (storbench latency), and its job in
 * fio's shape: one synchronous job of the probe's requests. */
#include "lib/latency/lat_run.h"
#include "lib/json/json_write.h"
#include "lib/engine/engine.h"
#include "lib/results/results.h"
#include "lib/target/cache.h"

static void stats_json(struct sb_json *j, struct sb_lat_run *lr)
{
	struct sb_ioping *st = &lr->st;
	char k[32];
	sb_json_u64(j, "requests", st->count);
	sb_json_u64(j, "valid", st->valid);
	sb_json_u64(j, "time_ns", st->sum_ns);
	sb_json_double(j, "iops", sb_ioping_iops(st));
	sb_json_double(j, "bw_bytes", sb_ioping_speed(st));
	sb_json_u64(j, "min_ns", sb_ioping_min(st));
	sb_json_double(j, "avg_ns", sb_ioping_avg(st));
	sb_json_u64(j, "max_ns", sb_ioping_max(st));
	sb_json_double(j, "mdev_ns", sb_ioping_mdev(st));
	sb_json_bool(j, "percentiles_exact", sb_ioping_exact(st));
	sb_json_obj_open(j, "percentile");
	for (size_t i = 0; st->valid && i < SB_LAT_NPCTS; i++) {
		snprintf(k, sizeof(k), "%f", sb_lat_pcts[i]);
		sb_json_u64(j, k, sb_ioping_percentile(st, sb_lat_pcts[i]));
	}
	sb_json_obj_close(j);
	sb_json_obj_open(j, "load");
	sb_json_u64(j, "requests", st->count);
	sb_json_u64(j, "wall_ns", st->wall_ns);
	sb_json_u64(j, "bytes", st->count * st->size);
	sb_json_double(j, "iops", sb_ioping_load_iops(st));
	sb_json_double(j, "bw_bytes", sb_ioping_load_speed(st));
	sb_json_obj_close(j);
}

static void preset_json(struct sb_json *j, const struct sb_lat_run *lr)
{
	char line[512];
	if (lr->preset == SB_LAT_DD_SYNC) {
		sb_lat_dd_lines(lr, line, sizeof(line));
		sb_json_obj_open(j, "dd");
		sb_json_str(j, "line", strrchr(line, '\n') ? strrchr(line, '\n') + 1 : line);
		sb_json_u64(j, "bytes", lr->st.count * lr->st.size);
		sb_json_double(j, "seconds", (double)lr->st.wall_ns / 1e9);
		sb_json_obj_close(j);
	} else if (lr->preset != SB_LAT_IOPING) {
		sb_lat_hdparm_line(lr, line, sizeof(line));
		sb_json_obj_open(j, "hdparm");
		sb_json_str(j, "line", line);
		sb_json_double(j, "mib", (double)lr->st.count * lr->st.size / 1048576.0);
		sb_json_double(j, "seconds", sb_lat_hdparm_seconds(lr));
		sb_json_u64(j, "overhead_ns", lr->overhead_ns);
		sb_json_u64(j, "settle_ns", lr->p.settle_ns);
		sb_json_str(j, "cache_after",
			    lr->cache_after ? sb_cache_method_name(lr->cache_after) : "warm");
		sb_json_obj_close(j);
	}
}

static void log_json(struct sb_json *j, const struct sb_lat_run *lr)
{
	sb_json_arr_open(j, "log");
	for (size_t i = 0; i < lr->nrec; i++) {
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "n", i + 1);
		sb_json_u64(j, "offset", lr->rec[i].offset);
		sb_json_u64(j, "ns", lr->rec[i].ns);
		sb_json_bool(j, "warmup", lr->rec[i].warmup);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	sb_json_bool(j, "log_truncated", lr->rec_truncated);
}

const char *sb_lat_cache_name(const struct sb_lat_run *lr)
{
	return lr->p.drop_cache	  ? "fadvise per request"
	       : lr->cache_method ? sb_cache_method_name(lr->cache_method)
	       : lr->direct	  ? "bypassed"
				  : "warm";
}

static void extra_json(struct sb_json *j, const void *ctx)
{
	struct sb_lat_run *lr = (struct sb_lat_run *)ctx;
	sb_json_str(j, "preset", sb_lat_preset_name(lr->preset));
	sb_json_str(j, "pattern", sb_lat_pattern_name(lr->p.pattern));
	sb_json_str(j, "direction", lr->p.write ? "write" : "read");
	sb_json_u64(j, "request_size", lr->p.bs);
	sb_json_bool(j, "direct", lr->direct);
	sb_json_bool(j, "dsync", lr->dsync);
	sb_json_u64(j, "region_offset", lr->p.offset);
	sb_json_u64(j, "region_size", lr->p.size);
	sb_json_u64(j, "interval_ns", lr->p.interval_ns);
	sb_json_u64(j, "warmup", lr->p.warmup);
	sb_json_str(j, "cache", sb_lat_cache_name(lr));
	sb_json_bool(j, "interrupted", lr->interrupted);
	stats_json(j, lr);
	preset_json(j, lr);
	log_json(j, lr);
}

static void job_opts(struct sb_job_opts *o, const struct sb_lat_run *lr)
{
	sb_job_opts_default(o);
	snprintf(o->name, sizeof(o->name), "%s", sb_lat_preset_name(lr->preset));
	const int rnd = lr->p.pattern == SB_PROBE_RANDOM;
	o->rw = lr->p.write ? (rnd ? SB_RW_RANDWRITE : SB_RW_WRITE)
			    : (rnd ? SB_RW_RANDREAD : SB_RW_READ);
	o->bs = lr->p.bs;
	o->size = lr->p.size;
	o->offset = lr->p.offset;
	o->iodepth = 1;
	o->numjobs = 1;
	o->direct = lr->direct;
	o->sync = lr->dsync ? SB_SYNC_DSYNC : SB_SYNC_NONE;
	o->seed = lr->p.seed;
	snprintf(o->engine, sizeof(o->engine), "%s", sb_engine_plain()->name);
}

int sb_results_latency(struct sb_results *res, struct sb_lat_run *lr)
{
	struct sb_job_result *jr = sb_job_result_create();
	if (!jr || sb_results_add_job(res, jr) < 0) {
		sb_job_result_free(jr);
		return -ENOMEM;
	}
	job_opts(&jr->opts, lr);
	snprintf(jr->name, sizeof(jr->name), "%s", jr->opts.name);
	snprintf(jr->engine, sizeof(jr->engine), "%s", sb_engine_plain()->name);
	jr->runtime_ns = lr->st.wall_ns;
	const int d = lr->p.write ? SB_DDIR_WRITE : SB_DDIR_READ;
	jr->dir[d].ios = lr->st.valid;
	jr->dir[d].bytes = lr->st.valid * lr->st.size;
	jr->dir[d].clat = lr->st.hist;
	jr->dir[d].lat = lr->st.hist;
	jr->interrupted = lr->interrupted;
	if (lr->failed) {
		jr->errors = 1;
		jr->first_error = (struct sb_io_error){
			.offset = lr->fail_offset, .len = lr->p.bs, .ddir = d, .err = -lr->failed
		};
	}
	res->interrupted = lr->interrupted;
	res->cache_dropped = lr->cache_method;
	res->extra_key = sb_section_name(SB_SECTION_LATENCY);
	res->extra_json = extra_json;
	res->extra_ctx = lr;
	return 0;
}
