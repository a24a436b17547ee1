/*
 * The spo section of the HTML report (storbench spo --check, docs/spo.md):
 * the verdict, a map of the region coloured by class (the grid chart
 * verify's map draws, cells without a finding shown as ok), the blocks per
 * class, the ranges, the histogram of the time from acknowledgement to the
 * cut of each lost write, and the recommendations.
 */
#include "report/html.h"
#include "report/chart.h"

#include <math.h>

/* palette colour of each class, in sb_spo_class_name()'s order */
static const int spo_color[SB_SPO_NCLASS] = { 2, 4, 1, 3, 0, 5, 6, 7 };

static int class_index(const char *name)
{
	for (int i = 0; name && i < SB_SPO_NCLASS; i++)
		if (!strcmp(name, sb_spo_class_name(i)))
			return i;
	return -1;
}

_Static_assert(SB_SPO_NCLASS <= HTML_MAP_CLASSES, "spo's classes fit the map");

static void map_chart(FILE *f, const struct sb_jv *s)
{
	struct html_map *m = malloc(sizeof(*m));
	const struct sb_jv *ranges = sb_jv_get(s, "ranges");
	struct chart_series cs[SB_SPO_NCLASS];
	char note[200], a[32], b[32], c32[32];
	if (!m || html_map_layout(m, sb_jv_num(sb_jv_get(s, "offset"), 0),
				  sb_jv_num(sb_jv_get(s, "size"), 0),
				  sb_jv_num(sb_jv_get(s, "bs"), 0)) < 0) {
		free(m);
		return;
	}
	for (size_t i = 0; i < sb_jv_len(ranges); i++) {
		const struct sb_jv *r = sb_jv_at(ranges, i);
		html_map_add(m, class_index(sb_jv_str(sb_jv_get(r, "class"))),
			     sb_jv_num(sb_jv_get(r, "offset"), NAN),
			     sb_jv_num(sb_jv_get(r, "length"), 0));
	}
	for (int c = 0; c < SB_SPO_NCLASS; c++)
		cs[c] = (struct chart_series){ .name = sb_spo_class_name(c),
					       .color = spo_color[c] };
	snprintf(note, sizeof(note),
		 "%s from offset %s; a cell is %s, coloured by the class other than ok covering "
		 "most of it (ok: nothing found, or not written)",
		 sb_fmt_size((uint64_t)m->size, a, sizeof(a)),
		 sb_fmt_size((uint64_t)m->origin, b, sizeof(b)),
		 sb_fmt_size((uint64_t)m->cell, c32, sizeof(c32)));
	html_map_chart(f, m, "Map of the region after the cut", note, cs, SB_SPO_NCLASS);
	free(m);
}

