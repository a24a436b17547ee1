/*
 * storbench pts on the terminal as its run ends (report.h,
 * rep_pts_run_text): the conditions and every deviation first (a
 * shortened run says loudly that it is not a PTS result), then per test
 * the tracked figure of each round, the steady-state determination, and
 * the window averages as PTS tabulates them; from the run's struct
 * sb_pts_result, the one the report's pts section reads back
 * (rep_text_pts, report/html_pts.c).
 */
#include "report/report.h"

#include <math.h>

static void bs_text(uint32_t bs, char *buf, size_t len)
{
	if (bs % 1024)
		snprintf(buf, len, "%gk", bs / 1024.0);
	else
		snprintf(buf, len, "%uk", bs / 1024);
}

/* a tracked figure with its unit */
static void value(enum sb_pts_metric m, double v, char *buf, size_t len)
{
	if (m == SB_PTS_M_LAT_MEAN)
		sb_fmt_ns(v, buf, len);
	else if (m == SB_PTS_M_WRITE_BW)
		rep_fmt_rate(v, buf, len);
	else
		snprintf(buf, len, "%.0f IOPS", v);
}

static void header(FILE *f, const struct sb_pts_result *r, const char *path)
{
	char a[32], b[32], d[32];
	fprintf(f, "storbench pts on %s (%s), %s profile\n", path,
		sb_fmt_size(r->device_bytes, a, sizeof(a)), sb_pts_profile_name(r->o.profile));
	fprintf(f,
		"active range %u%% (%s); threads %u, queue depth %u; %s a cell; at most %u "
		"rounds; write cache: %s\n",
		r->o.active_pct, sb_fmt_size(r->region_bytes, b, sizeof(b)), r->o.threads,
		r->o.iodepth, sb_fmt_ns((double)r->o.round_ns, d, sizeof(d)), r->o.max_rounds,
		r->write_cache[0] ? r->write_cache : "unknown");
	if (r->segs.n)
		fprintf(f,
			"active-range segments: %u of %s (%s addressed), at random in the active "
			"range, for the random tests with rounds (iops, latency)\n",
			r->segs.n, sb_fmt_size(r->segs.seg_bytes, a, sizeof(a)),
			sb_fmt_size(sb_segments_bytes(&r->segs), b, sizeof(b)));
	if (r->devcache.command)
		fprintf(f, "device cache: %s by %s for the run%s\n",
			r->devcache.changed ? "switched off" : "already off", r->devcache.command,
			!r->devcache.changed   ? ""
			: r->devcache.restored ? ", switched back on after it"
					       : ", NOT switched back on");
	if (!r->ndeviations) {
		fprintf(f, "no deviation from PTS\n");
		return;
	}
	fprintf(f, "DEVIATIONS from PTS (this is not a PTS result):\n");
	for (unsigned i = 0; i < r->ndeviations; i++)
		fprintf(f, "  %s: not a PTS result\n", r->deviations[i]);
}

static void rounds_line(FILE *f, const struct sb_pts_part *p)
{
	char v[32], bs[16];
	const struct sb_pts_cell *tc = &p->cells[p->track_cell];
	bs_text(tc->bs, bs, sizeof(bs));
	fprintf(f, "  tracked: %s at %u/%u %s, per round:\n", sb_pts_metric_name(p->track),
		tc->read_pct, 100 - tc->read_pct, bs);
	for (unsigned k = 0; k < p->nrounds; k++) {
		value(p->track, p->tracked[k], v, sizeof(v));
		fprintf(f, "  %4u  %s%s\n", k + 1, v,
			k + 1 >= p->ss.first && k + 1 <= p->ss.last && p->test != SB_PTS_WSAT
				? "   (window)"
				: "");
	}
}

static void steady_text(FILE *f, const struct sb_pts_part *p)
{
	const struct sb_steady *s = &p->ss;
	char avg[32], de[32], da[32], se[32], sa[32];
	value(p->track, s->average, avg, sizeof(avg));
	value(p->track, s->data_excursion, de, sizeof(de));
	value(p->track, s->data_allowed, da, sizeof(da));
	value(p->track, s->slope_excursion, se, sizeof(se));
	value(p->track, s->slope_allowed, sa, sizeof(sa));
	if (s->reached)
		fprintf(f, "  steady state reached: rounds %u..%u\n", s->first, s->last);
	else
		fprintf(f,
			"  steady state NOT reached in %u rounds: the figures below are rounds "
			"%u..%u, flagged\n",
			p->nrounds, s->first, s->last);
	fprintf(f,
		"  average %s; data excursion %s (allowed %s, %s); slope excursion %s (allowed "
		"%s, %s); fit %.6g * R %c %.6g\n",
		avg, de, da, s->data_ok ? "ok" : "too large", se, sa,
		s->slope_ok ? "ok" : "too large", s->slope, s->intercept < 0 ? '-' : '+',
		fabs(s->intercept));
}

