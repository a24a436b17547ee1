/*
 * Results as fio's terse lines (--minimal, --output-format=terse), as fio
 * 3.33's stat.c writes them (show_thread_status_terse_all,
 * show_ddir_status_terse, print_disk_util with terse set): one line of ';'
 * separated fields per job, versions 2 to 5, so that a script that cuts
 * fields out of fio's line cuts the same figures out of ours. A figure
 * storbench does not have is written as fio writes an absent one (0);
 * docs/fio-cli.md lists them.
 */
#include "report/fio_text.h"

#include <math.h>

/* The fio release whose layout this follows (as the JSON's "fio version",
 * lib/results/results_json.c), named with storbench's own version */
#define FIO_LAYOUT "fio-3.33"

/* fio's FIO_IO_U_LIST_MAX_LEN: the percentile fields of a direction */
#define TERSE_PCT_FIELDS 20

/* "min;max;mean;dev" in us of a histogram in ns, fio's calc_lat: zeros
 * when it holds no sample */
static void lat4(FILE *f, const struct sb_hist *h)
{
	if (!h->count) {
		fprintf(f, ";%llu;%llu;%f;%f", 0ULL, 0ULL, 0.0, 0.0);
		return;
	}
	fprintf(f, ";%llu;%llu;%f;%f", (unsigned long long)(h->min / 1000),
		(unsigned long long)(h->max / 1000), sb_hist_mean(h) / 1000,
		sb_hist_stddev(h) / 1000);
}

/* fio's show_ddir_status_terse; agg: the group's bytes/s in d */
static void ddir(FILE *f, const struct sb_job_result *j, int d, uint64_t agg, int ver)
{
	const struct sb_dir_result *dr = &j->dir[d];
	/* fio's runtime[d]: ms, 0 when the direction did nothing (as the JSON) */
	const uint64_t runt = dr->ios ? (sb_dir_runtime_ns(j, d) + 500000) / 1000000 : 0;
	uint64_t bw = 0, iops = 0;
	if (runt) {
		bw = 1000 * dr->bytes / runt / 1024;
		iops = 1000 * dr->ios / runt;
	}
	fprintf(f, ";%llu;%llu;%llu;%llu", (unsigned long long)(dr->bytes >> 10),
		(unsigned long long)bw, (unsigned long long)iops, (unsigned long long)runt);
	lat4(f, &dr->slat);
	lat4(f, &dr->clat);
	/* fio's clat percentiles (its default list), in us */
	for (unsigned i = 0; i < TERSE_PCT_FIELDS; i++) {
		if (i >= sb_npercentiles) {
			fprintf(f, ";0%%=0");
			continue;
		}
		const uint64_t v = dr->clat.count ? sb_hist_percentile(&dr->clat, sb_percentiles[i])
						  : 0;
		fprintf(f, ";%f%%=%llu", sb_percentiles[i], (unsigned long long)(v / 1000));
	}
	lat4(f, &dr->lat);

	/* bandwidth over the log intervals in KiB/s, as the JSON's bw_* */
	struct sb_rate_stats b, io;
	sb_job_rate_stats(j, d, 0, &b);
	sb_job_rate_stats(j, d, 1, &io);
	if (b.samples) {
		double mean = b.mean / 1024, p_of_agg = 100.0;
		if (agg / 1024) {
			p_of_agg = mean * 100 / (double)(agg / 1024);
			if (p_of_agg > 100.0)
				p_of_agg = 100.0;
		}
		fprintf(f, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)llround(b.min / 1024),
			(unsigned long long)llround(b.max / 1024), p_of_agg, mean, b.dev / 1024);
	} else {
		fprintf(f, ";%llu;%llu;%f%%;%f;%f", 0ULL, 0ULL, 0.0, 0.0, 0.0);
	}
	if (ver != 5)
		return;
	fprintf(f, ";%llu", (unsigned long long)b.samples);
	if (io.samples)
		fprintf(f, ";%llu;%llu;%f;%f;%llu", (unsigned long long)llround(io.min),
			(unsigned long long)llround(io.max), io.mean, io.dev,
			(unsigned long long)io.samples);
	else
		fprintf(f, ";%llu;%llu;%f;%f;%lu", 0ULL, 0ULL, 0.0, 0.0, 0UL);
}

