/*
 * Charts of the HTML report by command. run (and fio): bandwidth and IOPS
 * over time per direction, the latency percentile curve on a log axis, and
 * a latency histogram estimated from the percentiles. quick: bars per test,
 * read and write, median with the min..max of the runs.
 */
#include "report/html.h"
#include "report/chart.h"

#include <math.h>

#define MAX_LINES 8 /* the palette's colours */
#define HIST_BINS 36

static const int dir_color[SB_DDIR_N] = { CHART_C_READ, CHART_C_WRITE, CHART_C_TRIM };

/* Series of the charts of a run: one per job and direction used. */
struct line {
	const struct rep_job *job;
	int ddir;
	char name[128];
	double *x, *y;
	size_t n;
};

struct lines {
	struct line v[MAX_LINES];
	size_t n;
	size_t left_out; /* jobs x directions beyond MAX_LINES */
};

static void pick(struct lines *ls, const struct rep_doc *d)
{
	memset(ls, 0, sizeof(*ls));
	for (size_t i = 0; i < d->njobs; i++) {
		for (int k = 0; k < SB_DDIR_N; k++) {
			if (!d->jobs[i].dir[k].used)
				continue;
			if (ls->n == MAX_LINES) {
				ls->left_out++;
				continue;
			}
			struct line *l = &ls->v[ls->n++];
			l->job = &d->jobs[i];
			l->ddir = k;
			if (d->njobs == 1)
				snprintf(l->name, sizeof(l->name), "%s", sb_ddir_name(k));
			else
				snprintf(l->name, sizeof(l->name), "%s, %s", d->jobs[i].name,
					 sb_ddir_name(k));
		}
	}
}

static void release(struct lines *ls)
{
	for (size_t i = 0; i < ls->n; i++) {
		free(ls->v[i].x);
		free(ls->v[i].y);
	}
}

/* One job: colours by direction; several: by job, writes dashed. */
static void styles(const struct lines *ls, struct chart_series *s)
{
	const struct rep_job *prev = NULL;
	int job = -1;
	for (size_t i = 0; i < ls->n; i++) {
		int single = ls->v[0].job == ls->v[ls->n - 1].job;
		if (ls->v[i].job != prev)
			job++, prev = ls->v[i].job;
		memset(&s[i], 0, sizeof(s[i]));
		s[i].name = ls->v[i].name;
		s[i].x = ls->v[i].x;
		s[i].y = ls->v[i].y;
		s[i].n = ls->v[i].n;
		s[i].color = single ? dir_color[ls->v[i].ddir] : job;
		s[i].dashed = !single && ls->v[i].ddir == SB_DDIR_WRITE;
	}
}

/* Fills x/y of every line with what get() takes from a job; 0 if none has any. */
static size_t fill(struct lines *ls,
		   size_t (*get)(const struct line *l, double *x, double *y, int what),
		   size_t (*count)(const struct line *l), int what)
{
	size_t total = 0;
	for (size_t i = 0; i < ls->n; i++) {
		struct line *l = &ls->v[i];
		size_t n = count(l);
		free(l->x);
		free(l->y);
		l->n = 0;
		l->x = calloc(n + 1, sizeof(double));
		l->y = calloc(n + 1, sizeof(double));
		if (!l->x || !l->y)
			continue;
		l->n = get(l, l->x, l->y, what);
		total += l->n;
	}
	return total;
}

static size_t series_count(const struct line *l)
{
	return l->job->series.n;
}

/* An interval without a request of this direction moved nothing: 0. */
static size_t series_get(const struct line *l, double *x, double *y, int iops)
{
	const struct rep_series *s = &l->job->series;
	const double *v = iops ? s->iops[l->ddir] : s->bw[l->ddir];
	for (size_t i = 0; i < s->n; i++) {
		x[i] = s->t[i];
		y[i] = v ? v[i] : 0;
	}
	return s->n;
}

static size_t pct_count(const struct line *l)
{
	return l->job->dir[l->ddir].lat.npct + 1;
}

static size_t pct_get(const struct line *l, double *x, double *y, int unused)
{
	const struct rep_lat *lat = &l->job->dir[l->ddir].lat;
	size_t n = 0;
	if (!lat->npct)
		return 0;
	x[n] = 0;
	y[n++] = lat->min > 0 ? lat->min : NAN;
	for (unsigned i = 0; i < lat->npct; i++) {
		x[n] = lat->pct[i];
		y[n++] = lat->val[i];
	}
	return n;
}

