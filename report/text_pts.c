/*
 * The pts section of the text report (storbench report pts.json): the
 * deviations, then per test its steady-state determination and the window
 * averages, mix x block size, from storbench.pts (docs/pts.md).
 */
#include "report/report.h"

#include <math.h>

static void value(const char *metric, double v, char *buf, size_t len)
{
	if (!strcmp(metric, "lat_mean_ns"))
		sb_fmt_ns(v, buf, len);
	else if (!strcmp(metric, "write_bw_bytes") || !strcmp(metric, "bw"))
		sb_fmt_rate(v, buf, len);
	else
		snprintf(buf, len, "%.0f", v);
}

static void steady(FILE *f, const struct sb_jv *t, const char *metric)
{
	const struct sb_jv *ss = sb_jv_get(t, "steady_state"), *w = sb_jv_get(ss, "window");
	char a[32], de[32], da[32], se[32], sa[32];
	value(metric, sb_jv_num(sb_jv_get(ss, "average"), NAN), a, sizeof(a));
	value(metric, sb_jv_num(sb_jv_get(ss, "data_excursion"), NAN), de, sizeof(de));
	value(metric, sb_jv_num(sb_jv_get(ss, "data_excursion_allowed"), NAN), da, sizeof(da));
	value(metric, sb_jv_num(sb_jv_get(ss, "slope_excursion"), NAN), se, sizeof(se));
	value(metric, sb_jv_num(sb_jv_get(ss, "slope_excursion_allowed"), NAN), sa, sizeof(sa));
	fprintf(f,
		"  steady state %s, rounds %.0f..%.0f: average %s (%s); data excursion %s "
		"(allowed %s); slope excursion %s (allowed %s)\n",
		sb_jv_bool(sb_jv_get(ss, "reached"), 0) ? "reached" : "NOT reached (flagged)",
		sb_jv_num(sb_jv_at(w, 0), 0), sb_jv_num(sb_jv_at(w, 1), 0), a, metric, de, da, se,
		sa);
}

/* rows block sizes, columns mixes: the window average of the tracked
 * figure (throughput: read for 100/0, write for 0/100) */
static void matrix(FILE *f, const struct sb_jv *t, const char *metric)
{
	const struct sb_jv *avg = sb_jv_get(t, "window_average"), *mixes = sb_jv_get(t, "mixes"),
			   *bss = sb_jv_get(t, "block_sizes");
	const int tp = !strcmp(metric, "write_bw_bytes");
	fprintf(f, "  %8s", "bs");
	for (size_t m = 0; m < sb_jv_len(mixes); m++) {
		char mix[16];
		const double r = sb_jv_num(sb_jv_at(mixes, m), 0);
		snprintf(mix, sizeof(mix), "%.0f/%.0f", r, 100 - r);
		fprintf(f, " %12s", mix);
	}
	fputc('\n', f);
	for (size_t b = 0; b < sb_jv_len(bss); b++) {
		const double bs = sb_jv_num(sb_jv_at(bss, b), 0);
		char l[16];
		snprintf(l, sizeof(l), fmod(bs, 1024) ? "%gk" : "%.0fk", bs / 1024);
		fprintf(f, "  %8s", l);
		for (size_t m = 0; m < sb_jv_len(mixes); m++) {
			const double r = sb_jv_num(sb_jv_at(mixes, m), 0);
			const char *key = tp ? (r ? "read_bw_bytes" : "write_bw_bytes") : metric;
			double v = NAN;
			for (size_t i = 0; i < sb_jv_len(avg); i++) {
				const struct sb_jv *c = sb_jv_at(avg, i);
				if (sb_jv_num(sb_jv_get(c, "read_pct"), -1) == r &&
				    sb_jv_num(sb_jv_get(c, "bs"), -1) == bs)
					v = sb_jv_num(sb_jv_get(c, key), NAN);
			}
			char s[32];
			value(tp ? "bw" : metric, v, s, sizeof(s));
			fprintf(f, " %12s", isfinite(v) ? s : "-");
		}
		fputc('\n', f);
	}
}

