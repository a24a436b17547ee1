/* The cliff section of the text report (storbench.cliff, docs/cliff.md),
 * from the section as its reader took it (lib/cliff/cliff_read.c). */
#include "report/report.h"

void rep_text_cliff(FILE *f, const struct rep_doc *d)
{
	char a[32], b[32], c[32];
	if (!d->cliff)
		return;
	const struct sb_cliff_result *r = &d->cliff->r;
	const struct sb_cliff_find *fd = &r->find;
	fprintf(f, "\nwrite cache (cliff): %s written in %.1f s, stopped: ",
		sb_fmt_size(fd->total_bytes, a, sizeof(a)), fd->total_ns / 1e9);
	rep_vis_put(f, rep_or(r->stop_reason, "?"));
	fputc('\n', f);
	if (!fd->found) {
		fprintf(f, "  no drop over %s (%s on average)\n",
			sb_fmt_size(fd->total_bytes, b, sizeof(b)),
			rep_fmt_rate(fd->avg_bw, a, sizeof(a)));
		return;
	}
	fprintf(f, "  cache %s at %s, then %s\n", sb_fmt_size(fd->cache_bytes, a, sizeof(a)),
		rep_fmt_rate(fd->before_bw, b, sizeof(b)),
		rep_fmt_rate(fd->after_bw, c, sizeof(c)));
	for (size_t i = 0; i < fd->nsteps; i++) {
		const struct sb_cliff_step *st = &fd->steps[i];
		fprintf(f, "  step %zu at %s: ", i + 1, sb_fmt_size(st->at_bytes, a, sizeof(a)));
		fprintf(f, "%s -> ", rep_fmt_rate(st->before_bw, a, sizeof(a)));
		fprintf(f, "%s\n", rep_fmt_rate(st->after_bw, a, sizeof(a)));
	}
	for (unsigned i = 0; i < r->nrecovery; i++) {
		const struct sb_cliff_recovery *rc = &r->recovery[i];
		fprintf(f, "  after %s idle: %s back (%.0f%%)\n",
			rep_fmt_ns((double)rc->idle_ns, a, sizeof(a)),
			sb_fmt_size(rc->recovered_bytes, b, sizeof(b)), rc->fraction * 100);
	}
}
