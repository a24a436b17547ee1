/*
 * compare's output: text for the terminal, JSON for scripts (schema in
 * docs/reports.md), and HTML with the same tables and a bar chart of the
 * bandwidth of every input with the spread of its runs. Each row: the
 * medians, the shift and its interval, and the verdict of the rank test.
 */
#include "report/compare.h"
#include "report/chart.h"
#include "report/html.h"
#include "lib/storbench.h"

#include <math.h>

void cmp_fmt(enum cmp_metric m, double v, char *buf, size_t len)
{
	if (m == CMP_BW)
		rep_fmt_rate(v, buf, len);
	else if (m == CMP_IOPS)
		rep_fmt_count(v, buf, len);
	else
		rep_fmt_ns(v, buf, len);
}

void cmp_pct_text(double pct, char *buf, size_t len)
{
	if (isfinite(pct))
		snprintf(buf, len, "%+.1f%%", pct);
	else
		snprintf(buf, len, "-");
}

void cmp_interval_text(const struct cmp_row *r, char *buf, size_t len)
{
	char lo[24], hi[24];
	if (!isfinite(r->d.lo_pct) || !isfinite(r->d.hi_pct)) {
		snprintf(buf, len, "-");
		return;
	}
	cmp_pct_text(r->d.lo_pct, lo, sizeof(lo));
	cmp_pct_text(r->d.hi_pct, hi, sizeof(hi));
	snprintf(buf, len, "%s .. %s", lo, hi);
}

void cmp_verdict_text(const struct cmp_row *r, char *buf, size_t len)
{
	const struct sb_difference *d = &r->d;
	if (d->verdict != SB_DIFF_INCONCLUSIVE)
		snprintf(buf, len, "%s", cmp_verdict_names[d->verdict]);
	else if (d->na == d->nb)
		snprintf(buf, len, "inconclusive: %u run%s, at least %u needed", d->na,
			 d->na == 1 ? "" : "s", d->needed);
	else
		snprintf(buf, len, "inconclusive: %u and %u runs, at least %u needed", d->na, d->nb,
			 d->needed);
}

/* The side an entry belongs to. */
static const struct cmp_side *side_of(const struct cmp *c, const struct cmp_entry *e)
{
	for (size_t k = 0; k < c->nsides; k++)
		if (e >= c->sides[k].e && e < c->sides[k].e + c->sides[k].n)
			return &c->sides[k];
	return NULL;
}

size_t cmp_advice(const struct cmp *c, char *buf, size_t len)
{
	unsigned least[26];
	size_t nin = 0, at = 0, needed = 0;
	const char *cmd = NULL;
	memset(least, 0, sizeof(least));
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (r->d.verdict != SB_DIFF_INCONCLUSIVE)
			continue;
		nin++;
		needed = r->d.needed;
		const struct cmp_side *s[2] = { side_of(c, r->a), side_of(c, r->b) };
		unsigned n[2] = { r->d.na, r->d.nb };
		for (int k = 0; k < 2; k++) {
			unsigned t = s[k] ? (unsigned)(s[k]->tag - 'A') % 26 : 0;
			if (!least[t] || n[k] < least[t])
				least[t] = n[k];
			if (s[k] && n[k] < needed && !cmd)
				cmd = s[k]->doc->command;
		}
	}
	buf[0] = '\0';
	if (!nin)
		return 0;
	at = (size_t)snprintf(buf, len,
			      "inconclusive: %zu of %zu comparisons have too few runs for the test "
			      "(at least %zu a side;",
			      nin, c->nrows, needed);
	for (unsigned t = 0, k = 0; t < 26 && at < len; t++)
		if (least[t])
			at += (size_t)snprintf(buf + at, len - at, "%s %c has %u", k++ ? "," : "",
					       'A' + t, least[t]);
	if (at < len)
		snprintf(buf + at, len - at,
			 "): measure again with --repeat=%d or more (storbench %s --repeat=%d)",
			 SB_DIFF_RUNS_ADVISED, cmd && !strcmp(cmd, "quick") ? "quick" : "run",
			 SB_DIFF_RUNS_ADVISED);
	return nin;
}

