/*
 * The pts section of the HTML report, as PTS reports draw it (METHODS.md
 * 3.8): the deviations first, then per test the steady-state convergence
 * plot (the tracked figure per round, one line per block size), the
 * measurement-window plot (the window's values, their average, the
 * +-10% band and the least-squares line), the steady-state determination,
 * and the window averages as a table and a heat map (mix x block size);
 * WSAT as IOPS against bytes written. From storbench.pts read through its
 * reader (lib/pts/pts_read.c, docs/pts.md).
 */
#include "report/html.h"
#include "report/chart.h"

#include <math.h>

#define MAXR 1440 /* rounds drawn (WSAT's limit) */
#define MAXC 16	  /* mixes, block sizes */

static enum chart_unit unit_of(enum sb_pts_metric m)
{
	return m == SB_PTS_M_LAT_MEAN	? CHART_U_NS
	       : m == SB_PTS_M_WRITE_BW ? CHART_U_BYTES_S
					: CHART_U_COUNT;
}

static const char *axis_title(enum sb_pts_metric m)
{
	return m == SB_PTS_M_LAT_MEAN	? "Mean latency"
	       : m == SB_PTS_M_WRITE_BW ? "Write bandwidth"
					: "IOPS";
}

static void bs_label(double b, char *buf, size_t len)
{
	if (fmod(b, 1024) != 0)
		snprintf(buf, len, "%gk", b / 1024);
	else
		snprintf(buf, len, "%.0fk", b / 1024);
}

/* The cell of (mix, bs) in a row of p's cells: its index, or -1. */
static int cell_at(const struct sb_pts_part *p, unsigned mix, uint32_t bs)
{
	for (unsigned m = 0; m < p->nmix; m++)
		for (unsigned b = 0; b < p->nbs; b++)
			if (p->mixes[m] == mix && p->bss[b] == bs)
				return (int)(m * p->nbs + b);
	return -1;
}

static double read_bw(const struct sb_pts_fig *f)
{
	return f->read_bw;
}

static double write_bw(const struct sb_pts_fig *f)
{
	return f->write_bw;
}

/* Convergence: per block size, the tracked mix's figure round by round
 * (throughput: read and write of its one block size). */
static void convergence(FILE *f, const struct sb_pts_part *p)
{
	static double x[MAXR], y[MAXC][MAXR];
	struct chart_series s[MAXC];
	char labels[MAXC][24], title[96];
	const int tp = p->track == SB_PTS_M_WRITE_BW;
	const size_t n = SB_MIN((size_t)p->nrounds, (size_t)MAXR);
	const size_t ns = tp ? 2 : SB_MIN((size_t)p->nbs, (size_t)MAXC);
	const unsigned mix = p->cells[p->track_cell].read_pct;
	for (size_t k = 0; k < n; k++) {
		const struct sb_pts_fig *row = &p->fig[k * p->ncells];
		x[k] = (double)(k + 1);
		for (size_t b = 0; b < ns; b++) {
			const uint32_t bs = p->bss[tp ? 0 : b];
			const int c = tp ? cell_at(p, b ? 0 : 100, bs) : cell_at(p, mix, bs);
			y[b][k] = c < 0 ? NAN
				  : !tp ? sb_pts_tracked(p->track, &row[c])
				  : b	? write_bw(&row[c])
					: read_bw(&row[c]);
		}
	}
	for (size_t b = 0; b < ns; b++) {
		if (tp)
			snprintf(labels[b], sizeof(labels[b]), "%s", b ? "write" : "read");
		else
			bs_label(p->bss[b], labels[b], sizeof(labels[b]));
		s[b] = (struct chart_series){ .name = labels[b],
					      .x = x,
					      .y = y[b],
					      .n = n,
					      .color = tp ? (b ? CHART_C_WRITE : CHART_C_READ)
							  : -1 };
	}
	snprintf(title, sizeof(title), "%s: steady-state convergence", p->name);
	struct chart c = {
		.kind = CHART_LINE,
		.title = title,
		.note = tp ? "sequential read and write bandwidth per round"
			   : "the tracked mix (0/100) per round, one line per block size",
		.x = { "Round", CHART_U_NONE, CHART_LINEAR, 1 },
		.y = { tp ? "Bandwidth" : axis_title(p->track), unit_of(p->track),
		       tp || unit_of(p->track) == CHART_U_NS ? CHART_LINEAR : CHART_LOG, 0 },
		.series = s,
		.nseries = ns,
	};
	chart_figure(f, &c, NULL);
}

