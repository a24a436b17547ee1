/* Summaries of repeated runs: median and min..max per direction. */
#include "lib/analysis/repeats.h"

#define REPEATS_MAX 1000

/* Median of n values, sorted in place (so v[0] and v[n - 1] are the min
 * and the max after): the middle one, or the mean of the middle two. */
static double median_sort(double *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned k = i; k > 0 && v[k - 1] > v[k]; k--) {
			double t = v[k];
			v[k] = v[k - 1];
			v[k - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int sb_repeats_summarize(struct sb_results *r, size_t first, unsigned n, const char *test)
{
	double bw[REPEATS_MAX], iops[REPEATS_MAX], lat[REPEATS_MAX], p99[REPEATS_MAX];
	int err = 0;
	if (n > REPEATS_MAX)
		n = REPEATS_MAX;
	for (int d = 0; d < SB_DDIR_N; d++) {
		struct sb_summary_row row;
		memset(&row, 0, sizeof(row));
		unsigned k = 0;
		for (unsigned i = 0; i < n; i++) {
			const struct sb_job_result *j = r->jobs[first + i];
			if (!j->dir[d].ios)
				continue;
			bw[k] = sb_dir_bw(j, d);
			iops[k] = sb_dir_iops(j, d);
			lat[k] = sb_hist_mean(&j->dir[d].lat);
			p99[k] = (double)sb_hist_percentile(&j->dir[d].lat, 99);
			k++;
		}
		if (!k)
			continue;
		snprintf(row.test, sizeof(row.test), "%s", test);
		row.ddir = d;
		row.nruns = k;
		row.bw_median = median_sort(bw, k);
		row.bw_min = bw[0];
		row.bw_max = bw[k - 1];
		row.iops_median = median_sort(iops, k);
		row.iops_min = iops[0];
		row.iops_max = iops[k - 1];
		row.lat_mean_median_ns = median_sort(lat, k);
		row.lat_p99_median_ns = (uint64_t)median_sort(p99, k);
		if (sb_results_add_summary(r, &row) < 0)
			err = -ENOMEM;
	}
	return err;
}
