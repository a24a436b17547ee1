/*
 * storbench latency: what it prints. ioping's request lines and statistics,
 * dd's and hdparm's own lines where a preset reproduces them, percentiles,
 * and the "latency" section of the JSON results.
 */
#include "cli/latency.h"
#include "lib/storbench.h"

#include <math.h>

static const double lat_pcts[] = { 1, 5, 10, 50, 90, 95, 99, 99.9, 99.99 };

const char *cli_lat_preset_name(enum lat_preset p)
{
	static const char *const names[] = { "ioping", "dd-sync", "hdparm", "hdparm-cache" };
	return names[p];
}

static const char *pattern_name(enum sb_probe_pattern p)
{
	return p == SB_PROBE_RANDOM ? "random" : p == SB_PROBE_SEQ ? "sequential" : "fixed";
}

void cli_lat_describe_target(struct lat_run *lr, const struct sb_target_info *t)
{
	char cap[32];
	const int blk = t->kind == SB_TARGET_BLOCK;
	sb_fmt_size(t->capacity, cap, sizeof(cap));
	if (blk)
		snprintf(lr->where, sizeof(lr->where), "block device %s", cap);
	else if (t->devname[0])
		snprintf(lr->where, sizeof(lr->where), "%s /dev/%s %s", t->fstype, t->devname, cap);
	else
		snprintf(lr->where, sizeof(lr->where), "%s", t->fstype[0] ? t->fstype : "file");
}

void cli_lat_on_request(void *ctx, const struct sb_probe_req *r)
{
	struct lat_run *lr = ctx;
	if (lr->nrec == lr->rec_cap && lr->rec_cap < LAT_MAX_RECORDS) {
		size_t cap = lr->rec_cap ? SB_MIN(2 * lr->rec_cap, (size_t)LAT_MAX_RECORDS) : 256;
		struct lat_record *v = realloc(lr->rec, cap * sizeof(*v));
		if (v) {
			lr->rec = v;
			lr->rec_cap = cap;
		}
	}
	if (lr->nrec < lr->rec_cap)
		lr->rec[lr->nrec++] = (struct lat_record){ r->offset, r->ns, r->warmup };
	else
		lr->rec_truncated = 1;
	if (!lr->per_request)
		return;
	char a[32], b[32];
	fprintf(lr->lines, "%s %s %s (%s): request=%llu time=%s%s\n",
		sb_fmt_size(lr->p.bs, a, sizeof(a)), lr->p.write ? ">>>" : "<<<", lr->path,
		lr->where, (unsigned long long)r->n, sb_fmt_ns((double)r->ns, b, sizeof(b)),
		r->warmup ? " (warmup)" : r->mark < 0 ? " (fast)" : r->mark > 0 ? " (slow)" : "");
	fflush(lr->lines);
}

/* ---- the original tools' lines ---- */

static double hdparm_seconds(const struct lat_run *lr)
{
	uint64_t ns = lr->st.wall_ns;
	if (lr->preset == LAT_HDPARM_CACHE)
		ns = ns > lr->overhead_ns ? ns - lr->overhead_ns : 0;
	return (double)ns / 1e9;
}

/* hdparm.c: time_device / time_cache ("MB" there is MiB) */
void cli_lat_hdparm_line(const struct lat_run *lr, char *buf, size_t len)
{
	const double mb = (double)lr->st.count * lr->p.bs / 1048576.0, s = hdparm_seconds(lr);
	const int cache = lr->preset == LAT_HDPARM_CACHE;
	const int fast = s > 0 && (cache ? mb >= s : mb / s > 1.0);
	const char *kind = cache ? (lr->direct ? "O_DIRECT cached reads" : "cached reads")
				 : (lr->direct ? "O_DIRECT disk reads" : "buffered disk reads");
	snprintf(buf, len, "Timing %s: %3.0f MB in %5.2f seconds = %6.2f %s", kind, mb, s,
		 s > 0 ? (fast ? mb / s : mb / s * 1024) : 0.0, fast ? "MB/sec" : "kB/sec");
}

/* gnulib human_readable as dd uses it: 3 significant digits, one decimal
 * below 10 for exact byte counts, below 100 for rates. */
static void dd_human(double v, double base, int rate, char *buf, size_t len, const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	const char *const *pre = base == 1000 ? si : iec;
	unsigned p = 0;
	while (v >= base && p < 6) {
		v /= base;
		p++;
	}
	const double one_decimal_below = rate ? 99.95 : 9.95;
	if (p && v < one_decimal_below) {
		snprintf(buf, len, "%.1f %s%s", v, pre[p], unit);
		return;
	}
	double r = round(v);
	if (r >= base && p < 6) {
		snprintf(buf, len, "%.1f %s%s", r / base, pre[p + 1], unit);
		return;
	}
	snprintf(buf, len, "%.0f %s%s", r, pre[p], unit);
}

