/*
 * fio's report entries (fio 3.33's stat.c, __show_run_stats and
 * sum_thread_stats): each of fio's jobs (a job's numjobs clones each one)
 * is an entry of its own, and with group_reporting the jobs of a stonewall
 * group that follow one another are one entry, named for the first. The
 * entries' bw and iops interval statistics are summed as fio sums them:
 * min, max, mean, the squares of the deviations and the samples of each
 * job added (so a group's samples are all its jobs' samples).
 */
#include "lib/results/results.h"

#include <math.h>

/* One of fio's jobs: a thread of job j, or j whole (one thread, a job of
 * many ranks, results read back) standing for members of them. */
struct td {
	size_t job;
	const struct sb_job_result *src;
	unsigned members;
};

static int grow(struct sb_fio_report *rep)
{
	const size_t n = rep->njobs + 1;
	void *j = realloc(rep->jobs, n * sizeof(*rep->jobs));
	if (j)
		rep->jobs = j;
	void *o = realloc(rep->owned, n);
	if (o)
		rep->owned = o;
	void *g = realloc(rep->group, n * sizeof(*rep->group));
	if (g)
		rep->group = g;
	return j && o && g ? 0 : -ENOMEM;
}

/* A new entry of job j's kind, in group g. */
static struct sb_job_result *entry_new(const struct sb_job_result *j, unsigned g)
{
	struct sb_job_result *e = sb_job_result_create();
	if (!e)
		return NULL;
	memcpy(e->name, j->name, sizeof(e->name));
	e->opts = j->opts;
	memcpy(e->engine, j->engine, sizeof(e->engine));
	e->start_unix_ns = j->start_unix_ns;
	e->interrupted = j->interrupted;
	e->stonewalled = j->stonewalled;
	e->iou_workers = j->iou_workers;
	e->settle_ns = j->settle_ns;
	e->series.interval_ns = j->series.interval_ns;
	e->groupid = g;
	e->have_rates = 1;
	e->ss = sb_fio_ss_dup(j->ss);
	if ((j->ss && !e->ss) || sb_job_result_set_fio_opts(e, &j->fio_opts) < 0) {
		sb_job_result_free(e);
		return NULL;
	}
	return e;
}

/* fio's sum_stat with pure_sum: each figure of the job's added; dev holds
 * the sum of the squares of the deviations until entry_end */
static void rate_add(struct sb_rate_stats *dst, const struct sb_rate_stats *src)
{
	if (!src->samples)
		return;
	const int first = !dst->samples;
	dst->min = first ? src->min : dst->min + src->min;
	dst->max = first ? src->max : dst->max + src->max;
	dst->mean += src->mean;
	dst->dev += src->dev * src->dev * (double)(src->samples - 1);
	dst->samples += src->samples;
}

/* Thread t (of the ts tds of its stonewall group) into entry e. The job's
 * CPU time and counters are the process's over its run: each of the
 * group's threads is given its share, as fio's per-thread ones add up. */