/* a figure written as null, where the report took 0 */
static double or0(double v)
{
	return isnan(v) ? 0 : v;
}

/* The window: its tracked values, their average, 90% and 110% of it, and
 * the fitted line a*R + b. */
static void window_plot(FILE *f, const struct sb_pts_part *p)
{
	const struct sb_steady *ss = &p->ss;
	const size_t first = ss->first, last = ss->last;
	if (!first || last < first || last > p->nrounds || last - first >= 8)
		return;
	double x[8], y[8], avg[8], lo[8], hi[8], fit[8];
	const double a = or0(ss->slope), b = or0(ss->intercept), m = or0(ss->average);
	const size_t n = last - first + 1;
	for (size_t i = 0; i < n; i++) {
		x[i] = (double)(first + i);
		y[i] = p->tracked[first - 1 + i];
		avg[i] = m;
		lo[i] = 0.9 * m;
		hi[i] = 1.1 * m;
		fit[i] = a * x[i] + b;
	}
	const struct chart_series s[] = {
		{ .name = "tracked", .x = x, .y = y, .n = n, .color = 0 },
		{ .name = "average", .x = x, .y = avg, .n = n, .color = 1 },
		{ .name = "110% of average", .x = x, .y = hi, .n = n, .color = 3, .dashed = 1 },
		{ .name = "90% of average", .x = x, .y = lo, .n = n, .color = 3, .dashed = 1 },
		{ .name = "least-squares fit", .x = x, .y = fit, .n = n, .color = 5, .dashed = 1 },
	};
	char title[128];
	snprintf(title, sizeof(title), "%s: measurement window, rounds %zu..%zu%s", p->name, first,
		 last, ss->reached ? "" : " (steady state NOT reached)");
	struct chart c = {
		.kind = CHART_LINE,
		.title = title,
		.note = "steady when the values span at most 20% of their average and the fit "
			"moves at most 10% of it across the window",
		.x = { "Round", CHART_U_NONE, CHART_LINEAR, 1 },
		.y = { axis_title(p->track), unit_of(p->track), CHART_LINEAR, 0 },
		.series = s,
		.nseries = SB_ARRAY_SIZE(s),
		.height = 340,
	};
	chart_figure(f, &c, NULL);
}

static void fmt_value(enum sb_pts_metric m, double v, char *buf, size_t len)
{
	if (m == SB_PTS_M_LAT_MEAN)
		html_fmt_ns(v, buf, len);
	else if (m == SB_PTS_M_WRITE_BW)
		rep_fmt_rate(v, buf, len);
	else
		snprintf(buf, len, "%.0f", v);
}