/* ---- text ---- */
static void inputs_text(FILE *f, const struct cmp *c)
{
	struct rep_vis_ring v = { .k = 0 };
	for (size_t i = 0; i < c->nsides; i++) {
		const struct rep_doc *d = c->sides[i].doc;
		fprintf(f, "%c: %s (%s of %s%s%s%s)\n", c->sides[i].tag, rep_vs(&v, d->path),
			rep_vs(&v, d->command), rep_vs(&v, rep_or(d->target.path, "?")),
			d->target.device ? ", device " : "",
			rep_vs(&v, rep_or(d->target.device, "")), d->is_fio ? ", fio" : "");
	}
	/* the states side by side, when they differ: "state: full | as found" */
	int states_differ = 0;
	for (size_t i = 1; i < c->nsides; i++)
		states_differ |= strcmp(rep_or(c->sides[i].doc->state_label, "as found"),
					rep_or(c->sides[0].doc->state_label, "as found")) != 0;
	for (size_t i = 0; states_differ && i < c->nsides; i++)
		fprintf(f, "%s%s%s", i ? " | " : "\nstate: ",
			rep_vs(&v, rep_or(c->sides[i].doc->state_label, "as found")),
			i + 1 == c->nsides ? "\n" : "");
	if (c->nmis)
		fputs("\nconditions differ:\n", f);
	for (size_t i = 0; i < c->nmis; i++) {
		const struct cmp_mismatch *m = &c->mis[i];
		fprintf(f, "  %s: %s (A) vs %s (%c)", rep_vs(&v, m->what), rep_vs(&v, m->a),
			rep_vs(&v, m->b), m->tag);
		if (m->ntests)
			fputs(" in ", f), rep_vis_put(f, m->tests);
		if (m->ntests > 3)
			fprintf(f, " and %u more", m->ntests - 3);
		fputc('\n', f);
	}
}