/* fio's CPU, IO depth and latency distribution fields */
static void dists(FILE *f, const struct sb_job_result *j)
{
	fprintf(f, ";%f%%;%f%%;%llu;%llu;%llu", j->usr_cpu, j->sys_cpu, (unsigned long long)j->ctx,
		(unsigned long long)j->majf, (unsigned long long)j->minf);
	uint64_t n = 0;
	for (unsigned k = 0; k < SB_DEPTH_LEVELS; k++)
		n += j->depth_map[k];
	for (unsigned k = 0; k < SB_DEPTH_LEVELS; k++)
		fprintf(f, ";%3.1f%%", n ? 100.0 * (double)j->depth_map[k] / (double)n : 0.0);
	struct sb_lat_shares sh;
	sb_job_lat_shares(j, &sh);
	/* fio keeps the terse layout of before its nsec buckets: they are
	 * added to the first usec one */
	sh.us[0] += sh.ns_total;
	for (unsigned k = 0; k < 10; k++)
		fprintf(f, ";%3.2f%%", sh.us[k]);
	for (unsigned k = 0; k < 12; k++)
		fprintf(f, ";%3.2f%%", sh.ms[k]);
}

static void disk(FILE *f, const struct sb_results *r)
{
	struct sb_diskstat s;
	double util;
	if (!rep_fio_disk_sum(r, &s, &util))
		return;
	fprintf(f, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%", r->target.devname,
		(unsigned long long)s.ios[0], (unsigned long long)s.ios[1],
		(unsigned long long)s.merges[0], (unsigned long long)s.merges[1],
		(unsigned long long)s.ticks[0], (unsigned long long)s.ticks[1],
		(unsigned long long)s.in_queue, util);
}

/* in: the report entries; orig: the jobs as run (the disk's counters) */
static void line(FILE *f, const struct rep_fio_in *in, const struct rep_fio_in *orig, size_t i,
		 int ver)
{
	const struct sb_job_result *j = in->res->jobs[i];
	const unsigned g = in->group[i];
	if (ver == 2)
		fprintf(f, "2;%s;%u;%d", j->name, g, j->first_error.err);
	else
		fprintf(f, "%d;" FIO_LAYOUT " (storbench %s);%s;%u;%d", ver, sb_version(), j->name,
			g, j->first_error.err);
	ddir(f, j, SB_DDIR_READ, rep_fio_group_agg(in, g, SB_DDIR_READ), ver);
	ddir(f, j, SB_DDIR_WRITE, rep_fio_group_agg(in, g, SB_DDIR_WRITE), ver);
	if (ver != 3)
		ddir(f, j, SB_DDIR_TRIM, rep_fio_group_agg(in, g, SB_DDIR_TRIM), ver);
	dists(f, j);
	if (ver >= 3)
		disk(f, orig->res);
	if (j->opts.continue_on_error != SB_CONTINUE_NONE)
		fprintf(f, ";%llu;%d", (unsigned long long)j->errors, j->first_error.err);
	const char *desc = sb_fio_rawopt(in->res, j, "description");
	if (desc && *desc) /* fio's: on a line of its own in version 2 */
		fprintf(f, "%s;%s", ver == 2 ? "\n" : "", desc);
	fprintf(f, "\n");
}

int rep_fio_terse_write(FILE *f, const struct rep_fio_in *orig, int version)
{
	struct rep_fio_view v;
	if (rep_fio_view_make(orig, &v) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < v.in.res->njobs; i++)
		line(f, &v.in, orig, i, version);
	rep_fio_view_free(&v);
	return ferror(f) ? -EIO : 0;
}
