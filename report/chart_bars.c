/*
 * Chart kinds laid out by category: grouped bars with min..max error bars
 * and value labels (quick, compare), and heatmaps with a viridis colour
 * scale (sweep matrices), which stays readable to colour-blind eyes and in
 * grey print.
 */
#include "report/chart_int.h"

#include <math.h>

/* The split of a label into two lines at the space nearest its middle,
 * or 0 when it has no space. */
static size_t split_at(const char *s)
{
	size_t n = strlen(s), best = 0;
	for (size_t i = 1; i + 1 < n; i++)
		if (s[i] == ' ' &&
		    (!best || labs((long)(2 * i) - (long)n) < labs((long)(2 * best) - (long)n)))
			best = i;
	return best;
}

/* Width of the longer line of s once split (or of s when it fits). */
static double label_width(const char *s, double band)
{
	size_t n = strlen(s), k = split_at(s);
	if ((double)n * 7.4 <= band - 8 || !k)
		return (double)n * 7.4;
	return (double)SB_MAX(k, n - k - 1) * 7.4;
}

/* Category names under the bands: one line, two lines, or slanted when
 * even two lines do not fit. */
static void cat_labels(FILE *f, const struct chart *c, double x0, double band, double y1)
{
	double widest = 0;
	for (size_t i = 0; i < c->ncats; i++)
		widest = SB_MAX(widest, label_width(c->cats[i] ? c->cats[i] : "", band));
	int rotate = widest > band - 8;
	for (size_t i = 0; i < c->ncats; i++) {
		const char *s = c->cats[i] ? c->cats[i] : "";
		double cx = x0 + band * ((double)i + 0.5);
		size_t k = split_at(s);
		if (rotate) {
			fprintf(f,
				"<text class=\"tick\" transform=\"translate(%.1f %.1f) rotate(-20)\" "
				"text-anchor=\"end\">",
				cx + 4, y1 + 16);
			rep_html_esc(f, s);
		} else if ((double)strlen(s) * 7.4 > band - 8 && k) {
			char first[128];
			snprintf(first, sizeof(first), "%.*s", (int)k, s);
			fprintf(f,
				"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
				"<tspan x=\"%.1f\">",
				cx, y1 + 19, cx);
			rep_html_esc(f, first);
			fprintf(f, "</tspan><tspan x=\"%.1f\" dy=\"15\">", cx);
			rep_html_esc(f, s + k + 1);
			fputs("</tspan>", f);
		} else {
			fprintf(f,
				"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
				cx, y1 + 20);
			rep_html_esc(f, s);
		}
		fputs("</text>\n", f);
	}
}

double chart_cat_depth(const struct chart *c, double band)
{
	double widest = 0, depth = 0;
	for (size_t i = 0; i < c->ncats; i++) {
		const char *s = c->cats[i] ? c->cats[i] : "";
		widest = SB_MAX(widest, label_width(s, band));
		if ((double)strlen(s) * 7.4 > band - 8 && split_at(s))
			depth = 15;
	}
	if (widest > band - 8) {
		for (size_t i = 0; i < c->ncats; i++)
			depth = SB_MAX(depth,
				       (double)strlen(c->cats[i] ? c->cats[i] : "") * 7.4 * 0.342);
	}
	return depth;
}

static void bar_title(FILE *f, const struct chart *c, const struct chart_series *se, size_t i)
{
	char v[48], lo[48], hi[48];
	chart_fmt_value(c->y.unit, se->y[i], v, sizeof(v));
	fputs("<title>", f);
	rep_html_esc(f, c->cats[i]);
	fputs(" ", f);
	rep_html_esc(f, se->name);
	fprintf(f, ": %s", v);
	if (se->lo && se->hi && isfinite(se->lo[i]) && isfinite(se->hi[i])) {
		chart_fmt_value(c->y.unit, se->lo[i], lo, sizeof(lo));
		chart_fmt_value(c->y.unit, se->hi[i], hi, sizeof(hi));
		fprintf(f, " (runs from %s to %s)", lo, hi);
	}
	fputs("</title>", f);
}

static void error_bar(FILE *f, const struct chart_map *ym, double cx, double cap, double lo,
		      double hi, double *top)
{
	double a = chart_map_px(ym, lo), b = chart_map_px(ym, hi);
	if (!isfinite(a) || !isfinite(b))
		return;
	fprintf(f, "<path class=\"errbar\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\"/>",
		cx, a, b, cx - cap, a, cx + cap, cx - cap, b, cx + cap);
	*top = SB_MIN(*top, b);
}

