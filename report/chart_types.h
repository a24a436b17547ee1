/*
 * What a chart is (report/chart.h draws it): its kind, axes, series and
 * marks. The files that draw (report/chart*.c, through chart_int.h) and
 * the sections that fill one in share these types; chart.h, which
 * dispatches to the drawing files, and chart_int.h, which declares them,
 * both include this header rather than each other.
 */
#ifndef SB_CHART_TYPES_H
#define SB_CHART_TYPES_H

#include <stddef.h>

enum chart_kind { CHART_LINE, CHART_SCATTER, CHART_BAR, CHART_HIST, CHART_HEATMAP, CHART_GRID };

enum chart_scale {
	CHART_LINEAR,
	CHART_LOG,   /* decades */
	CHART_NINES, /* percentiles: 0, 90, 99, 99.9 ... equally spaced */
};

enum chart_unit {
	CHART_U_NONE,
	CHART_U_BYTES_S, /* shown in B/s, KiB/s, MiB/s, GiB/s */
	CHART_U_BYTES,
	CHART_U_NS, /* shown in ns, µs, ms, s */
	CHART_U_S,
	CHART_U_PCT,
	CHART_U_COUNT, /* 12k, 1.5M */
};

struct chart_axis {
	const char *title; /* without the unit: "Bandwidth" -> "Bandwidth (MiB/s)" */
	enum chart_unit unit;
	enum chart_scale scale;
	int no_zero; /* linear: do not stretch the range to include 0 */
};

/* Directions keep their colour in every chart. */
enum { CHART_C_READ = 0, CHART_C_WRITE = 5, CHART_C_TRIM = 2 };

struct chart_series {
	const char *name;
	const double *x;	   /* line, scatter: x values; hist: n+1 bin edges; bar: unused */
	const double *y;	   /* n values; bar: one per category */
	const double *lo, *hi;	   /* bar: error bar ends (NULL: none) */
	const unsigned char *mark; /* line, scatter: points to ring (outliers), or NULL */
	const char *const *text; /* line, scatter: a note per point for its hover title, or NULL */
	size_t n;
	int color; /* palette index, -1: by series order */
	int dashed;
};

struct chart {
	enum chart_kind kind;
	const char *title;
	const char *note; /* a line under the title (how it was derived) */
	struct chart_axis x, y;
	struct chart_axis z;	 /* heatmap: the value's unit */
	const char *const *cats; /* bar: x categories; heatmap: columns */
	size_t ncats;
	const char *const *rows; /* heatmap: rows, top to bottom */
	size_t nrows;
	const double *cells; /* heatmap: nrows x ncats, row-major; NaN = empty */
	/* heatmap: a colour scale shared with other charts (the report's one
	 * scale), widened to the cells' own range; NaN or 0..0: the cells' own */
	double zlo, zhi;
	const struct chart_series *series;
	size_t nseries;
	const double *vlines;	       /* x positions of dashed markers (change points) */
	const char *const *vline_text; /* their hover titles, or NULL */
	size_t nvlines;
	/* x positions of events (errors), ascending: triangles on the x axis,
	 * one per pixel column */
	const double *events;
	const char *const *event_text; /* their hover titles (NULL: the position) */
	size_t nevents;
	/* grid: a region as rows of ncats cells, cell i covering grid_origin +
	 * i * grid_cell bytes on; cells[] holds the index of the series
	 * (class) that colours it, NaN for none. The series name the classes
	 * for the legend (y and x unused). */
	double grid_origin, grid_cell;
	const char *id;	   /* element id, or NULL */
	int width, height; /* viewBox; 0: 960 x 420 */
};

#endif