static void time_chart(FILE *f, struct lines *ls, int iops)
{
	struct chart_series s[MAX_LINES];
	if (!fill(ls, series_get, series_count, iops))
		return;
	styles(ls, s);
	struct chart c = {
		.kind = CHART_LINE,
		.title = iops ? "IOPS over time" : "Bandwidth over time",
		.note = "each point is one interval of the run (--log-interval), at its end",
		.x = { "Time", CHART_U_S, CHART_LINEAR, 0 },
		.y = { iops ? "IOPS" : "Bandwidth", iops ? CHART_U_COUNT : CHART_U_BYTES_S,
		       CHART_LINEAR, 0 },
		.series = s,
		.nseries = ls->n,
	};
	chart_figure(f, &c, NULL);
}

static void pct_chart(FILE *f, struct lines *ls, const char *kind)
{
	struct chart_series s[MAX_LINES];
	char title[96];
	if (!fill(ls, pct_get, pct_count, 0))
		return;
	styles(ls, s);
	snprintf(title, sizeof(title), "Latency percentiles (%s latency)", kind);
	struct chart c = {
		.kind = CHART_LINE,
		.title = title,
		.note = "the share of requests at or below a latency; the tail to the right",
		.x = { "Percentile", CHART_U_NONE, CHART_NINES, 0 },
		.y = { "Latency", CHART_U_NS, CHART_LOG, 0 },
		.series = s,
		.nseries = ls->n,
	};
	chart_figure(f, &c, NULL);
}

static void hist_chart(FILE *f, struct lines *ls, const char *kind)
{
	struct chart_series s[MAX_LINES];
	char title[96];
	size_t n = 0;
	for (size_t i = 0; i < ls->n; i++) {
		struct line *l = &ls->v[i];
		free(l->x);
		free(l->y);
		l->x = calloc(HIST_BINS + 1, sizeof(double));
		l->y = calloc(HIST_BINS, sizeof(double));
		l->n = 0;
		if (l->x && l->y && !rep_lat_hist(&l->job->dir[l->ddir].lat, l->x, l->y, HIST_BINS))
			l->n = HIST_BINS, n++;
	}
	if (!n)
		return;
	styles(ls, s);
	for (size_t i = 0; i < ls->n; i++)
		s[i].dashed = 0;
	snprintf(title, sizeof(title), "Latency histogram (%s latency)", kind);
	struct chart c = {
		.kind = CHART_HIST,
		.title = title,
		.note = "estimated from the percentiles: the requests between two of them spread "
			"evenly over log(latency)",
		.x = { "Latency", CHART_U_NS, CHART_LOG, 0 },
		.y = { "Share of requests", CHART_U_PCT, CHART_LINEAR, 0 },
		.series = s,
		.nseries = ls->n,
	};
	chart_figure(f, &c, NULL);
}

void html_section_run(FILE *f, const struct rep_doc *d)
{
	struct lines ls;
	pick(&ls, d);
	if (!ls.n)
		return;
	const char *kind = ls.v[0].job->lat_kind;
	fputs("<h3>Charts</h3>\n", f);
	if (ls.left_out)
		fprintf(f,
			"<p class=\"meta\">The charts show the first %d series; %zu more are in "
			"the tables.</p>\n",
			MAX_LINES, ls.left_out);
	time_chart(f, &ls, 0);
	time_chart(f, &ls, 1);
	pct_chart(f, &ls, kind);
	hist_chart(f, &ls, kind);
	release(&ls);
}

/* ---- quick ---- */
#define MAX_TESTS 16

