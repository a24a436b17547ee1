/* Chart internals shared by the files of report/chart*.c: drawing, axes, palette, kinds. */
#ifndef SB_CHART_INT_H
#define SB_CHART_INT_H

#include "report/chart_types.h"
#include "report/markup.h"

/* One axis: data to pixels, with its ticks. */
struct chart_map {
	enum chart_scale scale;
	enum chart_unit unit;
	double lo, hi;	   /* domain: data units (linear), log10 (log), nines (nines) */
	double p0, p1;	   /* pixels of lo and hi */
	double div;	   /* linear: data units per display unit */
	double step;	   /* linear: tick step in display units */
	const char *uname; /* display unit: "MiB", "µs", "k" */
	double ticks[40];  /* data units */
	unsigned nticks;
	double minor[64];
	unsigned nminor;
};

void chart_map_fit(struct chart_map *m, const struct chart_axis *a, double lo, double hi, double p0,
		   double p1);
/* Pixel of v; NaN when v cannot be drawn (not finite, <= 0 on a log axis). */
double chart_map_px(const struct chart_map *m, double v);
void chart_map_label(const struct chart_map *m, double v, char *buf, size_t len);
void chart_axis_title(const struct chart_map *m, const struct chart_axis *a, char *buf, size_t len);
/* "1.23 GiB/s", "12.3 µs", "45.6k" */
void chart_fmt_value(enum chart_unit u, double v, char *buf, size_t len);

/* Kinds that lay out categories (report/chart_bars.c). */
void chart_bars(FILE *f, const struct chart *c, const struct chart_map *ym, double x0, double x1,
		double y0, double y1);
void chart_heatmap(FILE *f, const struct chart *c, double x0, double x1, double y0, double y1);
/* The grid kind (report/chart_grid.c). */
void chart_grid(FILE *f, const struct chart *c, double x0, double x1, double y0, double y1);
/* The room a heatmap's colour scale needs right of its plot. */
double chart_heat_legend(const struct chart *c);
/* About how wide a tick label is drawn (12.5 px text). */
double chart_label_px(const char *s);
/* Extra height the category labels need below the axis (two lines, slanted). */
double chart_cat_depth(const struct chart *c, double band);
/* A series' colour: its own, or the palette's by its order (report/chart_palette.c). */
const char *chart_series_color(const struct chart *c, size_t i);

#endif
