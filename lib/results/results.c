/* The results model: allocation and derived figures. */
#include "lib/results/results.h"

struct sb_results *sb_results_create(const char *command)
{
	struct sb_results *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	snprintf(r->command, sizeof(r->command), "%s", command);
	r->started = time(NULL);
	return r;
}

struct sb_job_result *sb_job_result_create(void)
{
	struct sb_job_result *j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	for (int d = 0; d < SB_DDIR_N; d++) {
		sb_hist_init(&j->dir[d].clat);
		sb_hist_init(&j->dir[d].lat);
		sb_hist_init(&j->dir[d].slat);
	}
	sb_hist_init(&j->sync_lat);
	sb_hist_init(&j->verify_lat);
	sb_series_init(&j->series, 1000000000ull);
	return j;
}

struct sb_fio_ss *sb_fio_ss_new(unsigned n)
{
	struct sb_fio_ss *s = calloc(1, sizeof(*s) + 2 * (size_t)n * sizeof(uint64_t));
	if (!s)
		return NULL;
	s->n = n;
	s->iops = (uint64_t *)(s + 1);
	s->bw = s->iops + n;
	return s;
}

struct sb_fio_ss *sb_fio_ss_dup(const struct sb_fio_ss *s)
{
	if (!s)
		return NULL;
	struct sb_fio_ss *d = sb_fio_ss_new(s->n);
	if (!d)
		return NULL;
	uint64_t *iops = d->iops, *bw = d->bw;
	*d = *s;
	d->iops = iops;
	d->bw = bw;
	memcpy(iops, s->iops, s->n * sizeof(*iops));
	memcpy(bw, s->bw, s->n * sizeof(*bw));
	return d;
}

uint64_t sb_fio_ss_mean(const struct sb_fio_ss *s, int iops)
{
	uint64_t sum = 0;
	for (unsigned i = 0; s && i < s->n; i++)
		sum += iops ? s->iops[i] : s->bw[i];
	return s && s->n ? sum / s->n : 0;
}

void sb_job_result_free(struct sb_job_result *j)
{
	if (!j)
		return;
	sb_series_free(&j->series);
	for (unsigned i = 0; i < j->nclients; i++)
		sb_job_result_free(j->clients[i].job);
	free(j->clients);
	free(j->skew);
	free(j->fio_opts.kv);
	free(j->ss);
	for (unsigned i = 0; i < j->nthreads; i++)
		sb_job_result_free(j->threads[i]);
	free(j->threads);
	free(j);
}

void sb_job_result_add_counts(struct sb_job_result *dst, const struct sb_job_result *src)
{
	for (int d = 0; d < SB_DDIR_N; d++) {
		dst->dir[d].bytes += src->dir[d].bytes;
		dst->dir[d].ios += src->dir[d].ios;
		sb_hist_merge(&dst->dir[d].clat, &src->dir[d].clat);
		sb_hist_merge(&dst->dir[d].lat, &src->dir[d].lat);
		sb_hist_merge(&dst->dir[d].slat, &src->dir[d].slat);
	}
	sb_hist_merge(&dst->sync_lat, &src->sync_lat);
	dst->datasyncs += src->datasyncs;
	dst->latency_depth = SB_MAX(dst->latency_depth, src->latency_depth);
	dst->cache_checked += src->cache_checked;
	dst->cache_resident += src->cache_resident;
	dst->errors += src->errors;
	if (!dst->first_error.err && src->first_error.err)
		dst->first_error = src->first_error;
	dst->runtime_ns = SB_MAX(dst->runtime_ns, src->runtime_ns);
	for (int d = 0; d < SB_DDIR_N; d++) /* fio's sum_thread_stats: the longest */
		dst->dir_runtime_ns[d] = SB_MAX(dst->dir_runtime_ns[d], src->dir_runtime_ns[d]);
	dst->busiest_worker = SB_MAX(dst->busiest_worker, src->busiest_worker);
	dst->waits += src->waits;
	dst->waited += src->waited;
	dst->batched += src->batched;
	for (unsigned k = 0; k < SB_DEPTH_LEVELS; k++) {
		dst->depth_map[k] += src->depth_map[k];
		dst->submit_map[k] += src->submit_map[k];
		dst->complete_map[k] += src->complete_map[k];
	}
}