int cmp_text(FILE *f, const void *vc)
{
	const struct cmp *c = vc;
	char a[48], b[48], d[32], ci[48], v[64], head[32], advice[512];
	inputs_text(f, c);
	for (size_t k = 1; k < c->nsides; k++) {
		char tag = c->sides[k].tag;
		snprintf(head, sizeof(head), "%c vs A", tag);
		struct rep_ttable t = { .head = { "test", "dir", "metric", "A", "", "",
						  "95% interval", "verdict" },
					.ncols = 8,
					.right_from = 3 };
		char col[2] = { tag, 0 };
		t.head[4] = col;
		t.head[5] = head;
		for (size_t i = 0; i < c->nrows; i++) {
			const struct cmp_row *r = &c->rows[i];
			if (!r->b || r->b < c->sides[k].e ||
			    r->b >= c->sides[k].e + c->sides[k].n || !rep_tt_row(&t))
				continue;
			cmp_fmt(r->metric, r->a->m[r->metric].v.med, a, sizeof(a));
			cmp_fmt(r->metric, r->b->m[r->metric].v.med, b, sizeof(b));
			cmp_pct_text(r->d.pct, d, sizeof(d));
			cmp_interval_text(r, ci, sizeof(ci));
			cmp_verdict_text(r, v, sizeof(v));
			rep_tt_set(&t, 0, r->a->label);
			rep_tt_set(&t, 1, sb_ddir_name(r->a->ddir));
			rep_tt_set(&t, 2, cmp_metric_names[r->metric]);
			rep_tt_set(&t, 3, a);
			rep_tt_set(&t, 4, b);
			rep_tt_set(&t, 5, d);
			rep_tt_set(&t, 6, ci);
			rep_tt_set(&t, 7, v);
		}
		fprintf(f, "\n%c against A (medians of the runs)\n", tag);
		if (t.nrows)
			rep_tt_print(f, &t);
		else
			fputs("  no test in the same direction as in A\n", f);
	}
	fputs("\nvs A: the median of the ratio to A over all pairs of runs (of the medians where\n"
	      "inconclusive), with its 95% interval; verdict: Mann-Whitney U test of the runs at "
	      "5%\n",
	      f);
	if (cmp_advice(c, advice, sizeof(advice)))
		rep_vis_put(f, advice), fputc('\n', f);
	for (size_t i = 0; i < c->nunmatched; i++) {
		fputs(i ? "" : "\nnot compared:\n", f);
		rep_vis_put(f, c->unmatched[i]);
		fputc('\n', f);
	}
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* ---- JSON ---- */
static void stat_json(struct sb_json *j, const char *key, const struct cmp_entry *e, int m)
{
	const struct cmp_stat *s = &e->m[m];
	sb_json_obj_open(j, key);
	sb_json_double(j, "median", s->v.med);
	sb_json_double(j, "min", s->v.min);
	sb_json_double(j, "max", s->v.max);
	sb_json_u64(j, "runs", s->n);
	sb_json_arr_open(j, "values");
	for (size_t i = 0; i < s->n; i++)
		sb_json_double(j, NULL, s->runs[i]);
	sb_json_arr_close(j);
	sb_json_obj_close(j);
}

static char tag_of(const struct cmp *c, const struct cmp_entry *e)
{
	const struct cmp_side *s = side_of(c, e);
	return s ? s->tag : '?';
}

static void diff_json(struct sb_json *j, const struct cmp_row *r)
{
	char why[96];
	sb_json_double(j, "diff_pct", r->d.pct);
	if (isfinite(r->d.lo_pct) && isfinite(r->d.hi_pct)) {
		sb_json_arr_open(j, "interval_pct");
		sb_json_double(j, NULL, r->d.lo_pct);
		sb_json_double(j, NULL, r->d.hi_pct);
		sb_json_arr_close(j);
	} else {
		sb_json_null(j, "interval_pct");
	}
	sb_json_double(j, "confidence", r->d.confidence);
	sb_json_double(j, "p_value", r->d.p);
	sb_json_str(j, "verdict", cmp_verdict_names[r->d.verdict]);
	cmp_verdict_text(r, why, sizeof(why));
	if (r->d.verdict == SB_DIFF_INCONCLUSIVE)
		sb_json_str(j, "reason", why + strlen("inconclusive: "));
	sb_json_u64(j, "runs_needed", r->d.needed);
}

int cmp_json(FILE *f, const void *vc)
{
	const struct cmp *c = vc;
	struct sb_json j;
	char t[2] = { 0, 0 };
	sb_json_begin(&j, f, 0);
	sb_json_obj_open(&j, NULL);
	sb_json_obj_open(&j, "storbench");
	sb_json_u64(&j, "schema_version", SB_SCHEMA_VERSION);
	sb_json_str(&j, "version", sb_version());
	sb_json_str(&j, "command", "compare");
	sb_json_obj_close(&j);
	sb_json_arr_open(&j, "inputs");
	for (size_t i = 0; i < c->nsides; i++) {
		const struct rep_doc *d = c->sides[i].doc;
		t[0] = c->sides[i].tag;
		sb_json_obj_open(&j, NULL);
		sb_json_str(&j, "tag", t);
		sb_json_str(&j, "path", d->path);
		sb_json_str(&j, "command", d->command);
		sb_json_str(&j, "target", d->target.path);
		sb_json_str(&j, "device", d->target.device);
		sb_json_obj_close(&j);
	}
	sb_json_arr_close(&j);
	sb_json_arr_open(&j, "mismatches");
	for (size_t i = 0; i < c->nmis; i++) {
		const struct cmp_mismatch *m = &c->mis[i];
		t[0] = m->tag;
		sb_json_obj_open(&j, NULL);
		sb_json_str(&j, "condition", m->what);
		sb_json_str(&j, "A", m->a);
		sb_json_str(&j, "other", t);
		sb_json_str(&j, "value", m->b);
		sb_json_u64(&j, "tests", m->ntests);
		sb_json_obj_close(&j);
	}
	sb_json_arr_close(&j);
	sb_json_arr_open(&j, "comparisons");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		t[0] = tag_of(c, r->b);
		sb_json_obj_open(&j, NULL);
		sb_json_str(&j, "test", r->a->label);
		sb_json_str(&j, "direction", sb_ddir_name(r->a->ddir));
		sb_json_str(&j, "metric", cmp_metric_keys[r->metric]);
		sb_json_str(&j, "other", t);
		stat_json(&j, "A", r->a, r->metric);
		stat_json(&j, "value", r->b, r->metric);
		diff_json(&j, r);
		sb_json_obj_close(&j);
	}
	sb_json_arr_close(&j);
	sb_json_arr_open(&j, "not_compared");
	for (size_t i = 0; i < c->nunmatched; i++)
		sb_json_str(&j, NULL, c->unmatched[i]);
	sb_json_arr_close(&j);
	char advice[512];
	sb_json_obj_open(&j, "method");
	sb_json_str(&j, "test", "Mann-Whitney U, two-sided");
	sb_json_double(&j, "alpha", SB_DIFF_ALPHA);
	sb_json_u64(&j, "runs_needed", sb_diff_runs_needed());
	sb_json_u64(&j, "runs_advised", SB_DIFF_RUNS_ADVISED);
	sb_json_obj_close(&j);
	if (cmp_advice(c, advice, sizeof(advice)))
		sb_json_str(&j, "advice", advice);
	else
		sb_json_null(&j, "advice");
	sb_json_obj_close(&j);
	return sb_json_end(&j);
}

