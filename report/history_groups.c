/*
 * A figure of the results history across groups: the groups built from a
 * query's rows, each judged against the baseline by compare's rule (the
 * Mann-Whitney U test and the Hodges-Lehmann interval,
 * lib/analysis/difference.h), and written as text, JSON, CSV or an HTML
 * page with the trend drawn through report/chart.h.
 */
#include "report/history_groups.h"
#include "report/report.h"

#include <math.h>

#include "report/chart.h"
#include "report/html.h"

int rep_history_add(struct rep_hist *h, const struct sb_history_row *r)
{
	const char *name = r->group ? r->group : "(none)";
	struct rep_hist_group *g = NULL;
	for (size_t i = h->ng; i-- > 0 && !g;)
		if (!strcmp(h->g[i].name, name))
			g = &h->g[i];
	if (!g) {
		struct rep_hist_group *v = rep_grow_one(h->g, h->ng, sizeof(*v));
		if (!v)
			return -ENOMEM;
		h->g = v;
		g = memset(&h->g[h->ng], 0, sizeof(*g));
		if (!(g->name = strdup(name)))
			return -ENOMEM;
		h->ng++;
	}
	if (!h->unit[0] && r->unit)
		snprintf(h->unit, sizeof(h->unit), "%s", r->unit);
	if (r->word && *r->word) {
		size_t i = 0, last = SB_ARRAY_SIZE(g->word) - 1;
		while (i < last && g->word[i].n && strcmp(g->word[i].w, r->word))
			i++;
		snprintf(g->word[i].w, sizeof(g->word[i].w), "%s", i == last ? "other" : r->word);
		g->word[i].n++;
		g->nwords++;
		return 0;
	}
	if (!isfinite(r->value))
		return 0;
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 16;
		double *v = realloc(g->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		g->v = v;
		g->cap = cap;
	}
	g->v[g->n++] = r->value;
	return 0;
}

void rep_history_words(const struct rep_hist_group *g, char *buf, size_t len)
{
	size_t l = 0;
	buf[0] = 0;
	for (size_t i = 0; i < SB_ARRAY_SIZE(g->word) && g->word[i].n && l < len; i++)
		l += (size_t)snprintf(buf + l, len - l, "%s%s %zu", i ? ", " : "", g->word[i].w,
				      g->word[i].n);
}

static int higher_better(const char *unit)
{
	return strcmp(unit, "ns") != 0;
}

static int has_direction(const char *unit)
{
	return !strcmp(unit, "B/s") || !strcmp(unit, "IOPS") || !strcmp(unit, "ns");
}

/* A group of more than REP_HIST_JUDGED results is judged on that many of
 * its values, evenly spaced by rank (the sorted values' quantiles): the
 * interval's pairwise differences stay within what sb_pairwise_bounds
 * takes (16 Mi pairs), the test's power that of REP_HIST_JUDGED results. */
#define REP_HIST_JUDGED 512

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* g's values to judge: its own, or a thinned sorted copy in *tmp */
static const double *judged(const struct rep_hist_group *g, size_t *n, double **tmp)
{
	*tmp = NULL;
	*n = g->n;
	if (g->n <= REP_HIST_JUDGED)
		return g->v;
	double *s = malloc(g->n * sizeof(*s)), *t = malloc(REP_HIST_JUDGED * sizeof(*t));
	if (!s || !t) {
		free(s);
		free(t);
		return NULL;
	}
	memcpy(s, g->v, g->n * sizeof(*s));
	qsort(s, g->n, sizeof(*s), cmp_double);
	for (size_t i = 0; i < REP_HIST_JUDGED; i++)
		t[i] = s[(size_t)(((double)i + 0.5) * (double)g->n / REP_HIST_JUDGED)];
	free(s);
	*n = REP_HIST_JUDGED;
	return *tmp = t;
}