static void determination(FILE *f, const struct sb_pts_part *p)
{
	const struct sb_steady *ss = &p->ss;
	char a[48], b[48], row[160];
	fputs("<table class=\"kv\">\n", f);
	html_kv(f, "Steady state",
		ss->reached ? "reached" : "NOT reached: the figures are the last rounds, flagged");
	fmt_value(p->track, ss->average, a, sizeof(a));
	html_kv(f, "Average of the window", a);
	fmt_value(p->track, ss->data_excursion, a, sizeof(a));
	fmt_value(p->track, ss->data_allowed, b, sizeof(b));
	snprintf(row, sizeof(row), "%s (allowed %s, 20%% of the average)", a, b);
	html_kv(f, "Data excursion", row);
	fmt_value(p->track, ss->slope_excursion, a, sizeof(a));
	fmt_value(p->track, ss->slope_allowed, b, sizeof(b));
	snprintf(row, sizeof(row), "%s (allowed %s, 10%% of the average)", a, b);
	html_kv(f, "Slope excursion", row);
	snprintf(row, sizeof(row), "%.6g &times; R %s %.6g", or0(ss->slope),
		 or0(ss->intercept) < 0 ? "&minus;" : "+", fabs(or0(ss->intercept)));
	fputs("<tr><th>Least-squares fit</th><td>", f);
	fputs(row, f); /* numbers and an entity: nothing to escape */
	fputs("</td></tr>\n</table>\n", f);
}

/* The window averages: rows block sizes, columns mixes, a table and a
 * heat map (IOPS, bandwidth or latency by the test). */
