/*
 * The soak section of the HTML report, from the soak's iterations
 * (rep_doc.iters): write and read throughput per iteration with outliers
 * ringed and change points drawn as dashed lines (their hover says the
 * iteration and the levels), and I/O errors and kernel messages on the
 * same iteration axis, so a slowdown and the errors around it line up: the
 * throughput chart marks such iterations on its axis, both charts say what
 * happened on hover, and a table lists it. Health before and after follows.
 * The outliers and change points are the soak's verdict, or the analysis
 * it would have made (rep_soak_anomalies); with too few iterations to look
 * for them, the chart says so. A day of 1-second iterations draws in a
 * size bound by the chart's width (report/chart.h), every anomaly, error
 * and kernel-message marker kept.
 */
#include "report/html.h"
#include "report/chart.h"
#include "lib/storbench.h"

#include <math.h>

#define TEXT_LEN 300
#define EVENT_ROWS 1000 /* rows of the table of what went wrong */
#define HOVER_MAX 400	/* the charts' per-point hover, below which texts are made */

struct marks {
	struct rep_anomalies an[2];
	unsigned char *ring[2];
	double at[2 * SB_ANOMALY_MAX_CHANGES];
	char text[2 * SB_ANOMALY_MAX_CHANGES][160];
	const char *texts[2 * SB_ANOMALY_MAX_CHANGES];
	size_t nat;
	long rings;
};

static const char *const names[2] = { "write", "read" };

/* Rings of the outliers; change points as x positions halfway between
 * the iteration before and the first of the new level, with what changed. */
static int marks_of(const struct rep_doc *d, struct marks *m)
{
	const struct rep_iters *it = &d->iters;
	char a[32], b[32];
	memset(m, 0, sizeof(*m));
	for (int k = 0; k < 2; k++) {
		if (rep_soak_anomalies(d, k, &m->an[k]) < 0 || !(m->ring[k] = calloc(it->n, 1)))
			return -ENOMEM;
		for (size_t o = 0; o < m->an[k].m.noutliers; o++) {
			size_t i = rep_iter_index(it, (double)m->an[k].m.outliers[o]);
			if (i != SIZE_MAX && !m->ring[k][i])
				m->ring[k][i] = 1, m->rings++;
		}
		for (size_t c = 0; c < m->an[k].m.nchanges; c++) {
			size_t i = rep_iter_index(it, (double)m->an[k].m.changes[c].at);
			if (i == SIZE_MAX || i == 0)
				continue;
			m->at[m->nat] = (it->x[i - 1] + it->x[i]) / 2;
			snprintf(m->text[m->nat], sizeof(m->text[0]),
				 "%s throughput changes at iteration %.0f: %s to %s (%+.0f%%)",
				 names[k], it->x[i],
				 rep_fmt_rate(m->an[k].m.changes[c].before, a, sizeof(a)),
				 rep_fmt_rate(m->an[k].m.changes[c].after, b, sizeof(b)),
				 100 * m->an[k].m.changes[c].step);
			m->texts[m->nat] = m->text[m->nat];
			m->nat++;
		}
	}
	return 0;
}

/* What the chart's note says was found, or why nothing could be. */
static void note_of(const struct rep_doc *d, const struct marks *m, char *note, size_t len)
{
	size_t nev = d->iters.nev, at = 0;
	int judged = m->an[0].judged.outliers || m->an[1].judged.outliers;
	int changes = m->an[0].judged.changes || m->an[1].judged.changes;
#define ADD(...) (at < len ? (at += (size_t)snprintf(note + at, len - at, __VA_ARGS__)) : 0)
	size_t total = m->an[0].m.outliers_total + m->an[1].m.outliers_total;
	if (judged && total > (size_t)m->rings)
		ADD("%ld of %zu outliers ringed (the first %d of each metric)", m->rings, total,
		    SB_ANOMALY_MAX_OUTLIERS);
	else if (judged)
		ADD("%ld outlier%s ringed", m->rings, m->rings == 1 ? "" : "s");
	else
		ADD("too few iterations to look for outliers (%d needed)",
		    SB_ANOMALY_MIN_OUTLIER_N);
	if (changes)
		ADD("; %zu change point%s dashed", m->nat, m->nat == 1 ? "" : "s");
	else
		ADD("; too few for change points (%d needed)", 2 * SB_ANOMALY_MIN_SEGMENT);
	if (nev)
		ADD("; %zu iteration%s with errors marked on the axis", nev, nev == 1 ? "" : "s");
#undef ADD
}

