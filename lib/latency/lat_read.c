/*
 * The results' "latency" section read back (lat_run.h, struct
 * sb_latency_doc): what latency_json.c writes, each value's type and range
 * checked, and what is wrong named by its key path. docs/latency-meta.md
 * describes the keys.
 */
#include "lib/latency/lat_run.h"
#include "lib/json/json_take.h"

#include <math.h>

#define FIGURE_MAX 1000000000000000000ull /* 1e18: bytes, ns, counts */
#define RATE_MAX 1e18

static const char *preset(int i)
{
	return sb_lat_preset_name((enum sb_lat_preset)i);
}

static const char *pattern(int i)
{
	return sb_lat_pattern_name((enum sb_probe_pattern)i);
}

static const char *direction(int i)
{
	return i ? "write" : "read";
}

static int probe(struct sb_jtake *t, const struct sb_jv *sec, struct sb_latency_doc *d)
{
	struct sb_lat_run *lr = &d->lr;
	struct sb_probe_params *p = &lr->p;
	const char *cache = "";
	int ps = 0, pt = 0, wr = 0;
	uint64_t bs = 0, warmup = 0;
	sb_jtake_word(t, sec, "preset", 0, preset, SB_LAT_NPRESETS,
		      "ioping, dd-sync, hdparm or hdparm-cache", &ps);
	sb_jtake_word(t, sec, "pattern", 0, pattern, 3, "random, sequential or fixed", &pt);
	sb_jtake_word(t, sec, "direction", 0, direction, 2, "read or write", &wr);
	sb_jtake_u64(t, sec, "request_size", 0, UINT32_MAX, &bs);
	sb_jtake_bool(t, sec, "direct", 0, &lr->direct);
	sb_jtake_bool(t, sec, "dsync", 0, &lr->dsync);
	sb_jtake_u64(t, sec, "region_offset", 0, FIGURE_MAX, &p->offset);
	sb_jtake_u64(t, sec, "region_size", 0, FIGURE_MAX, &p->size);
	sb_jtake_u64(t, sec, "interval_ns", 0, FIGURE_MAX, &p->interval_ns);
	sb_jtake_u64(t, sec, "warmup", 0, UINT32_MAX, &warmup);
	if (!sb_jtake_str(t, sec, "cache", 0, &cache))
		snprintf(d->cache, sizeof(d->cache), "%s", cache);
	sb_jtake_bool(t, sec, "interrupted", 0, &lr->interrupted);
	lr->preset = (enum sb_lat_preset)ps;
	p->pattern = (enum sb_probe_pattern)pt;
	p->write = wr;
	p->bs = (uint32_t)bs;
	p->warmup = (unsigned)warmup;
	p->fd = -1;
	return t->e;
}

static int stats(struct sb_jtake *t, const struct sb_jv *sec, struct sb_latency_doc *d)
{
	struct sb_ioping *st = &d->lr.st;
	sb_jtake_u64(t, sec, "requests", 0, FIGURE_MAX, &st->count);
	sb_jtake_u64(t, sec, "valid", 0, st->count, &st->valid);
	sb_jtake_u64(t, sec, "time_ns", 0, FIGURE_MAX, &st->sum_ns);
	sb_jtake_num(t, sec, "iops", 0, 0, RATE_MAX, &d->iops);
	sb_jtake_num(t, sec, "bw_bytes", 0, 0, RATE_MAX, &d->bw_bytes);
	sb_jtake_u64(t, sec, "min_ns", 0, FIGURE_MAX, &d->min_ns);
	sb_jtake_num(t, sec, "avg_ns", 0, 0, RATE_MAX, &d->avg_ns);
	sb_jtake_u64(t, sec, "max_ns", 0, FIGURE_MAX, &d->max_ns);
	sb_jtake_num(t, sec, "mdev_ns", 0, 0, RATE_MAX, &d->mdev_ns);
	sb_jtake_bool(t, sec, "percentiles_exact", 0, &d->percentiles_exact);
	sb_jtake_pcts(t, sec, "percentile", sb_lat_pcts, SB_LAT_NPCTS, d->pct);
	const struct sb_jv *l = sb_jtake_obj(t, sec, "load", 0);
	const size_t at = sb_jtake_down(t, "load");
	uint64_t n = 0;
	sb_jtake_u64(t, l, "requests", 0, FIGURE_MAX, &n);
	if (!t->e && n != st->count)
		sb_jtake_bad(t, "requests", "the section's requests", sb_jv_get(l, "requests"));
	sb_jtake_u64(t, l, "wall_ns", 0, FIGURE_MAX, &st->wall_ns);
	sb_jtake_u64(t, l, "bytes", 0, FIGURE_MAX, &d->load_bytes);
	sb_jtake_num(t, l, "iops", 0, 0, RATE_MAX, &d->load_iops);
	sb_jtake_num(t, l, "bw_bytes", 0, 0, RATE_MAX, &d->load_bw_bytes);
	sb_jtake_up(t, at);
	st->size = d->lr.p.bs;
	return t->e;
}

