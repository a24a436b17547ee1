/*
 * The flash section of the text report (storbench.flash, docs/flash.md):
 * the findings, per block size the diff per boundary, the open-AU answers,
 * and what they mean.
 */
#include "report/report.h"

#include <math.h>

static void finding(FILE *f, const char *name, const struct sb_jv *v)
{
	char a[32];
	const double b = sb_jv_num(sb_jv_get(v, "bytes"), NAN);
	if (!(b > 0 && b < 1.8e19)) {
		fprintf(f, "  %-11s not found\n", name);
		return;
	}
	fprintf(f,
		"  %-11s %s (confidence %s, margin %.1f x the threshold, at %.0f block size%s)\n",
		name, sb_fmt_size((uint64_t)b, a, sizeof(a)),
		rep_or(sb_jv_str(sb_jv_get(v, "confidence")), "?"),
		sb_jv_num(sb_jv_get(v, "margin"), 0),
		sb_jv_num(sb_jv_get(v, "seen_at_block_sizes"), 0),
		sb_jv_num(sb_jv_get(v, "seen_at_block_sizes"), 0) == 1 ? "" : "s");
}

static void profile(FILE *f, const struct sb_jv *p)
{
	struct rep_ttable t = { { "align", "pre", "on", "post", "diff" }, 5, 0, NULL, 0, 0 };
	const struct sb_jv *rows = sb_jv_get(p, "rows");
	char a[64];
	for (size_t i = 0; i < sb_jv_len(rows) && rep_tt_row(&t); i++) {
		const struct sb_jv *r = sb_jv_at(rows, i);
		const double al = sb_jv_num(sb_jv_get(r, "align"), 0);
		rep_tt_set(&t, 0,
			   sb_fmt_size(al > 0 && al < 1.8e19 ? (uint64_t)al : 0, a, sizeof(a)));
		rep_tt_set(&t, 1, rep_fmt_ns(sb_jv_num(sb_jv_get(r, "pre_ns"), NAN), a, sizeof(a)));
		rep_tt_set(&t, 2, rep_fmt_ns(sb_jv_num(sb_jv_get(r, "on_ns"), NAN), a, sizeof(a)));
		rep_tt_set(&t, 3,
			   rep_fmt_ns(sb_jv_num(sb_jv_get(r, "post_ns"), NAN), a, sizeof(a)));
		const double d = sb_jv_num(sb_jv_get(r, "diff_ns"), NAN);
		char b[64];
		snprintf(a, sizeof(a), "%s%s", d < 0 ? "-" : "", rep_fmt_ns(fabs(d), b, sizeof(b)));
		rep_tt_set(&t, 4, a);
	}
	const double bs = sb_jv_num(sb_jv_get(p, "bs"), 0);
	fprintf(f, "\nbs %s: read time per boundary (minimum of %.0f tries, averaged)\n",
		sb_fmt_size(bs > 0 && bs < 1.8e19 ? (uint64_t)bs : 0, a, sizeof(a)),
		sb_jv_num(sb_jv_get(p, "count"), 0));
	rep_tt_print(f, &t);
}

static void open_au(FILE *f, const struct sb_jv *o)
{
	static const char *const orders[] = { "linear", "random" };
	char k[32];
	for (int i = 0; i < 2; i++) {
		snprintf(k, sizeof(k), "max_open_%s", orders[i]);
		const struct sb_jv *v = sb_jv_get(o, k);
		if (!sb_jv_is(v, SB_JV_NUM))
			continue;
		snprintf(k, sizeof(k), "max_open_%s_limited", orders[i]);
		fprintf(f, "  open AUs, %s: %.0f%s\n", orders[i], sb_jv_num(v, 0),
			sb_jv_bool(sb_jv_get(o, k), 0) ? " or more" : "");
	}
}

static void scatter(FILE *f, const struct sb_jv *s)
{
	char a[32], b[32], c[32];
	const struct sb_jv *slow = sb_jv_get(s, "slowest_offsets");
	fprintf(f, "  scatter: %zu reads, fastest %s, median %s, slowest %s\n",
		sb_jv_len(sb_jv_get(s, "rows")),
		rep_fmt_ns(sb_jv_num(sb_jv_get(s, "min_ns"), NAN), a, sizeof(a)),
		rep_fmt_ns(sb_jv_num(sb_jv_get(s, "median_ns"), NAN), b, sizeof(b)),
		rep_fmt_ns(sb_jv_num(sb_jv_get(s, "max_ns"), NAN), c, sizeof(c)));
	fprintf(f, "  slowest at:");
	for (size_t i = 0; i < sb_jv_len(slow); i++) {
		const double o = sb_jv_num(sb_jv_at(slow, i), -1);
		fprintf(f, " %s",
			o >= 0 && o < 1.8e19 ? sb_fmt_size((uint64_t)o, a, sizeof(a)) : "?");
	}
	fputc('\n', f);
}

void rep_text_flash(FILE *f, const struct rep_doc *d)
{
	const struct sb_jv *fl = sb_jv_get(d->sb, "flash"), *al = sb_jv_get(fl, "align"),
			   *m = sb_jv_get(fl, "meaning");
	if (!sb_jv_is(fl, SB_JV_OBJ))
		return;
	const struct sb_jv *ps = sb_jv_get(al, "profiles");
	for (size_t i = 0; i < sb_jv_len(ps); i++)
		profile(f, sb_jv_at(ps, i));
	fprintf(f, "\nflash geometry\n");
	if (sb_jv_is(al, SB_JV_OBJ)) {
		if (!sb_jv_bool(sb_jv_get(al, "decided"), 1))
			fprintf(f, "  interrupted: no decision\n");
		else if (!sb_jv_bool(sb_jv_get(al, "boundary_effect"), 0))
			fprintf(f, "  no boundary effect found\n");
		finding(f, "erase block", sb_jv_get(al, "erase_block"));
		finding(f, "page", sb_jv_get(al, "page"));
	}
	if (sb_jv_is(sb_jv_get(fl, "open_au"), SB_JV_OBJ))
		open_au(f, sb_jv_get(fl, "open_au"));
	const struct sb_jv *diff = sb_jv_get(sb_jv_get(fl, "find_fat"), "different");
	for (size_t i = 0; i < sb_jv_len(diff); i++)
		fprintf(f, "  find-fat: erase block %.0f differs (%s)\n",
			sb_jv_num(sb_jv_get(sb_jv_at(diff, i), "block"), 0),
			rep_or(sb_jv_str(sb_jv_get(sb_jv_at(diff, i), "how")), "?"));
	if (sb_jv_is(sb_jv_get(fl, "scatter"), SB_JV_OBJ))
		scatter(f, sb_jv_get(fl, "scatter"));
	for (size_t i = 0; i < sb_jv_len(m); i++)
		if (sb_jv_str(sb_jv_at(m, i)))
			fprintf(f, "  - %s\n", sb_jv_str(sb_jv_at(m, i)));
}