/* ---- HTML ---- */
#define MAX_BARS 16

static void bw_chart(FILE *f, const struct cmp *c)
{
	const char *cats[MAX_BARS];
	char names[MAX_BARS][112];
	double y[8][MAX_BARS], lo[8][MAX_BARS], hi[8][MAX_BARS];
	struct chart_series s[8];
	size_t nc = 0, ns = SB_MIN(c->nsides, 8);
	const struct cmp_side *a = &c->sides[0];
	for (size_t i = 0; i < a->n && nc < MAX_BARS; i++) {
		const struct cmp_entry *e = &a->e[i];
		snprintf(names[nc], sizeof(names[nc]), "%s %s", e->label, sb_ddir_name(e->ddir));
		cats[nc] = names[nc];
		for (size_t k = 0; k < ns; k++) {
			const struct cmp_entry *x = NULL;
			for (size_t q = 0; q < c->sides[k].n && !x; q++)
				if (c->sides[k].e[q].ddir == e->ddir &&
				    !strcmp(c->sides[k].e[q].label, e->label))
					x = &c->sides[k].e[q];
			y[k][nc] = x && x->m[CMP_BW].have ? x->m[CMP_BW].v.med : NAN;
			lo[k][nc] = x ? x->m[CMP_BW].v.min : NAN;
			hi[k][nc] = x ? x->m[CMP_BW].v.max : NAN;
		}
		nc++;
	}
	static const char *const tags[] = { "A", "B", "C", "D", "E", "F", "G", "H" };
	for (size_t k = 0; k < ns; k++)
		s[k] = (struct chart_series){ .name = tags[k],
					      .y = y[k],
					      .lo = lo[k],
					      .hi = hi[k],
					      .n = nc,
					      .color = (int)k };
	struct chart ch = {
		.kind = CHART_BAR,
		.title = "Bandwidth of each input",
		.note = "median of the runs; the whiskers reach from the slowest to the fastest run",
		.x = { "Test and direction", CHART_U_NONE, CHART_LINEAR, 0 },
		.y = { "Bandwidth", CHART_U_BYTES_S, CHART_LINEAR, 0 },
		.cats = cats,
		.ncats = nc,
		.series = s,
		.nseries = ns,
	};
	chart_figure(f, &ch, NULL);
}

static void html_value(enum cmp_metric m, double v, char *buf, size_t len)
{
	if (m == CMP_LAT_MEAN || m == CMP_LAT_P99)
		html_fmt_ns(v, buf, len);
	else
		cmp_fmt(m, v, buf, len);
}

