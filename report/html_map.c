/*
 * The map of a region as rows of cells on the grid chart, for verify's
 * and spo's sections: the region cut into at most HTML_MAP_CELLS cells of
 * whole blocks, 64 to a row, each cell coloured by the class other than
 * class 0 (nothing found) covering most of its bytes, so a single bad block
 * of a large cell still shows.
 */
#include "report/html.h"
#include "report/chart.h"

#include <math.h>

#define COLS 64

int html_map_layout(struct html_map *m, double origin, double size, double bs)
{
	memset(m, 0, sizeof(*m));
	m->origin = origin;
	m->size = size;
	if (!(bs > 0) || !(size >= bs) || !isfinite(size) || !isfinite(origin))
		return -EINVAL;
	m->cell = ceil(ceil(size / bs) / HTML_MAP_CELLS) * bs;
	m->ncells = (size_t)ceil(size / m->cell);
	m->ncols = SB_MIN(m->ncells, (size_t)COLS);
	m->nrows = (m->ncells + m->ncols - 1) / m->ncols;
	return 0;
}

void html_map_add(struct html_map *m, int cls, double offset, double length)
{
	double lo = offset - m->origin, hi = lo + length;
	if (cls <= 0 || cls >= HTML_MAP_CLASSES || !(lo >= 0) || !(hi > lo) || lo >= m->size)
		return;
	hi = SB_MIN(hi, m->size);
	for (size_t k = (size_t)(lo / m->cell); k < m->ncells && (double)k * m->cell < hi; k++)
		m->bad[k][cls] += SB_MIN(hi, (double)(k + 1) * m->cell) -
				  SB_MAX(lo, (double)k * m->cell);
}

void html_map_chart(FILE *f, struct html_map *m, const char *title, const char *note,
		    const struct chart_series *classes, size_t nclasses)
{
	for (size_t k = 0; k < m->nrows * m->ncols; k++) {
		int best = 0;
		for (int c = 1; k < m->ncells && c < HTML_MAP_CLASSES; c++)
			if (m->bad[k][c] > (best ? m->bad[k][best] : 0))
				best = c;
		m->cls[k] = k < m->ncells ? best : NAN;
	}
	struct chart c = {
		.kind = CHART_GRID,
		.title = title,
		.note = note,
		.x = { "Offset within the row", CHART_U_BYTES, CHART_LINEAR, 0 },
		.y = { "Row starts at", CHART_U_BYTES, CHART_LINEAR, 0 },
		.ncats = m->ncols,
		.nrows = m->nrows,
		.cells = m->cls,
		.series = classes,
		.nseries = nclasses,
		.grid_origin = m->origin,
		.grid_cell = m->cell,
		.height = (int)(150 + (double)m->nrows * (m->nrows > 16 ? 12 : 20)),
	};
	chart_figure(f, &c, NULL);
}
