/*
 * storbench flash's summary as its run ends (report.h, rep_flash_run_text):
 * each --align profile's rows and the erase block and page found, the open
 * allocation units' rates, find-fat's blocks, the scatter's extremes, and
 * what they mean (sb_flash_meaning), from the run's struct sb_flash_result.
 */
#include "report/report.h"

static void finding(FILE *f, const char *name, const struct sb_flash_result *r, int from, int page,
		    unsigned agree)
{
	char sz[32], below[32], above_t[32], below_t[32], thr[32], bs[32];
	if (from < 0) {
		fprintf(f, "%-11s not found\n", name);
		return;
	}
	const struct sb_flash_decision *d = &r->decisions[from];
	const struct sb_flash_step *s = &d->steps[page ? d->page : d->erase];
	const struct sb_flash_profile *p = &r->profiles[from];
	fprintf(f,
		"%-11s %s (confidence %s): reads across boundaries of %s and up cost %s more, "
		"of %s and down at most %s (threshold %s; bs %s",
		name, sb_fmt_size(s->align, sz, sizeof(sz)), sb_flash_conf_name(s->conf), sz,
		sb_fmt_ns(s->above_ns, above_t, sizeof(above_t)),
		sb_fmt_size(p->rows[s->row + 1].align, below, sizeof(below)),
		sb_fmt_ns(s->below_ns > 0 ? s->below_ns : 0, below_t, sizeof(below_t)),
		sb_fmt_ns(d->threshold_ns, thr, sizeof(thr)), sb_fmt_size(p->bs, bs, sizeof(bs)));
	if (r->nprofiles > 1)
		fprintf(f, "; seen at %u of %u block sizes", agree, r->nprofiles);
	fprintf(f, ")\n");
}

/* a duration that may be negative (diff) */
static char *fmt_signed(double ns, char *buf, size_t len)
{
	char t[32];
	snprintf(buf, len, "%s%s", ns < 0 ? "-" : "", sb_fmt_ns(ns < 0 ? -ns : ns, t, sizeof(t)));
	return buf;
}

static const char *mark_of(const struct sb_flash_decision *d, unsigned row)
{
	for (unsigned k = 0; k < d->nsteps; k++)
		if (d->steps[k].row == row)
			return (int)k == d->erase  ? "  <- erase block"
			       : (int)k == d->page ? "  <- page"
						   : "  <- step";
	return "";
}

static void profile(FILE *f, const struct sb_flash_profile *p, const struct sb_flash_decision *d)
{
	char a[32], t[4][32];
	fprintf(f, "bs %s, %u tries, %d positions (minimum per position, averaged):\n",
		sb_fmt_size(p->bs, a, sizeof(a)), p->count, SB_FLASH_POSITIONS);
	fprintf(f, "  %10s %10s %10s %10s %10s\n", "align", "pre", "on", "post", "diff");
	for (unsigned i = 0; i < p->nrows; i++) {
		const struct sb_flash_align_row *r = &p->rows[i];
		fprintf(f, "  %10s %10s %10s %10s %10s%s\n", sb_fmt_size(r->align, a, sizeof(a)),
			sb_fmt_ns(r->pre_ns, t[0], sizeof(t[0])),
			sb_fmt_ns(r->on_ns, t[1], sizeof(t[1])),
			sb_fmt_ns(r->post_ns, t[2], sizeof(t[2])),
			fmt_signed(r->diff_ns, t[3], sizeof(t[3])), mark_of(d, i));
	}
	fputc('\n', f);
}

/* The write rate of every run (rows) and chunk size (columns), each
 * figure in a column of its own under its chunk size; a run stops at its
 * collapse, so its row may end early. */
#define AU_COL 11