static void rows_html(FILE *f, const struct cmp *c, const struct cmp_side *b)
{
	char tag[2] = { b->tag, 0 }, diff[16];
	const char *cols[] = { "Test", "Direction",    "Metric", "A",	   tag,
			       diff,   "95% interval", "p",	 "Verdict" };
	char x[48], y[48], d[32], ci[48], p[16], v[64];
	snprintf(diff, sizeof(diff), "%c vs A", b->tag);
	fprintf(f, "<h2>%c against A</h2>\n", b->tag);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 3);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (r->b < b->e || r->b >= b->e + b->n)
			continue;
		html_value(r->metric, r->a->m[r->metric].v.med, x, sizeof(x));
		html_value(r->metric, r->b->m[r->metric].v.med, y, sizeof(y));
		cmp_pct_text(r->d.pct, d, sizeof(d));
		cmp_interval_text(r, ci, sizeof(ci));
		cmp_verdict_text(r, v, sizeof(v));
		if (isfinite(r->d.p))
			snprintf(p, sizeof(p), "%.3g", r->d.p);
		else
			snprintf(p, sizeof(p), "-");
		fputs("<tr>", f);
		html_cell(f, r->a->label, 0);
		html_cell(f, sb_ddir_name(r->a->ddir), 0);
		html_cell(f, cmp_metric_names[r->metric], 0);
		html_cell(f, x, 1);
		html_cell(f, y, 1);
		html_cell(f, d, 1);
		html_cell(f, ci, 1);
		html_cell(f, p, 1);
		fprintf(f, "<td class=\"%s\">",
			r->d.verdict == SB_DIFF_BETTER	? "ok"
			: r->d.verdict == SB_DIFF_WORSE ? "bad"
							: "");
		rep_html_esc(f, v);
		fputs("</td></tr>\n", f);
	}
	fprintf(f,
		"</tbody></table>\n<p class=\"meta\">Medians of the runs. %c vs A: the median "
		"of %c/A over all pairs of runs (Hodges-Lehmann; the ratio of the medians where "
		"inconclusive), with its interval of at least 95%%. The verdict is the Mann-Whitney U test of the runs, two-sided at 5%%: "
		"\"within noise\" when it finds no difference, \"inconclusive\" when the runs "
		"are too few for it ever to find one.</p>\n",
		b->tag, b->tag);
}

int cmp_html(FILE *f, const void *vc)
{
	const struct cmp *c = vc;
	rep_html_begin(f, "storbench compare");
	fputs("<h1>Comparison</h1>\n<table class=\"kv\">\n", f);
	for (size_t i = 0; i < c->nsides; i++) {
		char tag[2] = { c->sides[i].tag, 0 }, what[512];
		const struct rep_doc *d = c->sides[i].doc;
		snprintf(what, sizeof(what), "%s: %s of %s%s%s", d->path, d->command,
			 rep_or(d->target.path, "?"), d->target.device ? ", device " : "",
			 rep_or(d->target.device, ""));
		html_kv(f, tag, what);
	}
	fputs("</table>\n", f);
	if (c->nmis)
		fputs("<h3>Conditions differ</h3>\n<ul class=\"warn\">\n", f);
	for (size_t i = 0; i < c->nmis; i++) {
		const struct cmp_mismatch *m = &c->mis[i];
		fputs("<li>", f);
		rep_html_esc(f, m->what);
		fputs(": ", f);
		rep_html_esc(f, m->a);
		fprintf(f, " (A) vs ");
		rep_html_esc(f, m->b);
		fprintf(f, " (%c)", m->tag);
		if (m->ntests) {
			fputs(" in ", f);
			rep_html_esc(f, m->tests);
			if (m->ntests > 3)
				fprintf(f, " and %u more", m->ntests - 3);
		}
		fputs("</li>\n", f);
	}
	if (c->nmis)
		fputs("</ul>\n", f);
	bw_chart(f, c);
	for (size_t k = 1; k < c->nsides; k++)
		rows_html(f, c, &c->sides[k]);
	char advice[512];
	if (cmp_advice(c, advice, sizeof(advice))) {
		fputs("<ul class=\"warn\"><li>", f);
		rep_html_esc(f, advice);
		fputs("</li></ul>\n", f);
	}
	if (c->nunmatched)
		fputs("<h3>Not compared</h3>\n<ul class=\"notes\">\n", f);
	for (size_t i = 0; i < c->nunmatched; i++) {
		fputs("<li>", f);
		rep_html_esc(f, c->unmatched[i]);
		fputs("</li>\n", f);
	}
	if (c->nunmatched)
		fputs("</ul>\n", f);
	rep_html_end(f);
	return fflush(f) || ferror(f) ? -EIO : 0;
}
