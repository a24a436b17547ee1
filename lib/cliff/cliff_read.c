/*
 * The results' "cliff" section read back (cliff.h, struct sb_cliff_doc):
 * what cliff_json.c writes, each value's type and range checked, and what
 * is wrong named by its key path. docs/cliff.md describes the keys.
 */
#include "lib/cliff/cliff.h"
#include "lib/json/json_items.h"

#define FIGURE_MAX 1000000000000000000ull /* 1e18: bytes, ns */
#define RATE_MAX 1e18			  /* bytes/s */

static void figure(struct sb_jtake *t, const struct sb_jv *o, const char *key, uint64_t *out)
{
	sb_jtake_u64(t, o, key, 0, FIGURE_MAX, out);
}

static void ns(struct sb_jtake *t, const struct sb_jv *o, const char *key, double *out)
{
	uint64_t v = 0;
	sb_jtake_u64(t, o, key, 0, FIGURE_MAX, &v);
	*out = (double)v;
}

static void rate(struct sb_jtake *t, const struct sb_jv *o, const char *key, double *out)
{
	sb_jtake_num_or_null(t, o, key, 0, 0, RATE_MAX, out);
}

static int step(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	struct sb_cliff_step *s = &((struct sb_cliff_find *)ctx)->steps[i];
	figure(t, v, "at_bytes", &s->at_bytes);
	ns(t, v, "at_ns", &s->at_ns);
	rate(t, v, "before_bw_bytes", &s->before_bw);
	rate(t, v, "after_bw_bytes", &s->after_bw);
	return t->e;
}

static int recovery(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	struct sb_cliff_recovery *rc = &((struct sb_cliff_result *)ctx)->recovery[i];
	figure(t, v, "idle_ns", &rc->idle_ns);
	figure(t, v, "burst_bytes", &rc->burst_bytes);
	ns(t, v, "burst_ns", &rc->burst_ns);
	figure(t, v, "recovered_bytes", &rc->recovered_bytes);
	sb_jtake_num_or_null(t, v, "fraction", 0, 0, 1e6, &rc->fraction);
	rate(t, v, "fast_bw_bytes", &rc->fast_bw);
	sb_jtake_bool(t, v, "at_least", 0, &rc->at_least);
	sb_jtake_bool(t, v, "interrupted", 0, &rc->interrupted);
	return t->e;
}

static void series(struct sb_jtake *t, const struct sb_jv *sec, struct sb_cliff_result *r)
{
	struct sb_cliff_find *f = &r->find;
	const struct sb_jv *s = sb_jtake_obj(t, sec, "series", 0);
	if (!s)
		return;
	const size_t top = sb_jtake_down(t, "series");
	figure(t, s, "bin_bytes", &f->bin_bytes);
	figure(t, s, "last_bin_bytes", &f->last_bytes);
	sb_jtake_nums(t, s, "bw_bytes", SB_JTAKE_NULLS, SB_CLIFF_MAX_BINS + 1, 0, RATE_MAX, r->bw,
		      &f->nbins);
	sb_jtake_up(t, top);
}

/* The drop: its figures where found, null where not. */
static void drop(struct sb_jtake *t, const struct sb_jv *sec, struct sb_cliff_find *f)
{
	static const char *const keys[] = { "cache_bytes", "cache_ns", "before_bw_bytes",
					    "after_bw_bytes" };
	sb_jtake_bool(t, sec, "found", 0, &f->found);
	if (t->e)
		return;
	if (!f->found) {
		for (size_t i = 0; i < SB_ARRAY_SIZE(keys); i++) {
			const struct sb_jv *v = sb_jv_get(sec, keys[i]);
			if (!sb_jv_is(v, SB_JV_NULL))
				sb_jtake_bad(t, keys[i], "null (no drop found)", v);
		}
		return;
	}
	figure(t, sec, "cache_bytes", &f->cache_bytes);
	ns(t, sec, "cache_ns", &f->cache_ns);
	rate(t, sec, "before_bw_bytes", &f->before_bw);
	rate(t, sec, "after_bw_bytes", &f->after_bw);
}

