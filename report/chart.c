/*
 * Chart drawing: a frame (title, note, legend, grid, axes) shared by every
 * kind, then the marks of the kind. Sizes are in viewBox units; the page
 * shows a chart at most 960 px wide, so 12-16 px text stays readable on a
 * 1280 px screen and in print.
 */
#include "report/chart.h"
#include "report/chart_int.h"

#include <math.h>

struct frame {
	const struct chart *c;
	FILE *f;
	int w, h;
	double x0, x1, y0, y1; /* plot area: left, right, top, bottom */
	struct chart_map xm, ym;
};

/* ---- data ranges ---- */
static int usable(double v, enum chart_scale s)
{
	return isfinite(v) && (s != CHART_LOG || v > 0) &&
	       (s != CHART_NINES || (v >= 0 && v < 100));
}

static void widen(double *lo, double *hi, double v, enum chart_scale s)
{
	if (!usable(v, s))
		return;
	if (v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

/* Fits both axes to the data; returns the number of drawable values. */
static size_t ranges(struct frame *fr)
{
	const struct chart *c = fr->c;
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
	size_t n = 0;
	for (size_t s = 0; s < c->nseries; s++) {
		const struct chart_series *se = &c->series[s];
		for (size_t i = 0; i < se->n; i++) {
			double y = se->y[i];
			if (c->kind == CHART_LINE || c->kind == CHART_SCATTER) {
				widen(&xlo, &xhi, se->x[i], c->x.scale);
			} else if (c->kind == CHART_HIST) {
				widen(&xlo, &xhi, se->x[i], c->x.scale);
				widen(&xlo, &xhi, se->x[i + 1], c->x.scale);
			}
			if (c->kind == CHART_BAR && se->lo && se->hi) {
				widen(&ylo, &yhi, se->lo[i], c->y.scale);
				widen(&ylo, &yhi, se->hi[i], c->y.scale);
			}
			widen(&ylo, &yhi, y, c->y.scale);
			n += usable(y, c->y.scale);
		}
	}
	for (size_t i = 0; i < c->nvlines; i++)
		widen(&xlo, &xhi, c->vlines[i], c->x.scale);
	for (size_t i = 0; i < c->nevents; i++)
		widen(&xlo, &xhi, c->events[i], c->x.scale);
	chart_map_fit(&fr->xm, &c->x, xlo, xhi, fr->x0, fr->x1);
	chart_map_fit(&fr->ym, &c->y, ylo, yhi, fr->y1, fr->y0);
	return n;
}

/* ---- frame ---- */
static double legend(struct frame *fr, double y)
{
	const struct chart *c = fr->c;
	double x = fr->x0;
	if (c->nseries < 2 && c->kind != CHART_BAR)
		return y;
	fputs("<g class=\"legend\">", fr->f);
	for (size_t i = 0; i < c->nseries; i++) {
		const char *name = c->series[i].name ? c->series[i].name : "";
		double wd = 26 + 7.2 * (double)strlen(name) + 18;
		if (x + wd > fr->w - 16 && x > fr->x0) {
			x = fr->x0;
			y += 20;
		}
		if (c->kind == CHART_LINE)
			fprintf(fr->f,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				"stroke-width=\"3\"%s/>",
				x, y - 4, x + 20, y - 4, chart_series_color(c, i),
				c->series[i].dashed ? " stroke-dasharray=\"6 4\"" : "");
		else
			fprintf(fr->f,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" rx=\"2\" "
				"fill=\"%s\"/>",
				x + 3, y - 11, chart_series_color(c, i));
		fprintf(fr->f, "<text x=\"%.1f\" y=\"%.1f\">", x + 26, y);
		rep_html_esc(fr->f, name);
		fputs("</text>", fr->f);
		x += wd;
	}
	fputs("</g>\n", fr->f);
	return y + 10;
}

static void heading(struct frame *fr)
{
	const struct chart *c = fr->c;
	double y = 24;
	fprintf(fr->f, "<text class=\"title\" x=\"%.1f\" y=\"%.1f\">", fr->x0, y);
	rep_html_esc(fr->f, c->title);
	fputs("</text>\n", fr->f);
	if (c->note) {
		y += 18;
		fprintf(fr->f, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\">", fr->x0, y);
		rep_html_esc(fr->f, c->note);
		fputs("</text>\n", fr->f);
	}
	fr->y0 = legend(fr, y + 24) + 12;
}

static void x_tick_labels(struct frame *fr)
{
	char buf[48];
	for (unsigned i = 0; i < fr->xm.nticks; i++) {
		double x = chart_map_px(&fr->xm, fr->xm.ticks[i]);
		if (!isfinite(x))
			continue;
		chart_map_label(&fr->xm, fr->xm.ticks[i], buf, sizeof(buf));
		fprintf(fr->f,
			"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			x, fr->y0, x, fr->y1, x, fr->y1 + 18, buf);
	}
	for (unsigned i = 0; i < fr->xm.nminor; i++) {
		double x = chart_map_px(&fr->xm, fr->xm.minor[i]);
		if (isfinite(x))
			fprintf(fr->f,
				"<line class=\"minor\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\"/>\n",
				x, fr->y0, x, fr->y1);
	}
}

static void axes(struct frame *fr, int x_numeric)
{
	const struct chart *c = fr->c;
	char buf[128];
	for (unsigned i = 0; i < fr->ym.nticks; i++) {
		double y = chart_map_px(&fr->ym, fr->ym.ticks[i]);
		if (!isfinite(y))
			continue;
		chart_map_label(&fr->ym, fr->ym.ticks[i], buf, sizeof(buf));
		fprintf(fr->f,
			"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			fr->x0, y, fr->x1, y, fr->x0 - 8, y + 4, buf);
	}
	for (unsigned i = 0; i < fr->ym.nminor; i++) {
		double y = chart_map_px(&fr->ym, fr->ym.minor[i]);
		if (isfinite(y))
			fprintf(fr->f,
				"<line class=\"minor\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\"/>\n",
				fr->x0, y, fr->x1, y);
	}
	if (x_numeric)
		x_tick_labels(fr);
	fprintf(fr->f, "<path class=\"axis\" d=\"M%.1f %.1fV%.1fH%.1f\"/>\n", fr->x0, fr->y0,
		fr->y1, fr->x1);
	chart_axis_title(&fr->xm, &c->x, buf, sizeof(buf));
	fprintf(fr->f, "<text class=\"axis-title\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
		(fr->x0 + fr->x1) / 2, fr->h - 10);
	rep_html_esc(fr->f, buf);
	chart_axis_title(&fr->ym, &c->y, buf, sizeof(buf));
	fprintf(fr->f,
		"</text>\n<text class=\"axis-title\" transform=\"translate(18 %.1f) "
		"rotate(-90)\" text-anchor=\"middle\">",
		(fr->y0 + fr->y1) / 2);
	rep_html_esc(fr->f, buf);
	fputs("</text>\n", fr->f);
}

/* ---- marks ---- */
static void point_title(struct frame *fr, const char *name, double x, double y, const char *text)
{
	char a[48], b[48];
	if (fr->c->x.scale == CHART_NINES) /* p99.95 and p99.99 are not both "100.0" */
		snprintf(a, sizeof(a), "p%.6g", x);
	else
		chart_fmt_value(fr->c->x.unit, x, a, sizeof(a));
	chart_fmt_value(fr->c->y.unit, y, b, sizeof(b));
	fputs("<title>", fr->f);
	rep_html_esc(fr->f, name);
	fprintf(fr->f, "%s%s: %s", name && *name ? " at " : "", a, b);
	if (text && *text) {
		fputs(" (", fr->f);
		rep_html_esc(fr->f, text);
		fputc(')', fr->f);
	}
	fputs("</title>", fr->f);
}

/* Emits <path ... d="D"/> only when D is not empty: a chart never holds d="". */
static void path(FILE *f, const char *attrs, char *d, size_t len)
{
	if (d && len)
		fprintf(f, "<path %s d=\"%s\"/>\n", attrs, d);
	free(d);
}

/* A series drawn per pixel column: the first, lowest, highest and last
 * point each column holds, in their order, draw the same line as every
 * point does (the M4 rule), in a size bound by the chart's width. */
struct column {
	long at; /* the column */
	size_t first, lo, hi, last;
	double ylo, yhi;
	int have;
};

static void column_flush(struct frame *fr, const struct chart_series *se, struct column *c, FILE *m,
			 int *open)
{
	size_t idx[4] = { c->first, c->lo, c->hi, c->last };
	if (!c->have)
		return;
	for (int i = 1; i < 4; i++) /* in the series' order, each once */
		for (int k = i; k > 0 && idx[k - 1] > idx[k]; k--) {
			size_t t = idx[k];
			idx[k] = idx[k - 1];
			idx[k - 1] = t;
		}
	for (int i = 0; i < 4; i++) {
		if (i && idx[i] == idx[i - 1])
			continue;
		fprintf(m, "%s%.1f %.1f", *open ? "L" : "M", chart_map_px(&fr->xm, se->x[idx[i]]),
			chart_map_px(&fr->ym, se->y[idx[i]]));
		*open = 1;
	}
	c->have = 0;
}

static void line_path(struct frame *fr, const struct chart_series *se, FILE *m)
{
	int per_column = (double)se->n > CHART_POINTS_PER_PX * (fr->x1 - fr->x0), open = 0;
	struct column c = { 0 };
	for (size_t i = 0; i < se->n; i++) {
		double x = chart_map_px(&fr->xm, se->x[i]), y = chart_map_px(&fr->ym, se->y[i]);
		if (!isfinite(x) || !isfinite(y)) {
			column_flush(fr, se, &c, m, &open);
			open = 0; /* a gap in the data is a gap in the line */
			continue;
		}
		if (!per_column) {
			fprintf(m, "%s%.1f %.1f", open ? "L" : "M", x, y);
			open = 1;
			continue;
		}
		if (c.have && (long)floor(x) != c.at)
			column_flush(fr, se, &c, m, &open);
		if (!c.have) {
			c = (struct column){ (long)floor(x), i, i, i, i, y, y, 1 };
			continue;
		}
		if (y < c.ylo)
			c.lo = i, c.ylo = y;
		if (y > c.yhi)
			c.hi = i, c.yhi = y;
		c.last = i;
	}
	column_flush(fr, se, &c, m, &open);
}

/* Hover points: every point of a short series (visible markers when very
 * short); of a long one only those ringed (outliers), so none is lost. */
static void points(struct frame *fr, const struct chart_series *se, const char *col)
{
	const struct chart *c = fr->c;
	int markers = c->kind == CHART_SCATTER || se->n <= 60, all = markers || se->n <= 400;
	fprintf(fr->f, "<g class=\"points\" fill=\"%s\">", col);
	for (size_t i = 0; i < se->n; i++) {
		int ring = se->mark && se->mark[i];
		if (!all && !ring)
			continue;
		double x = chart_map_px(&fr->xm, se->x[i]), y = chart_map_px(&fr->ym, se->y[i]);
		if (!isfinite(x) || !isfinite(y))
			continue;
		fprintf(fr->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"%s>", x, y,
			ring	  ? "6"
			: markers ? "3.2"
				  : "5",
			ring	  ? " fill=\"none\" stroke=\"#D55E00\" stroke-width=\"2.5\""
			: markers ? ""
				  : " fill-opacity=\"0\"");
		point_title(fr, se->name, se->x[i], se->y[i], se->text ? se->text[i] : NULL);
		fputs("</circle>", fr->f);
	}
	fputs("</g>\n", fr->f);
}

static void lines(struct frame *fr)
{
	const struct chart *c = fr->c;
	char attrs[160];
	for (size_t s = 0; s < c->nseries; s++) {
		const struct chart_series *se = &c->series[s];
		const char *col = chart_series_color(c, s);
		char *d = NULL;
		size_t len = 0;
		FILE *m = c->kind == CHART_LINE ? open_memstream(&d, &len) : NULL;
		if (m)
			line_path(fr, se, m);
		if (m && fclose(m) == 0) {
			snprintf(attrs, sizeof(attrs),
				 "class=\"series\" fill=\"none\" stroke=\"%s\" "
				 "stroke-width=\"2.2\" stroke-linejoin=\"round\"%s",
				 col, se->dashed ? " stroke-dasharray=\"7 4\"" : "");
			path(fr->f, attrs, d, len);
		}
		points(fr, se, col);
	}
}

/* A step outline over a light fill per series, so overlapping series stay
 * apart; invisible bins on top carry the hover titles. */
static void hist_outline(struct frame *fr, const struct chart_series *se, const char *col,
			 double base)
{
	char *d = NULL, attrs[160];
	size_t len = 0;
	int open = 0;
	double last = 0;
	FILE *m = open_memstream(&d, &len);
	for (size_t i = 0; m && i < se->n; i++) {
		double xa = chart_map_px(&fr->xm, se->x[i]),
		       xb = chart_map_px(&fr->xm, se->x[i + 1]);
		double y = se->y[i] > 0 ? chart_map_px(&fr->ym, se->y[i]) : base;
		if (!isfinite(xa) || !isfinite(xb) || !isfinite(y))
			continue;
		if (!open)
			fprintf(m, "M%.1f %.1f", xa, base);
		fprintf(m, "V%.1fH%.1f", y, xb);
		open = 1;
		last = xb;
	}
	if (open)
		fprintf(m, "V%.1fH%.1fZ", base, last);
	if (m && fclose(m) == 0) {
		snprintf(attrs, sizeof(attrs),
			 "class=\"series\" fill=\"%s\" fill-opacity=\"0.22\" "
			 "stroke=\"%s\" stroke-width=\"1.8\" stroke-linejoin=\"round\"",
			 col, col);
		path(fr->f, attrs, d, len);
	}
}

static void hist(struct frame *fr)
{
	const struct chart *c = fr->c;
	char a[48], b[48], v[48];
	double base = chart_map_px(&fr->ym, 0);
	if (!isfinite(base))
		base = fr->y1;
	for (size_t s = 0; s < c->nseries; s++) {
		const struct chart_series *se = &c->series[s];
		hist_outline(fr, se, chart_series_color(c, s), base);
		fputs("<g class=\"hover\" fill-opacity=\"0\">", fr->f);
		for (size_t i = 0; i < se->n; i++) {
			double xa = chart_map_px(&fr->xm, se->x[i]),
			       xb = chart_map_px(&fr->xm, se->x[i + 1]);
			double y = chart_map_px(&fr->ym, se->y[i]);
			if (!isfinite(xa) || !isfinite(xb) || !isfinite(y) || !(se->y[i] > 0))
				continue;
			chart_fmt_value(c->x.unit, se->x[i], a, sizeof(a));
			chart_fmt_value(c->x.unit, se->x[i + 1], b, sizeof(b));
			chart_fmt_value(c->y.unit, se->y[i], v, sizeof(v));
			fprintf(fr->f,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
				"<title>",
				xa, y, SB_MAX(xb - xa, 0.5), SB_MAX(base - y, 0));
			rep_html_esc(fr->f, se->name);
			fprintf(fr->f, " %s to %s: %s</title></rect>", a, b, v);
		}
		fputs("</g>\n", fr->f);
	}
}

/* Events as triangles standing on the x axis, each with its text on hover;
 * events on one pixel column share a triangle that names them all (the
 * first CHART_EVENT_NAMES, and how many more). */
static void event_mark(struct frame *fr, size_t from, size_t to, double x)
{
	const struct chart *c = fr->c;
	char a[48];
	fprintf(fr->f, "<path class=\"event\" d=\"M%.1f %.1fl-6 10h12z\"><title>", x, fr->y1 - 10);
	for (size_t i = from; i < to && i < from + CHART_EVENT_NAMES; i++) {
		chart_fmt_value(c->x.unit, c->events[i], a, sizeof(a));
		if (i > from)
			fputs(" | ", fr->f);
		rep_html_esc(fr->f, c->event_text && c->event_text[i] ? c->event_text[i] : a);
	}
	if (to - from > CHART_EVENT_NAMES)
		fprintf(fr->f, " (and %zu more)", to - from - CHART_EVENT_NAMES);
	fputs("</title></path>", fr->f);
}

static void events(struct frame *fr)
{
	const struct chart *c = fr->c;
	size_t from = 0;
	double at = NAN;
	if (!c->nevents)
		return;
	fputs("<g class=\"events\" fill=\"#D55E00\">", fr->f);
	for (size_t i = 0; i <= c->nevents; i++) {
		double x = i < c->nevents ? chart_map_px(&fr->xm, c->events[i]) : NAN;
		if (i < c->nevents && !isfinite(x)) {
			if (isfinite(at))
				event_mark(fr, from, i, at);
			at = NAN;
			continue;
		}
		if (isfinite(at) && i < c->nevents && floor(x) == floor(at))
			continue; /* the same column */
		if (isfinite(at))
			event_mark(fr, from, i, at);
		from = i;
		at = x;
	}
	fputs("</g>\n", fr->f);
}

static void vlines(struct frame *fr)
{
	const struct chart *c = fr->c;
	for (size_t i = 0; i < c->nvlines; i++) {
		double x = chart_map_px(&fr->xm, c->vlines[i]);
		if (!isfinite(x))
			continue;
		fprintf(fr->f,
			"<line class=\"vline\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"", x,
			fr->y0, x, fr->y1);
		if (c->vline_text && c->vline_text[i]) {
			fputs("><title>", fr->f);
			rep_html_esc(fr->f, c->vline_text[i]);
			fputs("</title></line>\n", fr->f);
		} else {
			fputs("/>\n", fr->f);
		}
	}
}

/* The left edge of the plot: room for the widest label left of the axis
 * and, left of it, the axis title standing on its side at x = 18, so the
 * two never overlap. */
static double left_edge(const struct frame *fr)
{
	const struct chart *c = fr->c;
	char buf[48];
	double w = 0;
	if (c->kind == CHART_HEATMAP) {
		for (size_t r = 0; c->rows && r < c->nrows; r++)
			w = SB_MAX(w, chart_label_px(c->rows[r]));
	} else if (c->kind != CHART_GRID) {
		for (unsigned i = 0; i < fr->ym.nticks; i++) {
			chart_map_label(&fr->ym, fr->ym.ticks[i], buf, sizeof(buf));
			w = SB_MAX(w, chart_label_px(buf));
		}
	}
	/* a label longer than any tick (a heatmap row named at length) takes at
	 * most half the chart: the plot keeps its room */
	return SB_MIN(SB_MAX(84, 18 + 10 + 8 + w + 8), fr->w / 2.0);
}

void chart_svg(FILE *f, const struct chart *c)
{
	static const char *const kinds[] = { "line", "scatter", "bar", "hist", "heatmap", "grid" };
	struct frame fr;
	memset(&fr, 0, sizeof(fr));
	fr.c = c;
	fr.f = f;
	fr.w = c->width ? c->width : 960;
	fr.h = c->height ? c->height : 420;
	fr.x0 = 84;
	fr.x1 = fr.w - (c->kind == CHART_HEATMAP ? SB_MAX(110, chart_heat_legend(c)) : 28);
	fr.y1 = fr.h - 58;
	if (c->kind == CHART_BAR || c->kind == CHART_HEATMAP)
		fr.y1 -= chart_cat_depth(c, (fr.x1 - fr.x0) / (double)(c->ncats ? c->ncats : 1));
	fprintf(f,
		"<svg class=\"chart chart-%s\"%s%s%s viewBox=\"0 0 %d %d\" role=\"img\" "
		"aria-label=\"",
		kinds[c->kind], c->id ? " id=\"" : "", c->id ? c->id : "", c->id ? "\"" : "", fr.w,
		fr.h);
	rep_html_esc(f, c->title);
	fputs("\">\n", f);
	if (c->kind == CHART_HEATMAP)
		fr.x0 = left_edge(&fr);
	heading(&fr);
	if (c->kind == CHART_HEATMAP) {
		chart_heatmap(f, c, fr.x0, fr.x1, fr.y0, fr.y1);
	} else if (c->kind == CHART_GRID) {
		chart_grid(f, c, fr.x0, fr.x1, fr.y0, fr.y1);
	} else {
		size_t n = ranges(&fr);
		double x0 = left_edge(&fr);
		if (x0 > fr.x0) {
			fr.x0 = x0;
			n = ranges(&fr);
		}
		axes(&fr, c->kind != CHART_BAR);
		if (c->kind == CHART_BAR)
			chart_bars(f, c, &fr.ym, fr.x0, fr.x1, fr.y0, fr.y1);
		if (!n)
			fprintf(f,
				"<text class=\"nodata\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
				"no data</text>\n",
				(fr.x0 + fr.x1) / 2, (fr.y0 + fr.y1) / 2);
		else if (c->kind == CHART_HIST)
			hist(&fr);
		else if (c->kind != CHART_BAR)
			lines(&fr);
		vlines(&fr);
		events(&fr);
	}
	fputs("</svg>\n", f);
}

void chart_figure(FILE *f, const struct chart *c, const char *caption)
{
	fputs("<figure>\n", f);
	chart_svg(f, c);
	if (caption) {
		fputs("<figcaption>", f);
		rep_html_esc(f, caption);
		fputs("</figcaption>\n", f);
	}
	fputs("</figure>\n", f);
}
