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

static void facts(FILE *f, const struct sb_cliff_result *r)
{
	const struct sb_cliff_find *fd = &r->find;
	char a[64], b[64], line[160];
	fputs("<table class=\"kv\">\n", f);
	if (fd->found) {
		snprintf(line, sizeof(line), "%s (%.2f s)",
			 sb_fmt_size(fd->cache_bytes, a, sizeof(a)), fd->cache_ns / 1e9);
		html_kv(f, "Cache", line);
		html_kv(f, "Before the drop", rep_fmt_rate(fd->before_bw, a, sizeof(a)));
		html_kv(f, "After the drop", rep_fmt_rate(fd->after_bw, a, sizeof(a)));
	} else {
		snprintf(line, sizeof(line), "no drop over %s",
			 sb_fmt_size(fd->total_bytes, a, sizeof(a)));
		html_kv(f, "Cache", line);
	}
	for (size_t i = 0; i < fd->nsteps && i < MAX_MARKS - 1; i++) {
		const struct sb_cliff_step *st = &fd->steps[i];
		snprintf(line, sizeof(line), "at %s: %s to %s",
			 sb_fmt_size(st->at_bytes, a, sizeof(a)),
			 rep_fmt_rate(st->before_bw, b, sizeof(b)),
			 rep_fmt_rate(st->after_bw, line + 120, 40));
		snprintf(a, sizeof(a), "Step %zu", i + 1);
		html_kv(f, a, line);
	}
	snprintf(line, sizeof(line), "%s in %.1f s (%s)",
		 sb_fmt_size(fd->total_bytes, a, sizeof(a)), fd->total_ns / 1e9,
		 rep_or(r->stop_reason, "?"));
	html_kv(f, "Written", line);
	fputs("</table>\n", f);
}

/* Throughput of each bin at the bytes written by its end. */
static void curve(FILE *f, const struct sb_cliff_result *r)
{
	const struct sb_cliff_find *fd = &r->find;
	const double bin = (double)fd->bin_bytes, last = (double)fd->last_bytes;
	const size_t n = fd->nbins;
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
		y[i] = r->bw[i];
	}
	double marks[MAX_MARKS];
	char texts[MAX_MARKS][96], a[32];
	const char *tp[MAX_MARKS];
	size_t nm = 0;
	if (fd->found) {
		marks[nm] = (double)fd->cache_bytes;
		snprintf(texts[nm], sizeof(texts[nm]), "cache ends at %s",
			 sb_fmt_size((uint64_t)fmax(marks[nm], 0), a, sizeof(a)));
		tp[nm] = texts[nm];
		nm++;
	}
	for (size_t i = 0; i < fd->nsteps && nm < MAX_MARKS; i++, nm++) {
		marks[nm] = (double)fd->steps[i].at_bytes;
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

static void recovery(FILE *f, const struct sb_cliff_result *r)
{
	const size_t n = SB_MIN((size_t)r->nrecovery, (size_t)MAX_RECOVERY);
	char cats[MAX_RECOVERY][32];
	const char *cp[MAX_RECOVERY];
	double y[MAX_RECOVERY];
	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		rep_fmt_ns((double)r->recovery[i].idle_ns, cats[i], sizeof(cats[i]));
		cp[i] = cats[i];
		y[i] = r->recovery[i].fraction * 100;
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
	if (!d->cliff)
		return;
	fputs("<h3>Write cache</h3>\n", f);
	facts(f, &d->cliff->r);
	curve(f, &d->cliff->r);
	recovery(f, &d->cliff->r);
}