int rep_history_judge(struct rep_hist *h, const char *baseline)
{
	h->base = 0;
	if (baseline) {
		size_t i = 0;
		while (i < h->ng && strcmp(h->g[i].name, baseline))
			i++;
		if (i == h->ng)
			return -ENOENT;
		h->base = i;
	}
	for (size_t i = 0; i < h->ng; i++) {
		struct rep_hist_group *g = &h->g[i];
		g->med = g->p5 = g->p95 = NAN;
		if (g->n) {
			g->med = sb_median(g->v, g->n);
			g->p5 = sb_quantile(g->v, g->n, 0.05);
			g->p95 = sb_quantile(g->v, g->n, 0.95);
		}
	}
	size_t nb;
	double *tb;
	const double *b = judged(&h->g[h->base], &nb, &tb);
	if (!b)
		return -ENOMEM;
	int e = 0;
	for (size_t i = 0; i < h->ng && e >= 0; i++) {
		struct rep_hist_group *g = &h->g[i];
		size_t n;
		double *tg;
		if (i == h->base || !g->n || !nb)
			continue;
		const double *v = judged(g, &n, &tg);
		e = v ? sb_difference(b, nb, v, n, higher_better(h->unit), &g->d) : -ENOMEM;
		g->have_d = e == 0;
		e = e == -ENOMEM || e == -E2BIG ? -ENOMEM : 0;
		free(tg);
	}
	free(tb);
	return e;
}

void rep_history_free(struct rep_hist *h)
{
	for (size_t i = 0; i < h->ng; i++) {
		free(h->g[i].name);
		free(h->g[i].v);
	}
	free(h->g);
	h->g = NULL;
	h->ng = 0;
}

static void pct(double v, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%+.1f%%", v);
	else
		snprintf(buf, len, "-");
}

void rep_history_verdict(const struct rep_hist *h, const struct rep_hist_group *g, char *buf,
			 size_t len)
{
	const struct sb_difference *d = &g->d;
	const int dir = has_direction(h->unit), hb = higher_better(h->unit);
	if (g == &h->g[h->base]) {
		snprintf(buf, len, "baseline");
		return;
	}
	if (!g->have_d) {
		snprintf(buf, len, "-");
		return;
	}
	char p[24], lo[24], hi[24];
	pct(d->pct, p, sizeof(p));
	pct(d->lo_pct, lo, sizeof(lo));
	pct(d->hi_pct, hi, sizeof(hi));
	switch (d->verdict) {
	case SB_DIFF_NOISE: snprintf(buf, len, "no difference (%s, %s .. %s)", p, lo, hi); return;
	case SB_DIFF_BETTER:
	case SB_DIFF_WORSE: {
		/* better with a higher-better figure is higher */
		int higher = (d->verdict == SB_DIFF_BETTER) == hb;
		snprintf(buf, len, "%s %s (%s .. %s)",
			 dir ? (d->verdict == SB_DIFF_BETTER ? "better:" : "worse:")
			     : (higher ? "higher:" : "lower:"),
			 p, lo, hi);
		return;
	}
	case SB_DIFF_INCONCLUSIVE:
		snprintf(buf, len, "inconclusive: %u and %u results, at least %u needed", d->na,
			 d->nb, d->needed);
		return;
	}
}

static void fmt(const struct rep_hist *h, double v, char *buf, size_t len)
{
	sb_plan_fmt(h->unit, v, NULL, buf, len);
}

/* A device field's "(none)" group: what the device did not tell. A label
 * of that name (--label firmware=1.2b, for a device that tells none) is
 * grouped by label:KEY; say so, as a user who labelled it expects it here. */
static void none_note(FILE *f, const struct rep_hist *h)
{
	static const char *const device[] = { "firmware", "model", "serial" };
	int dev = 0;
	for (size_t i = 0; h->group_by && i < SB_ARRAY_SIZE(device); i++)
		dev |= !strcmp(h->group_by, device[i]);
	for (size_t i = 0; dev && i < h->ng; i++)
		if (!strcmp(h->g[i].name, "(none)")) {
			fprintf(f,
				"(none): results whose device told no %s; a %s named with --label "
				"%s=VALUE is grouped by --group-by=label:%s\n",
				h->group_by, h->group_by, h->group_by, h->group_by);
			return;
		}
}

