/*
 * A multi-host run's "All clients" figures from its ranks' (METHODS.md
 * section 8): IOR's model, without its weaknesses. Bytes and requests are
 * summed, the time is from the earliest start to the latest end on one
 * clock (each rank's stamps corrected by its measured offset against rank
 * 0, not mixed raw across hosts), and latency comes from the ranks'
 * histograms merged bucket by bucket, not from an average of their
 * percentiles.
 */
#include "lib/results/results.h"

static int by_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double rank_bw(const struct sb_job_result *j)
{
	double bw = 0;
	for (int d = 0; d < SB_DDIR_N; d++)
		bw += sb_dir_bw(j, d);
	return bw;
}

/* The ranks' skew into k; returns the earliest start (the whole's). */
static double skew_of(struct sb_skew *k, const struct sb_client *c, unsigned n, double *bw)
{
	double s0 = c[0].start_s, s1 = c[0].start_s, e0 = c[0].end_s, e1 = c[0].end_s;
	for (unsigned i = 0; i < n; i++) {
		s0 = SB_MIN(s0, c[i].start_s);
		s1 = SB_MAX(s1, c[i].start_s);
		e0 = SB_MIN(e0, c[i].end_s);
		e1 = SB_MAX(e1, c[i].end_s);
		bw[i] = rank_bw(c[i].job);
	}
	k->start_spread_s = s1 - s0;
	k->end_spread_s = e1 - e0;
	k->span_s = e1 - s0;
	k->slowest_rank = k->fastest_rank = c[0].rank;
	double lo = bw[0], hi = bw[0];
	for (unsigned i = 1; i < n; i++) {
		if (bw[i] < lo)
			lo = bw[i], k->slowest_rank = c[i].rank;
		if (bw[i] > hi)
			hi = bw[i], k->fastest_rank = c[i].rank;
	}
	qsort(bw, n, sizeof(*bw), by_double);
	k->median_bw = n % 2 ? bw[n / 2] : (bw[n / 2 - 1] + bw[n / 2]) / 2;
	k->slowest_vs_median = k->median_bw > 0 ? lo / k->median_bw - 1 : 0;
	k->fastest_vs_median = k->median_bw > 0 ? hi / k->median_bw - 1 : 0;
	return s0;
}

static void add_job(struct sb_job_result *j, const struct sb_job_result *r)
{
	for (int d = 0; d < SB_DDIR_N; d++) {
		j->dir[d].bytes += r->dir[d].bytes;
		j->dir[d].ios += r->dir[d].ios;
		sb_hist_merge(&j->dir[d].clat, &r->dir[d].clat);
		sb_hist_merge(&j->dir[d].lat, &r->dir[d].lat);
	}
	sb_hist_merge(&j->sync_lat, &r->sync_lat);
	j->datasyncs += r->datasyncs;
	j->cache_checked += r->cache_checked;
	j->cache_resident += r->cache_resident;
	if (!j->first_error.err && r->first_error.err)
		j->first_error = r->first_error;
	j->errors += r->errors;
	j->usr_cpu += r->usr_cpu; /* percent of one CPU, all ranks' */
	j->sys_cpu += r->sys_cpu;
	j->cpu_ns += r->cpu_ns;
	j->busiest_worker = SB_MAX(j->busiest_worker, r->busiest_worker);
	j->iou_workers += r->iou_workers;
	j->settle_ns = SB_MAX(j->settle_ns, r->settle_ns);
	j->waits += r->waits;
	j->waited += r->waited;
	j->batched += r->batched;
	for (unsigned k = 0; k < SB_DEPTH_LEVELS; k++)
		j->depth_map[k] += r->depth_map[k];
	j->ctx += r->ctx;
	j->majf += r->majf;
	j->minf += r->minf;
	j->interrupted |= r->interrupted;
	j->stonewalled |= r->stonewalled;
	if (!j->start_unix_ns || (r->start_unix_ns && r->start_unix_ns < j->start_unix_ns))
		j->start_unix_ns = r->start_unix_ns;
}

