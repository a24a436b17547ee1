/* storbench cliff's live line and its summary (cli/cliff.h). */
#include "cli/cliff_cmd.h"
#include "report/report.h"

/* Until the fill stops: once the drop is known, until the level after
 * the last change has held long enough; before, until the region ends at
 * the current rate. Then the recoveries' idle times. */
static double eta_ns(const struct cliff_ctx *c, const struct sb_cliff_progress *p, double bps)
{
	double eta = 0;
	for (unsigned i = p->phase ? (unsigned)p->phase - 1 : 0; i < c->nrecovery; i++)
		eta += (double)c->recovery_ns[i];
	if (p->phase) {
		if (p->idle)
			eta -= (double)p->elapsed_ns;
		return eta > 0 ? eta : 0;
	}
	const struct sb_cliff_find *f = p->find;
	if (f && f->found) {
		double need = SB_MAX(SB_CLIFF_AFTER_FACTOR * f->cache_ns, SB_CLIFF_MIN_AFTER_NS);
		double left = need - ((double)p->elapsed_ns - f->last_change_ns);
		return eta + (left > 0 ? left : 0);
	}
	if (!(bps > 0))
		return -1;
	double left = (double)(p->total_bytes - SB_MIN(p->bytes, p->total_bytes)) / bps * 1e9;
	if (c->max_time_ns &&
	    (double)(c->max_time_ns - SB_MIN(c->max_time_ns, p->elapsed_ns)) < left)
		left = (double)(c->max_time_ns - SB_MIN(c->max_time_ns, p->elapsed_ns));
	return eta + left;
}

void cli_cliff_progress(void *ctx, const struct sb_cliff_progress *p)
{
	struct cliff_ctx *c = ctx;
	const uint64_t now = sb_now_ns();
	char what[64], a[32];
	if (p->phase != c->phase || p->idle != c->idle) {
		sb_rate_reset(&c->rate);
		c->phase = p->phase;
		c->idle = p->idle;
	}
	sb_rate_add(&c->rate, now, p->bytes, 0);
	if (!cli_progress_due(&c->pg, now))
		return;
	double bps = -1;
	if (p->idle || sb_rate_get(&c->rate, now, p->bytes, 0, &bps, NULL) < 0)
		bps = -1;
	struct cli_line l = { .label = "cliff", .pct = -1, .bps = bps, .ops = -1 };
	if (p->phase) {
		l.step_word = "recovery";
		l.step = (unsigned)p->phase;
		l.nsteps = c->nrecovery;
		l.what = p->idle ? "idle" : "burst";
		if (p->idle)
			l.pct = (double)p->elapsed_ns / (double)c->recovery_ns[p->phase - 1] * 100;
		else
			l.done = p->bytes, l.total = p->total_bytes;
	} else {
		const struct sb_cliff_find *f = p->find;
		if (f && f->found)
			snprintf(what, sizeof(what), "drop at %s",
				 sb_fmt_size(f->cache_bytes, a, sizeof(a)));
		else
			snprintf(what, sizeof(what), "fill, no drop yet");
		l.what = what;
		l.done = p->bytes;
		l.total = p->total_bytes;
		l.pct = p->total_bytes ? (double)p->bytes / (double)p->total_bytes * 100 : -1;
	}
	l.elapsed_ns = now - c->start_ns;
	l.eta_ns = eta_ns(c, p, bps);
	cli_progress_draw(&c->pg, &l, now);
}

static void recoveries(FILE *f, const struct sb_cliff_result *r)
{
	char a[32], b[32], d[32], e[32];
	for (unsigned i = 0; i < r->nrecovery; i++) {
		const struct sb_cliff_recovery *rc = &r->recovery[i];
		cli_fmt_dur((double)rc->idle_ns, d, sizeof(d));
		if (rc->interrupted && !rc->burst_bytes) {
			fprintf(f, "  recovery after %s idle: interrupted\n", d);
			continue;
		}
		fprintf(f,
			"  recovery after %s idle: %s%s back (%.0f%% of the cache), burst %s at %s\n",
			d, rc->at_least ? "at least " : "",
			sb_fmt_size(rc->recovered_bytes, a, sizeof(a)), rc->fraction * 100,
			sb_fmt_size(rc->burst_bytes, b, sizeof(b)),
			rep_fmt_rate(rc->burst_ns > 0 ? (double)rc->burst_bytes / rc->burst_ns * 1e9
						      : 0,
				     e, sizeof(e)));
	}
}

void cli_cliff_print(FILE *f, const struct cliff_ctx *c, const char *path)
{
	const struct sb_cliff_result *r = c->res;
	const struct sb_cliff_find *fd = &r->find;
	char a[32], b[32], d[32];
	fprintf(f, "cliff: %s, %s writes of %s, queue depth %u, %s, %s\n", path,
		c->random ? "random" : "sequential", sb_fmt_size(c->job.bs, a, sizeof(a)),
		c->job.iodepth, c->job.direct ? "direct" : "buffered", c->job.engine);
	if (r->purge || r->idle_before_ns) {
		fprintf(f, "  before the fill:");
		if (r->purge)
			fprintf(f, " purge by %s (%s over %s)", r->purge, r->purge_method,
				sb_fmt_size(r->purge_bytes, a, sizeof(a)));
		if (r->idle_before_ns)
			fprintf(f, "%s idle %s", r->purge ? "," : "",
				sb_fmt_ns((double)r->idle_before_ns, d, sizeof(d)));
		fputc('\n', f);
	}
	fprintf(f, "  written %s in %.1f s (stopped: %s; region %s)\n",
		sb_fmt_size(fd->total_bytes, a, sizeof(a)), fd->total_ns / 1e9,
		r->stop_reason ? r->stop_reason : "?", sb_fmt_size(r->region_size, b, sizeof(b)));
	if (!fd->found) {
		fprintf(f,
			"  no drop over %s: %s on average, no change of %.0f%% or more "
			"(%zu bins of %s)\n",
			sb_fmt_size(fd->total_bytes, d, sizeof(d)),
			rep_fmt_rate(fd->avg_bw, a, sizeof(a)), SB_CLIFF_MIN_STEP * 100, fd->nbins,
			sb_fmt_size(fd->bin_bytes, b, sizeof(b)));
		if (c->nrecovery)
			fprintf(f, "  recovery: not measured (no cache to recover)\n");
		return;
	}
	fprintf(f, "  cache: %s written at %s before the drop (%.2f s)\n",
		sb_fmt_size(fd->cache_bytes, a, sizeof(a)),
		rep_fmt_rate(fd->before_bw, b, sizeof(b)), fd->cache_ns / 1e9);
	fprintf(f, "  after the drop: %s (%.0f%% of the cached speed)\n",
		rep_fmt_rate(fd->after_bw, a, sizeof(a)),
		fd->before_bw > 0 ? fd->after_bw / fd->before_bw * 100 : 0);
	for (size_t i = 0; i < fd->nsteps; i++) {
		const struct sb_cliff_step *s = &fd->steps[i];
		fprintf(f, "  step %zu at %s: %s -> %s\n", i + 1,
			sb_fmt_size(s->at_bytes, a, sizeof(a)),
			rep_fmt_rate(s->before_bw, b, sizeof(b)),
			rep_fmt_rate(s->after_bw, d, sizeof(d)));
	}
	recoveries(f, r);
}