/* coreutils dd: print_stats / print_xfer_stats */
void cli_lat_dd_lines(const struct lat_run *lr, char *buf, size_t len)
{
	const uint64_t n = lr->st.count, bytes = n * lr->p.bs;
	const double s = (double)lr->st.wall_ns / 1e9;
	char sib[32], iecb[32], rate[32], secs[32];
	dd_human((double)bytes, 1000, 0, sib, sizeof(sib), "B");
	dd_human((double)bytes, 1024, 0, iecb, sizeof(iecb), "B");
	if (s > 0)
		dd_human((double)bytes / s, 1000, 1, rate, sizeof(rate), "B/s");
	else
		snprintf(rate, sizeof(rate), "Infinity B/s");
	snprintf(secs, sizeof(secs), "%g s", s);
	int k = snprintf(buf, len, "%llu+0 records in\n%llu+0 records out\n", (unsigned long long)n,
			 (unsigned long long)n);
	if (k < 0 || (size_t)k >= len)
		return;
	if (bytes < 1000)
		snprintf(buf + k, len - (size_t)k, "%llu byte%s copied, %s, %s",
			 (unsigned long long)bytes, bytes == 1 ? "" : "s", secs, rate);
	else if (bytes < 1024)
		snprintf(buf + k, len - (size_t)k, "%llu bytes (%s) copied, %s, %s",
			 (unsigned long long)bytes, sib, secs, rate);
	else
		snprintf(buf + k, len - (size_t)k, "%llu bytes (%s, %s) copied, %s, %s",
			 (unsigned long long)bytes, sib, iecb, secs, rate);
}

/* ---- text ---- */

static void ioping_summary(FILE *f, struct lat_run *lr)
{
	const struct sb_ioping *st = &lr->st;
	char a[32], b[32], c[32], d[32];
	fprintf(f, "\n--- %s (%s) ioping statistics ---\n", lr->path, lr->where);
	fprintf(f, "%llu requests completed in %s, %s %s, %s iops, %s\n",
		(unsigned long long)st->valid, sb_fmt_ns((double)st->sum_ns, a, sizeof(a)),
		sb_fmt_size(st->valid * st->size, b, sizeof(b)), lr->p.write ? "written" : "read",
		sb_fmt_count(sb_ioping_iops(st), c, sizeof(c)),
		sb_fmt_rate(sb_ioping_speed(st), d, sizeof(d)));
	fprintf(f, "generated %llu requests in %s, %s, %s iops, %s\n",
		(unsigned long long)st->count, sb_fmt_ns((double)st->wall_ns, a, sizeof(a)),
		sb_fmt_size(st->count * st->size, b, sizeof(b)),
		sb_fmt_count(sb_ioping_load_iops(st), c, sizeof(c)),
		sb_fmt_rate(sb_ioping_load_speed(st), d, sizeof(d)));
	fprintf(f, "min/avg/max/mdev = %s / %s / %s / %s\n",
		sb_fmt_ns((double)sb_ioping_min(st), a, sizeof(a)),
		sb_fmt_ns(sb_ioping_avg(st), b, sizeof(b)),
		sb_fmt_ns((double)sb_ioping_max(st), c, sizeof(c)),
		sb_fmt_ns(sb_ioping_mdev(st), d, sizeof(d)));
}

static void percentile_line(FILE *f, struct lat_run *lr)
{
	static const double show[] = { 50, 90, 99, 99.9 };
	char a[32];
	if (!lr->st.valid)
		return;
	fprintf(f, "percentiles:");
	for (size_t i = 0; i < SB_ARRAY_SIZE(show); i++)
		fprintf(f, "  p%g %s", show[i],
			sb_fmt_ns((double)sb_ioping_percentile(&lr->st, show[i]), a, sizeof(a)));
	fprintf(f, "%s\n", sb_ioping_exact(&lr->st) ? "" : " (within 1%)");
}

static void conditions_line(FILE *f, const struct lat_run *lr)
{
	char a[32], b[32], c[32], d[32];
	fprintf(f, "%s%s, %s %s %s over %s at offset %s", lr->direct ? "direct I/O" : "buffered",
		lr->dsync ? " + O_DSYNC" : "", pattern_name(lr->p.pattern),
		sb_fmt_size(lr->p.bs, a, sizeof(a)), lr->p.write ? "writes" : "reads",
		sb_fmt_size(lr->p.size, b, sizeof(b)), sb_fmt_size(lr->p.offset, c, sizeof(c)));
	if (lr->p.interval_ns)
		fprintf(f, ", every %s", sb_fmt_ns((double)lr->p.interval_ns, d, sizeof(d)));
	if (lr->p.warmup)
		fprintf(f, ", %u warm-up", lr->p.warmup);
	if (lr->p.drop_cache)
		fprintf(f, ", pages dropped before each request");
	else if (lr->cache_method)
		fprintf(f, ", cache dropped before (%s)", sb_cache_method_name(lr->cache_method));
	fprintf(f, "%s\n", lr->interrupted ? " (interrupted)" : "");
}

