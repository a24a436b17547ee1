/*
 * The cliff section of the HTML report (storbench.cliff, docs/cliff.md):
 * the drop and the levels as a table, the throughput against the bytes
 * written with the drop and the further steps marked, and the share of
 * the cache that came back after each idle time as bars.
 */
#include "report/html.h"
#include "report/chart.h"

#include <math.h>

#define MAX_MARKS (1 + 8)
#define MAX_RECOVERY 8

static double num(const struct sb_jv *o, const char *key)
{
	return sb_jv_num(sb_jv_get(o, key), NAN);
}

static void facts(FILE *f, const struct sb_jv *s)
{
	char a[64], b[64], line[160];
	fputs("<table class=\"kv\">\n", f);
	const int found = sb_jv_bool(sb_jv_get(s, "found"), 0);
	const double written = num(s, "bytes_written");
	if (found) {
		snprintf(line, sizeof(line), "%s (%.2f s)",
			 sb_fmt_size((uint64_t)fmax(num(s, "cache_bytes"), 0), a, sizeof(a)),
			 num(s, "cache_ns") / 1e9);
		html_kv(f, "Cache", line);
		html_kv(f, "Before the drop",
			rep_fmt_rate(num(s, "before_bw_bytes"), a, sizeof(a)));
		html_kv(f, "After the drop", rep_fmt_rate(num(s, "after_bw_bytes"), a, sizeof(a)));
	} else {
		snprintf(line, sizeof(line), "no drop over %.2f GiB",
			 written / (1024.0 * 1024 * 1024));
		html_kv(f, "Cache", line);
	}
	const struct sb_jv *steps = sb_jv_get(s, "steps");
	for (size_t i = 0; i < sb_jv_len(steps) && i < MAX_MARKS - 1; i++) {
		const struct sb_jv *st = sb_jv_at(steps, i);
		snprintf(line, sizeof(line), "at %s: %s to %s",
			 sb_fmt_size((uint64_t)fmax(num(st, "at_bytes"), 0), a, sizeof(a)),
			 rep_fmt_rate(num(st, "before_bw_bytes"), b, sizeof(b)),
			 rep_fmt_rate(num(st, "after_bw_bytes"), line + 120, 40));
		snprintf(a, sizeof(a), "Step %zu", i + 1);
		html_kv(f, a, line);
	}
	snprintf(line, sizeof(line), "%s in %.1f s (%s)",
		 sb_fmt_size((uint64_t)fmax(written, 0), a, sizeof(a)), num(s, "time_ns") / 1e9,
		 rep_or(sb_jv_str(sb_jv_get(s, "stop_reason")), "?"));
	html_kv(f, "Written", line);
	fputs("</table>\n", f);
}

/* Throughput of each bin at the bytes written by its end. */
static void curve(FILE *f, const struct sb_jv *s)
{
	const struct sb_jv *series = sb_jv_get(s, "series"), *bw = sb_jv_get(series, "bw_bytes");
	const double bin = num(series, "bin_bytes"), last = num(series, "last_bin_bytes");
	const size_t n = sb_jv_len(bw);
	if (!n || !(bin > 0))
		return;
	double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));
	if (!x || !y) {
		free(x);
		free(y);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		x[i] = i + 1 < n || !(last > 0) ? (double)(i + 1) * bin : (double)i * bin + last;
		y[i] = sb_jv_num(sb_jv_at(bw, i), NAN);
	}
	double marks[MAX_MARKS];
	char texts[MAX_MARKS][96], a[32];
	const char *tp[MAX_MARKS];
	size_t nm = 0;
	if (sb_jv_bool(sb_jv_get(s, "found"), 0)) {
		marks[nm] = num(s, "cache_bytes");
		snprintf(texts[nm], sizeof(texts[nm]), "cache ends at %s",
			 sb_fmt_size((uint64_t)fmax(marks[nm], 0), a, sizeof(a)));
		tp[nm] = texts[nm];
		nm++;
	}
	const struct sb_jv *steps = sb_jv_get(s, "steps");
	for (size_t i = 0; i < sb_jv_len(steps) && nm < MAX_MARKS; i++, nm++) {
		marks[nm] = num(sb_jv_at(steps, i), "at_bytes");
		snprintf(texts[nm], sizeof(texts[nm]), "step %zu at %s", i + 1,
			 sb_fmt_size((uint64_t)fmax(marks[nm], 0), a, sizeof(a)));
		tp[nm] = texts[nm];
	}
	const struct chart_series cs = {
		"write", x, y, NULL, NULL, NULL, NULL, n, CHART_C_WRITE, 0
	};
	struct chart c = {
		.kind = CHART_LINE,
		.title = "Write throughput against data written",
		.note = "each point a bin of equal bytes; dashed: where the cache ends and any "
			"further step",
		.x = { "Written", CHART_U_BYTES, CHART_LINEAR, 0 },
		.y = { "Bandwidth", CHART_U_BYTES_S, CHART_LINEAR, 0 },
		.series = &cs,
		.nseries = 1,
		.vlines = marks,
		.vline_text = tp,
		.nvlines = nm,
	};
	chart_figure(f, &c, NULL);
	free(x);
	free(y);
}

static void recovery(FILE *f, const struct sb_jv *s)
{
	const struct sb_jv *rs = sb_jv_get(s, "recovery");
	const size_t n = SB_MIN(sb_jv_len(rs), (size_t)MAX_RECOVERY);
	char cats[MAX_RECOVERY][32];
	const char *cp[MAX_RECOVERY];
	double y[MAX_RECOVERY];
	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct sb_jv *r = sb_jv_at(rs, i);
		rep_fmt_ns(num(r, "idle_ns"), cats[i], sizeof(cats[i]));
		cp[i] = cats[i];
		y[i] = num(r, "fraction") * 100;
	}
	const struct chart_series cs = { "recovered", NULL, y, NULL,	      NULL,
					 NULL,	      NULL, n, CHART_C_WRITE, 0 };
	struct chart c = {
		.kind = CHART_BAR,
		.title = "Cache back after idle",
		.note = "share of the cache written at the fast speed again after each idle time",
		.x = { "Idle", CHART_U_NONE, CHART_LINEAR, 0 },
		.y = { "Recovered", CHART_U_PCT, CHART_LINEAR, 0 },
		.cats = cp,
		.ncats = n,
		.series = &cs,
		.nseries = 1,
	};
	chart_figure(f, &c, NULL);
}

void html_section_cliff(FILE *f, const struct rep_doc *d)
{
	const struct sb_jv *s = sb_jv_get(d->sb, "cliff");
	if (!s)
		return;
	fputs("<h3>Write cache</h3>\n", f);
	facts(f, s);
	curve(f, s);
	recovery(f, s);
}