/* "iteration 12: 2 I/O errors ..." for every event, in one buffer. */
static char **event_texts(const struct rep_iters *it)
{
	char **t = calloc(it->nev + 1, sizeof(*t)), buf[TEXT_LEN];
	for (size_t e = 0; t && e < it->nev; e++)
		if (asprintf(&t[e], "iteration %.0f: %s", it->x[it->ev[e].i],
			     rep_event_text(it, &it->ev[e], buf, sizeof(buf))) < 0)
			t[e] = NULL;
	return t;
}

static void throughput(FILE *f, const struct rep_doc *d, const struct marks *m, double *evx,
		       char **evt)
{
	static const int colors[2] = { CHART_C_WRITE, CHART_C_READ };
	const struct rep_iters *it = &d->iters;
	struct chart_series s[2];
	char note[240];
	for (int k = 0; k < 2; k++)
		s[k] = (struct chart_series){ .name = names[k],
					      .x = it->x,
					      .y = it->bw[k],
					      .mark = m->an[k].m.noutliers ? m->ring[k] : NULL,
					      .n = it->n,
					      .color = colors[k] };
	note_of(d, m, note, sizeof(note));
	struct chart c = {
		.kind = CHART_LINE,
		.title = "Throughput per iteration",
		.note = note,
		.x = { "Iteration", CHART_U_NONE, CHART_LINEAR, 1 },
		.y = { "Bandwidth", CHART_U_BYTES_S, CHART_LINEAR, 0 },
		.series = s,
		.nseries = 2,
		.vlines = m->at,
		.vline_text = m->texts,
		.nvlines = m->nat,
		.events = evx,
		.event_text = (const char *const *)evt,
		.nevents = it->nev,
	};
	chart_figure(f, &c, NULL);
}

static void trouble(FILE *f, const struct rep_iters *it)
{
	const char **texts = NULL;
	char(*buf)[TEXT_LEN] = NULL;
	if (it->n <= HOVER_MAX) { /* a hover text per point */
		texts = calloc(it->n + 1, sizeof(*texts));
		buf = calloc(it->nev + 1, sizeof(*buf));
		for (size_t e = 0; texts && buf && e < it->nev; e++)
			texts[it->ev[e].i] = rep_event_text(it, &it->ev[e], buf[e], TEXT_LEN);
		for (size_t i = 0; texts && i < it->n; i++)
			texts[i] = texts[i] ? texts[i] : "";
	}
	struct chart_series s[2] = {
		{ .name = "I/O errors",
		  .x = it->x,
		  .y = it->errors,
		  .text = texts && buf ? texts : NULL,
		  .n = it->n,
		  .color = CHART_C_WRITE },
		{ .name = "kernel messages",
		  .x = it->x,
		  .y = it->kmsg,
		  .text = texts && buf ? texts : NULL,
		  .n = it->n,
		  .color = 3 },
	};
	struct chart c = {
		.kind = CHART_LINE,
		.title = "Errors and kernel messages per iteration",
		.note = "storage-related kernel messages seen during each iteration",
		.x = { "Iteration", CHART_U_NONE, CHART_LINEAR, 1 },
		.y = { "Count", CHART_U_COUNT, CHART_LINEAR, 0 },
		.series = s,
		.nseries = 2,
	};
	chart_figure(f, &c, NULL);
	free(texts);
	free(buf);
}

/* Every iteration with something wrong, and what (the first EVENT_ROWS). */
static void events_table(FILE *f, const struct rep_iters *it)
{
	static const char *const cols[] = { "Iteration", "What happened" };
	char a[32], buf[TEXT_LEN];
	if (!it->nev)
		return;
	fputs("<h3>Errors and kernel messages</h3>\n", f);
	if (it->nev > EVENT_ROWS)
		fprintf(f,
			"<p class=\"meta\">%zu iterations went wrong: the first %d are listed "
			"(every one is marked on the charts' axis, and the CSV table "
			"<code>records</code> holds them all).</p>\n",
			it->nev, EVENT_ROWS);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 2);
	for (size_t e = 0; e < it->nev && e < EVENT_ROWS; e++) {
		snprintf(a, sizeof(a), "%.0f", it->x[it->ev[e].i]);
		fputs("<tr>", f);
		html_cell(f, a, 0);
		html_cell(f, rep_event_text(it, &it->ev[e], buf, sizeof(buf)), 0);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* The statistics of each direction: the soak's own (or the same
 * analysis), the trend of a straight line over the iterations. */