/* dd's or hdparm's own figures, as the preset has them. */
static int tool(struct sb_jtake *t, const struct sb_jv *sec, struct sb_latency_doc *d)
{
	const int dd = d->lr.preset == SB_LAT_DD_SYNC;
	const char *key = dd ? "dd" : "hdparm", *line = "";
	if (d->lr.preset == SB_LAT_IOPING)
		return 0;
	const struct sb_jv *o = sb_jtake_obj(t, sec, key, 0);
	if (!o)
		return t->e;
	const size_t top = sb_jtake_down(t, key);
	if (!sb_jtake_str(t, o, "line", 0, &line))
		snprintf(d->line, sizeof(d->line), "%s", line);
	sb_jtake_num(t, o, "seconds", 0, 0, 1e12, &d->seconds);
	if (dd) {
		sb_jtake_u64(t, o, "bytes", 0, FIGURE_MAX, &d->bytes);
	} else {
		sb_jtake_num(t, o, "mib", 0, 0, RATE_MAX, &d->mib);
		sb_jtake_u64(t, o, "overhead_ns", 0, FIGURE_MAX, &d->lr.overhead_ns);
	}
	sb_jtake_up(t, top);
	return t->e;
}

static int request(struct sb_jtake *t, const struct sb_jv *x, size_t i, struct sb_lat_record *r)
{
	uint64_t n = 0;
	if (!sb_jv_is(x, SB_JV_OBJ))
		return sb_jtake_bad(t, NULL, "an object of a request", x);
	sb_jtake_u64(t, x, "n", 0, FIGURE_MAX, &n);
	if (!t->e && n != i + 1)
		return sb_jtake_bad(t, "n", "the request's number (1, 2, ...)", sb_jv_get(x, "n"));
	sb_jtake_u64(t, x, "offset", 0, FIGURE_MAX, &r->offset);
	sb_jtake_u64(t, x, "ns", 0, FIGURE_MAX, &r->ns);
	return sb_jtake_bool(t, x, "warmup", 0, &r->warmup);
}

static int log_of(struct sb_jtake *t, const struct sb_jv *sec, struct sb_latency_doc *d)
{
	struct sb_lat_run *lr = &d->lr;
	const struct sb_jv *a = sb_jtake_arr(t, sec, "log", 0);
	if (!a)
		return t->e;
	if (a->arr.n > SB_LAT_MAX_RECORDS)
		return sb_jtake_bad(t, "log", "at most 100000 requests", a);
	if (a->arr.n && !(lr->rec = calloc(a->arr.n, sizeof(*lr->rec))))
		return t->e = sb_error_set(t->err, -ENOMEM, SB_ERR_ENV, "out of memory");
	lr->rec_cap = a->arr.n;
	const size_t top = sb_jtake_down(t, "log");
	for (size_t i = 0; i < a->arr.n && !t->e; i++) {
		const size_t at = sb_jtake_item(t, i);
		request(t, &a->arr.v[i], i, &lr->rec[i]);
		lr->nrec = i + 1;
		sb_jtake_up(t, at);
	}
	sb_jtake_up(t, top);
	return sb_jtake_bool(t, sec, "log_truncated", 0, &lr->rec_truncated);
}

int sb_latency_read(const struct sb_jv *sec, struct sb_latency_doc *out, struct sb_error *err)
{
	struct sb_jtake t;
	memset(out, 0, sizeof(*out));
	sb_jtake_init(&t, err);
	if (!sb_jv_is(sec, SB_JV_OBJ))
		return sb_jtake_bad(&t, NULL, "an object", sec);
	if (!probe(&t, sec, out) && !stats(&t, sec, out) && !tool(&t, sec, out))
		log_of(&t, sec, out);
	if (t.e)
		sb_latency_doc_free(out);
	return t.e;
}

void sb_latency_doc_free(struct sb_latency_doc *d)
{
	if (!d)
		return;
	free(d->lr.rec);
	d->lr.rec = NULL;
	d->lr.nrec = d->lr.rec_cap = 0;
}
