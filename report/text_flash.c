/*
 * The flash section of the text report (storbench.flash, docs/flash.md):
 * the findings, per block size the diff per boundary, the open-AU answers,
 * and what they mean, from the section as its reader took it
 * (lib/flash/flash_read.c).
 */
#include "report/report.h"

#include <math.h>

static void finding(FILE *f, const char *name, const struct sb_flash_finding *v)
{
	char a[32];
	if (!v->found || !v->bytes) {
		fprintf(f, "  %-11s not found\n", name);
		return;
	}
	fprintf(f, "  %-11s %s (confidence %s, margin %.1f x the threshold, at %u block size%s)\n",
		name, sb_fmt_size(v->bytes, a, sizeof(a)), sb_flash_conf_name(v->conf),
		isfinite(v->margin) ? v->margin : 0, v->agree, v->agree == 1 ? "" : "s");
}

static void profile(FILE *f, const struct sb_flash_profile *p)
{
	struct rep_ttable t = { { "align", "pre", "on", "post", "diff" }, 5, 0, NULL, 0, 0 };
	char a[64];
	for (unsigned i = 0; i < p->nrows && rep_tt_row(&t); i++) {
		const struct sb_flash_align_row *r = &p->rows[i];
		rep_tt_set(&t, 0, sb_fmt_size(r->align, a, sizeof(a)));
		rep_tt_set(&t, 1, rep_fmt_ns(r->pre_ns, a, sizeof(a)));
		rep_tt_set(&t, 2, rep_fmt_ns(r->on_ns, a, sizeof(a)));
		rep_tt_set(&t, 3, rep_fmt_ns(r->post_ns, a, sizeof(a)));
		char b[64];
		snprintf(a, sizeof(a), "%s%s", r->diff_ns < 0 ? "-" : "",
			 rep_fmt_ns(fabs(r->diff_ns), b, sizeof(b)));
		rep_tt_set(&t, 4, a);
	}
	fprintf(f, "\nbs %s: read time per boundary (minimum of %u tries, averaged)\n",
		sb_fmt_size(p->bs, a, sizeof(a)), p->count);
	rep_tt_print(f, &t);
}

static void open_au(FILE *f, const struct sb_flash_au_result *au)
{
	static const char *const orders[] = { "linear", "random" };
	for (int i = 0; i < 2; i++) {
		if (!(au->p.orders & (1 << i)))
			continue;
		if (au->limited[i] && au->best[i] == 1)
			fprintf(f, "  open AUs, %s: one tried, nothing compared\n", orders[i]);
		else if (au->limited[i]) /* no collapse: no effect, as the command says */
			fprintf(f,
				"  open AUs, %s: no effect found (%u at once write as one does)\n",
				orders[i], au->best[i]);
		else
			fprintf(f, "  open AUs, %s: %u\n", orders[i], au->best[i]);
	}
}

static void scatter(FILE *f, const struct sb_flash_doc *d)
{
	char a[32], b[32], c[32];
	fprintf(f, "  scatter: %u reads, fastest %s, median %s, slowest %s\n", d->r.sc.n,
		rep_fmt_ns(d->sc_min_ns, a, sizeof(a)), rep_fmt_ns(d->sc_median_ns, b, sizeof(b)),
		rep_fmt_ns(d->sc_max_ns, c, sizeof(c)));
	fprintf(f, "  slowest at:");
	for (unsigned i = 0; i < d->nslowest; i++)
		fprintf(f, " %s", sb_fmt_size(d->slowest[i], a, sizeof(a)));
	fputc('\n', f);
}

void rep_text_flash(FILE *f, const struct rep_doc *doc)
{
	const struct sb_flash_doc *d = doc->flash;
	if (!d)
		return;
	const struct sb_flash_result *r = &d->r;
	for (unsigned i = 0; i < r->nprofiles; i++)
		profile(f, &r->profiles[i]);
	fprintf(f, "\nflash geometry\n");
	if (r->align) {
		if (r->align_partial)
			fprintf(f, "  interrupted: no decision\n");
		else if (d->boundary_effect != 1)
			fprintf(f, "  no boundary effect found\n");
		finding(f, "erase block", &d->erase);
		finding(f, "page", &d->page);
	}
	if (r->open_au)
		open_au(f, &r->au);
	for (unsigned b = 0; r->find_fat && b < r->fat.nblocks; b++)
		if (r->fat.differs[b])
			fprintf(f, "  find-fat: erase block %u differs (%s)\n", b,
				r->fat.differs[b] > 0 ? "faster" : "slower");
	if (r->scatter)
		scatter(f, d);
	for (unsigned i = 0; i < d->nmeaning; i++)
		fputs("  - ", f), rep_vis_put(f, d->meaning[i]), fputc('\n', f);
}
