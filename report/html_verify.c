/*
 * The verify section of the HTML report: a map of the checked region as
 * rows of cells, each cell coloured by the bad class that covers most of
 * it (intact only when nothing in it is bad, so a single bad block of a
 * large cell still shows), the blocks per class, and the bad ranges with
 * their offsets. From storbench.verify of verify and run --verify
 * (docs/verify.md); a probe gets its findings as a table.
 */
#include "report/html.h"
#include "report/chart.h"

#include <math.h>

_Static_assert(REP_VCLASS_N <= HTML_MAP_CLASSES, "verify's classes fit the map");

static void swatch(FILE *f, int cls)
{
	fprintf(f, "<span class=\"swatch\" style=\"background:%s\"></span>",
		chart_color(rep_vclass_color[cls]));
}

/* The region in cells of whole blocks, its bad ranges painted. */
static int layout(struct html_map *m, const struct sb_verify_doc *v)
{
	const double bs = v->block_size;
	double size = (double)v->size;
	if (!(size > 0))
		size = (double)v->b.blocks * bs;
	if (html_map_layout(m, (double)v->offset, size, bs) < 0)
		return -EINVAL;
	for (size_t i = 0; i < v->b.nranges; i++) {
		const struct sb_verify_range *r = &v->b.ranges[i].g;
		html_map_add(m, r->cls, (double)r->offset, (double)r->length);
	}
	return 0;
}

static void map_chart(FILE *f, struct html_map *m, const struct sb_verify_doc *v)
{
	struct chart_series s[REP_VCLASS_N];
	char note[200], a[32], b[32];
	size_t ns = 0;
	for (int c = 0; c < REP_VCLASS_N; c++) {
		s[c] = (struct chart_series){ .name = sb_verify_class_name(c),
					      .color = rep_vclass_color[c] };
		if (rep_vclass_shown(&v->b, c))
			ns = (size_t)c + 1; /* the legend up to the last class the result has */
	}
	const double omitted = (double)v->b.omitted;
	int n = snprintf(note, sizeof(note),
			 "%s from offset %s; a cell is %s, coloured by the bad class "
			 "covering most of it",
			 sb_fmt_size((uint64_t)m->size, a, sizeof(a)),
			 sb_fmt_size((uint64_t)m->origin, b, sizeof(b)),
			 sb_fmt_size((uint64_t)m->cell, (char[32]){ 0 }, 32));
	if (omitted > 0 && n > 0 && (size_t)n < sizeof(note))
		snprintf(note + n, sizeof(note) - (size_t)n, "; %.0f ranges not listed, not drawn",
			 omitted);
	html_map_chart(f, m, "Map of the checked region", note, s, ns);
}