/* the conditions the html report's table shows, a line each */
static void conditions(FILE *f, const struct sb_jv *p)
{
	const struct sb_jv *c = sb_jv_get(p, "conditions"), *ar = sb_jv_get(c, "active_range"),
			   *seg = sb_jv_get(c, "active_range_segments"),
			   *wc = sb_jv_get(c, "write_cache");
	char a[32], b[32], t[32];
	if (!sb_jv_is(c, SB_JV_OBJ))
		return;
	fprintf(f, "  active range %.0f%% (%s); ", sb_jv_num(sb_jv_get(ar, "percent"), 0),
		sb_fmt_size((uint64_t)sb_jv_num(sb_jv_get(ar, "bytes"), 0), a, sizeof(a)));
	if (sb_jv_is(seg, SB_JV_OBJ))
		fprintf(f, "%.0f segments of %s (%s addressed) for the random tests\n",
			sb_jv_num(sb_jv_get(seg, "count"), 0),
			sb_fmt_size((uint64_t)sb_jv_num(sb_jv_get(seg, "segment_bytes"), 0), b,
				    sizeof(b)),
			sb_fmt_size((uint64_t)sb_jv_num(sb_jv_get(seg, "active_bytes"), 0), t,
				    sizeof(t)));
	else
		fputs("no segments (the whole active range)\n", f);
	fprintf(f,
		"  purge asked: %s; preconditioning %.0fx the active range (SEQ 128 KiB writes)\n",
		rep_or(sb_jv_str(sb_jv_get(c, "purge_requested")), "?"),
		sb_jv_num(sb_jv_get(sb_jv_get(c, "precondition"), "passes"), 0));
	fprintf(f, "  %.0f threads x QD %.0f; %s a cell; write cache %s (PTS asks: %s)\n",
		sb_jv_num(sb_jv_get(c, "threads"), 0), sb_jv_num(sb_jv_get(c, "iodepth"), 0),
		sb_fmt_ns(sb_jv_num(sb_jv_get(c, "round_time_ns"), 0), a, sizeof(a)),
		rep_or(sb_jv_str(sb_jv_get(wc, "state")), "?"),
		rep_or(sb_jv_str(sb_jv_get(wc, "required")), "?"));
}

void rep_text_pts(FILE *f, const struct rep_doc *d)
{
	const struct sb_jv *p = sb_jv_get(d->sb, "pts"), *dev = sb_jv_get(p, "deviations"),
			   *tests = sb_jv_get(p, "tests");
	if (!sb_jv_is(p, SB_JV_OBJ))
		return;
	fprintf(f, "\nSNIA PTS, %s profile: %s\n", rep_or(sb_jv_str(sb_jv_get(p, "profile")), "?"),
		sb_jv_len(dev) ? "NOT a PTS result (deviations below)" : "no deviation");
	for (size_t i = 0; i < sb_jv_len(dev); i++)
		fprintf(f, "  %s: not a PTS result\n", rep_or(sb_jv_str(sb_jv_at(dev, i)), "?"));
	conditions(f, p);
	for (size_t i = 0; i < sb_jv_len(tests); i++) {
		const struct sb_jv *t = sb_jv_at(tests, i);
		const char *metric =
			rep_or(sb_jv_str(sb_jv_get(sb_jv_get(t, "tracking"), "metric")), "iops");
		const char *how = sb_jv_str(sb_jv_get(t, "purge_method"));
		fprintf(f, "\n[%s] purge %s%s%s%s, %zu rounds\n",
			rep_or(sb_jv_str(sb_jv_get(t, "name")), "?"),
			rep_or(sb_jv_str(sb_jv_get(t, "purge")), "?"), how ? " (" : "",
			how ? how : "", how ? ")" : "", sb_jv_len(sb_jv_get(t, "rounds")));
		if (!sb_jv_is(sb_jv_get(t, "steady_state"), SB_JV_OBJ))
			continue;
		steady(f, t, metric);
		matrix(f, t, metric);
	}
}
