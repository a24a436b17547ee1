/*
 * Chart colours: the palette every chart kind draws from, and the colour
 * of a series (its own, or by its order).
 */
#include "report/chart_palette.h"
#include "report/chart_int.h"

/* Okabe & Ito (2008), ordered so neighbours differ; yellow, weak on white, last. */
static const char *const palette[] = { "#0072B2", "#E69F00", "#009E73", "#CC79A7",
				       "#56B4E9", "#D55E00", "#000000", "#F0E442" };

const char *chart_color(int i)
{
	return palette[(unsigned)i % SB_ARRAY_SIZE(palette)];
}

const char *chart_series_color(const struct chart *c, size_t i)
{
	int k = c->series[i].color;
	return chart_color(k >= 0 ? k : (int)i);
}
