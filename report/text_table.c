/* Text tables: cells collected first, so every column gets its width. */
#include "report/report.h"

char *rep_tt_row(struct rep_ttable *t)
{
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		void *c = realloc(t->cells, cap * sizeof(*t->cells));
		if (!c)
			return NULL;
		t->cells = c;
		t->cap = cap;
	}
	memset(t->cells[t->nrows], 0, sizeof(t->cells[0]));
	return t->cells[t->nrows++][0];
}

void rep_tt_set(struct rep_ttable *t, size_t col, const char *s)
{
	if (!t->nrows || col >= REP_TT_MAXCOLS)
		return;
	char *cell = t->cells[t->nrows - 1][col];
	const char *v = s && *s ? rep_vis(s, cell, 64) : "-"; /* a name from a file, say */
	if (v != cell)
		snprintf(cell, 64, "%s", v);
}

/* Display width: UTF-8 continuation bytes take no column. */
static int width(const char *s)
{
	int w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

void rep_tt_print(FILE *f, struct rep_ttable *t)
{
	int w[REP_TT_MAXCOLS];
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = width(t->head[c]);
		for (size_t r = 0; r < t->nrows; r++)
			w[c] = SB_MAX(w[c], width(t->cells[r][c]));
	}
	for (size_t r = 0; r <= t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = r ? t->cells[r - 1][c] : t->head[c];
			int pad = w[c] - width(s);
			int right = c >= t->right_from;
			fprintf(f, "%s%*s%s%*s", c ? "  " : "", right ? pad : 0, "", s,
				right || c + 1 == t->ncols ? 0 : pad, "");
		}
		fputc('\n', f);
	}
	free(t->cells);
	t->cells = NULL;
	t->nrows = t->cap = 0;
}
