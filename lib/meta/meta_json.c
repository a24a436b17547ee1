/* The "meta" section of the results (storbench meta): the run's
 * parameters, each test's figures and latency, bonnie++'s CSV line. */
#include "lib/meta/meta.h"
#include "lib/coord/coord.h"
#include "lib/json/json_write.h"
#include "lib/results/results.h"
#include "lib/target/cache.h"

static void lat_json(struct sb_json *j, const struct sb_hist *h)
{
	char k[32];
	sb_json_obj_open(j, "lat_ns");
	sb_json_u64(j, "min", h->count ? h->min : 0);
	sb_json_u64(j, "max", h->count ? h->max : 0);
	sb_json_double(j, "mean", sb_hist_mean(h));
	sb_json_double(j, "stddev", sb_hist_stddev(h));
	sb_json_u64(j, "N", h->count);
	sb_json_obj_open(j, "percentile");
	for (size_t i = 0; h->count && i < SB_META_NPCTS; i++) {
		snprintf(k, sizeof(k), "%f", sb_meta_pcts[i]);
		sb_json_u64(j, k, sb_hist_percentile(h, sb_meta_pcts[i]));
	}
	sb_json_obj_close(j);
	sb_json_obj_close(j);
}

static void test_json(struct sb_json *j, const struct sb_meta_result *r, enum sb_meta_test t)
{
	sb_json_obj_open(j, sb_meta_test_name(t));
	sb_json_bool(j, "ran", r->ran);
	sb_json_bool(j, "interrupted", r->interrupted);
	sb_json_bool(j, "stonewalled", r->stonewalled);
	sb_json_u64(j, "ops", r->ops);
	if (sb_meta_is_io(t) || t == SB_META_SEEKS)
		sb_json_u64(j, "bytes", r->bytes);
	sb_json_u64(j, "elapsed_ns", r->elapsed_ns);
	sb_json_u64(j, "cpu_ns", r->cpu_ns);
	sb_json_double(j, "cpu_percent", sb_meta_cpu_percent(r));
	sb_json_double(j, sb_meta_rate_key(t), sb_meta_rate(r, t));
	sb_json_bool(j, "too_short", r->ran && r->elapsed_ns < SB_META_MIN_TIME_NS);
	lat_json(j, &r->lat);
	sb_json_obj_close(j);
}

/* The earliest start of test t on any rank (rank 0's clock). */
static double first_start(const struct sb_meta_run *m, int t)
{
	double t0 = m->ranks[0].t[t].start_s;
	for (unsigned i = 0; i < m->nranks; i++)
		t0 = SB_MIN(t0, m->ranks[i].t[t].start_s);
	return t0;
}

/* Under mpirun: each rank's own figures (times from the earliest start of
 * the test on any rank, on rank 0's clock). */
static void rank_json(struct sb_json *j, const struct sb_meta_run *m, const struct sb_meta_rank *k)
{
	sb_json_obj_open(j, NULL);
	sb_json_i64(j, "rank", k->rank);
	sb_json_str(j, "hostname", k->host);
	sb_json_double(j, "clock_offset_s", k->clock_offset_s);
	sb_json_str(j, "run_directory", k->rundir);
	sb_json_bool(j, "run_directory_removed", !k->kept);
	sb_json_bool(j, "interrupted", k->interrupted);
	sb_json_obj_open(j, "tests");
	for (int t = 0; t < SB_META_NTESTS; t++) {
		const struct sb_meta_rank_test *r = &k->t[t];
		if (!r->ran || !m->res[t].ran)
			continue;
		const double t0 = first_start(m, t);
		sb_json_obj_open(j, sb_meta_test_name((enum sb_meta_test)t));
		sb_json_bool(j, "interrupted", r->interrupted);
		sb_json_bool(j, "stonewalled", r->stonewalled);
		sb_json_u64(j, "ops", r->ops);
		sb_json_u64(j, "bytes", r->bytes);
		sb_json_u64(j, "elapsed_ns", r->elapsed_ns);
		sb_json_u64(j, "cpu_ns", r->cpu_ns);
		sb_json_double(j, "start_s", r->start_s - t0);
		sb_json_double(j, "end_s", r->end_s - t0);
		sb_json_double(j, sb_meta_rate_key((enum sb_meta_test)t), r->rate);
		sb_json_obj_open(j, "lat_ns");
		sb_json_u64(j, "min", r->lat_min);
		sb_json_u64(j, "p50", r->lat_p50);
		sb_json_u64(j, "p99", r->lat_p99);
		sb_json_u64(j, "max", r->lat_max);
		sb_json_obj_close(j);
		sb_json_obj_close(j);
	}
	sb_json_obj_close(j);
	sb_json_obj_close(j);
}