static void counts(FILE *f, const struct sb_jv *s)
{
	static const char *const cols[] = { "Class", "Blocks" };
	const struct sb_jv *cl = sb_jv_get(s, "classes");
	char a[48];
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (int c = 0; c < SB_SPO_NCLASS; c++) {
		const double n = sb_jv_num(sb_jv_get(cl, sb_spo_class_name(c)), 0);
		fprintf(f, "<tr%s><td><span class=\"swatch\" style=\"background:%s\"></span>",
			c > SB_SPO_OK_UNACKED && n > 0 ? " style=\"font-weight:600\"" : "",
			chart_color(spo_color[c]));
		fprintf(f, "%s</td>", sb_spo_class_name(c));
		snprintf(a, sizeof(a), "%.0f", n);
		html_cell(f, a, 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void ranges(FILE *f, const struct sb_jv *s)
{
	static const char *const cols[] = { "Class", "Offset", "Length" };
	const struct sb_jv *rs = sb_jv_get(s, "ranges");
	char a[64];
	if (!sb_jv_len(rs))
		return;
	fputs("<p class=\"meta\">Ranges with findings, in offset order (bytes from the "
	      "target's start).</p>\n",
	      f);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (size_t i = 0; i < sb_jv_len(rs); i++) {
		const struct sb_jv *r = sb_jv_at(rs, i);
		fputs("<tr><td>", f);
		rep_html_esc(f, rep_or(sb_jv_str(sb_jv_get(r, "class")), "?"));
		fputs("</td>", f);
		html_cell(f, rep_fmt_offset(sb_jv_num(sb_jv_get(r, "offset"), 0), a, sizeof(a)), 1);
		html_cell(f, rep_fmt_offset(sb_jv_num(sb_jv_get(r, "length"), 0), a, sizeof(a)), 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* The lost acknowledged writes per ack-to-cut bucket, n of them. */
static void hist_chart(FILE *f, const char *const *cats, const double *y, size_t n)
{
	double any = 0;
	for (size_t i = 0; i < n; i++)
		any += y[i];
	if (!(any > 0))
		return;
	const struct chart_series se = { .name = "lost-acked", .y = y, .n = n, .color = 1 };
	struct chart c = {
		.kind = CHART_BAR,
		.title = "Lost acknowledged writes by time from acknowledgement to the cut",
		.note = "a write lost long after its acknowledgement was not racing the cut: the "
			"flush did not reach the medium",
		.x = { "Acknowledged before the cut", CHART_U_NONE, CHART_LINEAR, 0 },
		.y = { "Writes", CHART_U_COUNT, CHART_LINEAR, 0 },
		.cats = cats,
		.ncats = n,
		.series = &se,
		.nseries = 1,
	};
	chart_figure(f, &c, NULL);
}

static void histogram(FILE *f, const struct sb_jv *s)
{
	const struct sb_jv *h = sb_jv_get(s, "ack_to_cut_histogram");
	const char *cats[SB_SPO_HIST_N];
	double y[SB_SPO_HIST_N];
	size_t n = 0;
	for (size_t i = 0; i < sb_jv_len(h) && n < SB_SPO_HIST_N; i++, n++) {
		cats[n] = rep_or(sb_jv_str(sb_jv_get(sb_jv_at(h, i), "bucket")), "?");
		y[n] = sb_jv_num(sb_jv_get(sb_jv_at(h, i), "count"), 0);
	}
	hist_chart(f, cats, y, n);
}

void html_section_spo(FILE *f, const struct rep_doc *d)
{
	const struct sb_jv *s = sb_jv_get(d->sb, "spo");
	const struct sb_jv *rec = sb_jv_get(s, "recommendations");
	if (!sb_jv_is(sb_jv_get(s, "classes"), SB_JV_OBJ))
		return;
	const int pass = sb_jv_bool(sb_jv_get(s, "pass"), 0);
	fprintf(f,
		"<h3>Sudden power off</h3>\n<p class=\"meta\">Result: <span class=\"%s\">%s</span>; "
		"sync ",
		pass ? "ok" : "bad", pass ? "pass" : "FAIL");
	rep_html_esc(f, rep_or(sb_jv_str(sb_jv_get(s, "sync")), "?"));
	fprintf(f, ", %.0f writes journaled, %.0f acknowledged, %.0f blocks checked.</p>\n",
		sb_jv_num(sb_jv_get(sb_jv_get(s, "journal"), "writes"), 0),
		sb_jv_num(sb_jv_get(sb_jv_get(s, "journal"), "acknowledged"), 0),
		sb_jv_num(sb_jv_get(s, "blocks"), 0));
	if (sb_jv_len(rec)) {
		fputs("<ul class=\"notes\">\n", f);
		for (size_t i = 0; i < sb_jv_len(rec); i++) {
			fputs("<li>", f);
			rep_html_esc(f, rep_or(sb_jv_str(sb_jv_at(rec, i)), ""));
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	map_chart(f, s);
	counts(f, s);
	histogram(f, s);
	ranges(f, s);
}

/* ---- spo --cycles's log ---- */

#define MAX_FAILED_ROWS 50

/* Blocks of each failing class per cycle, the failed cycles marked on the
 * axis. */
static void cycles_chart(FILE *f, const struct rep_cycles *c)
{
	struct chart_series s[SB_SPO_NCLASS];
	size_t ns = 0, ne = 0;
	double *ev = calloc(c->nfailed ? c->nfailed : 1, sizeof(*ev));
	if (!ev)
		return;
	for (int k = SB_SPO_LOST_ACKED; k < SB_SPO_NCLASS; k++) {
		int any = 0;
		for (size_t i = 0; i < c->n && !any; i++)
			any = c->blocks[k][i] > 0;
		if (any)
			s[ns++] = (struct chart_series){ .name = sb_spo_class_name(k),
							 .x = c->x,
							 .y = c->blocks[k],
							 .n = c->n,
							 .color = spo_color[k] };
	}
	for (size_t i = 0; i < c->n; i++)
		if (c->failed[i])
			ev[ne++] = c->x[i];
	struct chart ch = {
		.kind = CHART_SCATTER,
		.title = "Damaged and lost blocks per cycle",
		.note = "blocks of each failing class the check found after each cut; the "
			"triangles mark the cycles that failed",
		.x = { "Cycle", CHART_U_NONE, CHART_LINEAR, 1 },
		.y = { "Blocks", CHART_U_COUNT, CHART_LINEAR, 0 },
		.series = s,
		.nseries = ns,
		.events = ev,
		.nevents = ne,
	};
	chart_figure(f, &ch, NULL);
	free(ev);
}

static void failed_table(FILE *f, const struct rep_cycles *c)
{
	static const char *const cols[] = { "Cycle",	   "Cut after", "Lost-acked", "Torn",
					    "Misdirected", "Corrupt",	"Unreadable", "Collateral" };
	char a[32];
	size_t shown = 0;
	if (!c->nfailed)
		return;
	fprintf(f, "<p class=\"meta\">The failed cycles%s: blocks per class.</p>\n",
		c->nfailed > MAX_FAILED_ROWS ? " (the first 50)" : "");
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (size_t i = 0; i < c->n && shown < MAX_FAILED_ROWS; i++) {
		if (!c->failed[i])
			continue;
		shown++;
		snprintf(a, sizeof(a), "%.0f", c->x[i]);
		fputs("<tr>", f);
		html_cell(f, a, 0);
		snprintf(a, sizeof(a), "%.2f s", c->cut_s[i]);
		html_cell(f, isfinite(c->cut_s[i]) ? a : "", 1);
		for (int k = SB_SPO_LOST_ACKED; k < SB_SPO_NCLASS; k++) {
			snprintf(a, sizeof(a), "%.0f", c->blocks[k][i]);
			html_cell(f, a, 1);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

void html_section_spo_cycles(FILE *f, const struct rep_doc *d)
{
	const struct rep_cycles *c = d->cycles;
	if (!c)
		return;
	fputs("<h3>Sudden power off, cycle after cycle</h3>\n<p class=\"meta\">", f);
	fprintf(f, "%zu of %.0f cycles ran: ", c->n, c->planned);
	if (c->nfailed)
		fprintf(f, "<span class=\"bad\">first failure at cycle %.0f (%zu failed)</span>",
			c->first_failed, c->nfailed);
	else
		fprintf(f, "<span class=\"ok\">%s</span>",
			c->n ? "every one passed" : "none completed");
	fputs(".</p>\n", f);
	if (c->errors) {
		fprintf(f, "<p class=\"bad\">Cycle %.0f could not run: ", c->first_error);
		rep_html_esc(f, c->error);
		fputs("</p>\n", f);
	}
	if (!c->n)
		return;
	cycles_chart(f, c);
	hist_chart(f, sb_spo_hist_label, c->hist, SB_SPO_HIST_N);
	failed_table(f, c);
}
