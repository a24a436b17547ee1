/*
 * Charts as inline SVG for the HTML reports: line, bar (grouped, with
 * min..max error bars), scatter, histogram and heatmap, on linear, log or
 * "nines" (percentile) axes with round ticks, titled axes with units, a
 * legend and the Okabe-Ito colour-blind-safe palette. Every section of a
 * report draws through this module, so the charts look alike.
 *
 * Data in base units (bytes/s, ns, s); the axis picks the display unit
 * (MiB/s, µs ...) from the range. Points that are not finite (or not
 * positive on a log axis) are left out, so the SVG never holds NaN; a chart
 * without any drawable point says "no data" instead of drawing an empty
 * path. Each point gets a <title>, which browsers show on hover; a line
 * of more points than CHART_POINTS_PER_PX per pixel of the plot's width is
 * drawn per pixel column (first, lowest, highest and last point: the same
 * line), with hover points only for its ringed points, so a day of
 * 1-second iterations draws in a size bound by the chart's width.
 */
#ifndef SB_CHART_H
#define SB_CHART_H

#include "lib/storbench.h"
#include "report/chart_palette.h"
#include "report/chart_types.h"

#define CHART_POINTS_PER_PX 2
#define CHART_EVENT_NAMES 8 /* events named in the title of a shared triangle */

/* Writes <svg class="chart chart-KIND" ...>...</svg>. */
void chart_svg(FILE *f, const struct chart *c);

/* chart_svg inside <figure>, with a <figcaption> when caption is not NULL. */
void chart_figure(FILE *f, const struct chart *c, const char *caption);

#endif
