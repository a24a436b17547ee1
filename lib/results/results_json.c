/*
 * Results as JSON. The layout is fio's (--output-format=json) where fio has
 * a field, so fio consumers read it; storbench's own figures live under
 * "storbench" keys. docs/results-schema.md describes every field.
 */
#include "lib/results/results.h"
#include "lib/stats/fio_ss.h"
#include "lib/json/json_write.h"

#include <math.h>

/* The fio release whose JSON layout this one follows (and was checked
 * against: Debian 12's), named in "fio version" with storbench's own. */
#define SB_FIO_LAYOUT "fio-3.33"

/* fio's latency histogram (stat.h): FIO_IO_U_PLAT_BITS 6, 29 groups of 64
 * buckets, the same log-linear scheme as storbench's (lib/stats/hist.h),
 * bucket for bucket, up to 2^34 ns; fio puts anything longer in its last. */
#define FIO_PLAT_BITS 6
#define FIO_PLAT_VAL (1u << FIO_PLAT_BITS)
#define FIO_PLAT_NR (29u * FIO_PLAT_VAL)

/* fio's plat_idx_to_val: a bucket's key in json+'s "bins", its midpoint */
static uint64_t fio_plat_val(unsigned idx)
{
	if (idx < (FIO_PLAT_VAL << 1))
		return idx;
	unsigned error_bits = (idx >> FIO_PLAT_BITS) - 1;
	uint64_t base = UINT64_C(1) << (error_bits + FIO_PLAT_BITS);
	uint64_t k = idx % FIO_PLAT_VAL;
	return base + (uint64_t)(((double)k + 0.5) * (double)(UINT64_C(1) << error_bits));
}

/* json+'s "bins": {"midpoint ns": count} of the non-empty buckets */
static void bins_fio_json(struct sb_json *j, const struct sb_hist *h)
{
	char k[32];
	uint64_t over = 0;
	_Static_assert(SB_HIST_SUB_BITS == FIO_PLAT_BITS, "fio's buckets are storbench's");
	sb_json_obj_open(j, "bins");
	for (unsigned b = 0; b < SB_HIST_NBUCKETS; b++) {
		if (b >= FIO_PLAT_NR - 1) {
			over += h->bucket[b];
			continue;
		}
		if (!h->bucket[b])
			continue;
		snprintf(k, sizeof(k), "%llu", (unsigned long long)fio_plat_val(b));
		sb_json_u64(j, k, h->bucket[b]);
	}
	if (over) {
		snprintf(k, sizeof(k), "%llu", (unsigned long long)fio_plat_val(FIO_PLAT_NR - 1));
		sb_json_u64(j, k, over);
	}
	sb_json_obj_close(j);
}

static void hist_json(struct sb_json *j, const char *key, const struct sb_hist *h, int bins)
{
	char k[32];
	sb_json_obj_open(j, key);
	sb_json_u64(j, "min", h->count ? h->min : 0);
	sb_json_u64(j, "max", h->count ? h->max : 0);
	sb_json_double(j, "mean", sb_hist_mean(h));
	sb_json_double(j, "stddev", sb_hist_stddev(h));
	sb_json_u64(j, "N", h->count);
	if (h->count) {
		sb_json_obj_open(j, "percentile");
		for (unsigned i = 0; i < sb_npercentiles; i++) {
			snprintf(k, sizeof(k), "%f", sb_percentiles[i]);
			sb_json_u64(j, k, sb_hist_percentile(h, sb_percentiles[i]));
		}
		sb_json_obj_close(j);
		if (bins)
			bins_fio_json(j, h);
	}
	sb_json_obj_close(j);
}

/* fio 3.33's prios: each priority's clat of a direction where two or
 * more had requests, as its add_ddir_status_json */
