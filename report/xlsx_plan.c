/*
 * A plan's workbook, its first sheet (report/xlsx_book.h, xb_plan_sheet):
 * the verdict and how many criteria passed, then a row per criterion
 * (step, target, figure, unit, measured, limit, result: numbers in the
 * figure's unit), then the steps that did not run and why; the steps'
 * own sheets follow (report/xlsx.c).
 */
#ifdef HAVE_XLSX
#include "report/xlsx_book.h"

static void value(struct xb_book *b, lxw_col_t c, int found, double v, const char *word)
{
	if (word)
		xb_str(b, b->row, c, word, 0);
	else if (found)
		xb_num(b, b->row, c, v, XB_NUM, 0);
}

static void criteria(struct xb_book *b, const struct rep_plan *p)
{
	static const char *const cols[] = { "step",	"target", "figure", "unit",
					    "measured", "op",	  "limit",  "result" };
	const struct sb_plan_doc *d = &p->doc;
	for (size_t i = 0; i < SB_ARRAY_SIZE(cols); i++)
		xb_str(b, b->row, (lxw_col_t)i, cols[i], 1);
	b->row++;
	for (size_t i = 0; i < d->nsteps; i++)
		for (size_t k = 0; k < d->steps[i].ncrit; k++, b->row++) {
			const struct sb_plan_doc_crit *c = &d->steps[i].crit[k];
			xb_str(b, b->row, 0, d->steps[i].step, 0);
			xb_str(b, b->row, 1, d->steps[i].target, 0);
			xb_str(b, b->row, 2, c->figure, 0);
			xb_str(b, b->row, 3, c->unit, 0);
			value(b, 4, c->measured_found, c->measured, c->measured_word);
			xb_str(b, b->row, 5, c->op, 0);
			value(b, 6, 1, c->limit, c->limit_word);
			xb_str(b, b->row, 7, !strcmp(c->result, "fail") ? "FAIL" : c->result, 0);
		}
}

void xb_plan_sheet(struct xb_book *b, const struct rep_plan *p)
{
	const struct sb_plan_doc *d = &p->doc;
	char h[200];
	if (!xb_sheet(b, "Plan", NULL, 0, 0, 0))
		return;
	lxw_format *word = workbook_add_format(b->wb);
	format_set_bold(word);
	format_set_font_size(word, 14);
	xb_str(b, b->row, 0, "plan", 1);
	xb_str(b, b->row++, 1, d->name ? d->name : d->file ? d->file : p->dir, 0);
	worksheet_write_string(b->sheet, b->row, 0, rep_plan_verdict(p, NULL), word);
	worksheet_write_string(b->sheet, b->row++, 1, rep_plan_headline(p, h, sizeof(h)), NULL);
	if (d->interrupted || d->stopped) {
		xb_str(b, b->row, 0, d->interrupted ? "interrupted by" : "stopped", 1);
		worksheet_write_string(b->sheet, b->row++, 1,
				       d->interrupted ? d->interrupted : d->stopped, NULL);
	}
	for (size_t i = 0; i < d->nlabels; i++) {
		xb_str(b, b->row, 0, "label", 1);
		xb_str(b, b->row++, 1, d->labels[i], 0);
	}
	xb_str(b, b->row, 0, "directory", 1);
	worksheet_write_string(b->sheet, b->row++, 1, p->dir, NULL);
	for (size_t i = 0; i < p->nnotes; i++) {
		xb_str(b, b->row, 0, "note", 1);
		worksheet_write_string(b->sheet, b->row++, 1, p->notes[i], NULL);
	}
	b->row++;
	for (size_t i = 0; i < p->ntargets; i++) {
		xb_str(b, b->row, 0, "target", 1);
		xb_str(b, b->row, 1, p->targets[i].target, 0);
		xb_str(b, b->row++, 2, rep_plan_verdict(p, p->targets[i].target), 1);
	}
	b->row++;
	if (d->tally.verdict)
		criteria(b, p);
	b->row++;
	for (size_t i = 0; i < d->nsteps; i++, b->row++) {
		const struct sb_plan_doc_step *s = &d->steps[i];
		xb_str(b, b->row, 0, s->step, i == 0);
		xb_str(b, b->row, 1, s->target, 0);
		xb_str(b, b->row, 2, s->state, 0);
		if (s->result || s->why)
			worksheet_write_string(b->sheet, b->row, 3, s->result ? s->result : s->why,
					       NULL);
	}
}
#endif