static void matrix(FILE *f, const struct sb_pts_part *p, const struct sb_pts_fig *avg)
{
	const int tp = p->track == SB_PTS_M_WRITE_BW;
	const size_t nm = SB_MIN((size_t)p->nmix, (size_t)MAXC),
		     nb = SB_MIN((size_t)p->nbs, (size_t)MAXC);
	char mlab[MAXC][16], blab[MAXC][16], title[96];
	const char *cols[MAXC + 1], *rows[MAXC];
	double cells[MAXC * MAXC];
	cols[0] = "Block size";
	for (size_t m = 0; m < nm; m++) {
		snprintf(mlab[m], sizeof(mlab[m]), "%u/%u", p->mixes[m], 100 - p->mixes[m]);
		cols[m + 1] = mlab[m];
	}
	for (size_t b = 0; b < nb; b++) {
		bs_label(p->bss[b], blab[b], sizeof(blab[b]));
		rows[b] = blab[b];
	}
	fprintf(f, "<p class=\"meta\">%s: %s averaged over the measurement window.</p>\n", p->name,
		tp ? "bandwidth (read for 100/0, write for 0/100)" : axis_title(p->track));
	html_head_row(f, cols, nm + 1, 1);
	for (size_t b = 0; b < nb; b++) {
		fputs("<tr>", f);
		html_cell(f, blab[b], 0);
		for (size_t m = 0; m < nm; m++) {
			const unsigned r = p->mixes[m];
			const int c = cell_at(p, r, p->bss[b]);
			const double v = !avg || c < 0 ? NAN
					 : !tp	       ? sb_pts_tracked(p->track, &avg[c])
					 : r	       ? read_bw(&avg[c])
						       : write_bw(&avg[c]);
			char s[48];
			cells[b * nm + m] = v;
			fmt_value(p->track, v, s, sizeof(s));
			html_cell(f, isfinite(v) ? s : "", 1);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (tp || nm * nb < 2)
		return;
	snprintf(title, sizeof(title), "%s: window average by R/W mix and block size", p->name);
	struct chart c = {
		.kind = CHART_HEATMAP,
		.title = title,
		.note = "colour on a log scale",
		.x = { "R/W mix", CHART_U_NONE, CHART_LINEAR, 0 },
		.y = { "Block size", CHART_U_NONE, CHART_LINEAR, 0 },
		.z = { axis_title(p->track), unit_of(p->track), CHART_LOG, 0 },
		.cats = cols + 1,
		.ncats = nm,
		.rows = rows,
		.nrows = nb,
		.cells = cells,
		.height = (int)SB_MAX(300, 150 + 26 * nb),
	};
	chart_figure(f, &c, NULL);
}

static void wsat(FILE *f, const struct sb_pts_part *p, const uint64_t *written_total)
{
	static double x[MAXR], y[MAXR];
	const size_t n = SB_MIN((size_t)p->nrounds, (size_t)MAXR);
	for (size_t k = 0; k < n; k++) {
		x[k] = (double)written_total[k];
		y[k] = p->tracked[k];
	}
	const struct chart_series s = { .name = "IOPS", .x = x, .y = y, .n = n, .color = 5 };
	struct chart c = {
		.kind = CHART_LINE,
		.title = "WSAT: IOPS against bytes written",
		.note = "4 KiB random writes, one point per round",
		.x = { "Total written", CHART_U_BYTES, CHART_LINEAR, 0 },
		.y = { "IOPS", CHART_U_COUNT, CHART_LINEAR, 0 },
		.series = &s,
		.nseries = 1,
	};
	chart_figure(f, &c, NULL);
}

static void conditions(FILE *f, const struct sb_pts_doc *d)
{
	const struct sb_pts_result *r = &d->r;
	char a[64];
	if (r->ndeviations) {
		fputs("<p class=\"bad\">Deviations from PTS: this is not a PTS result.</p>\n<ul "
		      "class=\"warn\">\n",
		      f);
		for (unsigned i = 0; i < r->ndeviations; i++) {
			fputs("<li>", f);
			rep_html_esc(f, r->deviations[i]);
			fputs(": not a PTS result</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	fputs("<table class=\"kv\">\n", f);
	html_kv(f, "Profile", sb_pts_profile_name(r->o.profile));
	html_kv(f, "Purge asked for", sb_purge_name(r->o.purge));
	char s[32];
	snprintf(a, sizeof(a), "%u%% (%s)", r->o.active_pct,
		 sb_fmt_size(r->region_bytes, s, sizeof(s)));
	html_kv(f, "Active range", a);
	if (r->segs.n) {
		char t[32];
		snprintf(a, sizeof(a), "%u of %s (%s addressed)", r->segs.n,
			 sb_fmt_size(r->segs.seg_bytes, s, sizeof(s)),
			 sb_fmt_size(d->active_bytes, t, sizeof(t)));
		html_kv(f, "Active-range segments", a);
	} else {
		html_kv(f, "Active-range segments", "none (the whole active range)");
	}
	snprintf(a, sizeof(a), "%ux the active range, SEQ 128 KiB writes", r->o.precondition);
	html_kv(f, "Preconditioning", a);
	snprintf(a, sizeof(a), "%u threads x QD %u", r->o.threads, r->o.iodepth);
	html_kv(f, "Outstanding I/O", a);
	html_kv(f, "Round time per cell", html_fmt_ns((double)r->o.round_ns, a, sizeof(a)));
	snprintf(a, sizeof(a), "%s (PTS asks: %s)", r->write_cache[0] ? r->write_cache : "?",
		 d->cache_required);
	html_kv(f, "Write cache", a);
	fputs("</table>\n", f);
}

void html_section_pts(FILE *f, const struct rep_doc *d)
{
	const struct sb_pts_doc *p = d->pts;
	if (!p)
		return;
	fputs("<h3>SNIA PTS</h3>\n", f);
	conditions(f, p);
	for (unsigned i = 0; i < p->r.nparts; i++) {
		const struct sb_pts_part *t = &p->r.parts[i];
		char a[32];
		fputs("<h3>", f);
		rep_html_esc(f, t->name);
		fputs("</h3>\n<p class=\"meta\">Purge: ", f);
		rep_html_esc(f, sb_purge_name(t->purge_used));
		if (t->purge_how[0]) {
			fputs(" (", f);
			rep_html_esc(f, t->purge_how);
			fputs(")", f);
		}
		fprintf(f, "; preconditioning: %s written; %u rounds.</p>\n",
			sb_fmt_size(t->precondition_bytes, a, sizeof(a)), t->nrounds);
		if (t->test == SB_PTS_WSAT) {
			wsat(f, t, p->parts[i].written_total);
			continue;
		}
		if (!t->nrounds)
			continue;
		convergence(f, t);
		window_plot(f, t);
		determination(f, t);
		matrix(f, t, p->parts[i].avg);
	}
}