static int entry_add(struct sb_job_result *e, const struct sb_job_result *job, const struct td *t,
		     unsigned ts, int disk)
{
	if (sb_job_result_add(e, t->src) < 0)
		return -ENOMEM;
	for (int d = 0; d < SB_DDIR_N; d++) {
		/* the thread's samples as fio took them; a job read back from
		 * a file, or many ranks' whole, by its series' intervals */
		struct sb_rate_stats b = t->src->bw_sample[d], io = t->src->iops_sample[d];
		if (!t->src->have_samples) {
			sb_series_rate_stats(&t->src->series, d, 0, &b);
			sb_series_rate_stats(&t->src->series, d, 1, &io);
		}
		rate_add(&e->bw_stat[d], &b);
		rate_add(&e->iops_stat[d], &io);
	}
	const double share = (double)t->members / (double)(ts ? ts : 1);
	e->usr_cpu += job->usr_cpu * share; /* a mean over members at the end */
	e->sys_cpu += job->sys_cpu * share;
	e->cpu_ns += (uint64_t)llround((double)job->cpu_ns * share);
	e->ctx += (uint64_t)llround((double)job->ctx * share);
	e->majf += (uint64_t)llround((double)job->majf * share);
	e->minf += (uint64_t)llround((double)job->minf * share);
	e->members += t->members;
	/* the verify reads: each clone's own, or the job's (its first) */
	const struct sb_job_result *vs = t->src != job && t->src->verify_bytes ? t->src
					 : disk				       ? job
									       : NULL;
	if (vs && vs->verify_bytes) {
		/* fio reads back what it wrote, request by request, as reads */
		const struct sb_dir_result *w = &vs->dir[SB_DDIR_WRITE];
		const uint64_t per = w->ios ? SB_MAX(w->bytes / w->ios, 1) : job->opts.bs;
		struct sb_dir_result *rd = &e->dir[SB_DDIR_READ];
		rd->bytes += vs->verify_bytes;
		/* each timed read one of fio's (clat and lat: a synchronous read) */
		rd->ios += vs->verify_lat.count ? vs->verify_lat.count
						: (vs->verify_bytes + per - 1) / SB_MAX(per, 1);
		sb_hist_merge(&rd->clat, &vs->verify_lat);
		sb_hist_merge(&rd->lat, &vs->verify_lat);
		/* and its time to the reads' runtime (fio's update_runtime) */
		const uint64_t rt = vs->dir[SB_DDIR_READ].bytes
					    ? sb_dir_runtime_ns(vs, SB_DDIR_READ)
					    : 0;
		e->dir_runtime_ns[SB_DDIR_READ] = SB_MAX(e->dir_runtime_ns[SB_DDIR_READ],
							 rt + vs->verify_ns);
	}
	if (disk && job->have_diskstat) { /* a job's disk counters once: their change */
		uint64_t *a = (uint64_t *)&e->ds_after;
		const uint64_t *x = (const uint64_t *)&job->ds_before;
		const uint64_t *y = (const uint64_t *)&job->ds_after;
		for (size_t k = 0; k < sizeof(e->ds_after) / sizeof(uint64_t); k++)
			a[k] += y[k] - x[k];
		e->ds_elapsed_ns += job->ds_elapsed_ns;
		e->have_diskstat = 1;
	}
	return 0;
}

/* Only end_fsync's fsync: fio's sync_stat does not count it */
static int end_fsync_only(const struct sb_job_opts *o)
{
	return o->end_fsync && !o->fsync_every && !o->fdatasync_every;
}

/* The last entry done: its CPU a mean per thread, its rates' deviations;
 * no syncs when its jobs' only ones were end_fsync's (no_sync). */
static void entry_end(struct sb_job_result *e, int no_sync)
{
	if (no_sync) {
		sb_hist_init(&e->sync_lat);
		e->datasyncs = 0;
	}
	if (e->members) {
		e->usr_cpu /= (double)e->members;
		e->sys_cpu /= (double)e->members;
	}
	for (int d = 0; d < SB_DDIR_N; d++) {
		struct sb_rate_stats *s[2] = { &e->bw_stat[d], &e->iops_stat[d] };
		for (int k = 0; k < 2; k++)
			s[k]->dev = s[k]->samples > 1
					    ? sqrt(s[k]->dev / (double)(s[k]->samples - 1))
					    : 0;
	}
}

/* fio's jobs of r, in fio's order (a job's clones right after it). */
static int tds_of(const struct sb_results *r, struct td **out, size_t *n)
{
	size_t cap = 0, k = 0;
	for (size_t i = 0; i < r->njobs; i++)
		cap += r->jobs[i]->nthreads && !r->jobs[i]->nclients ? r->jobs[i]->nthreads : 1;
	struct td *t = calloc(cap + 1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < r->njobs; i++) {
		const struct sb_job_result *j = r->jobs[i];
		/* many ranks: the All clients job whole (its ranks inside) */
		const unsigned nt = j->nclients ? 0 : j->nthreads;
		for (unsigned c = 0; c < nt; c++)
			t[k++] = (struct td){ i, j->threads[c], 1 };
		if (!nt)
			t[k++] = (struct td){ i, j, j->opts.numjobs ? j->opts.numjobs : 1 };
	}
	*out = t;
	*n = k;
	return 0;
}

