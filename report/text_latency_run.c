/*
 * storbench latency's text (report.h): ioping's request lines and
 * statistics, dd's and hdparm's own lines where a preset reproduces them,
 * percentiles, from the run's struct sb_lat_run. The "latency" section of
 * the JSON results is lib's (sb_results_latency).
 */
#include "report/report.h"

void rep_lat_where(const struct sb_target_info *t, char *where, size_t len)
{
	char cap[32];
	const int blk = t->kind == SB_TARGET_BLOCK;
	sb_fmt_size(t->capacity, cap, sizeof(cap));
	if (blk)
		snprintf(where, len, "block device %s", cap);
	else if (t->devname[0])
		snprintf(where, len, "%s /dev/%s %s", t->fstype, t->devname, cap);
	else
		snprintf(where, len, "%s", t->fstype[0] ? t->fstype : "file");
}

void rep_lat_request_text(FILE *f, const struct sb_lat_run *lr, const char *where,
			  const struct sb_probe_req *r)
{
	char a[32], b[32];
	fprintf(f, "%s %s %s (%s): request=%llu time=%s%s\n", sb_fmt_size(lr->p.bs, a, sizeof(a)),
		lr->p.write ? ">>>" : "<<<", lr->path, where, (unsigned long long)r->n,
		sb_fmt_ns((double)r->ns, b, sizeof(b)),
		r->warmup     ? " (warmup)"
		: r->mark < 0 ? " (fast)"
		: r->mark > 0 ? " (slow)"
			      : "");
}

static void ioping_summary(FILE *f, const struct sb_lat_run *lr, const char *where)
{
	const struct sb_ioping *st = &lr->st;
	char a[32], b[32], c[32], d[32];
	fprintf(f, "\n--- %s (%s) ioping statistics ---\n", lr->path, where);
	fprintf(f, "%llu requests completed in %s, %s %s, %s iops, %s\n",
		(unsigned long long)st->valid, sb_fmt_ns((double)st->sum_ns, a, sizeof(a)),
		sb_fmt_size(st->valid * st->size, b, sizeof(b)), lr->p.write ? "written" : "read",
		sb_fmt_count(sb_ioping_iops(st), c, sizeof(c)),
		rep_fmt_rate(sb_ioping_speed(st), d, sizeof(d)));
	fprintf(f, "generated %llu requests in %s, %s, %s iops, %s\n",
		(unsigned long long)st->count, sb_fmt_ns((double)st->wall_ns, a, sizeof(a)),
		sb_fmt_size(st->count * st->size, b, sizeof(b)),
		sb_fmt_count(sb_ioping_load_iops(st), c, sizeof(c)),
		rep_fmt_rate(sb_ioping_load_speed(st), d, sizeof(d)));
	fprintf(f, "min/avg/max/mdev = %s / %s / %s / %s\n",
		sb_fmt_ns((double)sb_ioping_min(st), a, sizeof(a)),
		sb_fmt_ns(sb_ioping_avg(st), b, sizeof(b)),
		sb_fmt_ns((double)sb_ioping_max(st), c, sizeof(c)),
		sb_fmt_ns(sb_ioping_mdev(st), d, sizeof(d)));
}

static void percentile_line(FILE *f, struct sb_lat_run *lr)
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

static void conditions_line(FILE *f, const struct sb_lat_run *lr)
{
	char a[32], b[32], c[32], d[32];
	fprintf(f, "%s%s, %s %s %s over %s at offset %s", lr->direct ? "direct I/O" : "buffered",
		lr->dsync ? " + O_DSYNC" : "", sb_lat_pattern_name(lr->p.pattern),
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
	if (lr->p.settle_ns) {
		char e[32];
		fprintf(f, ", sync and %s idle first",
			sb_fmt_ns((double)lr->p.settle_ns, e, sizeof(e)));
	}
	if (lr->cache_after)
		fprintf(f, ", cache dropped after (%s)", sb_cache_method_name(lr->cache_after));
	fprintf(f, "%s\n", lr->interrupted ? " (interrupted)" : "");
}

void rep_lat_run_text(FILE *f, struct sb_lat_run *lr, const char *where)
{
	char line[512], a[32], b[32];
	const struct sb_ioping *st = &lr->st;
	if (lr->preset == SB_LAT_DD_SYNC) {
		sb_lat_dd_lines(lr, line, sizeof(line));
		fprintf(f, "%s\n", line);
		fprintf(f, "per write: %s (elapsed / writes)\n",
			sb_fmt_ns(st->count ? (double)st->wall_ns / (double)st->count : 0, a,
				  sizeof(a)));
	} else if (lr->preset != SB_LAT_IOPING) {
		sb_lat_hdparm_line(lr, line, sizeof(line));
		fprintf(f, "\n%s:\n %s\n", lr->path, line); /* hdparm's layout */
		const double s = sb_lat_hdparm_seconds(lr);
		fprintf(f, "storbench: %s in %s = %s (hdparm's MB is MiB)\n",
			sb_fmt_size(st->count * st->size, a, sizeof(a)),
			sb_fmt_ns(s * 1e9, b, sizeof(b)),
			rep_fmt_rate(s > 0 ? (double)(st->count * st->size) / s : 0, line,
				     sizeof(line)));
	}
	ioping_summary(f, lr, where);
	percentile_line(f, lr);
	conditions_line(f, lr);
}