static void counts(FILE *f, const struct sb_verify_doc_blocks *v, double bs)
{
	static const char *const cols[] = { "Class", "Blocks", "Bytes", "Share" };
	const double all = (double)v->blocks;
	char a[48];
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (int c = 0; c < REP_VCLASS_N; c++) {
		if (!rep_vclass_shown(v, c))
			continue;
		const double n = (double)v->count[c];
		fprintf(f, "<tr%s><td>", c && n > 0 ? " style=\"font-weight:600\"" : "");
		swatch(f, c);
		fprintf(f, "%s</td>", sb_verify_class_name(c));
		snprintf(a, sizeof(a), "%.0f", n);
		html_cell(f, a, 1);
		html_cell(f, bs > 0 ? sb_fmt_size((uint64_t)(n * bs), a, sizeof(a)) : "", 1);
		snprintf(a, sizeof(a), "%.3g%%", all > 0 ? 100 * n / all : 0);
		html_cell(f, a, 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* A bad range's cells: its class (with its colour), offset, length and
 * what the class adds. */
static void range_cells(FILE *f, const struct sb_verify_doc_range *r)
{
	char a[64];
	fputs("<td>", f);
	swatch(f, r->g.cls);
	rep_html_esc(f, sb_verify_class_name(r->g.cls));
	fputs("</td>", f);
	html_cell(f, rep_fmt_offset((double)r->g.offset, a, sizeof(a)), 1);
	html_cell(f, rep_fmt_offset((double)r->g.length, a, sizeof(a)), 1);
	html_cell(f, rep_range_detail(r, a, sizeof(a)), 0);
	fputs("</tr>\n", f);
}

static void ranges(FILE *f, const struct sb_verify_doc_blocks *v)
{
	static const char *const cols[] = { "Class", "Offset", "Length", "Detail" };
	const double omitted = (double)v->omitted;
	if (!v->nranges)
		return;
	fprintf(f,
		"<p class=\"meta\">Bad ranges, in offset order (bytes from the target's start)"
		"%s",
		omitted > 0 ? "; " : ".</p>\n");
	if (omitted > 0)
		fprintf(f, "%.0f more not listed (--max-ranges).</p>\n", omitted);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (size_t i = 0; i < v->nranges; i++) {
		fputs("<tr>", f);
		range_cells(f, &v->ranges[i]);
	}
	fputs("</tbody></table>\n", f);
}

static void probe(FILE *f, const struct sb_verify_doc_probe *p, const char *result)
{
	static const char *const sizes[] = { "Block size", "Announced", "Usable",
					     "Addresses wrap at", "Cache" };
	const uint64_t at[] = { p->block_size, p->announced_bytes, p->usable_bytes,
				p->wrap_bytes, p->cache_bytes };
	static const unsigned order[] = { 1, 2, 3, 4, 0 }; /* the block size last */
	char a[64];
	fputs("<h3>Capacity probe</h3>\n<table class=\"kv\">\n", f);
	html_kv(f, "Finding", rep_or(p->kind, "?"));
	html_kv(f, "Result", result);
	for (size_t i = 0; i < SB_ARRAY_SIZE(order); i++)
		if (p->has & 1u << order[i])
			html_kv(f, sizes[order[i]],
				rep_fmt_offset((double)at[order[i]], a, sizeof(a)));
	snprintf(a, sizeof(a), "%llu", (unsigned long long)p->io_errors);
	html_kv(f, "I/O errors", a);
	fputs("</table>\n", f);
}

/* Verify of many ranks: a row per rank (its verdict and counts, failing
 * rows marked), then each rank's bad ranges, offsets in its own target. */
static void ranks_table(FILE *f, const struct sb_verify_doc_rank *ranks, size_t n)
{
	static const char *const cols[] = { "Rank",	  "Host",	 "Result", "Blocks checked",
					    "Not intact", "Bad classes", "Path" };
	static const char *const rcols[] = { "Rank", "Class", "Offset", "Length", "Detail" };
	char a[160];
	size_t failed = 0, nranges = 0;
	double omitted = 0;
	for (size_t i = 0; i < n; i++) {
		failed += !strcmp(rep_rank_verdict(&ranks[i]), "fail");
		nranges += ranks[i].b.nranges;
		omitted += (double)ranks[i].b.omitted;
	}
	fprintf(f, "<h3>Verification of each rank</h3>\n<p class=\"meta\">%zu ranks, ", n);
	if (failed)
		fprintf(f, "<span class=\"bad\">%zu failed</span>", failed);
	else
		fputs("none failed", f);
	fputs(".</p>\n", f);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 3);
	for (size_t i = 0; i < n; i++) {
		const struct sb_verify_doc_rank *k = &ranks[i];
		const char *verdict = rep_rank_verdict(k);
		const int bad = !strcmp(verdict, "fail");
		fprintf(f, "<tr%s>", bad ? " style=\"font-weight:600\"" : "");
		snprintf(a, sizeof(a), "%d", k->rank);
		html_cell(f, a, 0);
		html_cell(f, rep_or(k->host, "?"), 0);
		fprintf(f, "<td class=\"%s\">", bad ? "bad" : strcmp(verdict, "pass") ? "" : "ok");
		rep_html_esc(f, verdict);
		fputs("</td>", f);
		snprintf(a, sizeof(a), "%llu", (unsigned long long)k->b.blocks);
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%llu", (unsigned long long)sb_verify_doc_bad(&k->b));
		html_cell(f, a, 1);
		html_cell(f, rep_bad_classes(&k->b, a, sizeof(a)), 1);
		html_cell(f, k->path, 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (!nranges)
		return;
	fputs("<p class=\"meta\">Bad ranges of each rank (bytes from the start of its own target)",
	      f);
	if (omitted > 0)
		fprintf(f, "; %.0f more not listed", omitted);
	fputs(".</p>\n", f);
	html_head_row(f, rcols, SB_ARRAY_SIZE(rcols), 2);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < ranks[i].b.nranges; j++) {
			snprintf(a, sizeof(a), "%d", ranks[i].rank);
			fputs("<tr>", f);
			html_cell(f, a, 0);
			range_cells(f, &ranks[i].b.ranges[j]);
		}
	fputs("</tbody></table>\n", f);
}

void html_section_verify(FILE *f, const struct rep_doc *d)
{
	const struct sb_verify_doc *v = d->verify;
	const char *result = v && v->result[0] ? v->result : NULL;
	struct html_map *m;
	if (!v)
		return;
	if (v->kind == SB_VDOC_PROBE)
		return probe(f, &v->probe, result);
	if (!v->has_blocks)
		return;
	fputs("<h3>Verification</h3>\n<p class=\"meta\">", f);
	if (result)
		fprintf(f, "Result: <span class=\"%s\">", strcmp(result, "pass") ? "bad" : "ok");
	rep_html_esc(f, result ? result : "");
	fprintf(f, "%s%llu blocks checked.</p>\n", result ? "</span>; " : "",
		(unsigned long long)v->b.blocks);
	if ((m = malloc(sizeof(*m))) && layout(m, v) == 0)
		map_chart(f, m, v);
	counts(f, &v->b, v->block_size);
	ranges(f, &v->b);
	if (v->nranks)
		ranks_table(f, v->ranks, v->nranks);
	free(m);
}