static void prios_json(struct sb_json *j, const struct sb_prio_stats *p, int d, int plus)
{
	unsigned used = 0;
	for (unsigned i = 0; p && i < p->n[d]; i++)
		used += p->clat[d][i].count > 0;
	if (used < 2)
		return;
	sb_json_arr_open(j, "prios");
	for (unsigned i = 0; i < p->n[d]; i++) {
		if (!p->clat[d][i].count)
			continue;
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "prioclass", p->ioprio[d][i] >> 13);
		sb_json_u64(j, "prio", p->ioprio[d][i] & 7);
		hist_json(j, "clat_ns", &p->clat[d][i], plus);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

static void dir_json(struct sb_json *j, const struct sb_results *r, const struct sb_job_result *jr,
		     int d, int plus)
{
	const struct sb_dir_result *dr = &jr->dir[d];
	double bw = sb_dir_bw(jr, d);

	sb_json_obj_open(j, sb_ddir_name(d));
	sb_json_u64(j, "io_bytes", dr->bytes);
	sb_json_u64(j, "io_kbytes", dr->bytes / 1024);
	sb_json_u64(j, "bw_bytes", (uint64_t)llround(bw));
	sb_json_u64(j, "bw", (uint64_t)llround(bw / 1024));
	sb_json_double(j, "iops", sb_dir_iops(jr, d));
	sb_json_u64(j, "runtime", dr->ios ? (sb_dir_runtime_ns(jr, d) + 500000) / 1000000 : 0);
	sb_json_u64(j, "total_ios", dr->ios);
	sb_json_u64(j, "short_ios", 0);
	sb_json_u64(j, "drop_ios", 0);
	hist_json(j, "slat_ns", &dr->slat, plus);
	hist_json(j, "clat_ns", &dr->clat, plus);
	hist_json(j, "lat_ns", &dr->lat, plus);
	prios_json(j, jr->prios, d, plus);
	/* per-interval figures over whole intervals, bandwidth in KiB/s, as fio */
	struct sb_rate_stats b, io;
	sb_job_rate_stats(jr, d, 0, &b);
	sb_job_rate_stats(jr, d, 1, &io);
	sb_json_u64(j, "bw_min", (uint64_t)llround(b.min / 1024));
	sb_json_u64(j, "bw_max", (uint64_t)llround(b.max / 1024));
	if (r->fio_layout) {
		/* fio's convert_agg_kbytes_percent: the mean's share of the group's */
		const uint64_t agg = sb_fio_group_agg(r->jobs, r->njobs, NULL, jr->groupid, d);
		double per = b.samples ? 100.0 : 0;
		if (b.samples && agg / 1024)
			per = SB_MIN(100.0, b.mean / 1024 * 100 / (double)(agg / 1024));
		sb_json_double(j, "bw_agg", per);
	}
	sb_json_double(j, "bw_mean", b.mean / 1024);
	sb_json_double(j, "bw_dev", b.dev / 1024);
	sb_json_u64(j, "bw_samples", b.samples);
	sb_json_u64(j, "iops_min", (uint64_t)llround(io.min));
	sb_json_u64(j, "iops_max", (uint64_t)llround(io.max));
	sb_json_double(j, "iops_mean", io.mean);
	sb_json_double(j, "iops_stddev", io.dev);
	sb_json_u64(j, "iops_samples", io.samples);
	sb_json_obj_close(j);
}

/* fio's json_add_job_opts: the options as written, none: no object */
static void rawopts_json(struct sb_json *j, const char *key, const struct sb_fio_rawopts *o)
{
	size_t pos = 0;
	const char *k, *v;
	if (!o->len)
		return;
	sb_json_obj_open(j, key);
	while (sb_fio_rawopts_next(o, &pos, &k, &v))
		sb_json_str(j, k, v);
	sb_json_obj_close(j);
}

/* storbench's options of the job, under key ("job options" unless the job
 * came from a job file, whose own words go there; "options" in the job's
 * storbench section then) */
static void job_options_json(struct sb_json *j, const char *key, const struct sb_job_result *jr)
{
	const struct sb_job_opts *o = &jr->opts;
	char buf[64];

	sb_json_obj_open(j, key);
	sb_json_str(j, "name", jr->name);
	sb_json_str(j, "rw", sb_rw_name(o->rw));
	snprintf(buf, sizeof(buf), "%u", o->bs);
	sb_json_str(j, "bs", buf);
	if (o->nbssplit) {
		size_t n = 0;
		char split[512] = "";
		for (unsigned i = 0; i < o->nbssplit && n < sizeof(split); i++)
			n += (size_t)snprintf(split + n, sizeof(split) - n, "%s%u/%u", i ? ":" : "",
					      o->bssplit[i].bs, o->bssplit[i].pct);
		for (unsigned i = 0; i < o->nwbssplit && n < sizeof(split); i++) /* the writes' */
			n += (size_t)snprintf(split + n, sizeof(split) - n, "%s%u/%u",
					      i ? ":" : ",", o->wbssplit[i].bs, o->wbssplit[i].pct);
		sb_json_str(j, "bssplit", split);
	}
	snprintf(buf, sizeof(buf), "%u", o->iodepth);
	sb_json_str(j, "iodepth", buf);
	snprintf(buf, sizeof(buf), "%u", o->numjobs);
	sb_json_str(j, "numjobs", buf);
	if (o->batch_complete > 1) {
		snprintf(buf, sizeof(buf), "%u", o->batch_complete);
		sb_json_str(j, "iodepth_batch_complete_min", buf);
	}
	sb_json_str(j, "ioengine", jr->engine);
	sb_json_str(j, "direct", o->direct ? "1" : "0");
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->size);
	sb_json_str(j, "size", buf);
	if (o->offset) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->offset);
		sb_json_str(j, "offset", buf);
	}
	if (o->rw == SB_RW_RW || o->rw == SB_RW_RANDRW) {
		snprintf(buf, sizeof(buf), "%u", o->rwmixread);
		sb_json_str(j, "rwmixread", buf);
	}
	if (o->runtime_ns) {
		snprintf(buf, sizeof(buf), "%llums", (unsigned long long)(o->runtime_ns / 1000000));
		sb_json_str(j, "runtime", buf);
	}
	if (o->time_based)
		sb_json_str(j, "time_based", "1");
	if (o->ramp_ns) {
		snprintf(buf, sizeof(buf), "%llums", (unsigned long long)(o->ramp_ns / 1000000));
		sb_json_str(j, "ramp_time", buf);
	}
	if (o->fsync_every) {
		snprintf(buf, sizeof(buf), "%u", o->fsync_every);
		sb_json_str(j, "fsync", buf);
	}
	if (o->fdatasync_every) {
		snprintf(buf, sizeof(buf), "%u", o->fdatasync_every);
		sb_json_str(j, "fdatasync", buf);
	}
	if (o->end_fsync)
		sb_json_str(j, "end_fsync", "1");
	if (o->sync != SB_SYNC_NONE)
		sb_json_str(j, "sync", o->sync == SB_SYNC_DSYNC ? "dsync" : "sync");
	if (o->rate_bps) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->rate_bps);
		sb_json_str(j, "rate", buf);
	} else if (o->rate_dir_bps[0] || o->rate_dir_bps[1]) {
		/* fio's rate=READ,WRITE */
		snprintf(buf, sizeof(buf), "%llu,%llu", (unsigned long long)o->rate_dir_bps[0],
			 (unsigned long long)o->rate_dir_bps[1]);
		sb_json_str(j, "rate", buf);
	}
	if (o->rate_iops_dir[0] || o->rate_iops_dir[1]) {
		snprintf(buf, sizeof(buf), "%llu,%llu", (unsigned long long)o->rate_iops_dir[0],
			 (unsigned long long)o->rate_iops_dir[1]);
		sb_json_str(j, "rate_iops", buf);
	} else if (o->rate_iops) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->rate_iops);
		sb_json_str(j, "rate_iops", buf);
	}
	if (o->dist == SB_DIST_ZONED) {
		char zb[SB_ZONES_MAX * 32];
		size_t n = (size_t)snprintf(zb, sizeof(zb), "%s",
					    o->zones.abs ? "zoned_abs" : "zoned");
		for (unsigned i = 0; i < o->zones.n && n < sizeof(zb); i++)
			n += (size_t)snprintf(zb + n, sizeof(zb) - n, ":%u/%llu",
					      o->zones.z[i].access_pct,
					      (unsigned long long)o->zones.z[i].size);
		sb_json_str(j, "random_distribution", zb);
	} else if (o->dist != SB_DIST_UNIFORM && o->dist != SB_DIST_SEQ) {
		snprintf(buf, sizeof(buf), "%s:%g", o->dist == SB_DIST_ZIPF ? "zipf" : "pareto",
			 o->dist_param);
		sb_json_str(j, "random_distribution", buf);
	}
	if (o->fio_verify[0] && !o->fio_verify_nocheck)
		sb_json_str(j, "verify", o->fio_verify);
	if (o->buffer_compress) {
		snprintf(buf, sizeof(buf), "%u", o->buffer_compress);
		sb_json_str(j, "buffer_compress_percentage", buf);
	}
	if (o->continue_on_error != SB_CONTINUE_NONE) {
		static const char *const names[] = { "none", "read", "write", "all" };
		sb_json_str(j, "continue_on_error", names[o->continue_on_error]);
	}
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)o->seed);
	sb_json_str(j, "randseed", buf);
	sb_json_obj_close(j);
}