void chart_bars(FILE *f, const struct chart *c, const struct chart_map *ym, double x0, double x1,
		double y0, double y1)
{
	size_t ns = c->nseries ? c->nseries : 1;
	double band = (x1 - x0) / (double)(c->ncats ? c->ncats : 1);
	double group = band * (ns > 1 ? 0.76 : 0.56), bw = group / (double)ns;
	double base = chart_map_px(ym, 0);
	if (!isfinite(base))
		base = y1;
	(void)y0;
	cat_labels(f, c, x0, band, y1);
	for (size_t s = 0; s < c->nseries; s++) {
		const struct chart_series *se = &c->series[s];
		fprintf(f, "<g class=\"series\" fill=\"%s\">", chart_series_color(c, s));
		for (size_t i = 0; i < se->n && i < c->ncats; i++) {
			double y = chart_map_px(ym, se->y[i]);
			if (!isfinite(y))
				continue;
			double x = x0 + band * (double)i + (band - group) / 2 + bw * (double)s;
			double cx = x + bw / 2, top = SB_MIN(y, base);
			fprintf(f,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"1.5\">",
				x + 1.5, top, SB_MAX(bw - 3, 1), SB_MAX(fabs(base - y), 0.5));
			bar_title(f, c, se, i);
			fputs("</rect>", f);
			if (se->lo && se->hi)
				error_bar(f, ym, cx, SB_MIN(bw / 5, 8), se->lo[i], se->hi[i], &top);
			char v[48];
			chart_fmt_value(c->y.unit, se->y[i], v, sizeof(v));
			if ((double)strlen(v) * 6.4 <= bw + 10)
				fprintf(f,
					"<text class=\"value\" x=\"%.1f\" y=\"%.1f\" "
					"text-anchor=\"middle\">%s</text>",
					cx, top - 6, v);
		}
		fputs("</g>\n", f);
	}
}

/* ---- heatmap ---- */
static void viridis(double t, char *buf, size_t len)
{
	static const unsigned char stops[9][3] = {
		{ 0x44, 0x01, 0x54 }, { 0x47, 0x2d, 0x7b }, { 0x3b, 0x52, 0x8b },
		{ 0x2c, 0x72, 0x8e }, { 0x21, 0x91, 0x8c }, { 0x28, 0xae, 0x80 },
		{ 0x5e, 0xc9, 0x62 }, { 0xad, 0xdc, 0x30 }, { 0xfd, 0xe7, 0x25 },
	};
	t = !isfinite(t) ? 0 : t < 0 ? 0 : t > 1 ? 1 : t;
	double pos = t * 8;
	int k = (int)pos < 8 ? (int)pos : 7;
	double u = pos - k;
	int rgb[3];
	for (int i = 0; i < 3; i++)
		rgb[i] = (int)lround(stops[k][i] + u * (stops[k + 1][i] - stops[k][i]));
	snprintf(buf, len, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* A log colour scale spans the values, not the round ticks around them,
 * so its colours keep their contrast; the ticks within stay, when two or
 * more are. */
static void narrow(struct chart_map *zm, double lo, double hi)
{
	unsigned n = 0;
	for (unsigned i = 0; i < zm->nticks; i++)
		if (zm->ticks[i] >= lo * (1 - 1e-9) && zm->ticks[i] <= hi * (1 + 1e-9))
			zm->ticks[n++] = zm->ticks[i];
	if (n < 2)
		return; /* the round ends are all the scale has to show */
	zm->nticks = n;
	zm->nminor = 0;
	zm->lo = log10(lo);
	zm->hi = log10(hi);
}

/* The colour scale: the cells' range, widened to the one the chart was
 * given (zlo..zhi: a scale shared by the report's heatmaps), fitted to
 * round ticks as an axis is, pixels y1 (lowest) to y0 (highest). */
static int heat_scale(const struct chart *c, struct chart_map *zm, double y0, double y1)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; c->cells && i < c->ncats * c->nrows; i++) {
		double v = c->cells[i];
		if (isfinite(v) && (c->z.scale != CHART_LOG || v > 0)) {
			lo = SB_MIN(lo, v);
			hi = SB_MAX(hi, v);
		}
	}
	if (!isfinite(lo))
		return -1;
	if (isfinite(c->zlo) && isfinite(c->zhi) && c->zhi >= c->zlo && (c->zlo || c->zhi) &&
	    (c->z.scale != CHART_LOG || c->zlo > 0)) {
		lo = SB_MIN(lo, c->zlo);
		hi = SB_MAX(hi, c->zhi);
	}
	chart_map_fit(zm, &c->z, lo, hi, y1, y0);
	if (c->z.scale == CHART_LOG && hi > lo)
		narrow(zm, lo, hi);
	return 0;
}

/* Where v lies on the colour scale, 0 (lowest) to 1. */
static double heat_t(const struct chart_map *zm, double v)
{
	return (zm->p0 - chart_map_px(zm, v)) / (zm->p0 - zm->p1);
}

