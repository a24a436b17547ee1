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

static void finding(FILE *f, const char *name, const struct sb_flash_finding *v)
{
	char a[32], b[96];
	if (!v->found || !v->bytes) {
		html_kv(f, name, "not found");
		return;
	}
	snprintf(b, sizeof(b), "%s (confidence %s)", sb_fmt_size(v->bytes, a, sizeof(a)),
		 sb_flash_conf_name(v->conf));
	html_kv(f, name, b);
}

static void diff_chart(FILE *f, const struct sb_flash_doc *d, struct lines *l)
{
	const struct sb_flash_result *r = &d->r;
	char a[32];
	l->n = 0;
	for (unsigned i = 0; i < r->nprofiles && l->n < MAX_LINES; i++) {
		const struct sb_flash_profile *p = &r->profiles[i];
		size_t n = 0;
		for (unsigned k = 0; k < p->nrows && n < MAX_PTS; k++, n++) {
			l->x[l->n][n] = (double)p->rows[k].align;
			l->y[l->n][n] = p->rows[k].diff_ns;
		}
		snprintf(l->name[l->n], sizeof(l->name[0]), "bs %s",
			 sb_fmt_size(p->bs, a, sizeof(a)));
		l->s[l->n] = (struct chart_series){
			.name = l->name[l->n], .x = l->x[l->n], .y = l->y[l->n], .n = n, .color = -1
		};
		l->n++;
	}
	double v[2];
	const char *vt[2];
	size_t nv = 0;
	if (d->erase.found && d->erase.bytes)
		v[nv] = (double)d->erase.bytes, vt[nv++] = "erase block";
	if (d->page.found && d->page.bytes)
		v[nv] = (double)d->page.bytes, vt[nv++] = "page";
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

static void au_chart(FILE *f, const struct sb_flash_au_result *au, struct lines *l)
{
	l->n = 0;
	for (unsigned i = 0; i < au->nruns && l->n < MAX_LINES; i++) {
		const struct sb_flash_au_run *r = &au->runs[i];
		size_t n = 0;
		for (unsigned k = 0; k < r->nrows && n < MAX_PTS; k++, n++) {
			l->x[l->n][n] = (double)r->rows[k].chunk;
			l->y[l->n][n] = r->rows[k].bps;
		}
		snprintf(l->name[l->n], sizeof(l->name[0]), "%u AU%s, %s", r->nau,
			 r->nau == 1 ? "" : "s", r->random ? "random" : "linear");
		l->s[l->n] = (struct chart_series){ .name = l->name[l->n],
						    .x = l->x[l->n],
						    .y = l->y[l->n],
						    .n = n,
						    .color = -1,
						    .dashed = r->random };
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

static void scatter_chart(FILE *f, const struct sb_flash_scatter *sc)
{
	const size_t n = SB_MIN((size_t)sc->n, (size_t)MAX_MAP);
	double *x = malloc((n ? n : 1) * sizeof(*x)), *y = malloc((n ? n : 1) * sizeof(*y));
	if (x && y) {
		for (size_t i = 0; i < n; i++) {
			x[i] = (double)sc->off[i];
			y[i] = isfinite(sc->ns[i]) ? sc->ns[i] : NAN;
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

void html_section_flash(FILE *f, const struct rep_doc *doc)
{
	const struct sb_flash_doc *d = doc->flash;
	if (!d)
		return;
	const struct sb_flash_result *r = &d->r;
	struct lines *l = malloc(sizeof(*l));
	fputs("<h3>Flash geometry</h3>\n<table class=\"kv\">\n", f);
	if (r->align) {
		if (r->align_partial)
			html_kv(f, "boundaries", "interrupted: no decision");
		else if (d->boundary_effect != 1)
			html_kv(f, "boundaries", "no boundary effect found");
		finding(f, "erase block", &d->erase);
		finding(f, "page", &d->page);
	}
	char a[32];
	static const char *const orders[] = { "linear", "random" };
	for (int i = 0; i < 2 && r->open_au; i++) {
		char k[48];
		if (!(r->au.p.orders & (1 << i)))
			continue;
		if (r->au.limited[i] && r->au.best[i] == 1)
			snprintf(a, sizeof(a), "one tried, nothing compared");
		else if (r->au.limited[i])
			snprintf(a, sizeof(a), "no effect found (%u at once)", r->au.best[i]);
		else
			snprintf(a, sizeof(a), "%u", r->au.best[i]);
		snprintf(k, sizeof(k), "open AUs, %s", orders[i]);
		html_kv(f, k, a);
	}
	for (unsigned b = 0; r->find_fat && b < r->fat.nblocks; b++) {
		char k[48];
		if (!r->fat.differs[b])
			continue;
		snprintf(k, sizeof(k), "erase block %u", b);
		html_kv(f, k, r->fat.differs[b] > 0 ? "faster" : "slower");
	}
	fputs("</table>\n<ul>\n", f);
	for (unsigned i = 0; i < d->nmeaning; i++) {
		fputs("<li>", f);
		rep_html_esc(f, d->meaning[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
	if (l && r->nprofiles)
		diff_chart(f, d, l);
	if (l && r->open_au && r->au.nruns)
		au_chart(f, &r->au, l);
	if (r->scatter && r->sc.n)
		scatter_chart(f, &r->sc);
	free(l);
}
