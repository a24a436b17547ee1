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

_Static_assert(SB_SPO_NCLASS <= HTML_MAP_CLASSES, "spo's classes fit the map");

static void map_chart(FILE *f, const struct sb_spo_check *c)
{
	struct html_map *m = malloc(sizeof(*m));
	struct chart_series cs[SB_SPO_NCLASS];
	char note[200], a[32], b[32], c32[32];
	if (!m || html_map_layout(m, (double)c->h.offset, (double)c->h.size, (double)c->h.bs) < 0) {
		free(m);
		return;
	}
	for (size_t i = 0; i < c->nranges; i++)
		html_map_add(m, c->ranges[i].cls, (double)c->ranges[i].offset,
			     (double)c->ranges[i].length);
	for (int k = 0; k < SB_SPO_NCLASS; k++)
		cs[k] = (struct chart_series){ .name = sb_spo_class_name(k),
					       .color = spo_color[k] };
	snprintf(note, sizeof(note),
		 "%s from offset %s; a cell is %s, coloured by the class other than ok covering "
		 "most of it (ok: nothing found, or not written)",
		 sb_fmt_size((uint64_t)m->size, a, sizeof(a)),
		 sb_fmt_size((uint64_t)m->origin, b, sizeof(b)),
		 sb_fmt_size((uint64_t)m->cell, c32, sizeof(c32)));
	html_map_chart(f, m, "Map of the region after the cut", note, cs, SB_SPO_NCLASS);
	free(m);
}

static void counts(FILE *f, const struct sb_spo_check *c)
{
	static const char *const cols[] = { "Class", "Blocks" };
	char a[48];
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (int k = 0; k < SB_SPO_NCLASS; k++) {
		fprintf(f, "<tr%s><td><span class=\"swatch\" style=\"background:%s\"></span>",
			k > SB_SPO_OK_UNACKED && c->count[k] ? " style=\"font-weight:600\"" : "",
			chart_color(spo_color[k]));
		fprintf(f, "%s</td>", sb_spo_class_name(k));
		snprintf(a, sizeof(a), "%llu", (unsigned long long)c->count[k]);
		html_cell(f, a, 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void ranges(FILE *f, const struct sb_spo_check *c)
{
	static const char *const cols[] = { "Class", "Offset", "Length" };
	char a[64];
	if (!c->nranges)
		return;
	fputs("<p class=\"meta\">Ranges with findings, in offset order (bytes from the "
	      "target's start).</p>\n",
	      f);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (size_t i = 0; i < c->nranges; i++) {
		const struct sb_spo_range *r = &c->ranges[i];
		fputs("<tr><td>", f);
		rep_html_esc(f, sb_spo_class_name(r->cls));
		fputs("</td>", f);
		html_cell(f, rep_fmt_offset((double)r->offset, a, sizeof(a)), 1);
		html_cell(f, rep_fmt_offset((double)r->length, a, sizeof(a)), 1);
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

static void histogram(FILE *f, const struct sb_spo_check *c)
{
	double y[SB_SPO_HIST_N];
	for (size_t i = 0; i < SB_SPO_HIST_N; i++)
		y[i] = (double)c->hist[i];
	hist_chart(f, sb_spo_hist_label, y, SB_SPO_HIST_N);
}

void html_section_spo(FILE *f, const struct rep_doc *d)
{
	if (!d->spo)
		return;
	const struct sb_spo_check *c = &d->spo->c;
	fprintf(f,
		"<h3>Sudden power off</h3>\n<p class=\"meta\">Result: <span class=\"%s\">%s</span>; "
		"sync ",
		c->pass ? "ok" : "bad", c->pass ? "pass" : "FAIL");
	rep_html_esc(f, sb_spo_sync_name(c->h.sync));
	fprintf(f, ", %llu writes journaled, %llu acknowledged, %llu blocks checked.</p>\n",
		(unsigned long long)c->writes, (unsigned long long)c->acked,
		(unsigned long long)c->blocks);
	if (c->nrec) {
		fputs("<ul class=\"notes\">\n", f);
		for (unsigned i = 0; i < c->nrec; i++) {
			fputs("<li>", f);
			rep_html_esc(f, c->rec[i]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	map_chart(f, c);
	counts(f, c);
	histogram(f, c);
	ranges(f, c);
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
