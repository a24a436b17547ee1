/* storbench cliff's live line (cli/cliff_cmd.h); its summary is report/'s
 * (rep_cliff_run_text). */
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