static void au_table(FILE *f, const struct sb_flash_au_result *au)
{
	char a[32], b[32], c[32];
	unsigned longest = 0, ncollapsed = 0;
	fprintf(f,
		"open allocation units (erase size %s, AUs %s apart from %s), write rate per "
		"chunk size:\n",
		sb_fmt_size(au->p.erase, a, sizeof(a)), sb_fmt_size(12 * au->p.erase, b, sizeof(b)),
		sb_fmt_size(au->p.offset, c, sizeof(c)));
	for (unsigned i = 0; i < au->nruns; i++)
		if (au->runs[i].nrows > au->runs[longest].nrows)
			longest = i;
	fprintf(f, "  %-12s", "AUs order");
	for (unsigned k = 0; au->nruns && k < au->runs[longest].nrows; k++)
		fprintf(f, " %*s", AU_COL,
			sb_fmt_size(au->runs[longest].rows[k].chunk, a, sizeof(a)));
	fputc('\n', f);
	for (unsigned i = 0; i < au->nruns; i++) {
		const struct sb_flash_au_run *run = &au->runs[i];
		fprintf(f, "  %3u %-8s", run->nau, run->random ? "random" : "linear");
		for (unsigned k = 0; k < run->nrows; k++) {
			/* a figure's mark stands after it, in the next column's gap */
			fprintf(f, "%c%*s", k && run->rows[k - 1].collapsed ? '*' : ' ', AU_COL,
				rep_fmt_rate(run->rows[k].bps, a, sizeof(a)));
			ncollapsed += run->rows[k].collapsed != 0;
		}
		fputs(run->nrows && run->rows[run->nrows - 1].collapsed ? "*\n" : "\n", f);
	}
	if (ncollapsed)
		fprintf(f, "  * collapsed: most writes under half the rate of one AU\n");
	for (int o = 0; o < 2; o++) {
		if (!(au->p.orders & (1 << o)))
			continue;
		if (au->limited[o] && au->best[o] == 1)
			fprintf(f, "open AUs, %s: one tried, nothing compared\n",
				o ? "random" : "linear");
		else if (au->limited[o]) /* as --align says of a profile without a step */
			fprintf(f, "open AUs, %s: no effect found (%u at once write as one does)\n",
				o ? "random" : "linear", au->best[o]);
		else
			fprintf(f, "open AUs, %s: %u\n", o ? "random" : "linear", au->best[o]);
	}
}

static void scatter_text(FILE *f, const struct sb_flash_scatter *s)
{
	struct sb_flash_scatter_sum sum;
	char a[32], b[32], c[32], d[32], e[32];
	sb_flash_scatter_sum(s, &sum);
	fprintf(f,
		"scatter: %u reads of %s from %s, each the fastest of %u: fastest %s, median %s, "
		"slowest %s\n",
		s->n, sb_fmt_size((uint64_t)s->p.span * s->p.bs, a, sizeof(a)),
		sb_fmt_size(s->p.offset, b, sizeof(b)), s->p.count,
		sb_fmt_ns(sum.min_ns, c, sizeof(c)), sb_fmt_ns(sum.median_ns, d, sizeof(d)),
		sb_fmt_ns(sum.max_ns, e, sizeof(e)));
	fprintf(f, "slowest at:");
	for (unsigned i = 0; i < sum.nslowest; i++)
		fprintf(f, " %s (%s)", sb_fmt_size(s->off[sum.slowest[i]], a, sizeof(a)),
			sb_fmt_ns(s->ns[sum.slowest[i]], b, sizeof(b)));
	fprintf(f, "\n(the whole map is in the JSON results and the HTML report's chart)\n");
}

static void fat_table(FILE *f, const struct sb_flash_fat *fat)
{
	char a[32];
	fprintf(f, "\nfind-fat: write rate of each of the first %u erase blocks of %s\n  %10s",
		fat->nblocks, sb_fmt_size(fat->erase, a, sizeof(a)), "chunk");
	for (unsigned b = 0; b < fat->nblocks; b++)
		fprintf(f, " %9s%-2u", "block ", b);
	fputc('\n', f);
	for (unsigned r = 0; r < fat->nrows; r++) {
		fprintf(f, "  %10s", sb_fmt_size(fat->rows[r].chunk, a, sizeof(a)));
		for (unsigned b = 0; b < fat->nblocks; b++)
			fprintf(f, " %11s", rep_fmt_rate(fat->rows[r].bps[b], a, sizeof(a)));
		fputc('\n', f);
	}
	for (unsigned b = 0; b < fat->nblocks; b++)
		if (fat->differs[b])
			fprintf(f, "block %u differs: %s at the smallest chunks\n", b,
				fat->differs[b] > 0 ? "faster" : "slower");
}

static void meaning(const char *line, void *ctx)
{
	fprintf(ctx, "  - %s\n", line);
}

void rep_flash_run_text(FILE *f, const struct sb_flash_result *r)
{
	if (r->align) {
		for (unsigned i = 0; i < r->nprofiles; i++)
			profile(f, &r->profiles[i], &r->decisions[i]);
		if (r->erase_from < 0 && r->page_from < 0)
			fprintf(f, "boundaries: %s\n",
				r->align_partial ? "interrupted before every boundary was read: no "
						   "decision"
						 : "no boundary effect found");
		finding(f, "erase block", r, r->erase_from, 0, r->erase_agree);
		finding(f, "page", r, r->page_from, 1, r->page_agree);
	}
	if (r->open_au)
		au_table(f, &r->au);
	if (r->find_fat)
		fat_table(f, &r->fat);
	if (r->scatter)
		scatter_text(f, &r->sc);
	if (!r->align && !r->open_au && !r->find_fat)
		return;
	fprintf(f, "\nwhat this means:\n");
	sb_flash_meaning(r, meaning, f);
	if (r->interrupted)
		fprintf(f, "(interrupted: the figures cover what ran)\n");
}