static void series_json(struct sb_json *j, const struct sb_series *s)
{
	sb_json_arr_open(j, "series");
	for (size_t i = 0; i < s->n; i++) {
		const struct sb_interval *iv = &s->v[i];
		uint64_t len = i ? iv->t_ns - s->v[i - 1].t_ns : iv->t_ns;
		sb_json_obj_open(j, NULL);
		sb_json_u64(j, "t_ns", iv->t_ns);
		sb_json_u64(j, "len_ns", len);
		for (int d = 0; d < SB_DDIR_N; d++) {
			if (!iv->ios[d])
				continue;
			sb_json_obj_open(j, sb_ddir_name(d));
			sb_json_u64(j, "bytes", iv->bytes[d]);
			sb_json_u64(j, "ios", iv->ios[d]);
			sb_json_double(j, "bw_bytes",
				       len ? (double)iv->bytes[d] * 1e9 / (double)len : 0);
			sb_json_double(j, "iops", len ? (double)iv->ios[d] * 1e9 / (double)len : 0);
			sb_json_double(j, "lat_mean_ns", iv->lat_mean_ns[d]);
			sb_json_u64(j, "lat_p99_ns", iv->lat_p99_ns[d]);
			sb_json_obj_close(j);
		}
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

static void diskstat_json(struct sb_json *j, const char *key, const char *name,
			  const struct sb_diskstat *a, const struct sb_diskstat *b,
			  uint64_t elapsed_ns)
{
	sb_json_obj_open(j, key);
	sb_json_str(j, "name", name);
	sb_json_u64(j, "read_ios", b->ios[0] - a->ios[0]);
	sb_json_u64(j, "write_ios", b->ios[1] - a->ios[1]);
	sb_json_u64(j, "read_merges", b->merges[0] - a->merges[0]);
	sb_json_u64(j, "write_merges", b->merges[1] - a->merges[1]);
	sb_json_u64(j, "read_ticks", b->ticks[0] - a->ticks[0]);
	sb_json_u64(j, "write_ticks", b->ticks[1] - a->ticks[1]);
	sb_json_u64(j, "in_queue", b->in_queue - a->in_queue);
	sb_json_u64(j, "read_bytes", (b->sectors[0] - a->sectors[0]) * 512);
	sb_json_u64(j, "write_bytes", (b->sectors[1] - a->sectors[1]) * 512);
	sb_json_u64(j, "discard_bytes", (b->discard_sectors - a->discard_sectors) * 512);
	double util = elapsed_ns ? 100.0 * (double)(b->io_ticks - a->io_ticks) * 1e6 /
					   (double)elapsed_ns
				 : 0;
	sb_json_double(j, "util", util > 100 ? 100 : util);
	sb_json_obj_close(j);
}

/* The completion latency histograms' non-empty buckets, [low, high,
 * count] in ns: what a merge by hand of the ranks' figures needs. */
static void bins_json(struct sb_json *j, const struct sb_job_result *jr)
{
	sb_json_obj_open(j, "clat_bins");
	for (int d = 0; d < SB_DDIR_N; d++) {
		const struct sb_hist *h = &jr->dir[d].clat;
		if (!h->count)
			continue;
		sb_json_arr_open(j, sb_ddir_name(d));
		for (unsigned b = 0; b < SB_HIST_NBUCKETS; b++) {
			if (!h->bucket[b])
				continue;
			sb_json_arr_open(j, NULL);
			sb_json_u64(j, NULL, sb_hist_bucket_low(b));
			sb_json_u64(j, NULL, sb_hist_bucket_high(b));
			sb_json_u64(j, NULL, h->bucket[b]);
			sb_json_arr_close(j);
		}
		sb_json_arr_close(j);
	}
	sb_json_obj_close(j);
}

static void skew_json(struct sb_json *j, const struct sb_job_result *jr)
{
	const struct sb_skew *k = jr->skew;
	sb_json_obj_open(j, "skew");
	sb_json_u64(j, "ranks", jr->nclients);
	sb_json_double(j, "span_s", k->span_s);
	sb_json_double(j, "start_spread_s", k->start_spread_s);
	sb_json_double(j, "end_spread_s", k->end_spread_s);
	sb_json_double(j, "median_bw_bytes", k->median_bw);
	sb_json_i64(j, "slowest_rank", k->slowest_rank);
	sb_json_double(j, "slowest_vs_median", k->slowest_vs_median);
	sb_json_i64(j, "fastest_rank", k->fastest_rank);
	sb_json_double(j, "fastest_vs_median", k->fastest_vs_median);
	sb_json_obj_close(j);
}

/* fio's iodepth_level: percent of the requests submitted with 1, 2-3,
 * 4-7, ... >=64 in flight (that one included) */
static void depth_json(struct sb_json *j, const struct sb_job_result *jr)
{
	static const char *const names[SB_DEPTH_LEVELS] = { "1", "2", "4", "8", "16", "32", ">=64" };
	uint64_t n = 0;
	for (unsigned k = 0; k < SB_DEPTH_LEVELS; k++)
		n += jr->depth_map[k];
	sb_json_obj_open(j, "iodepth_level");
	for (unsigned k = 0; k < SB_DEPTH_LEVELS; k++)
		sb_json_double(j, names[k], n ? 100.0 * (double)jr->depth_map[k] / (double)n : 0);
	sb_json_obj_close(j);
}

/* fio's iodepth_submit and iodepth_complete: percent of the submissions
 * (reaps) by the requests each took */
static void submit_json(struct sb_json *j, const struct sb_job_result *jr)
{
	static const char *const names[SB_DEPTH_LEVELS] = {
		"0", "4", "8", "16", "32", "64", ">=64"
	};
	static const char *const keys[2] = { "iodepth_submit", "iodepth_complete" };
	for (int c = 0; c < 2; c++) {
		double pct[SB_DEPTH_LEVELS];
		sb_fio_submit_dist(jr, c, pct);
		sb_json_obj_open(j, keys[c]);
		for (unsigned k = 0; k < SB_DEPTH_LEVELS; k++)
			sb_json_double(j, names[k], pct[k]);
		sb_json_obj_close(j);
	}
}

/* fio's latency_depth, latency_target (ns), latency_percentile,
 * latency_window (us): the depth latency_target's search ended at, or
 * without one the job's iodepth, the target 0, as fio's; desc, the job's
 * description=; steadystate, fio's object */
static void fio_tail_json(struct sb_json *j, const struct sb_results *r,
			  const struct sb_job_result *jr)
{
	sb_json_u64(j, "latency_depth", jr->latency_depth ? jr->latency_depth : jr->opts.iodepth);
	sb_json_u64(j, "latency_target", jr->opts.latency_target_ns);
	sb_json_double(j, "latency_percentile",
		       jr->opts.latency_percentile > 0 ? jr->opts.latency_percentile : 100.0);
	sb_json_u64(j, "latency_window", jr->opts.latency_window_us);
	const char *desc = sb_fio_rawopt(r, jr, "description");
	if (desc && *desc)
		sb_json_str(j, "desc", desc);
	const struct sb_fio_ss *ss = jr->ss;
	if (!ss)
		return;
	/* fio 3.33's steadystate object (stat.c): the criterion and limit as
	 * fio spells them (a float's %f), the window's figures oldest first */
	char buf[96];
	sb_json_obj_open(j, "steadystate");
	snprintf(buf, sizeof(buf), "%s%s:%f%s", ss->flags & SB_SS_IOPS ? "iops" : "bw",
		 ss->flags & SB_SS_SLOPE ? "_slope" : "", (double)(float)ss->limit,
		 ss->flags & SB_SS_PCT ? "%" : "");
	sb_json_str(j, "ss", buf);
	sb_json_u64(j, "duration", ss->dur_s);
	sb_json_u64(j, "attained", !!ss->attained);
	snprintf(buf, sizeof(buf), "%f%s", (double)(float)ss->criterion,
		 ss->flags & SB_SS_PCT ? "%" : "");
	sb_json_str(j, "criterion", buf);
	sb_json_double(j, "max_deviation", ss->deviation);
	sb_json_double(j, "slope", ss->slope);
	sb_json_obj_open(j, "data");
	sb_json_u64(j, "bw_mean", sb_fio_ss_mean(ss, 0));
	sb_json_u64(j, "iops_mean", sb_fio_ss_mean(ss, 1));
	for (int k = 0; k < 2; k++) {
		const uint64_t *v = k ? ss->bw : ss->iops;
		sb_json_arr_open(j, k ? "bw" : "iops");
		for (unsigned i = 0; i < ss->n; i++)
			sb_json_u64(j, NULL, v[i]);
		sb_json_arr_close(j);
	}
	sb_json_obj_close(j);
	sb_json_obj_close(j);
}

/* fio's latency_ns, latency_us, latency_ms: percent of the requests (all
 * directions) whose completion latency lies below each key and at or
 * above the one before (latency_us's "2": 1 to 2 us), from the
 * histogram; fio shows a share below 0.01 but not 0 as 0.01 */
void sb_job_lat_shares(const struct sb_job_result *jr, struct sb_lat_shares *out)
{
	static const unsigned ends[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000 };
	double *units[] = { out->ns, out->us, out->ms };
	struct sb_hist all;
	sb_hist_init(&all);
	for (int d = 0; d < SB_DDIR_N; d++)
		sb_hist_merge(&all, &jr->dir[d].clat);
	uint64_t scale = 1;
	for (unsigned u = 0; u < 3; u++, scale *= 1000) {
		unsigned nkeys = u == 2 ? 12 : 10;
		for (unsigned k = 0; k < nkeys; k++) {
			uint64_t lo = k ? ends[k - 1] * scale : u ? scale : 0;
			double n = sb_hist_count_below(&all,
						       k < 11 ? ends[k] * scale : UINT64_MAX) -
				   sb_hist_count_below(&all, lo);
			double pct = all.count ? 100.0 * n / (double)all.count : 0;
			units[u][k] = n > 0 && pct < 0.01 ? 0.01 : pct;
		}
	}
	out->ns_total = all.count ? 100.0 * (double)sb_hist_count_below(&all, 1000) /
					    (double)all.count
				  : 0;
}

static void lat_buckets_json(struct sb_json *j, const struct sb_job_result *jr)
{
	static const char *const keys[] = { "2",   "4",	  "10",	 "20",	 "50",	 "100",
					    "250", "500", "750", "1000", "2000", ">=2000" };
	static const char *const units[] = { "latency_ns", "latency_us", "latency_ms" };
	struct sb_lat_shares sh;
	sb_job_lat_shares(jr, &sh);
	const double *v[] = { sh.ns, sh.us, sh.ms };
	for (unsigned u = 0; u < 3; u++) {
		sb_json_obj_open(j, units[u]);
		for (unsigned k = 0; k < (u == 2 ? 12u : 10u); k++)
			sb_json_double(j, keys[k], v[u][k]);
		sb_json_obj_close(j);
	}
}

/* A job, or one rank's part of it (c) in client_stats, or the "All
 * clients" entry there (all). */
static void job_json_as(struct sb_json *j, const struct sb_results *r,
			const struct sb_job_result *jr, const struct sb_client *c, int all);

static void job_json(struct sb_json *j, const struct sb_results *r, const struct sb_job_result *jr)
{
	job_json_as(j, r, jr, NULL, 0);
}

/* fio's client_stats: each rank's figures with its hostname, then "All
 * clients", for every job a multi-host run measured. */
static void clients_json(struct sb_json *j, const struct sb_results *r)
{
	int any = 0;
	for (size_t i = 0; i < r->njobs; i++)
		any |= r->jobs[i]->nclients > 0;
	if (!any)
		return;
	sb_json_arr_open(j, "client_stats");
	for (size_t i = 0; i < r->njobs; i++) {
		const struct sb_job_result *jr = r->jobs[i];
		for (unsigned k = 0; k < jr->nclients; k++)
			job_json_as(j, r, jr->clients[k].job, &jr->clients[k], 0);
		if (jr->nclients)
			job_json_as(j, r, jr, NULL, 1);
	}
	sb_json_arr_close(j);
}

static void job_json_as(struct sb_json *j, const struct sb_results *r,
			const struct sb_job_result *jr, const struct sb_client *c, int all)
{
	sb_json_obj_open(j, NULL);
	sb_json_str(j, "jobname", all ? "All clients" : jr->name);
	if (c) {
		sb_json_str(j, "hostname", c->host);
		sb_json_i64(j, "rank", c->rank);
	}
	if (all)
		sb_json_str(j, "job", jr->name);
	sb_json_u64(j, "groupid", jr->groupid);
	sb_json_i64(j, "error", jr->first_error.err);
	if (r->fio_layout)
		sb_json_u64(j, "eta", 0); /* fio's: seconds left when it wrote this */
	sb_json_u64(j, "elapsed", (jr->runtime_ns + 500000000) / 1000000000);
	if (r->fio_raw)
		rawopts_json(j, "job options", &jr->fio_opts);
	else
		job_options_json(j, "job options", jr);
	for (int d = 0; d < SB_DDIR_N; d++)
		dir_json(j, r, jr, d, r->json_plus);
	sb_json_obj_open(j, "sync");
	/* fio 3.33 counts fsyncs there, not fdatasyncs (its DDIR_DATASYNC is
	 * past total_io_u[]); lat_ns has both */
	sb_json_u64(j, "total_ios", jr->sync_lat.count - jr->datasyncs);
	hist_json(j, "lat_ns", &jr->sync_lat, 0);
	sb_json_obj_close(j);
	sb_json_u64(j, "job_runtime", jr->runtime_ns / 1000000);
	if (jr->start_unix_ns)
		sb_json_u64(j, "job_start", jr->start_unix_ns / 1000000);
	sb_json_double(j, "usr_cpu", jr->usr_cpu);
	sb_json_double(j, "sys_cpu", jr->sys_cpu);
	sb_json_u64(j, "ctx", jr->ctx);
	sb_json_u64(j, "majf", jr->majf);
	sb_json_u64(j, "minf", jr->minf);
	depth_json(j, jr);
	if (r->fio_layout)
		submit_json(j, jr);
	lat_buckets_json(j, jr);
	if (r->fio_layout)
		fio_tail_json(j, r, jr);

	sb_json_obj_open(j, "storbench");
	sb_json_u64(j, "runtime_ns", jr->runtime_ns);
	if (r->fio_raw)
		job_options_json(j, "options", jr);
	sb_json_obj_open(j, "conditions");
	sb_json_str(j, "engine", jr->engine);
	sb_json_bool(j, "direct", jr->opts.direct);
	sb_json_u64(j, "iodepth", jr->opts.iodepth);
	sb_json_u64(j, "numjobs", jr->opts.numjobs);
	if (jr->opts.batch_complete)
		sb_json_u64(j, "completion_batch", jr->opts.batch_complete);
	else
		sb_json_str(j, "completion_batch", "auto");
	sb_json_u64(j, "completion_settle_ns", jr->settle_ns);
	sb_json_str(j, "cache",
		    r->cache_dropped == 3   ? "dropped (BLKFLSBUF)"
		    : r->cache_dropped == 2 ? "dropped (drop_caches)"
		    : r->cache_dropped == 1 ? "dropped (fadvise)"
		    : jr->opts.direct	    ? "bypassed (direct I/O)"
					    : "warm");
	sb_json_obj_close(j);
	uint64_t ios = jr->dir[0].ios + jr->dir[1].ios + jr->dir[2].ios;
	sb_json_u64(j, "cpu_ns", jr->cpu_ns);
	sb_json_double(j, "cpu_ns_per_io", ios ? (double)jr->cpu_ns / (double)ios : 0);
	sb_json_double(j, "busiest_worker_cpu", jr->busiest_worker);
	sb_json_u64(j, "iou_workers", (uint64_t)jr->iou_workers);
	sb_json_double(j, "completions_per_wait",
		       jr->waits ? (double)jr->waited / (double)jr->waits : 0);
	sb_json_u64(j, "batched_waits", jr->batched);
	sb_json_u64(j, "errors", jr->errors);
	if (jr->first_error.err) {
		sb_json_obj_open(j, "first_error");
		sb_json_str(j, "direction", sb_ddir_name(jr->first_error.ddir));
		sb_json_u64(j, "offset", jr->first_error.offset);
		sb_json_u64(j, "length", jr->first_error.len);
		sb_json_i64(j, "errno", jr->first_error.err);
		sb_json_str(j, "error", strerror(jr->first_error.err));
		sb_json_obj_close(j);
	}
	sb_json_bool(j, "interrupted", jr->interrupted);
	if (jr->stonewalled)
		sb_json_bool(j, "stonewalled", 1);
	if (jr->have_diskstat)
		diskstat_json(j, "disk_util", r->target.devname, &jr->ds_before, &jr->ds_after,
			      jr->ds_elapsed_ns);
	sb_json_u64(j, "log_interval_ns", jr->series.interval_ns);
	series_json(j, &jr->series);
	if (c) {
		sb_json_double(j, "clock_offset_s", c->clock_offset_s);
		sb_json_double(j, "clock_rtt_s", c->clock_rtt_s);
		sb_json_double(j, "start_s", c->start_s);
		sb_json_double(j, "end_s", c->end_s);
	}
	if (jr->skew)
		skew_json(j, jr);
	if (c || jr->nclients)
		bins_json(j, jr);
	sb_json_obj_close(j);
	sb_json_obj_close(j);
}

static void target_json(struct sb_json *j, const struct sb_results *r)
{
	static const char *const kinds[] = { "new file", "file", "directory", "block device",
					     "other" };
	const struct sb_target_info *t = &r->target;
	sb_json_obj_open(j, "target");
	sb_json_str(j, "path", r->target_path);
	sb_json_str(j, "kind", kinds[t->kind]);
	sb_json_bool(j, "created", r->target_created);
	sb_json_str(j, "device", t->devname[0] ? t->devname : NULL);
	sb_json_str(j, "disk", t->disk[0] ? t->disk : NULL);
	sb_json_str(j, "model", t->model[0] ? t->model : NULL);
	sb_json_u64(j, "capacity", t->capacity);
	sb_json_u64(j, "logical_block_size", t->logical_bs);
	sb_json_u64(j, "physical_block_size", t->physical_bs);
	if (t->rotational >= 0)
		sb_json_bool(j, "rotational", t->rotational);
	else
		sb_json_null(j, "rotational");
	sb_json_str(j, "scheduler", t->scheduler[0] ? t->scheduler : NULL);
	sb_json_str(j, "write_cache", t->write_cache[0] ? t->write_cache : NULL);
	sb_json_str(j, "filesystem", t->fstype[0] ? t->fstype : NULL);
	sb_json_str(j, "mountpoint", t->mountpoint[0] ? t->mountpoint : NULL);
	sb_json_bool(j, "in_ram", sb_target_in_ram(t));
	sb_json_obj_close(j);
}

/* The fields of one state (the target's, or a rank's). */
static void state_fields(struct sb_json *j, const struct sb_state *st)
{
	sb_json_str(j, "name", st->name);
	sb_json_str(j, "precondition", sb_precond_name(st->precond));
	if (st->precond == SB_PRECOND_PURGE) {
		sb_json_str(j, "purge", sb_purge_name(st->purge));
		sb_json_str(j, "purge_asked", sb_purge_name(st->purge_asked));
		sb_json_str(j, "purge_method", st->purge_how[0] ? st->purge_how : NULL);
	}
	if (st->precond == SB_PRECOND_FILL || st->precond == SB_PRECOND_FILL_RANDOM) {
		sb_json_u64(j, "block_size",
			    st->precond == SB_PRECOND_FILL ? SB_PRECOND_FILL_BS
							   : SB_PRECOND_RANDOM_BS);
		if (st->precond == SB_PRECOND_FILL_RANDOM)
			sb_json_u64(j, "amount_bytes", st->amount);
		sb_json_u64(j, "written_bytes", st->written);
	}
	if (st->precond != SB_PRECOND_NONE)
		sb_json_u64(j, "precondition_ns", st->took_ns);
	sb_json_u64(j, "region_offset", st->region_offset);
	sb_json_u64(j, "region_bytes", st->region_bytes);
	sb_json_bool(j, "discard_before", st->discarded);
	if (st->discarded) {
		sb_json_str(j, "discard_method", st->discard_method);
		sb_json_u64(j, "discard_bytes", st->discard_bytes);
	}
}

/* The state the target was brought to before the measurement; under
 * mpirun rank 0's, and every rank's in "ranks". */
static void state_json(struct sb_json *j, const struct sb_results *r)
{
	sb_json_obj_open(j, "state");
	state_fields(j, &r->state);
	if (r->nrank_states) {
		sb_json_arr_open(j, "ranks");
		for (unsigned i = 0; i < r->nrank_states; i++) {
			const struct sb_rank_state *k = &r->rank_states[i];
			sb_json_obj_open(j, NULL);
			sb_json_i64(j, "rank", k->rank);
			sb_json_str(j, "hostname", k->host);
			sb_json_str(j, "path", k->path);
			state_fields(j, &k->state);
			sb_json_obj_close(j);
		}
		sb_json_arr_close(j);
	}
	sb_json_obj_close(j);
}

static void host_json(struct sb_json *j, const struct sb_host *h)
{
	sb_json_obj_open(j, "host");
	sb_json_str(j, "hostname", h->hostname);
	sb_json_str(j, "kernel", h->kernel);
	sb_json_str(j, "arch", h->machine);
	sb_json_str(j, "cpu", h->cpu_model);
	sb_json_u64(j, "cpus", h->ncpus);
	sb_json_u64(j, "mem_total", h->mem_total);
	sb_json_u64(j, "mem_available", h->mem_available);
	sb_json_obj_close(j);
}

static void summary_json(struct sb_json *j, const struct sb_results *r)
{
	sb_json_arr_open(j, "summary");
	for (size_t i = 0; i < r->nsummary; i++) {
		const struct sb_summary_row *s = &r->summary[i];
		sb_json_obj_open(j, NULL);
		sb_json_str(j, "test", s->test);
		sb_json_str(j, "direction", sb_ddir_name(s->ddir));
		sb_json_u64(j, "runs", s->nruns);
		if (s->ndiscarded)
			sb_json_u64(j, "runs_discarded", s->ndiscarded);
		sb_json_double(j, "bw_bytes_median", s->bw_median);
		sb_json_double(j, "bw_bytes_min", s->bw_min);
		sb_json_double(j, "bw_bytes_max", s->bw_max);
		sb_json_double(j, "iops_median", s->iops_median);
		sb_json_double(j, "iops_min", s->iops_min);
		sb_json_double(j, "iops_max", s->iops_max);
		sb_json_double(j, "lat_mean_ns_median", s->lat_mean_median_ns);
		sb_json_u64(j, "lat_p99_ns_median", s->lat_p99_median_ns);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

/* fio's top-level disk_util: the device's counters over every job. */
static void disk_util_json(struct sb_json *j, const struct sb_results *r)
{
	struct sb_diskstat a, b;
	uint64_t elapsed = 0;
	int have = 0;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	for (size_t i = 0; i < r->njobs; i++) {
		const struct sb_job_result *jr = r->jobs[i];
		if (!jr->have_diskstat)
			continue;
		const uint64_t *x = (const uint64_t *)&jr->ds_before;
		const uint64_t *y = (const uint64_t *)&jr->ds_after;
		uint64_t *sum = (uint64_t *)&b;
		for (size_t k = 0; k < sizeof(b) / sizeof(uint64_t); k++)
			sum[k] += y[k] - x[k];
		elapsed += jr->ds_elapsed_ns;
		have = 1;
	}
	sb_json_arr_open(j, "disk_util");
	if (have)
		diskstat_json(j, NULL, r->target.devname, &a, &b, elapsed);
	sb_json_arr_close(j);
}

static void warning_line(const char *line, void *j)
{
	sb_json_str(j, NULL, line);
}

int sb_results_write_json(const struct sb_results *r, FILE *f)
{
	struct sb_json j;
	char when[64], fio[128];
	struct tm tm;
	/* fio's: when the report is written (each --status-interval one its
	 * own); storbench's own: when the run started */
	struct timespec now = { r->started, 0 };
	if (r->fio_layout)
		clock_gettime(CLOCK_REALTIME, &now);

	localtime_r(&now.tv_sec, &tm);
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	sb_json_begin(&j, f, 0);
	sb_json_obj_open(&j, NULL);
	snprintf(fio, sizeof(fio), SB_FIO_LAYOUT " (storbench %s)", sb_version());
	sb_json_str(&j, "fio version", fio);
	sb_json_u64(&j, "timestamp", (uint64_t)now.tv_sec);
	sb_json_u64(&j, "timestamp_ms",
		    (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000);
	sb_json_str(&j, "time", when);
	if (r->fio_raw) {
		rawopts_json(&j, "global options", &r->fio_global);
	} else {
		sb_json_obj_open(&j, "global options");
		sb_json_str(&j, "filename", r->target_path);
		sb_json_obj_close(&j);
	}
	sb_json_arr_open(&j, "jobs");
	for (size_t i = 0; i < r->njobs; i++)
		job_json(&j, r, r->jobs[i]);
	sb_json_arr_close(&j);
	clients_json(&j, r);
	disk_util_json(&j, r);

	sb_json_obj_open(&j, "storbench");
	sb_json_u64(&j, "schema_version", SB_SCHEMA_VERSION);
	sb_json_str(&j, "version", sb_version());
	sb_json_str(&j, "features", sb_features());
	sb_json_str(&j, "command", r->command);
	if (r->job_file[0])
		sb_json_str(&j, "job_file", r->job_file);
	sb_json_bool(&j, "interrupted", r->interrupted);
	if (r->nranks) {
		sb_json_obj_open(&j, "mpi");
		sb_json_str(&j, "library", r->mpi_library);
		sb_json_u64(&j, "ranks", r->nranks);
		sb_json_bool(&j, "stonewall", r->stonewall);
		sb_json_obj_close(&j);
	}
	host_json(&j, &r->host);
	target_json(&j, r);
	if (r->have_state)
		state_json(&j, r);
	if (r->have_device)
		sb_devinfo_json(&j, "device", &r->device);
	if (r->have_health)
		sb_health_pair_json(&j, "health", &r->health[0], &r->health[1]);
	summary_json(&j, r);
	sb_json_arr_open(&j, "warnings");
	for (size_t i = 0; i < r->nwarnings; i++)
		sb_json_str(&j, NULL, r->warnings[i]);
	sb_json_arr_close(&j);
	/* each warning once, with its runs: as the program said them, for
	 * the reports (report/model.c) */
	sb_json_arr_open(&j, "warning_lines");
	sb_results_warnings(r, warning_line, &j);
	sb_json_arr_close(&j);
	if (r->extra_json && r->extra_key) {
		sb_json_obj_open(&j, r->extra_key);
		r->extra_json(&j, r->extra_ctx);
		sb_json_obj_close(&j);
	}
	sb_json_obj_close(&j);
	sb_json_obj_close(&j);
	if (!j.err)
		fputc('\n', f);
	return sb_json_end(&j);
}
