/*
 * The results' "meta" section read back (meta.h, struct sb_meta_doc):
 * what meta_json.c writes, each value's type and range checked, and what
 * is wrong named by its key path. docs/latency-meta.md describes the keys.
 */
#include "lib/meta/meta.h"
#include "lib/json/json_take.h"
#include "lib/results/results_read.h"

#include <math.h>

#define FIGURE_MAX 1000000000000000000ull /* 1e18: bytes, ns, counts */
#define RATE_MAX 1e18
#define RANK_MAX 16777215

const double sb_meta_pcts[SB_META_NPCTS] = { 1, 5, 10, 50, 90, 95, 99, 99.9, 99.99 };

const char *sb_meta_rate_key(enum sb_meta_test t)
{
	return sb_meta_is_io(t) ? "bw_bytes" : t == SB_META_SEEKS ? "seeks_per_s" : "files_per_s";
}

int sb_meta_test_by_name(const char *name)
{
	for (int t = 0; t < SB_META_NTESTS; t++)
		if (!strcmp(name, sb_meta_test_name((enum sb_meta_test)t)))
			return t;
	return -EINVAL;
}

/* A member of o that is one of the options in words (choices[0] reads as
 * 0, [1] as 1, ...). */
static int word(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
		const char *const *choices, size_t n, const char *what, int *out)
{
	const char *v;
	const int rc = sb_jtake_str(t, o, key, flags, &v);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v, choices[i])) {
			*out = (int)i;
			return 0;
		}
	return sb_jtake_bad(t, key, what, sb_jv_get(o, key));
}

static int params(struct sb_jtake *t, const struct sb_jv *sec, struct sb_meta_run *m)
{
	static const char *const rules[] = { "given", "twice_ram", "cold_cache" };
	static const char *const per_char[] = { "putc", "syscall" };
	static const char *const data[] = { "random", "bonnie" };
	uint64_t chunk = 0, seeks = 0, seekers = 0, fchunk = 0, dirs = 0, threads = 0;
	int rule = 0;
	const struct sb_jv *p = sb_jtake_obj(t, sec, "params", 0);
	if (!p)
		return t->e;
	const size_t top = sb_jtake_down(t, "params");
	sb_jtake_u64(t, p, "size", 0, FIGURE_MAX, &m->io.size);
	word(t, p, "size_rule", SB_JTAKE_OPTIONAL, rules, 3, "given, twice_ram or cold_cache",
	     &rule);
	sb_jtake_u64(t, p, "twice_ram", SB_JTAKE_OPTIONAL, FIGURE_MAX, &m->twice_ram);
	sb_jtake_u64(t, p, "char_size", 0, FIGURE_MAX, &m->io.char_size);
	sb_jtake_u64(t, p, "chunk", 0, UINT32_MAX, &chunk);
	sb_jtake_u64(t, p, "seeks", 0, UINT32_MAX, &seeks);
	sb_jtake_u64(t, p, "seekers", 0, UINT32_MAX, &seekers);
	sb_jtake_bool(t, p, "direct", 0, &m->io.direct);
	sb_jtake_bool(t, p, "fsync", 0, &m->io.fsync);
	word(t, p, "per_char", 0, per_char, 2, "syscall or putc", &m->io.char_syscall);
	word(t, p, "data", 0, data, 2, "random or bonnie", &m->io.bonnie_data);
	sb_jtake_u64(t, p, "files", 0, FIGURE_MAX, &m->files.nfiles);
	sb_jtake_u64(t, p, "file_size_min", 0, FIGURE_MAX, &m->files.size_min);
	sb_jtake_u64(t, p, "file_size_max", 0, FIGURE_MAX, &m->files.size_max);
	sb_jtake_u64(t, p, "file_chunk", 0, UINT32_MAX, &fchunk);
	sb_jtake_u64(t, p, "dirs", 0, UINT32_MAX, &dirs);
	sb_jtake_u64(t, p, "threads", 0, UINT32_MAX, &threads);
	sb_jtake_u64(t, p, "seed", 0, UINT64_MAX, &m->seed);
	sb_jtake_up(t, top);
	m->size_rule = (enum sb_meta_size_rule)rule;
	m->io.chunk = (uint32_t)chunk;
	m->io.seeks = (unsigned)seeks;
	m->io.seekers = (unsigned)seekers;
	m->files.chunk = (uint32_t)fchunk;
	m->files.ndirs = (unsigned)dirs;
	m->files.nthreads = (unsigned)threads;
	m->io.seed = m->files.seed = m->seed;
	return t->e;
}