static void ranks_json(struct sb_json *j, const struct sb_meta_run *m)
{
	double run0 = 0;
	int any = 0;
	for (int t = 0; t < SB_META_NTESTS; t++)
		if (m->res[t].ran && (!any || first_start(m, t) < run0))
			run0 = first_start(m, t), any = 1;
	sb_json_arr_open(j, "ranks");
	for (unsigned i = 0; i < m->nranks; i++)
		rank_json(j, m, &m->ranks[i]);
	sb_json_arr_close(j);
	sb_json_obj_open(j, "skew");
	for (int t = 0; t < SB_META_NTESTS; t++) {
		const struct sb_meta_skew *k = &m->skew[t];
		if (!m->res[t].ran)
			continue;
		sb_json_obj_open(j, sb_meta_test_name((enum sb_meta_test)t));
		sb_json_double(j, "first_start_s", first_start(m, t) - run0);
		sb_json_double(j, "start_spread_s", k->start_spread_s);
		sb_json_double(j, "end_spread_s", k->end_spread_s);
		sb_json_double(j, "span_s", k->span_s);
		sb_json_double(j, "median_rate", k->median_rate);
		sb_json_i64(j, "slowest_rank", m->ranks[k->slowest_rank].rank);
		sb_json_i64(j, "fastest_rank", m->ranks[k->fastest_rank].rank);
		sb_json_double(j, "slowest_vs_median", k->slowest_vs_median);
		sb_json_double(j, "fastest_vs_median", k->fastest_vs_median);
		sb_json_obj_close(j);
	}
	sb_json_obj_close(j);
}

static void params_json(struct sb_json *j, const struct sb_meta_run *m)
{
	sb_json_obj_open(j, "params");
	sb_json_u64(j, "size", m->io.size);
	sb_json_str(j, "size_rule",
		    m->size_rule == SB_META_SIZE_COLD	     ? "cold_cache"
		    : m->size_rule == SB_META_SIZE_TWICE_RAM ? "twice_ram"
							     : "given");
	sb_json_u64(j, "twice_ram", m->twice_ram);
	sb_json_u64(j, "char_size", m->io.char_size);
	sb_json_u64(j, "chunk", m->io.chunk);
	sb_json_u64(j, "seeks", m->io.seeks);
	sb_json_u64(j, "seekers", m->io.seekers);
	sb_json_bool(j, "direct", m->io.direct);
	sb_json_bool(j, "fsync", m->io.fsync);
	sb_json_str(j, "per_char", m->io.char_syscall ? "syscall" : "putc");
	sb_json_str(j, "data", m->io.bonnie_data ? "bonnie" : "random");
	sb_json_u64(j, "files", m->files.nfiles);
	sb_json_u64(j, "file_size_min", m->files.size_min);
	sb_json_u64(j, "file_size_max", m->files.size_max);
	sb_json_u64(j, "file_chunk", m->files.chunk);
	sb_json_u64(j, "dirs", m->files.ndirs);
	sb_json_u64(j, "threads", m->files.nthreads);
	sb_json_u64(j, "seed", m->seed);
	sb_json_obj_close(j);
}

static void extra_json(struct sb_json *j, const void *ctx)
{
	const struct sb_meta_run *m = ctx;
	char line[2048];
	sb_json_str(j, "run_directory", m->rundir);
	sb_json_bool(j, "run_directory_removed", !m->kept);
	sb_json_str(j, "cache", m->cache_method ? sb_cache_method_name(m->cache_method) : "warm");
	sb_json_bool(j, "interrupted", m->interrupted);
	if (m->nranks)
		sb_json_bool(j, "stonewall", m->stonewall);
	params_json(j, m);
	sb_json_obj_open(j, "tests");
	for (int t = 0; t < SB_META_NTESTS; t++)
		if (m->res[t].ran)
			test_json(j, &m->res[t], (enum sb_meta_test)t);
	sb_json_obj_close(j);
	sb_meta_run_csv(m, line, sizeof(line));
	line[strcspn(line, "\n")] = '\0';
	sb_json_str(j, "bonnie_csv", line);
	if (m->nranks)
		ranks_json(j, m);
}

