/*
 * The flash section of the HTML report (storbench.flash, docs/flash.md):
 * the findings and what they mean, the diff per boundary of every block
 * size on a log axis with the erase block and page marked, and the open-AU
 * throughput curves (rate per chunk size, one line per number of AUs and
 * order).
 */
#include "report/html.h"
#include "report/chart.h"

#include <math.h>

#define MAX_LINES 16
#define MAX_PTS 48

struct lines {
	double x[MAX_LINES][MAX_PTS], y[MAX_LINES][MAX_PTS];
	char name[MAX_LINES][48];
	struct chart_series s[MAX_LINES];
	size_t n;
};

static void finding(FILE *f, const char *name, const struct sb_jv *v)
{
	char a[32], b[96];
	const double bytes = sb_jv_num(sb_jv_get(v, "bytes"), NAN);
	if (!(bytes > 0 && bytes < 1.8e19)) {
		html_kv(f, name, "not found");
		return;
	}
	snprintf(b, sizeof(b), "%s (confidence %s)", sb_fmt_size((uint64_t)bytes, a, sizeof(a)),
		 rep_or(sb_jv_str(sb_jv_get(v, "confidence")), "?"));
	html_kv(f, name, b);
}

/* x of the finding's step, for a marker line; NaN when none */
static double marker(const struct sb_jv *v)
{
	const double b = sb_jv_num(sb_jv_get(v, "bytes"), NAN);
	return b > 0 ? b : NAN;
}

static void diff_chart(FILE *f, const struct sb_jv *al, struct lines *l)
{
	const struct sb_jv *ps = sb_jv_get(al, "profiles");
	char a[32];
	l->n = 0;
	for (size_t i = 0; i < sb_jv_len(ps) && l->n < MAX_LINES; i++) {
		const struct sb_jv *p = sb_jv_at(ps, i), *rows = sb_jv_get(p, "rows");
		size_t n = 0;
		for (size_t k = 0; k < sb_jv_len(rows) && n < MAX_PTS; k++, n++) {
			l->x[l->n][n] = sb_jv_num(sb_jv_get(sb_jv_at(rows, k), "align"), NAN);
			l->y[l->n][n] = sb_jv_num(sb_jv_get(sb_jv_at(rows, k), "diff_ns"), NAN);
		}
		const double bs = sb_jv_num(sb_jv_get(p, "bs"), 0);
		snprintf(l->name[l->n], sizeof(l->name[0]), "bs %s",
			 sb_fmt_size(bs > 0 && bs < 1.8e19 ? (uint64_t)bs : 0, a, sizeof(a)));
		l->s[l->n] = (struct chart_series){
			.name = l->name[l->n], .x = l->x[l->n], .y = l->y[l->n], .n = n, .color = -1
		};
		l->n++;
	}
	double v[2];
	const char *vt[2];
	size_t nv = 0;
	if (isfinite(marker(sb_jv_get(al, "erase_block"))))
		v[nv] = marker(sb_jv_get(al, "erase_block")), vt[nv++] = "erase block";
	if (isfinite(marker(sb_jv_get(al, "page"))))
		v[nv] = marker(sb_jv_get(al, "page")), vt[nv++] = "page";
	struct chart c = {
		.kind = CHART_LINE,
		.title = "Extra time of a read across each boundary (diff)",
		.note = "on - (pre + post) / 2 per boundary; dashed lines: the erase block and page "
			"found (none: no boundary effect)",
		.x = { "Boundary", CHART_U_BYTES, CHART_LOG, 0 },
		.y = { "diff", CHART_U_NS, CHART_LINEAR, 0 },
		.series = l->s,
		.nseries = l->n,
		.vlines = v,
		.vline_text = vt,
		.nvlines = nv,
	};
	chart_figure(f, &c, NULL);
}

static void au_chart(FILE *f, const struct sb_jv *o, struct lines *l)
{
	const struct sb_jv *runs = sb_jv_get(o, "runs");
	l->n = 0;
	for (size_t i = 0; i < sb_jv_len(runs) && l->n < MAX_LINES; i++) {
		const struct sb_jv *r = sb_jv_at(runs, i), *rows = sb_jv_get(r, "rows");
		size_t n = 0;
		for (size_t k = 0; k < sb_jv_len(rows) && n < MAX_PTS; k++, n++) {
			l->x[l->n][n] = sb_jv_num(sb_jv_get(sb_jv_at(rows, k), "chunk"), NAN);
			l->y[l->n][n] = sb_jv_num(sb_jv_get(sb_jv_at(rows, k), "bw_bytes"), NAN);
		}
		const int random = !strcmp(rep_or(sb_jv_str(sb_jv_get(r, "order")), ""), "random");
		snprintf(l->name[l->n], sizeof(l->name[0]), "%.0f AU, %s",
			 sb_jv_num(sb_jv_get(r, "open_au"), 0), random ? "random" : "linear");
		l->s[l->n] = (struct chart_series){ .name = l->name[l->n],
						    .x = l->x[l->n],
						    .y = l->y[l->n],
						    .n = n,
						    .color = -1,
						    .dashed = random };
		l->n++;
	}
	struct chart c = {
		.kind = CHART_LINE,
		.title = "Write rate per chunk size and number of open allocation units",
		.note = "a line that falls away from the one-AU line has more AUs open than the "
			"device keeps; dashed: chunks in random order",
		.x = { "Chunk size", CHART_U_BYTES, CHART_LOG, 0 },
		.y = { "Write rate", CHART_U_BYTES_S, CHART_LOG, 0 },
		.series = l->s,
		.nseries = l->n,
	};
	chart_figure(f, &c, NULL);
}