static int latency(struct sb_jtake *t, const struct sb_jv *x, struct sb_meta_doc_test *d)
{
	const struct sb_jv *l = sb_jtake_obj(t, x, "lat_ns", 0);
	if (!l)
		return t->e;
	const size_t top = sb_jtake_down(t, "lat_ns");
	sb_jtake_u64(t, l, "min", 0, FIGURE_MAX, &d->lat_min);
	sb_jtake_u64(t, l, "max", 0, FIGURE_MAX, &d->lat_max);
	sb_jtake_num(t, l, "mean", 0, 0, RATE_MAX, &d->lat_mean);
	sb_jtake_num(t, l, "stddev", 0, 0, RATE_MAX, &d->lat_stddev);
	sb_jtake_u64(t, l, "N", 0, FIGURE_MAX, &d->lat_n);
	sb_jtake_pcts(t, l, "percentile", sb_meta_pcts, SB_META_NPCTS, d->lat_pct);
	sb_jtake_up(t, top);
	return t->e;
}

/* One test of the aggregate (or the one process's). */
static int test(struct sb_jtake *t, const struct sb_jv *x, enum sb_meta_test tt,
		struct sb_meta_doc *d)
{
	struct sb_meta_result *r = &d->m.res[tt];
	struct sb_meta_doc_test *dt = &d->t[tt];
	d->tests |= 1u << tt;
	const int bytes = sb_meta_is_io(tt) || tt == SB_META_SEEKS;
	if (!sb_jv_is(x, SB_JV_OBJ))
		return sb_jtake_bad(t, NULL, "an object of a test's figures", x);
	sb_jtake_bool(t, x, "ran", 0, &r->ran);
	sb_jtake_bool(t, x, "interrupted", 0, &r->interrupted);
	sb_jtake_bool(t, x, "stonewalled", SB_JTAKE_OPTIONAL, &r->stonewalled);
	sb_jtake_u64(t, x, "ops", 0, FIGURE_MAX, &r->ops);
	sb_jtake_u64(t, x, "bytes", bytes ? 0 : SB_JTAKE_OPTIONAL, FIGURE_MAX, &r->bytes);
	sb_jtake_u64(t, x, "elapsed_ns", 0, FIGURE_MAX, &r->elapsed_ns);
	sb_jtake_u64(t, x, "cpu_ns", 0, FIGURE_MAX, &r->cpu_ns);
	sb_jtake_num(t, x, "cpu_percent", 0, 0, RATE_MAX, &dt->cpu_percent);
	sb_jtake_num(t, x, sb_meta_rate_key(tt), 0, 0, RATE_MAX, &dt->rate);
	sb_jtake_bool(t, x, "too_short", 0, &dt->too_short);
	return latency(t, x, dt);
}

/* An object of tests by name, each read by fn; a name no test has is refused. */
static int tests_of(struct sb_jtake *t, const struct sb_jv *o, const char *key,
		    int (*fn)(struct sb_jtake *t, const struct sb_jv *x, enum sb_meta_test tt,
			      void *ctx),
		    void *ctx, unsigned allowed)
{
	const struct sb_jv *ts = sb_jtake_obj(t, o, key, 0);
	if (!ts)
		return t->e;
	const size_t top = sb_jtake_down(t, key);
	for (size_t i = 0; i < ts->obj.n && !t->e; i++) {
		const int tt = sb_meta_test_by_name(ts->obj.m[i].key);
		const size_t at = sb_jtake_down(t, ts->obj.m[i].key);
		if (tt < 0 || !(allowed & (1u << tt)))
			sb_jtake_bad(t, NULL,
				     allowed == (1u << SB_META_NTESTS) - 1
					     ? "a meta test's name"
					     : "the name of a test the section's tests have",
				     NULL);
		else
			fn(t, &ts->obj.m[i].val, (enum sb_meta_test)tt, ctx);
		sb_jtake_up(t, at);
	}
	sb_jtake_up(t, top);
	return t->e;
}

static int agg_test(struct sb_jtake *t, const struct sb_jv *x, enum sb_meta_test tt, void *ctx)
{
	return test(t, x, tt, ctx);
}

