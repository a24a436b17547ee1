/*
 * storbench cliff's summary as its run ends (report.h, rep_cliff_run_text):
 * the fill, the drop, the levels, the steps, the recoveries. From the
 * run's struct sb_cliff_result, the one report/ reads back (sb_cliff_read)
 * for its cliff section (text_cliff.c, html_cliff.c).
 */
#include "report/report.h"

static void recoveries(FILE *f, const struct sb_cliff_result *r)
{
	char a[32], b[32], d[32], e[32];
	for (unsigned i = 0; i < r->nrecovery; i++) {
		const struct sb_cliff_recovery *rc = &r->recovery[i];
		rep_fmt_dur((double)rc->idle_ns, d, sizeof(d));
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

void rep_cliff_run_text(FILE *f, const struct rep_cliff_settings *c,
			const struct sb_cliff_result *r, const char *path)
{
	const struct sb_cliff_find *fd = &r->find;
	char a[32], b[32], d[32];
	fprintf(f, "cliff: %s, %s writes of %s, queue depth %u, %s, %s\n", path,
		c->random ? "random" : "sequential", sb_fmt_size(c->bs, a, sizeof(a)), c->iodepth,
		c->direct ? "direct" : "buffered", c->engine);
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