#define MAX_MAP (1u << 16)

static void scatter_chart(FILE *f, const struct sb_jv *sc)
{
	const struct sb_jv *rows = sb_jv_get(sc, "rows");
	const size_t n = SB_MIN(sb_jv_len(rows), (size_t)MAX_MAP);
	double *x = malloc((n ? n : 1) * sizeof(*x)), *y = malloc((n ? n : 1) * sizeof(*y));
	if (x && y) {
		for (size_t i = 0; i < n; i++) {
			x[i] = sb_jv_num(sb_jv_at(sb_jv_at(rows, i), 0), NAN);
			y[i] = sb_jv_num(sb_jv_at(sb_jv_at(rows, i), 1), NAN);
		}
		const struct chart_series s = {
			.name = "read time", .x = x, .y = y, .n = n, .color = -1
		};
		struct chart c = {
			.kind = CHART_SCATTER,
			.title = "Read time over the device (scatter map)",
			.note = "the fastest of the tries at each position; boundaries, written and "
				"erased areas, and fast/slow page pairs show as separate bands",
			.x = { "Offset", CHART_U_BYTES, CHART_LINEAR, 0 },
			.y = { "Read time", CHART_U_NS, CHART_LINEAR, 0 },
			.series = &s,
			.nseries = 1,
		};
		chart_figure(f, &c, NULL);
	}
	free(x);
	free(y);
}

void html_section_flash(FILE *f, const struct rep_doc *d)
{
	const struct sb_jv *fl = sb_jv_get(d->sb, "flash"), *al = sb_jv_get(fl, "align"),
			   *o = sb_jv_get(fl, "open_au"), *m = sb_jv_get(fl, "meaning");
	if (!sb_jv_is(fl, SB_JV_OBJ))
		return;
	struct lines *l = malloc(sizeof(*l));
	fputs("<h3>Flash geometry</h3>\n<table class=\"kv\">\n", f);
	if (sb_jv_is(al, SB_JV_OBJ)) {
		if (!sb_jv_bool(sb_jv_get(al, "decided"), 1))
			html_kv(f, "boundaries", "interrupted: no decision");
		else if (!sb_jv_bool(sb_jv_get(al, "boundary_effect"), 0))
			html_kv(f, "boundaries", "no boundary effect found");
		finding(f, "erase block", sb_jv_get(al, "erase_block"));
		finding(f, "page", sb_jv_get(al, "page"));
	}
	char a[32];
	static const char *const orders[] = { "linear", "random" };
	for (int i = 0; i < 2 && sb_jv_is(o, SB_JV_OBJ); i++) {
		char k[48];
		snprintf(k, sizeof(k), "max_open_%s", orders[i]);
		if (!sb_jv_is(sb_jv_get(o, k), SB_JV_NUM))
			continue;
		snprintf(a, sizeof(a), "%.0f", sb_jv_num(sb_jv_get(o, k), 0));
		snprintf(k, sizeof(k), "open AUs, %s", orders[i]);
		html_kv(f, k, a);
	}
	const struct sb_jv *diff = sb_jv_get(sb_jv_get(fl, "find_fat"), "different");
	for (size_t i = 0; i < sb_jv_len(diff); i++) {
		char k[48];
		snprintf(k, sizeof(k), "erase block %.0f",
			 sb_jv_num(sb_jv_get(sb_jv_at(diff, i), "block"), 0));
		html_kv(f, k, rep_or(sb_jv_str(sb_jv_get(sb_jv_at(diff, i), "how")), "?"));
	}
	fputs("</table>\n<ul>\n", f);
	for (size_t i = 0; i < sb_jv_len(m); i++) {
		fputs("<li>", f);
		rep_html_esc(f, rep_or(sb_jv_str(sb_jv_at(m, i)), ""));
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
	if (l && sb_jv_len(sb_jv_get(al, "profiles")))
		diff_chart(f, al, l);
	if (l && sb_jv_len(sb_jv_get(o, "runs")))
		au_chart(f, o, l);
	if (sb_jv_len(sb_jv_get(sb_jv_get(fl, "scatter"), "rows")))
		scatter_chart(f, sb_jv_get(fl, "scatter"));
	free(l);
}