static void quick_chart(FILE *f, const struct rep_doc *d, int iops, const char **tests, size_t nt)
{
	double y[2][MAX_TESTS], lo[2][MAX_TESTS], hi[2][MAX_TESTS];
	struct chart_series s[2];
	size_t ns = 0;
	for (int k = SB_DDIR_READ; k <= SB_DDIR_WRITE; k++) {
		int any = 0;
		for (size_t t = 0; t < nt; t++) {
			y[ns][t] = lo[ns][t] = hi[ns][t] = NAN;
			for (size_t i = 0; i < d->nsummary; i++) {
				const struct rep_summary *r = &d->summary[i];
				if (r->ddir != k || strcmp(r->test, tests[t]))
					continue;
				y[ns][t] = iops ? r->iops_median : r->bw_median;
				lo[ns][t] = iops ? r->iops_min : r->bw_min;
				hi[ns][t] = iops ? r->iops_max : r->bw_max;
				any = 1;
			}
		}
		if (!any)
			continue;
		s[ns] = (struct chart_series){ .name = sb_ddir_name(k),
					       .y = y[ns],
					       .lo = lo[ns],
					       .hi = hi[ns],
					       .n = nt,
					       .color = dir_color[k] };
		ns++;
	}
	struct chart c = {
		.kind = CHART_BAR,
		.title = iops ? "IOPS by test" : "Bandwidth by test",
		.note = "median of the runs; the whiskers reach from the slowest to the fastest run",
		.x = { "Test", CHART_U_NONE, CHART_LINEAR, 0 },
		.y = { iops ? "IOPS" : "Bandwidth", iops ? CHART_U_COUNT : CHART_U_BYTES_S,
		       CHART_LINEAR, 0 },
		.cats = tests,
		.ncats = nt,
		.series = s,
		.nseries = ns,
	};
	chart_figure(f, &c, NULL);
}

void html_section_quick(FILE *f, const struct rep_doc *d)
{
	const char *tests[MAX_TESTS];
	size_t nt = 0;
	for (size_t i = 0; i < d->nsummary; i++) {
		size_t k;
		for (k = 0; k < nt && strcmp(tests[k], d->summary[i].test); k++)
			;
		if (k == nt && nt < MAX_TESTS)
			tests[nt++] = d->summary[i].test;
	}
	if (!nt)
		return;
	fputs("<h3>Charts</h3>\n", f);
	quick_chart(f, d, 0, tests, nt);
	quick_chart(f, d, 1, tests, nt);
}

/* ---- two quick results side by side (the text's [A], [B] and B/A) ---- */
static const struct rep_summary *quick_row(const struct rep_doc *d, const char *test, int ddir)
{
	for (size_t i = 0; i < d->nsummary; i++)
		if (d->summary[i].ddir == ddir && !strcmp(d->summary[i].test, test))
			return &d->summary[i];
	return NULL;
}

static void pair_chart(FILE *f, const struct rep_doc *const *d, int ddir, const char **tests,
		       size_t nt)
{
	double y[2][MAX_TESTS], lo[2][MAX_TESTS], hi[2][MAX_TESTS];
	char name[2][160], title[64];
	struct chart_series s[2];
	int any = 0;
	for (int k = 0; k < 2; k++) {
		for (size_t t = 0; t < nt; t++) {
			const struct rep_summary *r = quick_row(d[k], tests[t], ddir);
			y[k][t] = r ? r->bw_median : NAN;
			lo[k][t] = r ? r->bw_min : NAN;
			hi[k][t] = r ? r->bw_max : NAN;
			any |= r != NULL;
		}
		snprintf(name[k], sizeof(name[k]), "%c: %s", 'A' + k,
			 rep_or(d[k]->target.path, d[k]->name));
		s[k] = (struct chart_series){
			.name = name[k], .y = y[k], .lo = lo[k], .hi = hi[k], .n = nt, .color = -1
		};
	}
	if (!any)
		return;
	snprintf(title, sizeof(title), "%s bandwidth by test, A and B",
		 ddir == SB_DDIR_READ ? "Read" : "Write");
	struct chart c = {
		.kind = CHART_BAR,
		.title = title,
		.note = "median of the runs; the whiskers reach from the slowest to the fastest run",
		.x = { "Test", CHART_U_NONE, CHART_LINEAR, 0 },
		.y = { "Bandwidth", CHART_U_BYTES_S, CHART_LINEAR, 0 },
		.cats = tests,
		.ncats = nt,
		.series = s,
		.nseries = 2,
	};
	chart_figure(f, &c, NULL);
}