static void job(struct sb_jtake *t, const struct sb_jv *sec, struct sb_cliff_result *r)
{
	const char *pattern = NULL;
	uint64_t bs = 0, depth = 0;
	if (!sb_jtake_str(t, sec, "pattern", 0, &pattern)) {
		if (!strcmp(pattern, "write") || !strcmp(pattern, "randwrite"))
			r->job.rw = strcmp(pattern, "write") ? SB_RW_RANDWRITE : SB_RW_WRITE;
		else
			sb_jtake_bad(t, "pattern", "write or randwrite", sb_jv_get(sec, "pattern"));
	}
	sb_jtake_u64(t, sec, "request_size", 0, 64u << 20, &bs);
	sb_jtake_u64(t, sec, "iodepth", 0, 1024, &depth);
	sb_jtake_bool(t, sec, "direct", 0, &r->job.direct);
	r->job.bs = (uint32_t)bs;
	r->job.iodepth = (unsigned)depth;
	figure(t, sec, "region_offset", &r->region_offset);
	figure(t, sec, "region_size", &r->region_size);
}

/* A string member into buf (absent and optional: dflt). */
static void text(struct sb_jtake *t, const struct sb_jv *sec, const char *key, int flags,
		 const char *dflt, char *buf, size_t len)
{
	const char *s = dflt;
	sb_jtake_str(t, sec, key, flags, &s);
	if (!t->e && strlen(s) >= len)
		sb_jtake_bad(t, key, "a shorter string", sb_jv_get(sec, key));
	snprintf(buf, len, "%s", t->e ? "" : s);
}

/* before the fill (written since --purge and --idle-before came) */
static void before(struct sb_jtake *t, const struct sb_jv *sec, struct sb_cliff_doc *d)
{
	struct sb_cliff_result *r = &d->r;
	text(t, sec, "purge", SB_JTAKE_OPTIONAL, "none", d->purge, sizeof(d->purge));
	r->purge = strcmp(d->purge, "none") ? d->purge : NULL;
	text(t, sec, "purge_method", SB_JTAKE_OPTIONAL, "", r->purge_method,
	     sizeof(r->purge_method));
	sb_jtake_u64(t, sec, "purge_bytes", SB_JTAKE_OPTIONAL, FIGURE_MAX, &r->purge_bytes);
	sb_jtake_u64(t, sec, "idle_before_ns", SB_JTAKE_OPTIONAL, FIGURE_MAX, &r->idle_before_ns);
}

int sb_cliff_read(const struct sb_jv *sec, struct sb_cliff_doc *d, struct sb_error *err)
{
	struct sb_jtake t;
	struct sb_cliff_result *r = &d->r;
	struct sb_cliff_find *f = &r->find;
	size_t n = 0;
	memset(d, 0, sizeof(*d));
	sb_jtake_init(&t, err);
	if (!sb_jv_is(sec, SB_JV_OBJ))
		return sb_jtake_bad(&t, NULL, "an object", sec);
	job(&t, sec, r);
	before(&t, sec, d);
	sb_jtake_u64(&t, sec, "sample_interval_ns", 0, FIGURE_MAX, &d->sample_interval_ns);
	sb_jtake_num(&t, sec, "min_step", 0, 0, 1, &d->min_step);
	text(&t, sec, "stop_reason", 0, "", d->stop_reason, sizeof(d->stop_reason));
	r->stop_reason = d->stop_reason;
	sb_jtake_bool(&t, sec, "interrupted", 0, &r->interrupted);
	figure(&t, sec, "bytes_written", &f->total_bytes);
	ns(&t, sec, "time_ns", &f->total_ns);
	rate(&t, sec, "avg_bw_bytes", &f->avg_bw);
	drop(&t, sec, f);
	sb_jtake_objects(&t, sec, "steps", 0, SB_CLIFF_MAX_STEPS, &f->nsteps, step, f);
	series(&t, sec, r);
	sb_jtake_objects(&t, sec, "recovery", 0, SB_CLIFF_MAX_RECOVERY, &n, recovery, r);
	r->nrecovery = (unsigned)n;
	r->measured = 1;
	return t.e;
}

void sb_cliff_doc_free(struct sb_cliff_doc *d)
{
	(void)d; /* holds nothing of its own */
}