static void stats_table(FILE *f, const struct rep_soak_lead *l, int iozone)
{
	static const char *const cols[] = { "Direction", "Median", "p5", "p95", "CV", "Trend" };
	char a[48];
	if (!l->an[0].m.st.n && !l->an[1].m.st.n)
		return;
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 1);
	for (int k = 0; k < 2; k++) {
		const struct sb_stability *st = &l->an[k].m.st;
		if (!st->n)
			continue;
		fputs("<tr>", f);
		html_cell(f, k ? (iozone ? "read tests" : "read") : (iozone ? "write tests" : "write"),
			  0);
		html_cell(f, rep_fmt_rate(st->median, a, sizeof(a)), 1);
		html_cell(f, rep_fmt_rate(st->p5, a, sizeof(a)), 1);
		html_cell(f, rep_fmt_rate(st->p95, a, sizeof(a)), 1);
		snprintf(a, sizeof(a), "%.1f%%", 100 * st->cv);
		html_cell(f, a, 1);
		if (isfinite(l->trend[k]))
			snprintf(a, sizeof(a), "%+.1f%%", 100 * l->trend[k]);
		else
			snprintf(a, sizeof(a), "-");
		html_cell(f, a, 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n<p class=\"meta\">Trend: how much a straight line fitted "
	      "over the iterations changes from the first to the last, as a share of the "
	      "median.</p>\n",
	      f);
}

void html_soak_toc_verdict(FILE *f, const struct rep_doc *d)
{
	struct sb_soak_summary sum;
	if (strcmp(d->command, "soak"))
		return;
	if (rep_soak_verdict(d, &sum) < 0) {
		fputs(" &mdash; no verdict", f);
		return;
	}
	fprintf(f, " &mdash; <b class=\"%s\">", sum.verdict == SB_SOAK_PASS ? "ok" : "bad");
	for (const char *c = sb_soak_verdict_name(sum.verdict); *c; c++)
		fputc(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c, f);
	fputs("</b>", f);
}

void html_soak_lead(FILE *f, const struct rep_doc *d)
{
	struct rep_soak_lead *l = malloc(sizeof(*l));
	const char *kv[12][2];
	char buf[12][64];
	if (!l || rep_soak_lead(d, l) < 0) {
		fputs("<p class=\"bad\">No verdict: out of memory.</p>\n", f);
		free(l);
		return;
	}
	fprintf(f, "<div class=\"verdict %s\" id=\"verdict\"><b>%s</b>",
		!l->has_verdict			  ? "none"
		: l->sum.verdict == SB_SOAK_PASS ? "pass"
						  : "fail",
		l->word);
	rep_html_esc(f, l->headline);
	fputs("</div>\n<ul class=\"why\">\n", f);
	for (size_t i = 0; i < l->nwhy; i++) {
		fprintf(f, "<li class=\"%s\">", rep_why_name(l->why[i].kind));
		rep_html_esc(f, l->why[i].text);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n<div class=\"cols\">\n<div>\n<h3>Settings</h3>\n", f);
	const size_t n = rep_soak_settings_kv(l, kv, buf, SB_ARRAY_SIZE(kv));
	if (!n)
		fputs("<p class=\"meta\">Not recorded (a log of an older storbench).</p>\n", f);
	else
		fputs("<table class=\"kv\">\n", f);
	for (size_t i = 0; i < n; i++)
		html_kv(f, kv[i][0], kv[i][1]);
	if (n)
		fputs("</table>\n", f);
	fputs("</div>\n<div>\n<h3>Summary statistics</h3>\n", f);
	stats_table(f, l, d->iters.ncs > 0);
	fputs("</div>\n</div>\n", f);
	free(l);
}

void html_section_soak(FILE *f, const struct rep_doc *d)
{
	const struct rep_iters *it = &d->iters;
	struct marks m;
	memset(&m, 0, sizeof(m));
	if (!it->n) {
		fputs("<p class=\"meta\">No iteration completed: nothing to chart.</p>\n", f);
	} else if (marks_of(d, &m) == 0) {
		double *evx = calloc(it->nev + 1, sizeof(*evx));
		char **evt = event_texts(it);
		for (size_t e = 0; evx && e < it->nev; e++)
			evx[e] = it->x[it->ev[e].i];
		fputs("<h3>Charts</h3>\n", f);
		if (evx && evt) {
			throughput(f, d, &m, evx, evt);
			trouble(f, it);
			events_table(f, it);
		}
		html_soak_cells(f, d);
		html_soak_ranks(f, d);
		for (size_t e = 0; evt && e < it->nev; e++)
			free(evt[e]);
		free(evt);
		free(evx);
	}
	free(m.ring[0]);
	free(m.ring[1]);
	html_health(f, d);
}
