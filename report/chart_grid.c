/*
 * The grid kind: a region (a device, a file) laid out as rows of cells,
 * left to right and top to bottom like text, each cell coloured by the
 * class it holds (verify's intact, corrupted, ...). Runs of cells of one
 * class in a row are one rectangle with one hover title, so a large map
 * stays small; the rows are labelled with the offset they start at.
 */
#include "report/chart_int.h"

#include <math.h>

static int cell_class(const struct chart *c, size_t i)
{
	double v = c->cells[i];
	return isfinite(v) && v >= 0 && v < (double)c->nseries ? (int)v : -1;
}

static void run_rect(FILE *f, const struct chart *c, size_t first, size_t n, int cls, double x,
		     double y, double w, double h)
{
	char a[48], b[48];
	double lo = c->grid_origin + c->grid_cell * (double)first;
	chart_fmt_value(CHART_U_BYTES, lo, a, sizeof(a));
	chart_fmt_value(CHART_U_BYTES, lo + c->grid_cell * (double)n, b, sizeof(b));
	fprintf(f,
		"<rect class=\"series\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"%s\"><title>%s to %s: ",
		x, y, w, h, chart_series_color(c, (size_t)cls), a, b);
	rep_html_esc(f, c->series[cls].name);
	fputs("</title></rect>", f);
}

static void grid_row(FILE *f, const struct chart *c, size_t r, double x0, double cw, double y,
		     double ch)
{
	size_t nc = c->ncats, base = r * nc;
	for (size_t k = 0; k < nc;) {
		int cls = cell_class(c, base + k);
		size_t e = k + 1;
		while (e < nc && cell_class(c, base + e) == cls)
			e++;
		if (cls >= 0)
			run_rect(f, c, base + k, e - k, cls, x0 + cw * (double)k, y,
				 cw * (double)(e - k), ch);
		k = e;
	}
}

static void grid_labels(FILE *f, const struct chart *c, double x0, double cw, double y0, double y1,
			double ch)
{
	char buf[48];
	size_t nr = c->nrows, step = nr > 16 ? (nr + 15) / 16 : 1;
	for (size_t r = 0; r < nr; r += step) {
		chart_fmt_value(CHART_U_BYTES,
				c->grid_origin + c->grid_cell * (double)(r * c->ncats), buf,
				sizeof(buf));
		fprintf(f,
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
			x0 - 8, y0 + ch * ((double)r + 0.5) + 4, buf);
	}
	/* the last offset ends at the grid's right edge: centred there, it
	 * would leave the chart */
	for (unsigned q = 0; q <= 4; q++) {
		size_t k = c->ncats * q / 4;
		double x = x0 + cw * (double)k;
		chart_fmt_value(CHART_U_BYTES, c->grid_cell * (double)k, buf, sizeof(buf));
		fprintf(f,
			"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">+%s</text>\n",
			x, y1, x, y1 + 5, x, y1 + 20, q == 4 ? "end" : "middle", k ? buf : "0");
	}
}

void chart_grid(FILE *f, const struct chart *c, double x0, double x1, double y0, double y1)
{
	size_t nc = c->ncats, nr = c->nrows;
	if (!nc || !nr || !c->cells || !c->nseries || !(c->grid_cell > 0)) {
		fprintf(f,
			"<text class=\"nodata\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data"
			"</text>\n",
			(x0 + x1) / 2, (y0 + y1) / 2);
		return;
	}
	double cw = (x1 - x0) / (double)nc, ch = (y1 - y0) / (double)nr;
	fputs("<g class=\"cells\">", f);
	for (size_t r = 0; r < nr; r++)
		grid_row(f, c, r, x0, cw, y0 + ch * (double)r, ch);
	fputs("</g>\n", f);
	/* thin white rules between rows, so the rows read as lines of text */
	for (size_t r = 1; r < nr && ch >= 6; r++)
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#fff\"/>",
			x0, y0 + ch * (double)r, x1, y0 + ch * (double)r);
	fprintf(f,
		"\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#555\"/>\n",
		x0, y0, x1 - x0, y1 - y0);
	grid_labels(f, c, x0, cw, y0, y1, ch);
	fprintf(f, "<text class=\"axis-title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		(x0 + x1) / 2, y1 + 44);
	rep_html_esc(f, c->x.title ? c->x.title : "");
	fprintf(f,
		"</text><text class=\"axis-title\" transform=\"translate(18 %.1f) rotate(-90)\" "
		"text-anchor=\"middle\">",
		(y0 + y1) / 2);
	rep_html_esc(f, c->y.title ? c->y.title : "");
	fputs("</text>\n", f);
}
