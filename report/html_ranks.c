/*
 * A multi-host run (docs/mpi.md) in the HTML report: after the All
 * clients figures, how far the ranks were apart and a row per rank, read
 * from fio's client_stats.
 */
#include "report/chart.h"
#include "report/html.h"

#include <math.h>

static double bw_of(const struct sb_job_doc *x)
{
	double bw = 0;
	for (int d = 0; d < SB_DDIR_N; d++)
		bw += isnan(x->dir[d].bw_bytes) ? 0 : x->dir[d].bw_bytes;
	return bw;
}

static double iops_of(const struct sb_job_doc *x)
{
	double n = 0;
	for (int d = 0; d < SB_DDIR_N; d++)
		n += isnan(x->dir[d].iops) ? 0 : x->dir[d].iops;
	return n;
}

static void skew_line(FILE *f, const struct sb_job_doc *all)
{
	const struct sb_skew *k = &all->skew;
	if (!all->have_skew)
		return;
	char a[48];
	fprintf(f,
		"<p class=\"meta\">%u ranks started within %.1f ms and ended within %.1f ms of "
		"each other, over %.3f s; median rank %s, slowest rank %d %+.1f%%, fastest rank "
		"%d %+.1f%%.</p>\n",
		all->skew_ranks, 1e3 * k->start_spread_s, 1e3 * k->end_spread_s, k->span_s,
		rep_fmt_rate(k->median_bw, a, sizeof(a)), k->slowest_rank,
		100 * k->slowest_vs_median, k->fastest_rank, 100 * k->fastest_vs_median);
}

#define RANK_CHART_JOBS 8 /* bars a rank at most: the first jobs */
#define RANK_CHART_RANKS 256

/* Each rank's bandwidth as bars, a group per rank, a bar per job (the
 * first RANK_CHART_JOBS): a slow rank or host stands out at a glance. */
static void ranks_chart(FILE *f, const struct rep_doc *d)
{
	const size_t n = rep_nclients(d);
	char cat_buf[RANK_CHART_RANKS][80];
	const char *cats[RANK_CHART_RANKS], *jobs[RANK_CHART_JOBS];
	double y[RANK_CHART_JOBS][RANK_CHART_RANKS] = { { 0 } };
	size_t nranks = 0, njobs = 0, alljobs = 0;
	int at = -1; /* the rank's place in the current job */
	for (size_t i = 0; i < n; i++) {
		struct sb_job_doc c;
		if (rep_client(d, i, &c) < 0)
			continue;
		if (!c.hostname) { /* All clients: the end of a job's ranks */
			alljobs++;
			if (at >= 0 && njobs < RANK_CHART_JOBS)
				jobs[njobs++] = rep_or(c.job, "job");
			at = -1;
			continue;
		}
		at++;
		if (alljobs == 0 && nranks < RANK_CHART_RANKS) {
			snprintf(cat_buf[nranks], sizeof(cat_buf[0]), "%d %.60s", c.rank,
				 c.hostname);
			cats[nranks] = cat_buf[nranks];
			nranks++;
		}
		if (njobs < RANK_CHART_JOBS && (size_t)at < nranks)
			y[njobs][at] = bw_of(&c);
	}
	if (!nranks || !njobs)
		return;
	struct chart_series s[RANK_CHART_JOBS];
	memset(s, 0, sizeof(s));
	for (size_t k = 0; k < njobs; k++) {
		s[k].name = jobs[k];
		s[k].y = y[k];
		s[k].n = nranks;
		s[k].color = -1;
	}
	char note[96] = "";
	if (alljobs > njobs)
		snprintf(note, sizeof(note), "the first %zu of %zu jobs; the table has them all",
			 njobs, alljobs);
	const struct chart c = {
		.kind = CHART_BAR,
		.title = "Bandwidth of each rank",
		.note = note[0] ? note : NULL,
		.x = { "Rank and host", CHART_U_NONE, CHART_LINEAR, 0 },
		.y = { "Bandwidth", CHART_U_BYTES_S, CHART_LINEAR, 0 },
		.cats = cats,
		.ncats = nranks,
		.series = s,
		.nseries = njobs,
		.id = "ranks-bw",
	};
	chart_figure(f, &c, NULL);
}

void html_ranks_table(FILE *f, const struct rep_doc *d)
{
	static const char *const cols[] = { "Job",  "Rank",  "Host", "Bandwidth",
					    "IOPS", "Start", "End",  "CPU" };
	const size_t n = rep_nclients(d);
	char a[48];
	if (!n)
		return;
	fputs("<h3>Ranks</h3>\n", f);
	for (size_t i = 0; i < n; i++) {
		struct sb_job_doc c;
		if (!rep_client(d, i, &c) && !strcmp(c.name, "All clients"))
			skew_line(f, &c);
	}
	/* times from the earliest start */
	double t0 = INFINITY;
	for (size_t i = 0; i < n; i++) {
		struct sb_job_doc c;
		if (!rep_client(d, i, &c) && isfinite(c.start_s))
			t0 = fmin(t0, c.start_s);
	}
	ranks_chart(f, d);
	html_head_row(f, cols, SB_ARRAY_SIZE(cols), 3);
	for (size_t i = 0; i < n; i++) {
		struct sb_job_doc c;
		if (rep_client(d, i, &c) < 0 || !c.hostname)
			continue; /* the All clients entry: the results above */
		fputs("<tr>", f);
		html_cell(f, c.name, 0);
		snprintf(a, sizeof(a), "%d", c.rank);
		html_cell(f, a, 0);
		html_cell(f, c.hostname, 0);
		html_cell(f, rep_fmt_rate(bw_of(&c), a, sizeof(a)), 1);
		html_cell(f, rep_fmt_count(iops_of(&c), a, sizeof(a)), 1);
		snprintf(a, sizeof(a), "%.1f ms",
			 1e3 * ((isfinite(c.start_s) ? c.start_s : t0) - t0));
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%.1f ms", 1e3 * ((isfinite(c.end_s) ? c.end_s : t0) - t0));
		html_cell(f, a, 1);
		snprintf(a, sizeof(a), "%.1f%%", c.usr_cpu + c.sys_cpu);
		html_cell(f, a, 1);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}