/* rows: block sizes; columns: mixes (PTS's tabular data) */
static void table(FILE *f, const struct sb_pts_part *p, const char *what)
{
	fprintf(f, "  %s, average over the window (rows: block size, columns: R/W mix)\n", what);
	fprintf(f, "  %7s", "");
	for (unsigned m = 0; m < p->nmix; m++) {
		char mix[16];
		snprintf(mix, sizeof(mix), "%u/%u", p->mixes[m], 100 - p->mixes[m]);
		fprintf(f, " %11s", mix);
	}
	fputc('\n', f);
	for (unsigned b = 0; b < p->nbs; b++) {
		char bs[16];
		bs_text(p->bss[b], bs, sizeof(bs));
		fprintf(f, "  %7s", bs);
		for (unsigned m = 0; m < p->nmix; m++) {
			struct sb_pts_fig a;
			char v[32];
			sb_pts_window_average(p, m * p->nbs + b, &a);
			if (p->test == SB_PTS_LATENCY)
				fprintf(f, " %11s", sb_fmt_ns(a.lat_mean_ns, v, sizeof(v)));
			else if (p->test == SB_PTS_THROUGHPUT)
				fprintf(f, " %11s",
					rep_fmt_rate(m ? a.write_bw : a.read_bw, v, sizeof(v)));
			else
				fprintf(f, " %11.0f", a.iops);
		}
		fputc('\n', f);
	}
}

static void latency_max(FILE *f, const struct sb_pts_part *p)
{
	fprintf(f, "  maximum latency, average over the window\n");
	for (unsigned b = 0; b < p->nbs; b++) {
		char bs[16];
		bs_text(p->bss[b], bs, sizeof(bs));
		fprintf(f, "  %7s", bs);
		for (unsigned m = 0; m < p->nmix; m++) {
			struct sb_pts_fig a;
			char v[32];
			sb_pts_window_average(p, m * p->nbs + b, &a);
			fprintf(f, " %11s", sb_fmt_ns(a.lat_max_ns, v, sizeof(v)));
		}
		fputc('\n', f);
	}
}

static void wsat_text(FILE *f, const struct sb_pts_part *p, uint64_t region)
{
	uint64_t written = 0;
	char a[32];
	fprintf(f, "  round  written (x active range)  IOPS\n");
	for (unsigned k = 0; k < p->nrounds; k++) {
		written += p->fig[k].bytes_written;
		fprintf(f, "  %5u  %11s (%5.2fx)  %10.0f\n", k + 1,
			sb_fmt_size(written, a, sizeof(a)), (double)written / (double)region,
			p->fig[k].iops);
	}
}

/* The round a stop cut short: each cell it measured. */
static void partial_text(FILE *f, const struct sb_pts_part *p)
{
	const struct sb_pts_fig *row = &p->fig[(size_t)p->nrounds * p->ncells];
	if (!p->partial_cells)
		return;
	fprintf(f,
		"  round %u stopped in cell %u of %u: what it measured (not a round; the last "
		"cell cut short)\n",
		p->nrounds + 1, p->partial_cells, p->ncells);
	for (unsigned k = 0; k < p->partial_cells; k++) {
		const struct sb_pts_cell *cl = &p->cells[k];
		char bs[16], v[32];
		bs_text(cl->bs, bs, sizeof(bs));
		value(p->track, sb_pts_tracked(p->track, &row[k]), v, sizeof(v));
		fprintf(f, "    %u/%u %-6s %s\n", cl->read_pct, 100 - cl->read_pct, bs, v);
	}
}

static void part_text(FILE *f, const struct sb_pts_result *r, const struct sb_pts_part *p)
{
	char a[32];
	fprintf(f, "\n[%s] purge: %s%s%s%s; preconditioning: %s written; %u round%s%s\n", p->name,
		sb_purge_name(p->purge_used), p->purge_how[0] ? " (" : "", p->purge_how,
		p->purge_how[0] ? ")" : "", sb_fmt_size(p->precondition_bytes, a, sizeof(a)),
		p->nrounds, p->nrounds == 1 ? "" : "s", p->finished ? "" : " (stopped early)");
	partial_text(f, p);
	if (!p->nrounds)
		return;
	if (p->test == SB_PTS_WSAT) {
		wsat_text(f, p, r->region_bytes);
		return;
	}
	rounds_line(f, p);
	steady_text(f, p);
	if (p->test == SB_PTS_LATENCY) {
		table(f, p, "mean latency");
		latency_max(f, p);
	} else {
		table(f, p, p->test == SB_PTS_THROUGHPUT ? "bandwidth" : "IOPS");
	}
}

void rep_pts_run_text(FILE *f, const struct sb_pts_result *r, const char *path)
{
	header(f, r, path);
	for (unsigned i = 0; i < r->nparts; i++)
		if (r->parts[i].started)
			part_text(f, r, &r->parts[i]);
}