int rep_history_text(FILE *f, const void *vh)
{
	const struct rep_hist *h = vh;
	struct rep_vis_ring vb = { .k = 0 }; /* a group's name is a label, a model: anyone's */
	size_t wn = strlen(h->group_by ? h->group_by : "group");
	for (size_t i = 0; i < h->ng; i++)
		wn = SB_MAX(wn, strlen(rep_vs(&vb, h->g[i].name)));
	fprintf(f, "%s by %s (%s; baseline %s)\n", rep_vs(&vb, h->figure), rep_vs(&vb, h->group_by),
		rep_vs(&vb, h->unit[0] ? h->unit : "count"), rep_vs(&vb, h->g[h->base].name));
	fprintf(f, "%-*s %6s %12s %12s %12s  %s\n", (int)wn, rep_vs(&vb, h->group_by), "count",
		"median", "p5", "p95", "vs baseline (shift, 95% interval)");
	for (size_t i = 0; i < h->ng; i++) {
		const struct rep_hist_group *g = &h->g[i];
		char m[32], lo[32], hi[32], v[160];
		if (g->nwords && !g->n) {
			rep_history_words(g, v, sizeof(v));
			fprintf(f, "%-*s %6zu  %s\n", (int)wn, rep_vs(&vb, g->name), g->nwords,
				rep_vs(&vb, v));
			continue;
		}
		fmt(h, g->med, m, sizeof(m));
		fmt(h, g->p5, lo, sizeof(lo));
		fmt(h, g->p95, hi, sizeof(hi));
		rep_history_verdict(h, g, v, sizeof(v));
		fprintf(f, "%-*s %6zu %12s %12s %12s  %s\n", (int)wn, rep_vs(&vb, g->name), g->n, m,
			lo, hi, v);
	}
	fprintf(f, "verdict: the Mann-Whitney U test of each group against the baseline, two-sided "
		   "at 5%% (as compare)\n");
	none_note(f, h);
	return ferror(f) ? -EIO : 0;
}

static const char *verdict_key(const struct rep_hist *h, const struct rep_hist_group *g)
{
	static const char *const k[] = { "no difference", "better", "worse", "inconclusive" };
	if (g == &h->g[h->base])
		return "baseline";
	if (!g->have_d)
		return NULL;
	if (has_direction(h->unit) || g->d.verdict == SB_DIFF_NOISE ||
	    g->d.verdict == SB_DIFF_INCONCLUSIVE)
		return k[g->d.verdict];
	return (g->d.verdict == SB_DIFF_BETTER) == higher_better(h->unit) ? "higher" : "lower";
}

int rep_history_json(FILE *f, const void *vh)
{
	const struct rep_hist *h = vh;
	struct sb_json j;
	sb_json_begin(&j, f, 0);
	sb_json_obj_open(&j, NULL);
	sb_json_str(&j, "figure", h->figure);
	sb_json_str(&j, "unit", h->unit);
	sb_json_str(&j, "group_by", h->group_by);
	sb_json_str(&j, "baseline", h->g[h->base].name);
	sb_json_arr_open(&j, "groups");
	for (size_t i = 0; i < h->ng; i++) {
		const struct rep_hist_group *g = &h->g[i];
		sb_json_obj_open(&j, NULL);
		sb_json_str(&j, "group", g->name);
		sb_json_u64(&j, "count", g->n);
		sb_json_double(&j, "median", g->med);
		sb_json_double(&j, "p5", g->p5);
		sb_json_double(&j, "p95", g->p95);
		if (g->nwords) {
			char w[256];
			rep_history_words(g, w, sizeof(w));
			sb_json_str(&j, "words", w);
		}
		sb_json_str(&j, "verdict", verdict_key(h, g));
		if (g->have_d) {
			sb_json_double(&j, "shift_pct", g->d.pct);
			sb_json_double(&j, "lo_pct", g->d.lo_pct);
			sb_json_double(&j, "hi_pct", g->d.hi_pct);
			sb_json_double(&j, "confidence", g->d.confidence);
			sb_json_double(&j, "p", g->d.p);
		}
		sb_json_obj_close(&j);
	}
	sb_json_arr_close(&j);
	sb_json_obj_close(&j);
	fputc('\n', f);
	return sb_json_end(&j);
}