void cli_lat_print_text(FILE *f, struct lat_run *lr)
{
	char line[512], a[32], b[32];
	const struct sb_ioping *st = &lr->st;
	if (lr->preset == LAT_DD_SYNC) {
		cli_lat_dd_lines(lr, line, sizeof(line));
		fprintf(f, "%s\n", line);
		fprintf(f, "per write: %s (elapsed / writes)\n",
			sb_fmt_ns(st->count ? (double)st->wall_ns / (double)st->count : 0, a,
				  sizeof(a)));
	} else if (lr->preset != LAT_IOPING) {
		cli_lat_hdparm_line(lr, line, sizeof(line));
		fprintf(f, "%s\n", line);
		const double s = hdparm_seconds(lr);
		fprintf(f, "storbench: %s in %s = %s (hdparm's MB is MiB)\n",
			sb_fmt_size(st->count * st->size, a, sizeof(a)), sb_fmt_ns(s * 1e9, b, sizeof(b)),
			sb_fmt_rate(s > 0 ? (double)(st->count * st->size) / s : 0, line,
				    sizeof(line)));
	}
	ioping_summary(f, lr);
	percentile_line(f, lr);
	conditions_line(f, lr);
}

/* ---- JSON ---- */

static void stats_json(struct sb_json *j, struct lat_run *lr)
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
	for (size_t i = 0; st->valid && i < SB_ARRAY_SIZE(lat_pcts); i++) {
		snprintf(k, sizeof(k), "%f", lat_pcts[i]);
		sb_json_u64(j, k, sb_ioping_percentile(st, lat_pcts[i]));
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

static void preset_json(struct sb_json *j, const struct lat_run *lr)
{
	char line[512];
	if (lr->preset == LAT_DD_SYNC) {
		cli_lat_dd_lines(lr, line, sizeof(line));
		sb_json_obj_open(j, "dd");
		sb_json_str(j, "line", strrchr(line, '\n') ? strrchr(line, '\n') + 1 : line);
		sb_json_u64(j, "bytes", lr->st.count * lr->st.size);
		sb_json_double(j, "seconds", (double)lr->st.wall_ns / 1e9);
		sb_json_obj_close(j);
	} else if (lr->preset != LAT_IOPING) {
		cli_lat_hdparm_line(lr, line, sizeof(line));
		sb_json_obj_open(j, "hdparm");
		sb_json_str(j, "line", line);
		sb_json_double(j, "mib", (double)lr->st.count * lr->st.size / 1048576.0);
		sb_json_double(j, "seconds", hdparm_seconds(lr));
		sb_json_u64(j, "overhead_ns", lr->overhead_ns);
		sb_json_obj_close(j);
	}
}

static void log_json(struct sb_json *j, const struct lat_run *lr)
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

static void extra_json(struct sb_json *j, const void *ctx)
{
	struct lat_run *lr = (struct lat_run *)ctx;
	sb_json_str(j, "preset", cli_lat_preset_name(lr->preset));
	sb_json_str(j, "pattern", pattern_name(lr->p.pattern));
	sb_json_str(j, "direction", lr->p.write ? "write" : "read");
	sb_json_u64(j, "request_size", lr->p.bs);
	sb_json_bool(j, "direct", lr->direct);
	sb_json_bool(j, "dsync", lr->dsync);
	sb_json_u64(j, "region_offset", lr->p.offset);
	sb_json_u64(j, "region_size", lr->p.size);
	sb_json_u64(j, "interval_ns", lr->p.interval_ns);
	sb_json_u64(j, "warmup", lr->p.warmup);
	sb_json_str(j, "cache", lr->p.drop_cache ? "fadvise per request"
				: lr->cache_method ? sb_cache_method_name(lr->cache_method)
				: lr->direct ? "bypassed" : "warm");
	sb_json_bool(j, "interrupted", lr->interrupted);
	stats_json(j, lr);
	preset_json(j, lr);
	log_json(j, lr);
}

static void job_opts(struct sb_job_opts *o, const struct lat_run *lr)
{
	sb_job_opts_default(o);
	snprintf(o->name, sizeof(o->name), "%s", cli_lat_preset_name(lr->preset));
	const int rnd = lr->p.pattern == SB_PROBE_RANDOM;
	o->rw = lr->p.write ? (rnd ? SB_RW_RANDWRITE : SB_RW_WRITE) : (rnd ? SB_RW_RANDREAD : SB_RW_READ);
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

int cli_lat_fill_results(struct sb_results *res, struct lat_run *lr)
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
		jr->first_error = (struct sb_io_error){ lr->fail_offset, lr->p.bs, d, -lr->failed };
	}
	res->interrupted = lr->interrupted;
	res->cache_dropped = lr->cache_method;
	res->extra_key = "latency";
	res->extra_json = extra_json;
	res->extra_ctx = lr;
	return 0;
}
