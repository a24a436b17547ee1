/*
 * storbench latency: what it prints. ioping's request lines and statistics,
 * dd's and hdparm's own lines where a preset reproduces them, percentiles.
 * The "latency" section of the JSON results is lib's (sb_results_latency).
 */
#include "cli/latency.h"
#include "lib/storbench.h"
#include "report/report.h"

void cli_lat_describe_target(struct lat_out *o, const struct sb_target_info *t)
{
	char cap[32];
	const int blk = t->kind == SB_TARGET_BLOCK;
	sb_fmt_size(t->capacity, cap, sizeof(cap));
	if (blk)
		snprintf(o->where, sizeof(o->where), "block device %s", cap);
	else if (t->devname[0])
		snprintf(o->where, sizeof(o->where), "%s /dev/%s %s", t->fstype, t->devname, cap);
	else
		snprintf(o->where, sizeof(o->where), "%s", t->fstype[0] ? t->fstype : "file");
}

void cli_lat_progress_start(struct lat_out *o, int quiet)
{
	cli_progress_init(&o->pg, quiet || o->per_request);
	sb_rate_reset(&o->rate);
	o->progress = !o->pg.quiet;
	o->since_check_ns = 0;
}

void cli_lat_progress_end(struct lat_out *o)
{
	if (o->progress)
		cli_progress_clear(&o->pg);
}

/* "latency, hdparm: 40% 1.2 GiB 410 MiB/s 3.3k IOPS  elapsed 1s  ETA 2s" */
static void progress(struct lat_out *o, uint64_t n)
{
	const struct sb_lat_run *lr = o->lr;
	const struct sb_probe_params *p = &lr->p;
	const uint64_t now = sb_now_ns(), el = now - o->pg.start_ns;
	sb_rate_add(&o->rate, now, n * p->bs, n);
	if (!cli_progress_due(&o->pg, now))
		return;
	/* the nearest of the limits: a request count, the region's end, a run time */
	double pct = -1, eta = -1;
	uint64_t total = 0;
	const uint64_t limit_ns = p->deadline_ns ? p->deadline_ns : p->min_time_ns;
	if (p->count && n) {
		pct = 100.0 * (double)SB_MIN(n, p->count) / (double)p->count;
		eta = n < p->count ? (double)el / (double)n * (double)(p->count - n) : 0;
	}
	const uint64_t blocks = p->stop_at_end && p->pattern == SB_PROBE_SEQ ? p->size / p->bs : 0;
	if (blocks && n) {
		const double b = 100.0 * (double)SB_MIN(n, blocks) / (double)blocks;
		if (b > pct)
			pct = b,
			eta = n < blocks ? (double)el / (double)n * (double)(blocks - n) : 0,
			total = blocks * p->bs;
	}
	if (limit_ns) {
		const double t = 100.0 * (double)SB_MIN(el, limit_ns) / (double)limit_ns,
			     e = el < limit_ns ? (double)(limit_ns - el) : 0;
		if (t > pct)
			pct = t, eta = e, total = 0;
	}
	struct cli_line l = {
		.label = "latency",
		.what = sb_lat_preset_name(lr->preset),
		.pct = pct,
		.done = n * p->bs,
		.total = total,
		.bps = -1,
		.ops = -1,
		.elapsed_ns = el,
		.eta_ns = eta,
	};
	double bps, ops;
	if (sb_rate_get(&o->rate, now, n * p->bs, n, &bps, &ops) == 0)
		l.bps = bps, l.ops = ops;
	cli_progress_draw(&o->pg, &l, now);
}

void cli_lat_on_request(void *ctx, const struct sb_lat_run *lr, const struct sb_probe_req *r)
{
	struct lat_out *o = ctx;
	if (o->progress) {
		o->since_check_ns += r->ns + lr->p.interval_ns;
		if (o->since_check_ns >= 50000000ull) {
			o->since_check_ns = 0;
			progress(o, r->n);
		}
	}
	if (!o->per_request)
		return;
	char a[32], b[32];
	fprintf(o->lines, "%s %s %s (%s): request=%llu time=%s%s\n",
		sb_fmt_size(lr->p.bs, a, sizeof(a)), lr->p.write ? ">>>" : "<<<", lr->path,
		o->where, (unsigned long long)r->n, sb_fmt_ns((double)r->ns, b, sizeof(b)),
		r->warmup     ? " (warmup)"
		: r->mark < 0 ? " (fast)"
		: r->mark > 0 ? " (slow)"
			      : "");
	fflush(o->lines);
}

/* ---- text ---- */

static void ioping_summary(FILE *f, const struct lat_out *o)
{
	const struct sb_lat_run *lr = o->lr;
	const struct sb_ioping *st = &lr->st;
	char a[32], b[32], c[32], d[32];
	fprintf(f, "\n--- %s (%s) ioping statistics ---\n", lr->path, o->where);
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

void cli_lat_print_text(FILE *f, const struct lat_out *o)
{
	struct sb_lat_run *lr = o->lr;
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
	ioping_summary(f, o);
	percentile_line(f, lr);
	conditions_line(f, lr);
}
