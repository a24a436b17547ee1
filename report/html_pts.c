/*
 * The pts section of the HTML report, as PTS reports draw it (METHODS.md
 * 3.8): the deviations first, then per test the steady-state convergence
 * plot (the tracked figure per round, one line per block size), the
 * measurement-window plot (the window's values, their average, the
 * +-10% band and the least-squares line), the steady-state determination,
 * and the window averages as a table and a heat map (mix x block size);
 * WSAT as IOPS against bytes written. From storbench.pts (docs/pts.md).
 */
#include "report/html.h"
#include "report/chart.h"

#include <math.h>

#define MAXR 1440 /* rounds drawn (WSAT's limit) */
#define MAXC 16	  /* mixes, block sizes */

static const char *metric_of(const struct sb_jv *t)
{
	return rep_or(sb_jv_str(sb_jv_get(sb_jv_get(t, "tracking"), "metric")), "iops");
}

static enum chart_unit unit_of(const char *metric)
{
	return !strcmp(metric, "lat_mean_ns")	   ? CHART_U_NS
	       : !strcmp(metric, "write_bw_bytes") ? CHART_U_BYTES_S
						   : CHART_U_COUNT;
}

static const char *axis_title(const char *metric)
{
	return !strcmp(metric, "lat_mean_ns")	   ? "Mean latency"
	       : !strcmp(metric, "write_bw_bytes") ? "Write bandwidth"
						   : "IOPS";
}

static void bs_label(double b, char *buf, size_t len)
{
	if (fmod(b, 1024) != 0)
		snprintf(buf, len, "%gk", b / 1024);
	else
		snprintf(buf, len, "%.0fk", b / 1024);
}

/* The figure of (mix, bs) in round r (1..), NaN when absent. */
static double cell_of(const struct sb_jv *cells, double mix, double bs, const char *key)
{
	for (size_t i = 0; i < sb_jv_len(cells); i++) {
		const struct sb_jv *c = sb_jv_at(cells, i);
		if (sb_jv_num(sb_jv_get(c, "read_pct"), -1) == mix &&
		    sb_jv_num(sb_jv_get(c, "bs"), -1) == bs)
			return sb_jv_num(sb_jv_get(c, key), NAN);
	}
	return NAN;
}

/* Convergence: per block size, the tracked mix's figure round by round
 * (throughput: read and write of its one block size). */
static void convergence(FILE *f, const struct sb_jv *t, const char *name)
{
	static double x[MAXR], y[MAXC][MAXR];
	struct chart_series s[MAXC];
	char labels[MAXC][24], title[96];
	const struct sb_jv *rounds = sb_jv_get(t, "rounds"), *bss = sb_jv_get(t, "block_sizes");
	const char *metric = metric_of(t);
	const int tp = !strcmp(metric, "write_bw_bytes");
	const size_t n = SB_MIN(sb_jv_len(rounds), (size_t)MAXR);
	const size_t ns = tp ? 2 : SB_MIN(sb_jv_len(bss), (size_t)MAXC);
	const double mix = sb_jv_num(sb_jv_get(sb_jv_get(t, "tracking"), "read_pct"), 0);
	for (size_t k = 0; k < n; k++) {
		const struct sb_jv *cells = sb_jv_get(sb_jv_at(rounds, k), "cells");
		x[k] = (double)(k + 1);
		for (size_t b = 0; b < ns; b++) {
			const double bs = sb_jv_num(sb_jv_at(bss, tp ? 0 : b), 0);
			y[b][k] = tp ? cell_of(cells, b ? 0 : 100, bs,
					       b ? "write_bw_bytes" : "read_bw_bytes")
				     : cell_of(cells, mix, bs, metric);
		}
	}
	for (size_t b = 0; b < ns; b++) {
		if (tp)
			snprintf(labels[b], sizeof(labels[b]), "%s", b ? "write" : "read");
		else
			bs_label(sb_jv_num(sb_jv_at(bss, b), 0), labels[b], sizeof(labels[b]));
		s[b] = (struct chart_series){ .name = labels[b],
					      .x = x,
					      .y = y[b],
					      .n = n,
					      .color = tp ? (b ? CHART_C_WRITE : CHART_C_READ)
							  : -1 };
	}
	snprintf(title, sizeof(title), "%s: steady-state convergence", name);
	struct chart c = {
		.kind = CHART_LINE,
		.title = title,
		.note = tp ? "sequential read and write bandwidth per round"
			   : "the tracked mix (0/100) per round, one line per block size",
		.x = { "Round", CHART_U_NONE, CHART_LINEAR, 1 },
		.y = { tp ? "Bandwidth" : axis_title(metric), unit_of(metric),
		       tp || unit_of(metric) == CHART_U_NS ? CHART_LINEAR : CHART_LOG, 0 },
		.series = s,
		.nseries = ns,
	};
	chart_figure(f, &c, NULL);
}