double chart_heat_legend(const struct chart *c)
{
	struct chart_map zm;
	char buf[48];
	double w = 0;
	if (heat_scale(c, &zm, 0, 300))
		return 0;
	for (unsigned i = 0; i < zm.nticks; i++) {
		chart_map_label(&zm, zm.ticks[i], buf, sizeof(buf));
		w = SB_MAX(w, chart_label_px(buf));
	}
	/* gap, bar, tick, label, gap, the title on its side, margin */
	return 16 + 14 + 6 + w + 12 + 16 + 8;
}

/* The colour bar beside the plot, ticked at the scale's round values, its
 * title on its side right of the labels. */
static void color_bar(FILE *f, const struct chart *c, const struct chart_map *zm, double x)
{
	static unsigned seq;
	char col[16], a[48];
	unsigned id = ++seq;
	double y0 = zm->p1, y1 = zm->p0, w = 0;
	fprintf(f,
		"<g class=\"colour-scale\"><defs><linearGradient id=\"heat%u\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">",
		id);
	for (int i = 0; i <= 8; i++) {
		viridis(i / 8.0, col, sizeof(col));
		fprintf(f, "<stop offset=\"%.3f\" stop-color=\"%s\"/>", i / 8.0, col);
	}
	fprintf(f,
		"</linearGradient></defs><rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"%.1f\" "
		"fill=\"url(#heat%u)\"/>",
		x, y0, y1 - y0, id);
	for (unsigned i = 0; i < zm->nticks; i++) {
		double y = chart_map_px(zm, zm->ticks[i]);
		if (!isfinite(y))
			continue;
		chart_map_label(zm, zm->ticks[i], a, sizeof(a));
		w = SB_MAX(w, chart_label_px(a));
		fprintf(f,
			"<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">%s</text>",
			x + 14, y, x + 19, y, x + 22, y + 4, a);
	}
	chart_axis_title(zm, &c->z, a, sizeof(a));
	fprintf(f,
		"<text class=\"axis-title\" transform=\"translate(%.1f %.1f) rotate(-90)\" "
		"text-anchor=\"middle\">",
		x + 22 + w + 16, (y0 + y1) / 2);
	rep_html_esc(f, a);
	fputs("</text></g>\n", f);
}

static void heat_cell(FILE *f, const struct chart *c, const struct chart_map *zm, size_t r,
		      size_t k, double x, double y, double cw, double ch)
{
	double v = c->cells[r * c->ncats + k];
	char col[16], txt[48];
	if (!isfinite(v) || (c->z.scale == CHART_LOG && !(v > 0))) {
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#eeeeee\"/>",
			x, y, cw, ch);
		return;
	}
	double t = heat_t(zm, v);
	viridis(t, col, sizeof(col));
	chart_fmt_value(c->z.unit, v, txt, sizeof(txt));
	fprintf(f,
		"<rect class=\"series\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"%s\"><title>",
		x, y, cw, ch, col);
	rep_html_esc(f, c->rows[r]);
	fputs(", ", f);
	rep_html_esc(f, c->cats[k]);
	fprintf(f, ": %s</title></rect>", txt);
	if (cw >= 6.2 * (double)strlen(txt) + 6 && ch >= 16)
		fprintf(f,
			"<text class=\"value\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
			"style=\"fill:%s\">%s</text>",
			x + cw / 2, y + ch / 2 + 4, /* beats page CSS */
			t < 0.6 ? "#fff" : "#000", txt);
}

void chart_heatmap(FILE *f, const struct chart *c, double x0, double x1, double y0, double y1)
{
	struct chart_map zm;
	size_t nc = c->ncats, nr = c->nrows;
	if (!nc || !nr || heat_scale(c, &zm, y0, y1)) {
		fprintf(f,
			"<text class=\"nodata\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data"
			"</text>\n",
			(x0 + x1) / 2, (y0 + y1) / 2);
		return;
	}
	double cw = (x1 - x0) / (double)nc, ch = (y1 - y0) / (double)nr;
	fputs("<g class=\"cells\">", f);
	for (size_t r = 0; r < nr; r++)
		for (size_t k = 0; k < nc; k++)
			heat_cell(f, c, &zm, r, k, x0 + cw * (double)k, y0 + ch * (double)r, cw,
				  ch);
	fputs("</g>\n", f);
	for (size_t r = 0; r < nr; r++) {
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			x0 - 8, y0 + ch * ((double)r + 0.5) + 4);
		rep_html_esc(f, c->rows[r]);
		fputs("</text>", f);
	}
	cat_labels(f, c, x0, cw, y1);
	color_bar(f, c, &zm, x1 + 16);
	const char *xt = c->x.title ? c->x.title : "", *yt = c->y.title ? c->y.title : "";
	fprintf(f, "<text class=\"axis-title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		(x0 + x1) / 2, y1 + 52);
	rep_html_esc(f, xt);
	fprintf(f,
		"</text><text class=\"axis-title\" transform=\"translate(18 %.1f) rotate(-90)\" "
		"text-anchor=\"middle\">",
		(y0 + y1) / 2);
	rep_html_esc(f, yt);
	fputs("</text>\n", f);
}
