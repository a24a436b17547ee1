/*
 * The pts section of the text report (storbench report pts.json): the
 * deviations, then per test its steady-state determination and the window
 * averages, mix x block size, from storbench.pts read through its reader
 * (lib/pts/pts_read.c, docs/pts.md).
 */
#include "report/report.h"

#include <math.h>

static void value(enum sb_pts_metric m, int bw, double v, char *buf, size_t len)
{
	if (m == SB_PTS_M_LAT_MEAN)
		sb_fmt_ns(v, buf, len);
	else if (m == SB_PTS_M_WRITE_BW || bw)
		rep_fmt_rate(v, buf, len);
	else
		snprintf(buf, len, "%.0f", v);
}

static void steady(FILE *f, const struct sb_pts_part *p)
{
	const struct sb_steady *ss = &p->ss;
	const enum sb_pts_metric m = p->track;
	char a[32], de[32], da[32], se[32], sa[32];
	value(m, 0, ss->average, a, sizeof(a));
	value(m, 0, ss->data_excursion, de, sizeof(de));
	value(m, 0, ss->data_allowed, da, sizeof(da));
	value(m, 0, ss->slope_excursion, se, sizeof(se));
	value(m, 0, ss->slope_allowed, sa, sizeof(sa));
	fprintf(f,
		"  steady state %s, rounds %u..%u: average %s (%s); data excursion %s "
		"(allowed %s); slope excursion %s (allowed %s)\n",
		ss->reached ? "reached" : "NOT reached (flagged)", ss->first, ss->last, a,
		sb_pts_metric_name(m), de, da, se, sa);
}

/* rows block sizes, columns mixes: the window average of the tracked
 * figure (throughput: read for 100/0, write for 0/100) */
static void matrix(FILE *f, const struct sb_pts_part *p, const struct sb_pts_fig *avg)
{
	const int tp = p->track == SB_PTS_M_WRITE_BW;
	fprintf(f, "  %8s", "bs");
	for (unsigned m = 0; m < p->nmix; m++) {
		char mix[16];
		snprintf(mix, sizeof(mix), "%u/%u", p->mixes[m], 100 - p->mixes[m]);
		fprintf(f, " %12s", mix);
	}
	fputc('\n', f);
	for (unsigned b = 0; b < p->nbs; b++) {
		const double bs = p->bss[b];
		char l[16];
		snprintf(l, sizeof(l), fmod(bs, 1024) ? "%gk" : "%.0fk", bs / 1024);
		fprintf(f, "  %8s", l);
		for (unsigned m = 0; m < p->nmix; m++) {
			const unsigned r = p->mixes[m];
			double v = NAN;
			if (avg) {
				const struct sb_pts_fig *c = &avg[m * p->nbs + b];
				v = tp ? (r ? c->read_bw : c->write_bw)
				       : sb_pts_tracked(p->track, c);
			}
			char s[32];
			value(p->track, tp, v, s, sizeof(s));
			fprintf(f, " %12s", isfinite(v) ? s : "-");
		}
		fputc('\n', f);
	}
}

/* the conditions the html report's table shows, a line each */
static void conditions(FILE *f, const struct sb_pts_doc *d)
{
	const struct sb_pts_result *r = &d->r;
	char a[32], b[32], t[32];
	fprintf(f, "  active range %u%% (%s); ", r->o.active_pct,
		sb_fmt_size(r->region_bytes, a, sizeof(a)));
	if (r->segs.n)
		fprintf(f, "%u segments of %s (%s addressed) for the random tests\n", r->segs.n,
			sb_fmt_size(r->segs.seg_bytes, b, sizeof(b)),
			sb_fmt_size(d->active_bytes, t, sizeof(t)));
	else
		fputs("no segments (the whole active range)\n", f);
	fprintf(f, "  purge asked: %s; preconditioning %ux the active range (SEQ 128 KiB writes)\n",
		sb_purge_name(r->o.purge), r->o.precondition);
	fprintf(f, "  %u threads x QD %u; %s a cell; write cache %s (PTS asks: %s)\n", r->o.threads,
		r->o.iodepth, sb_fmt_ns((double)r->o.round_ns, a, sizeof(a)),
		r->write_cache[0] ? r->write_cache : "?", d->cache_required);
}

void rep_text_pts(FILE *f, const struct rep_doc *d)
{
	const struct sb_pts_doc *p = d->pts;
	if (!p)
		return;
	const struct sb_pts_result *r = &p->r;
	fprintf(f, "\nSNIA PTS, %s profile: %s\n", sb_pts_profile_name(r->o.profile),
		r->ndeviations ? "NOT a PTS result (deviations below)" : "no deviation");
	for (unsigned i = 0; i < r->ndeviations; i++)
		fputs("  ", f), rep_vis_put(f, r->deviations[i]), fputs(": not a PTS result\n", f);
	conditions(f, p);
	for (unsigned i = 0; i < r->nparts; i++) {
		const struct sb_pts_part *t = &r->parts[i];
		const char *how = t->purge_how[0] ? t->purge_how : NULL;
		struct rep_vis_ring v = { .k = 0 };
		fprintf(f, "\n[%s] purge %s%s%s%s, %u rounds\n", rep_vs(&v, t->name),
			sb_purge_name(t->purge_used), how ? " (" : "", how ? rep_vs(&v, how) : "",
			how ? ")" : "", t->nrounds);
		if (!p->parts[i].has_window)
			continue;
		steady(f, t);
		matrix(f, t, p->parts[i].avg);
	}
}