static int rank_test(struct sb_jtake *t, const struct sb_jv *x, enum sb_meta_test tt, void *ctx)
{
	struct sb_meta_rank *k = ctx;
	struct sb_meta_rank_test *r = &k->t[tt];
	if (!sb_jv_is(x, SB_JV_OBJ))
		return sb_jtake_bad(t, NULL, "an object of a test's figures", x);
	r->ran = 1;
	sb_jtake_bool(t, x, "interrupted", SB_JTAKE_OPTIONAL, &r->interrupted);
	sb_jtake_bool(t, x, "stonewalled", SB_JTAKE_OPTIONAL, &r->stonewalled);
	sb_jtake_u64(t, x, "ops", 0, FIGURE_MAX, &r->ops);
	sb_jtake_u64(t, x, "bytes", 0, FIGURE_MAX, &r->bytes);
	sb_jtake_u64(t, x, "elapsed_ns", 0, FIGURE_MAX, &r->elapsed_ns);
	sb_jtake_u64(t, x, "cpu_ns", 0, FIGURE_MAX, &r->cpu_ns);
	sb_jtake_num(t, x, "start_s", 0, 0, 1e12, &r->start_s);
	sb_jtake_num(t, x, "end_s", 0, 0, 1e12, &r->end_s);
	sb_jtake_num(t, x, sb_meta_rate_key(tt), 0, 0, RATE_MAX, &r->rate);
	const struct sb_jv *l = sb_jtake_obj(t, x, "lat_ns", 0);
	const size_t top = sb_jtake_down(t, "lat_ns");
	sb_jtake_u64(t, l, "min", 0, FIGURE_MAX, &r->lat_min);
	sb_jtake_u64(t, l, "p50", 0, FIGURE_MAX, &r->lat_p50);
	sb_jtake_u64(t, l, "p99", 0, FIGURE_MAX, &r->lat_p99);
	sb_jtake_u64(t, l, "max", 0, FIGURE_MAX, &r->lat_max);
	sb_jtake_up(t, top);
	return t->e;
}

static int rank(struct sb_jtake *t, const struct sb_jv *x, struct sb_meta_doc *d,
		struct sb_meta_rank *k)
{
	const char *host = "", *dir = "";
	uint64_t n = 0;
	int removed = 1;
	if (!sb_jv_is(x, SB_JV_OBJ))
		return sb_jtake_bad(t, NULL, "an object of a rank's figures", x);
	sb_jtake_u64(t, x, "rank", 0, RANK_MAX, &n);
	sb_jtake_str(t, x, "hostname", 0, &host);
	sb_jtake_num(t, x, "clock_offset_s", SB_JTAKE_OPTIONAL, -1e9, 1e9, &k->clock_offset_s);
	sb_jtake_str(t, x, "run_directory", SB_JTAKE_OPTIONAL, &dir);
	sb_jtake_bool(t, x, "run_directory_removed", SB_JTAKE_OPTIONAL, &removed);
	sb_jtake_bool(t, x, "interrupted", SB_JTAKE_OPTIONAL, &k->interrupted);
	k->rank = (int)n;
	k->kept = !removed;
	snprintf(k->host, sizeof(k->host), "%s", host);
	snprintf(k->rundir, sizeof(k->rundir), "%s", dir);
	return tests_of(t, x, "tests", rank_test, k, d->tests);
}

/* skew.TEST.slowest_rank and fastest_rank: a rank's number (an index into
 * the ranks here), or -1 where none was measured. */
static int rank_index(struct sb_jtake *t, const struct sb_jv *x, const char *key,
		      const struct sb_meta_doc *d, int *out)
{
	const struct sb_jv *v = sb_jv_get(x, key);
	uint64_t n;
	*out = -1;
	if (sb_jv_is(v, SB_JV_NUM) && v->num.d == -1)
		return 0;
	if (sb_jtake_u64(t, x, key, 0, RANK_MAX, &n))
		return t->e;
	for (unsigned i = 0; i < d->m.nranks; i++)
		if ((uint64_t)d->m.ranks[i].rank == n)
			return *out = (int)i, 0;
	return sb_jtake_bad(t, key, "the number of a rank the section's ranks have", v);
}