int sb_job_result_add(struct sb_job_result *dst, const struct sb_job_result *src)
{
	sb_job_result_add_counts(dst, src);
	return sb_series_merge(&dst->series, &src->series);
}

void sb_job_rate_stats(const struct sb_job_result *j, int d, int iops, struct sb_rate_stats *out)
{
	if (j->have_rates)
		*out = iops ? j->iops_stat[d] : j->bw_stat[d];
	else
		sb_series_rate_stats(&j->series, d, iops, out);
}

void sb_results_free(struct sb_results *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->njobs; i++)
		sb_job_result_free(r->jobs[i]);
	for (size_t i = 0; i < r->nwarnings; i++) {
		free(r->warnings[i]);
		free(r->warn_runs[i].before);
		free(r->warn_runs[i].after);
		free(r->warn_runs[i].advice);
	}
	free(r->jobs);
	free(r->summary);
	free(r->warnings);
	free(r->warn_runs);
	free(r->fio_global.kv);
	free(r->rank_states);
	free(r);
}

/* Grow *v (of *n elements of size sz) by one; returns the new slot or NULL. */
static void *grow(void *v, size_t n, size_t sz)
{
	void **pv = v;
	void *nv = realloc(*pv, (n + 1) * sz);
	if (!nv)
		return NULL;
	*pv = nv;
	return (char *)nv + n * sz;
}

int sb_results_add_job(struct sb_results *r, struct sb_job_result *j)
{
	struct sb_job_result **slot = grow(&r->jobs, r->njobs, sizeof(*r->jobs));
	if (!slot)
		return -ENOMEM;
	*slot = j;
	r->njobs++;
	return 0;
}

int sb_results_add_summary(struct sb_results *r, const struct sb_summary_row *row)
{
	struct sb_summary_row *slot = grow(&r->summary, r->nsummary, sizeof(*r->summary));
	if (!slot)
		return -ENOMEM;
	*slot = *row;
	r->nsummary++;
	return 0;
}

uint64_t sb_dir_runtime_ns(const struct sb_job_result *j, int ddir)
{
	return j->dir_runtime_ns[ddir] ? j->dir_runtime_ns[ddir] : j->runtime_ns;
}

double sb_dir_bw(const struct sb_job_result *j, int ddir)
{
	const uint64_t ns = sb_dir_runtime_ns(j, ddir);
	return ns ? (double)j->dir[ddir].bytes * 1e9 / (double)ns : 0;
}

double sb_dir_iops(const struct sb_job_result *j, int ddir)
{
	const uint64_t ns = sb_dir_runtime_ns(j, ddir);
	return ns ? (double)j->dir[ddir].ios * 1e9 / (double)ns : 0;
}

static int rawopts_copy(struct sb_fio_rawopts *dst, const struct sb_fio_rawopts *src)
{
	char *kv = NULL;
	if (src->len && !(kv = malloc(src->len)))
		return -ENOMEM;
	if (src->len)
		memcpy(kv, src->kv, src->len);
	free(dst->kv);
	dst->kv = kv;
	dst->len = src->len;
	return 0;
}

int sb_results_set_fio_global(struct sb_results *r, const struct sb_fio_rawopts *o)
{
	r->fio_raw = 1;
	return rawopts_copy(&r->fio_global, o);
}

int sb_job_result_set_fio_opts(struct sb_job_result *j, const struct sb_fio_rawopts *o)
{
	return rawopts_copy(&j->fio_opts, o);
}