/* The window: its tracked values, their average, 90% and 110% of it, and
 * the fitted line a*R + b. */
static void window_plot(FILE *f, const struct sb_jv *t, const char *name)
{
	const struct sb_jv *ss = sb_jv_get(t, "steady_state"), *rounds = sb_jv_get(t, "rounds");
	const struct sb_jv *w = sb_jv_get(ss, "window");
	const size_t first = (size_t)sb_jv_num(sb_jv_at(w, 0), 0),
		     last = (size_t)sb_jv_num(sb_jv_at(w, 1), 0);
	if (!first || last < first || last > sb_jv_len(rounds) || last - first >= 8)
		return;
	double x[8], y[8], avg[8], lo[8], hi[8], fit[8];
	const double a = sb_jv_num(sb_jv_get(ss, "slope"), 0),
		     b = sb_jv_num(sb_jv_get(ss, "intercept"), 0),
		     m = sb_jv_num(sb_jv_get(ss, "average"), 0);
	const size_t n = last - first + 1;
	for (size_t i = 0; i < n; i++) {
		x[i] = (double)(first + i);
		y[i] = sb_jv_num(sb_jv_get(sb_jv_at(rounds, first - 1 + i), "tracking"), NAN);
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
	const int reached = sb_jv_bool(sb_jv_get(ss, "reached"), 0);
	snprintf(title, sizeof(title), "%s: measurement window, rounds %zu..%zu%s", name, first,
		 last, reached ? "" : " (steady state NOT reached)");
	const char *metric = metric_of(t);
	struct chart c = {
		.kind = CHART_LINE,
		.title = title,
		.note = "steady when the values span at most 20% of their average and the fit "
			"moves at most 10% of it across the window",
		.x = { "Round", CHART_U_NONE, CHART_LINEAR, 1 },
		.y = { axis_title(metric), unit_of(metric), CHART_LINEAR, 0 },
		.series = s,
		.nseries = SB_ARRAY_SIZE(s),
		.height = 340,
	};
	chart_figure(f, &c, NULL);
}

static void fmt_value(const char *metric, double v, char *buf, size_t len)
{
	if (!strcmp(metric, "lat_mean_ns"))
		html_fmt_ns(v, buf, len);
	else if (!strcmp(metric, "write_bw_bytes"))
		sb_fmt_rate(v, buf, len);
	else
		snprintf(buf, len, "%.0f", v);
}

static void determination(FILE *f, const struct sb_jv *t)
{
	const struct sb_jv *ss = sb_jv_get(t, "steady_state");
	const char *metric = metric_of(t);
	char a[48], b[48], row[160];
	const int reached = sb_jv_bool(sb_jv_get(ss, "reached"), 0);
	fputs("<table class=\"kv\">\n", f);
	html_kv(f, "Steady state",
		reached ? "reached" : "NOT reached: the figures are the last rounds, flagged");
	fmt_value(metric, sb_jv_num(sb_jv_get(ss, "average"), NAN), a, sizeof(a));
	html_kv(f, "Average of the window", a);
	fmt_value(metric, sb_jv_num(sb_jv_get(ss, "data_excursion"), NAN), a, sizeof(a));
	fmt_value(metric, sb_jv_num(sb_jv_get(ss, "data_excursion_allowed"), NAN), b, sizeof(b));
	snprintf(row, sizeof(row), "%s (allowed %s, 20%% of the average)", a, b);
	html_kv(f, "Data excursion", row);
	fmt_value(metric, sb_jv_num(sb_jv_get(ss, "slope_excursion"), NAN), a, sizeof(a));
	fmt_value(metric, sb_jv_num(sb_jv_get(ss, "slope_excursion_allowed"), NAN), b, sizeof(b));
	snprintf(row, sizeof(row), "%s (allowed %s, 10%% of the average)", a, b);
	html_kv(f, "Slope excursion", row);
	snprintf(row, sizeof(row), "%.6g &times; R + %.6g", sb_jv_num(sb_jv_get(ss, "slope"), 0),
		 sb_jv_num(sb_jv_get(ss, "intercept"), 0));
	fputs("<tr><th>Least-squares fit</th><td>", f);
	fputs(row, f); /* numbers and an entity: nothing to escape */
	fputs("</td></tr>\n</table>\n", f);
}

/* The window averages: rows block sizes, columns mixes, a table and a
 * heat map (IOPS, bandwidth or latency by the test). */
static void matrix(FILE *f, const struct sb_jv *t, const char *name)
{
	const struct sb_jv *avg = sb_jv_get(t, "window_average"), *mixes = sb_jv_get(t, "mixes"),
			   *bss = sb_jv_get(t, "block_sizes");
	const char *metric = metric_of(t);
	const int tp = !strcmp(metric, "write_bw_bytes");
	const size_t nm = SB_MIN(sb_jv_len(mixes), (size_t)MAXC),
		     nb = SB_MIN(sb_jv_len(bss), (size_t)MAXC);
	char mlab[MAXC][16], blab[MAXC][16], title[96];
	const char *cols[MAXC + 1], *rows[MAXC];
	double cells[MAXC * MAXC];
	cols[0] = "Block size";
	for (size_t m = 0; m < nm; m++) {
		const double r = sb_jv_num(sb_jv_at(mixes, m), 0);
		snprintf(mlab[m], sizeof(mlab[m]), "%.0f/%.0f", r, 100 - r);
		cols[m + 1] = mlab[m];
	}
	for (size_t b = 0; b < nb; b++) {
		bs_label(sb_jv_num(sb_jv_at(bss, b), 0), blab[b], sizeof(blab[b]));
		rows[b] = blab[b];
	}
	const char *key = tp ? NULL : metric;
	fprintf(f, "<p class=\"meta\">%s: %s averaged over the measurement window.</p>\n", name,
		tp ? "bandwidth (read for 100/0, write for 0/100)" : axis_title(metric));
	html_head_row(f, cols, nm + 1, 1);
	for (size_t b = 0; b < nb; b++) {
		fputs("<tr>", f);
		html_cell(f, blab[b], 0);
		for (size_t m = 0; m < nm; m++) {
			const double r = sb_jv_num(sb_jv_at(mixes, m), 0);
			const double v = cell_of(avg, r, sb_jv_num(sb_jv_at(bss, b), 0),
						 key ? key
						 : r ? "read_bw_bytes"
						     : "write_bw_bytes");
			char s[48];
			cells[b * nm + m] = v;
			fmt_value(tp ? "write_bw_bytes" : metric, v, s, sizeof(s));
			html_cell(f, isfinite(v) ? s : "", 1);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (tp || nm * nb < 2)
		return;
	snprintf(title, sizeof(title), "%s: window average by R/W mix and block size", name);
	struct chart c = {
		.kind = CHART_HEATMAP,
		.title = title,
		.note = "colour on a log scale",
		.x = { "R/W mix", CHART_U_NONE, CHART_LINEAR, 0 },
		.y = { "Block size", CHART_U_NONE, CHART_LINEAR, 0 },
		.z = { axis_title(metric), unit_of(metric), CHART_LOG, 0 },
		.cats = cols + 1,
		.ncats = nm,
		.rows = rows,
		.nrows = nb,
		.cells = cells,
		.height = (int)SB_MAX(300, 150 + 26 * nb),
	};
	chart_figure(f, &c, NULL);
}

static void wsat(FILE *f, const struct sb_jv *t)
{
	static double x[MAXR], y[MAXR];
	const struct sb_jv *rounds = sb_jv_get(t, "rounds");
	const size_t n = SB_MIN(sb_jv_len(rounds), (size_t)MAXR);
	for (size_t k = 0; k < n; k++) {
		const struct sb_jv *r = sb_jv_at(rounds, k);
		x[k] = sb_jv_num(sb_jv_get(r, "bytes_written_total"), NAN);
		y[k] = sb_jv_num(sb_jv_get(r, "tracking"), NAN);
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

static void conditions(FILE *f, const struct sb_jv *p)
{
	const struct sb_jv *c = sb_jv_get(p, "conditions"), *dev = sb_jv_get(p, "deviations");
	char a[64];
	if (sb_jv_len(dev)) {
		fputs("<p class=\"bad\">Deviations from PTS: this is not a PTS result.</p>\n<ul "
		      "class=\"warn\">\n",
		      f);
		for (size_t i = 0; i < sb_jv_len(dev); i++) {
			fputs("<li>", f);
			rep_html_esc(f, rep_or(sb_jv_str(sb_jv_at(dev, i)), "?"));
			fputs(": not a PTS result</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	fputs("<table class=\"kv\">\n", f);
	html_kv(f, "Profile", rep_or(sb_jv_str(sb_jv_get(p, "profile")), "?"));
	html_kv(f, "Purge asked for", rep_or(sb_jv_str(sb_jv_get(c, "purge_requested")), "?"));
	const struct sb_jv *ar = sb_jv_get(c, "active_range");
	char s[32];
	snprintf(a, sizeof(a), "%.0f%% (%s)", sb_jv_num(sb_jv_get(ar, "percent"), 0),
		 sb_fmt_size((uint64_t)sb_jv_num(sb_jv_get(ar, "bytes"), 0), s, sizeof(s)));
	html_kv(f, "Active range", a);
	const struct sb_jv *seg = sb_jv_get(c, "active_range_segments");
	if (sb_jv_is(seg, SB_JV_OBJ)) {
		char t[32];
		snprintf(a, sizeof(a), "%.0f of %s (%s addressed)",
			 sb_jv_num(sb_jv_get(seg, "count"), 0),
			 sb_fmt_size((uint64_t)sb_jv_num(sb_jv_get(seg, "segment_bytes"), 0), s,
				     sizeof(s)),
			 sb_fmt_size((uint64_t)sb_jv_num(sb_jv_get(seg, "active_bytes"), 0), t,
				     sizeof(t)));
		html_kv(f, "Active-range segments", a);
	} else {
		html_kv(f, "Active-range segments", "none (the whole active range)");
	}
	snprintf(a, sizeof(a), "%.0fx the active range, SEQ 128 KiB writes",
		 sb_jv_num(sb_jv_get(sb_jv_get(c, "precondition"), "passes"), 0));
	html_kv(f, "Preconditioning", a);
	snprintf(a, sizeof(a), "%.0f threads x QD %.0f", sb_jv_num(sb_jv_get(c, "threads"), 0),
		 sb_jv_num(sb_jv_get(c, "iodepth"), 0));
	html_kv(f, "Outstanding I/O", a);
	html_kv(f, "Round time per cell",
		html_fmt_ns(sb_jv_num(sb_jv_get(c, "round_time_ns"), 0), a, sizeof(a)));
	const struct sb_jv *wc = sb_jv_get(c, "write_cache");
	snprintf(a, sizeof(a), "%s (PTS asks: %s)", rep_or(sb_jv_str(sb_jv_get(wc, "state")), "?"),
		 rep_or(sb_jv_str(sb_jv_get(wc, "required")), "?"));
	html_kv(f, "Write cache", a);
	fputs("</table>\n", f);
}

void html_section_pts(FILE *f, const struct rep_doc *d)
{
	const struct sb_jv *p = sb_jv_get(d->sb, "pts"), *tests = sb_jv_get(p, "tests");
	if (!sb_jv_is(p, SB_JV_OBJ))
		return;
	fputs("<h3>SNIA PTS</h3>\n", f);
	conditions(f, p);
	for (size_t i = 0; i < sb_jv_len(tests); i++) {
		const struct sb_jv *t = sb_jv_at(tests, i);
		const char *name = rep_or(sb_jv_str(sb_jv_get(t, "name")), "?");
		char a[32];
		fputs("<h3>", f);
		rep_html_esc(f, name);
		fputs("</h3>\n<p class=\"meta\">Purge: ", f);
		rep_html_esc(f, rep_or(sb_jv_str(sb_jv_get(t, "purge")), "?"));
		const char *how = sb_jv_str(sb_jv_get(t, "purge_method"));
		if (how) {
			fputs(" (", f);
			rep_html_esc(f, how);
			fputs(")", f);
		}
		fprintf(f, "; preconditioning: %s written; %zu rounds.</p>\n",
			sb_fmt_size((uint64_t)sb_jv_num(sb_jv_get(t, "precondition_bytes"), 0), a,
				    sizeof(a)),
			sb_jv_len(sb_jv_get(t, "rounds")));
		if (!strcmp(rep_or(sb_jv_str(sb_jv_get(t, "test")), ""), "wsat")) {
			wsat(f, t);
			continue;
		}
		if (!sb_jv_len(sb_jv_get(t, "rounds")))
			continue;
		convergence(f, t, name);
		window_plot(f, t, name);
		determination(f, t);
		matrix(f, t, name);
	}
}