static int skew_test(struct sb_jtake *t, const struct sb_jv *x, enum sb_meta_test tt, void *ctx)
{
	struct sb_meta_doc *d = ctx;
	struct sb_meta_skew *k = &d->m.skew[tt];
	d->skews |= 1u << tt;
	if (!sb_jv_is(x, SB_JV_OBJ))
		return sb_jtake_bad(t, NULL, "an object of a test's skew", x);
	sb_jtake_num(t, x, "first_start_s", 0, 0, 1e12, &d->first_start_s[tt]);
	sb_jtake_num(t, x, "start_spread_s", 0, 0, 1e12, &k->start_spread_s);
	sb_jtake_num(t, x, "end_spread_s", 0, 0, 1e12, &k->end_spread_s);
	sb_jtake_num(t, x, "span_s", 0, 0, 1e12, &k->span_s);
	sb_jtake_num(t, x, "median_rate", 0, 0, RATE_MAX, &k->median_rate);
	rank_index(t, x, "slowest_rank", d, &k->slowest_rank);
	rank_index(t, x, "fastest_rank", d, &k->fastest_rank);
	sb_jtake_num(t, x, "slowest_vs_median", 0, -1e9, 1e9, &k->slowest_vs_median);
	sb_jtake_num(t, x, "fastest_vs_median", 0, -1e9, 1e9, &k->fastest_vs_median);
	return t->e;
}

static int ranks(struct sb_jtake *t, const struct sb_jv *sec, struct sb_meta_doc *d)
{
	const struct sb_jv *a = sb_jtake_arr(t, sec, "ranks", 0);
	struct sb_meta_rank *rk;
	if (!a)
		return t->e;
	if (!a->arr.n)
		return sb_jtake_bad(t, "ranks", "an array of the ranks' figures", a);
	if (!(rk = calloc(a->arr.n, sizeof(*rk))))
		return t->e = sb_error_set(t->err, -ENOMEM, SB_ERR_ENV, "out of memory");
	d->m.ranks = rk;
	d->m.nranks = (unsigned)a->arr.n;
	const size_t top = sb_jtake_down(t, "ranks");
	for (size_t i = 0; i < a->arr.n && !t->e; i++) {
		const size_t at = sb_jtake_item(t, i);
		rank(t, &a->arr.v[i], d, &rk[i]);
		sb_jtake_up(t, at);
	}
	sb_jtake_up(t, top);
	sb_jtake_bool(t, sec, "stonewall", SB_JTAKE_OPTIONAL, &d->m.stonewall);
	return tests_of(t, sec, "skew", skew_test, d, d->tests);
}

int sb_meta_read(const struct sb_jv *sec, struct sb_meta_doc *out, struct sb_error *err)
{
	struct sb_jtake t;
	const char *dir = "", *cache = "", *csv = "";
	int removed = 0;
	memset(out, 0, sizeof(*out));
	sb_jtake_init(&t, err);
	if (!sb_jv_is(sec, SB_JV_OBJ))
		return sb_jtake_bad(&t, NULL, "an object", sec);
	int e = sb_ranks_check(sec, "", err); /* its ranks and skew, as every section's */
	if (e < 0)
		return e;
	struct sb_meta_run *m = &out->m;
	m->refused_rank = m->failed_rank = -1;
	m->dirfd = -1;
	sb_jtake_str(&t, sec, "run_directory", 0, &dir);
	sb_jtake_bool(&t, sec, "run_directory_removed", 0, &removed);
	sb_jtake_str(&t, sec, "cache", 0, &cache);
	sb_jtake_bool(&t, sec, "interrupted", 0, &m->interrupted);
	snprintf(m->rundir, sizeof(m->rundir), "%s", dir);
	snprintf(out->cache, sizeof(out->cache), "%s", cache);
	m->kept = !removed;
	m->files.dir = m->rundir;
	if (!t.e)
		params(&t, sec, m);
	if (!t.e)
		tests_of(&t, sec, "tests", agg_test, out, (1u << SB_META_NTESTS) - 1);
	if (!t.e && !sb_jtake_str(&t, sec, "bonnie_csv", 0, &csv))
		snprintf(out->bonnie_csv, sizeof(out->bonnie_csv), "%s", csv);
	if (!t.e && sb_jv_get(sec, "ranks"))
		ranks(&t, sec, out);
	if (t.e)
		sb_meta_doc_free(out);
	return t.e;
}

void sb_meta_doc_free(struct sb_meta_doc *d)
{
	if (!d)
		return;
	free((void *)d->m.ranks);
	d->m.ranks = NULL;
	d->m.nranks = 0;
}
