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
static int layout(struct html_map *m, const struct sb_jv *v)
{
	const double bs = sb_jv_num(sb_jv_get(v, "block_size"), 0);
	double size = sb_jv_num(sb_jv_get(v, "size"), 0);
	if (!(size > 0))
		size = sb_jv_num(sb_jv_get(v, "blocks_checked"), 0) * bs;
	if (html_map_layout(m, sb_jv_num(sb_jv_get(v, "offset"), 0), size, bs) < 0)
		return -EINVAL;
	const struct sb_jv *ranges = sb_jv_get(v, "bad_ranges");
	for (size_t i = 0; i < sb_jv_len(ranges); i++) {
		const struct sb_jv *r = sb_jv_at(ranges, i);
		html_map_add(m, rep_vclass_index(sb_jv_str(sb_jv_get(r, "class"))),
			     sb_jv_num(sb_jv_get(r, "offset"), NAN),
			     sb_jv_num(sb_jv_get(r, "length"), 0));
	}
	return 0;
}

static void map_chart(FILE *f, struct html_map *m, const struct sb_jv *v)
{
	struct chart_series s[REP_VCLASS_N];
	char note[200], a[32], b[32];
	size_t ns = 0;
	for (int c = 0; c < REP_VCLASS_N; c++) {
		s[c] = (struct chart_series){ .name = sb_verify_class_name(c),
					      .color = rep_vclass_color[c] };
		if (rep_vclass_shown(v, c))
			ns = (size_t)c + 1; /* the legend up to the last class the result has */
	}
	double omitted = sb_jv_num(sb_jv_get(v, "bad_ranges_omitted"), 0);
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

static void counts(FILE *f, const struct sb_jv *v, double bs)
{
	static const char *const cols[] = { "Class", "Blocks", "Bytes", "Share" };
	double all = sb_jv_num(sb_jv_get(v, "blocks_checked"), 0);
	char a[48];
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (int c = 0; c < REP_VCLASS_N; c++) {
		if (!rep_vclass_shown(v, c))
			continue;
		double n = sb_jv_num(sb_jv_get(v, sb_verify_class_name(c)), 0);
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

static void ranges(FILE *f, const struct sb_jv *v)
{
	static const char *const cols[] = { "Class", "Offset", "Length", "Detail" };
	const struct sb_jv *rs = sb_jv_get(v, "bad_ranges");
	char a[64];
	double omitted = sb_jv_num(sb_jv_get(v, "bad_ranges_omitted"), 0);
	if (!sb_jv_len(rs))
		return;
	fprintf(f,
		"<p class=\"meta\">Bad ranges, in offset order (bytes from the target's start)"
		"%s",
		omitted > 0 ? "; " : ".</p>\n");
	if (omitted > 0)
		fprintf(f, "%.0f more not listed (--max-ranges).</p>\n", omitted);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (size_t i = 0; i < sb_jv_len(rs); i++) {
		const struct sb_jv *r = sb_jv_at(rs, i);
		int c = rep_vclass_index(sb_jv_str(sb_jv_get(r, "class")));
		fputs("<tr><td>", f);
		if (c >= 0)
			swatch(f, c);
		rep_html_esc(f, rep_or(sb_jv_str(sb_jv_get(r, "class")), "?"));
		fputs("</td>", f);
		html_cell(f, rep_fmt_offset(sb_jv_num(sb_jv_get(r, "offset"), 0), a, sizeof(a)), 1);
		html_cell(f, rep_fmt_offset(sb_jv_num(sb_jv_get(r, "length"), 0), a, sizeof(a)), 1);
		html_cell(f, rep_range_detail(r, a, sizeof(a)), 0);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void probe(FILE *f, const struct sb_jv *p, const char *result)
{
	static const char *const sizes[][2] = {
		{ "announced_bytes", "Announced" },    { "usable_bytes", "Usable" },
		{ "wrap_bytes", "Addresses wrap at" }, { "cache_bytes", "Cache" },
		{ "block_size", "Block size" },
	};
	char a[64];
	fputs("<h3>Capacity probe</h3>\n<table class=\"kv\">\n", f);
	html_kv(f, "Finding", rep_or(sb_jv_str(sb_jv_get(p, "kind")), "?"));
	html_kv(f, "Result", result);
	for (size_t i = 0; i < SB_ARRAY_SIZE(sizes); i++)
		if (sb_jv_is(sb_jv_get(p, sizes[i][0]), SB_JV_NUM))
			html_kv(f, sizes[i][1],
				rep_fmt_offset(sb_jv_num(sb_jv_get(p, sizes[i][0]), 0), a,
					       sizeof(a)));
	snprintf(a, sizeof(a), "%.0f", sb_jv_num(sb_jv_get(p, "io_errors"), 0));
	html_kv(f, "I/O errors", a);
	fputs("</table>\n", f);
}

/* Verify of many ranks: a row per rank (its verdict and counts, failing
 * rows marked), then each rank's bad ranges, offsets in its own target. */
static void ranks_table(FILE *f, const struct sb_jv *ranks)
{
	static const char *const cols[] = { "Rank",	  "Host",	 "Result", "Blocks checked",
					    "Not intact", "Bad classes", "Path" };
	static const char *const rcols[] = { "Rank", "Class", "Offset", "Length", "Detail" };
	char a[160];
	size_t failed = 0, nranges = 0;
	double omitted = 0;
	for (size_t i = 0; i < sb_jv_len(ranks); i++) {
		const struct sb_jv *k = sb_jv_at(ranks, i);
		failed += !strcmp(rep_rank_verdict(k), "fail");
		nranges += sb_jv_len(sb_jv_get(k, "bad_ranges"));
		omitted += sb_jv_num(sb_jv_get(k, "bad_ranges_omitted"), 0);
	}
	fprintf(f, "<h3>Verification of each rank</h3>\n<p class=\"meta\">%zu ranks, ",
		sb_jv_len(ranks));
	if (failed)
		fprintf(f, "<span class=\"bad\">%zu failed</span>", failed);
	else
		fputs("none failed", f);
	fputs(".</p>\n", f);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 3);
	for (size_t i = 0; i < sb_jv_len(ranks); i++) {
		const struct sb_jv *k = sb_jv_at(ranks, i);
		const char *verdict = rep_rank_verdict(k);
		const int bad = !strcmp(verdict, "fail");
		fprintf(f, "<tr%s>", bad ? " style=\"font-weight:600\"" : "");
		snprintf(a, sizeof(a), "%.0f", sb_jv_num(sb_jv_get(k, "rank"), -1));
		html_cell(f, a, 0);
		html_cell(f, rep_or(rep_rank_host(k), "?"), 0);
		fprintf(f, "<td class=\"%s\">", bad ? "bad" : strcmp(verdict, "pass") ? "" : "ok");
		rep_html_esc(f, verdict);
		fputs("</td>", f);
		snprintf(a, sizeof(a), "%.0f", sb_jv_num(sb_jv_get(k, "blocks_checked"), 0));
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%.0f", rep_verify_bad(k));
		html_cell(f, a, 1);
		html_cell(f, rep_bad_classes(k, a, sizeof(a)), 1);
		html_cell(f, rep_or(sb_jv_str(sb_jv_get(k, "path")), ""), 1);
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
	for (size_t i = 0; i < sb_jv_len(ranks); i++) {
		const struct sb_jv *k = sb_jv_at(ranks, i), *rs = sb_jv_get(k, "bad_ranges");
		for (size_t j = 0; j < sb_jv_len(rs); j++) {
			const struct sb_jv *r = sb_jv_at(rs, j);
			int c = rep_vclass_index(sb_jv_str(sb_jv_get(r, "class")));
			fputs("<tr>", f);
			snprintf(a, sizeof(a), "%.0f", sb_jv_num(sb_jv_get(k, "rank"), -1));
			html_cell(f, a, 0);
			fputs("<td>", f);
			if (c >= 0)
				swatch(f, c);
			rep_html_esc(f, rep_or(sb_jv_str(sb_jv_get(r, "class")), "?"));
			fputs("</td>", f);
			html_cell(f,
				  rep_fmt_offset(sb_jv_num(sb_jv_get(r, "offset"), 0), a,
						 sizeof(a)),
				  1);
			html_cell(f,
				  rep_fmt_offset(sb_jv_num(sb_jv_get(r, "length"), 0), a,
						 sizeof(a)),
				  1);
			html_cell(f, rep_range_detail(r, a, sizeof(a)), 0);
			fputs("</tr>\n", f);
		}
	}
	fputs("</tbody></table>\n", f);
}

void html_section_verify(FILE *f, const struct rep_doc *d)
{
	const struct sb_jv *v = sb_jv_get(d->sb, "verify");
	const char *result = sb_jv_str(sb_jv_get(v, "result"));
	struct html_map *m;
	if (sb_jv_is(sb_jv_get(v, "probe"), SB_JV_OBJ))
		return probe(f, sb_jv_get(v, "probe"), result);
	if (!sb_jv_is(sb_jv_get(v, "blocks_checked"), SB_JV_NUM))
		return;
	fputs("<h3>Verification</h3>\n<p class=\"meta\">", f);
	if (result)
		fprintf(f, "Result: <span class=\"%s\">", strcmp(result, "pass") ? "bad" : "ok");
	rep_html_esc(f, result ? result : "");
	fprintf(f, "%s%.0f blocks checked.</p>\n", result ? "</span>; " : "",
		sb_jv_num(sb_jv_get(v, "blocks_checked"), 0));
	if ((m = malloc(sizeof(*m))) && layout(m, v) == 0)
		map_chart(f, m, v);
	counts(f, v, sb_jv_num(sb_jv_get(v, "block_size"), 0));
	ranges(f, v);
	if (sb_jv_len(sb_jv_get(v, "ranks")))
		ranks_table(f, sb_jv_get(v, "ranks"));
	free(m);
}