/* The block test file was smaller than bonnie++'s twice the RAM, and a
 * reading test ran: was the page cache out of the way? Dropped whole
 * (drop_caches) before each reading test, the size does not matter. */
static int warn_small_file(struct sb_results *res, const struct sb_meta_run *m)
{
	char a[32], b[32];
	const uint64_t twice = sb_meta_twice_ram(res->host.mem_total);
	const int read = m->res[SB_META_REWRITE].ran || m->res[SB_META_GETC].ran ||
			 m->res[SB_META_READ].ran;
	if (!m->io.size || !res->host.mem_total || m->io.size >= twice || !read ||
	    m->cache_method == SB_CACHE_DROP_CACHES)
		return 0;
	return sb_results_warn(
		res,
		"the block test file (%s) is smaller than twice the RAM (%s), "
		"which bonnie++ requires where the page cache cannot be dropped; "
		"%s",
		sb_fmt_size(m->io.size, a, sizeof(a)), sb_fmt_size(twice, b, sizeof(b)),
		m->cache_method == SB_CACHE_FADVISE
			? "only the file's own pages were dropped before each reading "
			  "test (fadvise; dropping the whole cache needs root), which "
			  "not every filesystem honours"
			: "the page cache could not be dropped before the reading "
			  "tests: their figures may come from memory");
}

/* Under mpirun: a test whose ranks were apart past SB_SKEW_WARN (those
 * long enough to trust: a short test's spread is mostly its start). */
static void warn_skew(struct sb_results *res, const struct sb_meta_run *m)
{
	for (int t = 0; t < SB_META_NTESTS && m->nranks; t++) {
		const struct sb_meta_skew *k = &m->skew[t];
		const char *name = sb_meta_test_name((enum sb_meta_test)t);
		if (!m->res[t].ran || k->span_s * 1e9 < SB_META_MIN_TIME_NS)
			continue;
		if (k->start_spread_s > SB_SKEW_WARN * k->span_s)
			sb_results_warn(res,
					"%s: the ranks started %.3f s apart, %.0f%% of the %.3f s "
					"they took together",
					name, k->start_spread_s,
					100 * k->start_spread_s / k->span_s, k->span_s);
		if (k->end_spread_s > SB_SKEW_WARN * k->span_s)
			sb_results_warn(res,
					"%s: the ranks ended %.3f s apart, %.0f%% of the %.3f s "
					"they took together: the aggregate rate counts the "
					"slowest rank's tail",
					name, k->end_spread_s, 100 * k->end_spread_s / k->span_s,
					k->span_s);
		if (k->slowest_vs_median < -SB_SKEW_WARN)
			sb_results_warn(res,
					"%s: rank %d on %s was %.0f%% slower than the median rank",
					name, m->ranks[k->slowest_rank].rank,
					m->ranks[k->slowest_rank].host,
					-100 * k->slowest_vs_median);
		if (k->fastest_vs_median > SB_SKEW_WARN)
			sb_results_warn(res,
					"%s: rank %d on %s was %.0f%% faster than the median rank",
					name, m->ranks[k->fastest_rank].rank,
					m->ranks[k->fastest_rank].host, 100 * k->fastest_vs_median);
	}
}

int sb_results_meta(struct sb_results *res, const struct sb_meta_run *m)
{
	if (m->nranks) { /* many ranks: the All clients aggregate */
		res->nranks = m->nranks;
		res->stonewall = m->stonewall;
		snprintf(res->mpi_library, sizeof(res->mpi_library), "%s",
			 sb_coord_library() ? sb_coord_library() : "");
	}
	warn_skew(res, m);
	res->interrupted = m->interrupted;
	res->cache_dropped = m->cache_method;
	res->extra_key = sb_section_name(SB_SECTION_META);
	res->extra_json = extra_json;
	res->extra_ctx = m;
	return warn_small_file(res, m);
}