int sb_fio_report_make(const struct sb_results *r, const unsigned *group, struct sb_fio_report *rep)
{
	struct td *t = NULL;
	size_t nt = 0;
	memset(rep, 0, sizeof(*rep));
	if (tds_of(r, &t, &nt) < 0)
		return -ENOMEM;
	unsigned *ts = calloc(r->njobs + 1, sizeof(*ts)); /* threads of each job's group */
	int e = ts ? 0 : -ENOMEM;
	for (size_t i = 0; !e && i < r->njobs; i++)
		for (size_t k = 0; k < nt; k++)
			if (group[t[k].job] == group[i])
				ts[i] += t[k].members;
	struct sb_job_result *cur = NULL;
	int last_g = -1, no_sync = 1;
	size_t last_job = SIZE_MAX;
	for (size_t k = 0; !e && k < nt; k++) {
		const struct sb_job_result *j = r->jobs[t[k].job];
		const unsigned g = group[t[k].job];
		if (j->nclients) { /* many ranks: the job whole, its ranks inside */
			if (cur)
				entry_end(cur, no_sync);
			cur = NULL;
			last_g = -1;
			if (!(e = grow(rep))) {
				rep->jobs[rep->njobs] = (struct sb_job_result *)j;
				rep->owned[rep->njobs] = 0;
				rep->group[rep->njobs++] = g;
			}
			continue;
		}
		/* fio: a new entry unless this job reports with its group and
		 * the one before was of the same group */
		if (!cur || !j->opts.group_reporting || last_g != (int)g) {
			if (cur)
				entry_end(cur, no_sync);
			no_sync = 1;
			if ((e = grow(rep)) < 0)
				break;
			if (!(cur = entry_new(j, g))) {
				e = -ENOMEM;
				break;
			}
			rep->jobs[rep->njobs] = cur;
			rep->owned[rep->njobs] = 1;
			rep->group[rep->njobs++] = g;
		}
		last_g = (int)g;
		no_sync &= end_fsync_only(&j->opts);
		e = entry_add(cur, j, &t[k], ts[t[k].job], last_job != t[k].job);
		last_job = t[k].job;
	}
	if (cur && !e)
		entry_end(cur, no_sync);
	free(ts);
	free(t);
	if (e)
		sb_fio_report_free(rep);
	return e;
}

void sb_fio_report_free(struct sb_fio_report *rep)
{
	for (size_t i = 0; i < rep->njobs; i++)
		if (rep->owned[i])
			sb_job_result_free(rep->jobs[i]);
	free(rep->jobs);
	free(rep->owned);
	free(rep->group);
	memset(rep, 0, sizeof(*rep));
}

uint64_t sb_fio_group_agg(struct sb_job_result *const *jobs, size_t n, const unsigned *group,
			  unsigned g, int d)
{
	uint64_t io = 0, max_run = 0;
	for (size_t k = 0; k < n; k++)
		if ((group ? group[k] : jobs[k]->groupid) == g && jobs[k]->dir[d].bytes) {
			const uint64_t ms = (sb_dir_runtime_ns(jobs[k], d) + 500000) / 1000000;
			io += jobs[k]->dir[d].bytes;
			max_run = SB_MAX(max_run, ms ? ms : 1);
		}
	return max_run ? io * 1000 / max_run : 0;
}

void sb_fio_submit_dist(const struct sb_job_result *j, int complete, double *pct)
{
	const uint64_t *map = complete ? j->complete_map : j->submit_map;
	uint64_t n = 0, ios = 0;
	for (unsigned k = 0; k < SB_DEPTH_LEVELS; k++)
		n += map[k];
	for (unsigned k = 0; k < SB_DEPTH_LEVELS; k++)
		ios += j->depth_map[k];
	for (unsigned k = 0; k < SB_DEPTH_LEVELS; k++)
		pct[k] = n ? 100.0 * (double)map[k] / (double)n : 0;
	/* not counted: one request in flight at a time is one per submission
	 * and one per reap, fio's "4" (1 to 4) */
	if (!n && ios && j->depth_map[0] == ios)
		pct[1] = 100.0;
}

const char *sb_fio_rawopt(const struct sb_results *r, const struct sb_job_result *j,
			  const char *key)
{
	const struct sb_fio_rawopts *o[2] = { &j->fio_opts, &r->fio_global };
	for (int i = 0; i < 2; i++) {
		size_t pos = 0;
		const char *k, *v;
		while (sb_fio_rawopts_next(o[i], &pos, &k, &v))
			if (!strcmp(k, key))
				return v;
	}
	return NULL;
}