/* Each direction's time on the one clock, as the whole's: from the
 * earliest start s0 (skew_of's) to the latest end of that direction's
 * work (a rank whose direction ran as long as the rank did ends at its
 * end stamp). */
static void dir_spans(struct sb_job_result *j, const struct sb_client *c, unsigned n, double s0)
{
	for (int d = 0; d < SB_DDIR_N; d++) {
		double end = s0; /* stays there when no rank moved bytes this way */
		for (unsigned i = 0; i < n; i++) {
			const struct sb_job_result *r = c[i].job;
			if (!r->dir[d].bytes)
				continue;
			const uint64_t dr = r->dir_runtime_ns[d];
			end = SB_MAX(end, !dr || dr >= r->runtime_ns ? c[i].end_s
								   : c[i].start_s + (double)dr / 1e9);
		}
		j->dir_runtime_ns[d] = end > s0 ? (uint64_t)((end - s0) * 1e9 + 0.5) : 0;
	}
}

int sb_job_aggregate(struct sb_job_result *j, struct sb_client *c, unsigned n)
{
	double *bw = calloc(n ? n : 1, sizeof(*bw));
	struct sb_skew *k = calloc(1, sizeof(*k));
	if (!bw || !k || !n) {
		free(bw);
		free(k);
		return n ? -ENOMEM : -EINVAL;
	}
	for (int d = 0; d < SB_DDIR_N; d++) {
		memset(&j->dir[d], 0, sizeof(j->dir[d]));
		sb_hist_init(&j->dir[d].clat);
		sb_hist_init(&j->dir[d].lat);
	}
	sb_hist_init(&j->sync_lat);
	memset(&j->first_error, 0, sizeof(j->first_error));
	memset(j->depth_map, 0, sizeof(j->depth_map));
	j->ctx = j->majf = j->minf = 0;
	j->errors = j->cpu_ns = j->waits = j->waited = j->batched = j->settle_ns = 0;
	j->usr_cpu = j->sys_cpu = j->busiest_worker = 0;
	j->iou_workers = j->interrupted = j->stonewalled = 0;
	j->start_unix_ns = 0;
	j->have_diskstat = 0; /* each host's disk is its rank's */
	sb_series_free(&j->series);
	for (unsigned i = 0; i < n; i++)
		add_job(j, c[i].job);
	const double s0 = skew_of(k, c, n, bw);
	j->runtime_ns = k->span_s > 0 ? (uint64_t)(k->span_s * 1e9 + 0.5) : 0;
	dir_spans(j, c, n, s0);
	free(bw);
	free(j->skew);
	j->skew = k;
	j->clients = c;
	j->nclients = n;
	return 0;
}

void sb_results_skew_warn(struct sb_results *r, const struct sb_job_result *j)
{
	const struct sb_skew *k = j->skew;
	if (!k || k->span_s <= 0)
		return;
	if (k->start_spread_s > SB_SKEW_WARN * k->span_s)
		sb_results_warn(r,
				"'%s': the ranks started %.3f s apart, %.0f%% of the %.3f s they "
				"took together: their phases did not overlap well",
				j->name, k->start_spread_s, 100 * k->start_spread_s / k->span_s,
				k->span_s);
	if (k->end_spread_s > SB_SKEW_WARN * k->span_s)
		sb_results_warn(r,
				"'%s': the ranks ended %.3f s apart, %.0f%% of the %.3f s they took "
				"together: the aggregate bandwidth counts the slowest rank's tail "
				"(--stonewall ends all with the first)",
				j->name, k->end_spread_s, 100 * k->end_spread_s / k->span_s,
				k->span_s);
	if (k->slowest_vs_median < -SB_SKEW_WARN)
		sb_results_warn(r, "'%s': rank %d was %.0f%% slower than the median rank", j->name,
				k->slowest_rank, -100 * k->slowest_vs_median);
	if (k->fastest_vs_median > SB_SKEW_WARN)
		sb_results_warn(r, "'%s': rank %d was %.0f%% faster than the median rank", j->name,
				k->fastest_rank, 100 * k->fastest_vs_median);
}
