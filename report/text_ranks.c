/* The ranks of a multi-host run as text (report.h, rep_ranks_text), as run
 * and verify print them: after the "All clients" aggregate, how far apart
 * they were and a line per rank; report/html_ranks.c draws them from the
 * result's client_stats. */
#include "report/report.h"

static void skew_lines(FILE *f, const struct sb_skew *k)
{
	char a[32];
	fprintf(f,
		"  ranks started within %.1f ms and ended within %.1f ms of each other, over "
		"%.3f s\n",
		k->start_spread_s * 1e3, k->end_spread_s * 1e3, k->span_s);
	fprintf(f, "  median rank %s; slowest rank %d %+.1f%%, fastest rank %d %+.1f%%\n",
		rep_fmt_rate(k->median_bw, a, sizeof(a)), k->slowest_rank,
		100 * k->slowest_vs_median, k->fastest_rank, 100 * k->fastest_vs_median);
}

void rep_ranks_text(FILE *f, const struct sb_job_result *j)
{
	char a[32], b[32], c[32];
	if (!j->nclients)
		return;
	if (j->skew)
		skew_lines(f, j->skew);
	double s0 = j->clients[0].start_s; /* times from the earliest start */
	for (unsigned i = 0; i < j->nclients; i++)
		s0 = SB_MIN(s0, j->clients[i].start_s);
	fprintf(f, "  %4s  %-16s %12s %10s %10s %9s %9s %7s\n", "rank", "host", "bandwidth", "IOPS",
		"p99", "start", "end", "cpu");
	for (unsigned i = 0; i < j->nclients; i++) {
		const struct sb_client *cl = &j->clients[i];
		const struct sb_job_result *r = cl->job;
		double bw = 0, iops = 0;
		struct sb_hist h;
		sb_hist_init(&h);
		for (int dd = 0; dd < SB_DDIR_N; dd++) {
			bw += sb_dir_bw(r, dd);
			iops += sb_dir_iops(r, dd);
			sb_hist_merge(&h, &r->dir[dd].clat);
		}
		fprintf(f, "  %4d  %-16.16s %12s %10s %10s %7.1fms %7.1fms %6.1f%%\n", cl->rank,
			cl->host, rep_fmt_rate(bw, a, sizeof(a)), sb_fmt_count(iops, b, sizeof(b)),
			h.count ? sb_fmt_ns((double)sb_hist_percentile(&h, 99), c, sizeof(c)) : "-",
			(cl->start_s - s0) * 1e3, (cl->end_s - s0) * 1e3, r->usr_cpu + r->sys_cpu);
	}
}