int rep_history_csv(FILE *f, const void *vh)
{
	const struct rep_hist *h = vh;
	fprintf(f, "group,count,median,p5,p95,unit,verdict,shift_pct,lo_pct,hi_pct,p\n");
	for (size_t i = 0; i < h->ng; i++) {
		const struct rep_hist_group *g = &h->g[i];
		const char *v = verdict_key(h, g);
		rep_csv_field(f, g->name, 1);
		fprintf(f, ",%zu,%.17g,%.17g,%.17g,", g->n, g->med, g->p5, g->p95);
		rep_csv_field(f, h->unit, 1);
		fputc(',', f);
		rep_csv_field(f, v ? v : "", 1);
		if (g->have_d)
			fprintf(f, ",%.6g,%.6g,%.6g,%.6g\n", g->d.pct, g->d.lo_pct, g->d.hi_pct,
				g->d.p);
		else
			fputs(",,,,\n", f);
	}
	return ferror(f) ? -EIO : 0;
}

static enum chart_unit chart_unit_of(const char *unit)
{
	return !strcmp(unit, "B/s")    ? CHART_U_BYTES_S
	       : !strcmp(unit, "B")    ? CHART_U_BYTES
	       : !strcmp(unit, "ns")   ? CHART_U_NS
	       : !strcmp(unit, "IOPS") ? CHART_U_COUNT
				       : CHART_U_NONE;
}

int rep_history_html(FILE *f, const void *vh)
{
	const struct rep_hist *h = vh;
	char title[256];
	snprintf(title, sizeof(title), "%s by %s", h->figure, h->group_by);
	const char **cats = calloc(h->ng + 1, sizeof(*cats));
	double *y = calloc(3 * h->ng + 1, sizeof(*y));
	if (!cats || !y) {
		free(cats);
		free(y);
		return -ENOMEM;
	}
	for (size_t i = 0; i < h->ng; i++) {
		cats[i] = h->g[i].name;
		y[i] = h->g[i].med;
		y[h->ng + i] = h->g[i].p5;
		y[2 * h->ng + i] = h->g[i].p95;
	}
	rep_html_begin(f, title);
	fputs("<h1>", f);
	rep_html_esc(f, title);
	fputs("</h1>\n<p>", f);
	rep_html_esc(f, "The median of each group with its 5th to 95th percentile; each group "
			"against the baseline by the Mann-Whitney U test of its results, two-sided "
			"at 5% (as compare). History: ");
	rep_html_esc(f, h->db);
	fputs("</p>\n", f);
	struct chart_series s = { .name = h->figure,
				  .y = y,
				  .lo = y + h->ng,
				  .hi = y + 2 * h->ng,
				  .n = h->ng,
				  .color = -1 };
	struct chart c = { .kind = CHART_BAR,
			   .title = title,
			   .note = "bars: the median; whiskers: p5 .. p95",
			   .x = { h->group_by, CHART_U_NONE, CHART_LINEAR, 0 },
			   .y = { h->figure, chart_unit_of(h->unit), CHART_LINEAR, 0 },
			   .cats = cats,
			   .ncats = h->ng,
			   .series = &s,
			   .nseries = 1,
			   .id = "trend" };
	chart_figure(f, &c, NULL);
	static const char *const cols[] = { "group", "count", "median", "p5", "p95", "vs baseline" };
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (size_t i = 0; i < h->ng; i++) {
		const struct rep_hist_group *g = &h->g[i];
		char n[24], m[256], lo[32], hi[32], v[160] = "-";
		snprintf(n, sizeof(n), "%zu", g->n ? g->n : g->nwords);
		fmt(h, g->med, m, sizeof(m));
		fmt(h, g->p5, lo, sizeof(lo));
		fmt(h, g->p95, hi, sizeof(hi));
		if (g->nwords && !g->n)
			rep_history_words(g, m, sizeof(m));
		else
			rep_history_verdict(h, g, v, sizeof(v));
		fputs("<tr>", f);
		html_cell(f, g->name, 0);
		html_cell(f, n, 1);
		html_cell(f, m, 1);
		html_cell(f, lo, 1);
		html_cell(f, hi, 1);
		html_cell(f, v, 0);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	rep_html_end(f);
	free(cats);
	free(y);
	return ferror(f) ? -EIO : 0;
}