void html_quick_pair(FILE *f, const struct rep_doc *const *d)
{
	static const char *const cols[] = { "Test", "Direction", "A MiB/s", "B MiB/s",
					    "B/A",  "A IOPS",	 "B IOPS" };
	const char *tests[MAX_TESTS];
	size_t nt = 0;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < d[k]->nsummary; i++) {
			size_t t;
			for (t = 0; t < nt && strcmp(tests[t], d[k]->summary[i].test); t++)
				;
			if (t == nt && nt < MAX_TESTS)
				tests[nt++] = d[k]->summary[i].test;
		}
	if (!nt)
		return;
	fputs("<section id=\"pair\">\n<h2>A and B side by side</h2>\n", f);
	for (int k = 0; k < 2; k++) {
		fprintf(f, "<p class=\"meta\">%c: <code>", 'A' + k);
		rep_html_esc(f, rep_or(d[k]->target.path, d[k]->name));
		fputs("</code> (", f);
		rep_html_esc(f, d[k]->name);
		fputs(")</p>\n", f);
	}
	fputs("<p class=\"meta\">The median of the runs; B/A is the ratio of the median "
	      "bandwidths (storbench compare tells a change from noise).</p>\n",
	      f);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 2);
	for (int dd = SB_DDIR_READ; dd <= SB_DDIR_WRITE; dd++)
		for (size_t t = 0; t < nt; t++) {
			const struct rep_summary *a = quick_row(d[0], tests[t], dd);
			const struct rep_summary *b = quick_row(d[1], tests[t], dd);
			char v[5][32];
			if (!a && !b)
				continue;
			snprintf(v[0], sizeof(v[0]), a ? "%.1f" : "-",
				 a ? a->bw_median / 1048576 : 0);
			snprintf(v[1], sizeof(v[1]), b ? "%.1f" : "-",
				 b ? b->bw_median / 1048576 : 0);
			if (a && b && a->bw_median > 0)
				snprintf(v[2], sizeof(v[2]), "%.2fx", b->bw_median / a->bw_median);
			else
				snprintf(v[2], sizeof(v[2]), "-");
			snprintf(v[3], sizeof(v[3]), a ? "%.0f" : "-", a ? a->iops_median : 0);
			snprintf(v[4], sizeof(v[4]), b ? "%.0f" : "-", b ? b->iops_median : 0);
			fputs("<tr>", f);
			html_cell(f, tests[t], 0);
			html_cell(f, sb_ddir_name(dd), 0);
			for (int i = 0; i < 5; i++)
				html_cell(f, v[i], 1);
			fputs("</tr>\n", f);
		}
	fputs("</tbody></table>\n", f);
	pair_chart(f, d, SB_DDIR_READ, tests, nt);
	pair_chart(f, d, SB_DDIR_WRITE, tests, nt);
	fputs("</section>\n", f);
}

/* ---- latency histogram from percentiles ---- */
static void spread(double a, double b, double mass, const double *edges, double *share, size_t nb)
{
	double la = log(a), lb = log(b);
	for (size_t k = 0; k < nb; k++) {
		double e0 = log(edges[k]), e1 = log(edges[k + 1]);
		if (lb <= la) { /* all at one latency */
			if ((la >= e0 && la < e1) || (k == nb - 1 && la >= e0))
				share[k] += mass;
			continue;
		}
		double o = SB_MIN(lb, e1) - SB_MAX(la, e0);
		if (o > 0)
			share[k] += mass * o / (lb - la);
	}
}

int rep_lat_hist(const struct rep_lat *l, double *edges, double *share, size_t nb)
{
	double p[REP_MAX_PCT + 2], v[REP_MAX_PCT + 2];
	size_t n = 0;
	if (!l->npct || !(l->max > 0) || !nb)
		return -EINVAL;
	p[n] = 0;
	v[n++] = l->min > 0 ? l->min : l->val[0] > 0 ? l->val[0] : 1;
	for (unsigned i = 0; i < l->npct; i++, n++) {
		p[n] = l->pct[i];
		v[n] = SB_MAX(l->val[i], v[n - 1]); /* keep the quantiles increasing */
	}
	p[n] = 100;
	v[n] = SB_MAX(l->max, v[n - 1]);
	n++;
	double lo = v[0], hi = v[n - 1] > lo ? v[n - 1] : lo * 1.01;
	for (size_t k = 0; k <= nb; k++)
		edges[k] = lo * pow(hi / lo, (double)k / (double)nb);
	edges[nb] = hi * (1 + 1e-12);
	memset(share, 0, nb * sizeof(*share));
	for (size_t i = 1; i < n; i++)
		spread(v[i - 1], v[i], p[i] - p[i - 1], edges, share, nb);
	return 0;
}
