/*
 * The results' "pts" section read back (pts.h, struct sb_pts_doc): what
 * pts_json.c writes, each value's type and range checked and what is wrong
 * named by its key path, into the result as the run filled it (the parts
 * written: those started) and what the writer derives beside it (the
 * window averages, the bytes written to each round's end). Keys written
 * since a later version (segments, the purge's command, the partial round,
 * the cache's switch) may be absent. docs/pts.md describes the keys.
 */
#include "lib/pts/pts.h"
#include "lib/json/json_items.h"

#include <math.h>

#define FIGURE_MAX 1000000000000000000ull /* 1e18: bytes, ns */
#define RATE_MAX 1e18			  /* IOPS, bytes/s, ns */
#define OPT SB_JTAKE_OPTIONAL

/* A string member into buf (absent and optional, or null where allowed:
 * dflt). */
static void text(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
		 const char *dflt, char *buf, size_t len)
{
	const char *s = dflt;
	const struct sb_jv *v = sb_jv_get(o, key);
	if (!(flags & SB_JTAKE_NULLS) || !sb_jv_is(v, SB_JV_NULL))
		sb_jtake_str(t, o, key, flags & OPT, &s);
	if (!t->e && strlen(s) >= len)
		sb_jtake_bad(t, key, "a shorter string", v);
	snprintf(buf, len, "%s", t->e ? "" : s);
}

/* One of names[n] (the index into *out). */
static void word(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags,
		 const char *const *names, size_t n, const char *what, int *out)
{
	const char *s = NULL;
	if (sb_jtake_str(t, o, key, flags, &s))
		return;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, names[i])) {
			*out = (int)i;
			return;
		}
	sb_jtake_bad(t, key, what, sb_jv_get(o, key));
}

/* An object member that may be null (written where there is none): NULL
 * when null, absent and optional, or a problem said (t->e). */
static const struct sb_jv *obj_or_null(struct sb_jtake *t, const struct sb_jv *o, const char *key,
				       int flags)
{
	if (sb_jv_is(sb_jv_get(o, key), SB_JV_NULL))
		return NULL;
	return sb_jtake_obj(t, o, key, flags);
}

static void u32(struct sb_jtake *t, const struct sb_jv *o, const char *key, int flags, uint64_t max,
		unsigned *out)
{
	uint64_t v = *out;
	sb_jtake_u64(t, o, key, flags, max, &v);
	*out = (unsigned)v;
}

static void figure(struct sb_jtake *t, const struct sb_jv *o, const char *key, double *out)
{
	sb_jtake_num_or_null(t, o, key, 0, 0, RATE_MAX, out);
}

/* One cell's figures; its read share and block size must be cell c's. */
static void fig(struct sb_jtake *t, const struct sb_jv *v, const struct sb_pts_cell *c,
		struct sb_pts_fig *f)
{
	uint64_t pct = 0, bs = 0;
	if (!sb_jtake_u64(t, v, "read_pct", 0, 100, &pct) && pct != c->read_pct)
		sb_jtake_bad(t, "read_pct", "the matrix's read share here",
			     sb_jv_get(v, "read_pct"));
	if (!sb_jtake_u64(t, v, "bs", 0, UINT32_MAX, &bs) && bs != c->bs)
		sb_jtake_bad(t, "bs", "the matrix's block size here", sb_jv_get(v, "bs"));
	figure(t, v, "iops", &f->iops);
	figure(t, v, "read_iops", &f->read_iops);
	figure(t, v, "write_iops", &f->write_iops);
	figure(t, v, "bw_bytes", &f->bw);
	figure(t, v, "read_bw_bytes", &f->read_bw);
	figure(t, v, "write_bw_bytes", &f->write_bw);
	figure(t, v, "lat_mean_ns", &f->lat_mean_ns);
	figure(t, v, "lat_max_ns", &f->lat_max_ns);
	sb_jtake_u64(t, v, "bytes_written", 0, FIGURE_MAX, &f->bytes_written);
}

/* A list of cells' figures (a round's, the partial round's, the window
 * averages): at most the matrix's cells, all of them unless partial. */
struct cells_ctx {
	const struct sb_pts_part *p;
	struct sb_pts_fig *out;
};

static int cell_item(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	const struct cells_ctx *c = ctx;
	fig(t, v, &c->p->cells[i], &c->out[i]);
	return t->e;
}

static void cells(struct sb_jtake *t, const struct sb_jv *o, const char *key, int partial,
		  const struct sb_pts_part *p, struct sb_pts_fig *out, unsigned *n)
{
	struct cells_ctx c = { p, out };
	size_t got = 0;
	if (sb_jtake_objects(t, o, key, 0, p->ncells, &got, cell_item, &c))
		return;
	if (!partial && got != p->ncells)
		sb_jtake_bad(t, key, "a figure for each cell of the matrix", sb_jv_get(o, key));
	if (n)
		*n = (unsigned)got;
}

struct part_ctx {
	struct sb_pts_part *p;
	struct sb_pts_doc_part *dp;
};

static int round_item(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	const struct part_ctx *x = ctx;
	struct sb_pts_part *p = x->p;
	uint64_t k = 0;
	if (!sb_jtake_u64(t, v, "round", 0, SB_PTS_WSAT_MAX_ROUNDS, &k) && k != i + 1)
		sb_jtake_bad(t, "round", "the round's number (from 1)", sb_jv_get(v, "round"));
	sb_jtake_num_or_null(t, v, "tracking", 0, 0, RATE_MAX, &p->tracked[i]);
	sb_jtake_u64(t, v, "bytes_written_total", 0, FIGURE_MAX, &x->dp->written_total[i]);
	cells(t, v, "cells", 0, p, &p->fig[i * p->ncells], NULL);
	return t->e;
}

/* The rounds (and the partial round's cells after them, as the run keeps
 * them in fig). */
static void rounds(struct sb_jtake *t, const struct sb_jv *o, struct part_ctx *x)
{
	struct sb_pts_part *p = x->p;
	const struct sb_jv *a = sb_jtake_arr(t, o, "rounds", 0);
	if (!a)
		return;
	const size_t n = sb_jv_len(a);
	if (n > SB_PTS_WSAT_MAX_ROUNDS) {
		sb_jtake_bad(t, "rounds", "at most 1440 rounds", a);
		return;
	}
	p->fig = calloc((n + 1) * p->ncells, sizeof(*p->fig));
	p->tracked = calloc(n + 1, sizeof(*p->tracked));
	x->dp->written_total = calloc(n + 1, sizeof(*x->dp->written_total));
	if (!p->fig || !p->tracked || !x->dp->written_total) {
		t->e = sb_error_set(t->err, -ENOMEM, SB_ERR_ENV, "out of memory");
		return;
	}
	size_t got = 0;
	if (sb_jtake_objects(t, o, "rounds", 0, n, &got, round_item, x))
		return;
	p->nrounds = (unsigned)got;
	const struct sb_jv *pr = obj_or_null(t, o, "partial_round", OPT);
	if (!pr)
		return;
	const size_t top = sb_jtake_down(t, "partial_round");
	uint64_t k = 0, planned = 0;
	if (!sb_jtake_u64(t, pr, "round", 0, SB_PTS_WSAT_MAX_ROUNDS, &k) && k != p->nrounds + 1)
		sb_jtake_bad(t, "round", "the round after the last whole one",
			     sb_jv_get(pr, "round"));
	if (!sb_jtake_u64(t, pr, "cells_planned", 0, SB_PTS_MAX_CELLS, &planned) &&
	    planned != p->ncells)
		sb_jtake_bad(t, "cells_planned", "the matrix's cells",
			     sb_jv_get(pr, "cells_planned"));
	cells(t, pr, "cells", 1, p, &p->fig[(size_t)p->nrounds * p->ncells], &p->partial_cells);
	sb_jtake_up(t, top);
}

static void steady(struct sb_jtake *t, const struct sb_jv *o, const struct sb_pts_part *p,
		   struct sb_steady *s)
{
	const struct sb_jv *w = sb_jtake_arr(t, o, "window", 0);
	uint64_t first = 0, last = 0;
	if (w) {
		const size_t top = sb_jtake_down(t, "window");
		if (sb_jv_len(w) != 2 || sb_jv_u64(sb_jv_at(w, 0), &first) ||
		    sb_jv_u64(sb_jv_at(w, 1), &last))
			sb_jtake_bad(t, NULL, "two round numbers", w);
		else if (first < 1 || last < first || last > p->nrounds)
			sb_jtake_bad(t, NULL, "the first and last rounds of the window", w);
		sb_jtake_up(t, top);
	}
	s->first = (unsigned)first;
	s->last = (unsigned)last;
	sb_jtake_bool(t, o, "reached", 0, &s->reached);
	figure(t, o, "average", &s->average);
	figure(t, o, "data_excursion", &s->data_excursion);
	figure(t, o, "data_excursion_allowed", &s->data_allowed);
	figure(t, o, "slope_excursion", &s->slope_excursion);
	figure(t, o, "slope_excursion_allowed", &s->slope_allowed);
	sb_jtake_num_or_null(t, o, "slope", 0, -RATE_MAX, RATE_MAX, &s->slope);
	sb_jtake_num_or_null(t, o, "intercept", 0, -RATE_MAX, RATE_MAX, &s->intercept);
}

/* An array member of at most max whole numbers from lo to hi. */
static int wholes(struct sb_jtake *t, const struct sb_jv *o, const char *key, size_t max, double lo,
		  double hi, const char *what, double *v, size_t *n)
{
	if (sb_jtake_nums(t, o, key, 0, max, lo, hi, v, n))
		return t->e;
	for (size_t i = 0; i < *n; i++)
		if (floor(v[i]) != v[i])
			return sb_jtake_bad(t, key, what, sb_jv_get(o, key));
	return 0;
}

/* mixes and block sizes: the matrix, mixes outer (as sb_pts_plan makes it) */
static void matrix(struct sb_jtake *t, const struct sb_jv *o, struct sb_pts_part *p)
{
	double v[SB_PTS_MAX_MIX + SB_PTS_MAX_BS]; /* either list */
	size_t n = 0;
	if (wholes(t, o, "mixes", SB_PTS_MAX_MIX, 0, 100, "whole read percentages", v, &n))
		return;
	for (size_t i = 0; i < n; i++)
		p->mixes[i] = (unsigned)v[i];
	p->nmix = (unsigned)n;
	if (wholes(t, o, "block_sizes", SB_PTS_MAX_BS, 1, UINT32_MAX, "whole byte counts", v, &n))
		return;
	for (size_t i = 0; i < n; i++)
		p->bss[i] = (uint32_t)v[i];
	p->nbs = (unsigned)n;
	for (size_t i = 0; i < p->nmix; i++)
		for (size_t b = 0; b < p->nbs; b++)
			p->cells[p->ncells++] = (struct sb_pts_cell){ p->mixes[i], p->bss[b] };
	if (!p->ncells)
		sb_jtake_bad(t, "mixes", "a matrix of at least one cell", sb_jv_get(o, "mixes"));
}

static void tracking(struct sb_jtake *t, const struct sb_jv *o, struct sb_pts_part *p)
{
	static const char *const metrics[] = { [SB_PTS_M_IOPS] = "iops",
					       [SB_PTS_M_WRITE_BW] = "write_bw_bytes",
					       [SB_PTS_M_LAT_MEAN] = "lat_mean_ns" };
	const struct sb_jv *tr = sb_jtake_obj(t, o, "tracking", 0);
	uint64_t pct = 0, bs = 0;
	int m = 0;
	if (!tr)
		return;
	const size_t top = sb_jtake_down(t, "tracking");
	sb_jtake_u64(t, tr, "read_pct", 0, 100, &pct);
	sb_jtake_u64(t, tr, "bs", 0, UINT32_MAX, &bs);
	word(t, tr, "metric", 0, metrics, SB_ARRAY_SIZE(metrics),
	     "iops, write_bw_bytes or lat_mean_ns", &m);
	p->track = (enum sb_pts_metric)m;
	unsigned c = 0;
	while (c < p->ncells && (p->cells[c].read_pct != pct || p->cells[c].bs != bs))
		c++;
	if (!t->e && c == p->ncells)
		sb_jtake_bad(t, NULL, "a cell of the matrix", tr);
	p->track_cell = c < p->ncells ? c : 0;
	sb_jtake_up(t, top);
}

static void purge(struct sb_jtake *t, const struct sb_jv *o, struct sb_pts_part *p)
{
	const char *s = NULL;
	if (!sb_jtake_str(t, o, "purge", 0, &s)) {
		int m = -1;
		for (int i = 0; i < SB_PURGE_NOUTCOMES && m < 0; i++)
			if (!strcmp(s, sb_purge_name((enum sb_purge_method)i)))
				m = i;
		if (m < 0)
			sb_jtake_bad(t, "purge", "a purge storbench carries out",
				     sb_jv_get(o, "purge"));
		p->purge_used = m < 0 ? SB_PURGE_NONE : (enum sb_purge_method)m;
	}
	text(t, o, "purge_method", OPT | SB_JTAKE_NULLS, "", p->purge_how, sizeof(p->purge_how));
}

static int part_item(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	static const char *const access[] = { "sequential", "random" };
	static const char *const tests[] = { "iops", "throughput", "latency", "wsat" };
	struct sb_pts_doc *d = ctx;
	struct sb_pts_part *p = &d->r.parts[i];
	struct part_ctx x = { p, &d->parts[i] };
	int test = 0;
	d->r.nparts = (unsigned)i + 1;
	p->started = 1;
	word(t, v, "test", 0, tests, SB_ARRAY_SIZE(tests), "iops, throughput, latency or wsat",
	     &test);
	p->test = (enum sb_pts_test)test;
	text(t, v, "name", 0, "", p->name, sizeof(p->name));
	word(t, v, "access", 0, access, 2, "sequential or random", &p->random);
	sb_jtake_bool(t, v, "segmented", OPT, &p->segmented);
	u32(t, v, "threads", 0, 1024, &p->threads);
	u32(t, v, "iodepth", 0, 65536, &p->iodepth);
	purge(t, v, p);
	sb_jtake_u64(t, v, "precondition_bytes", 0, FIGURE_MAX, &p->precondition_bytes);
	if (!t->e)
		matrix(t, v, p);
	if (!t->e)
		tracking(t, v, p);
	sb_jtake_bool(t, v, "finished", 0, &p->finished);
	sb_jtake_u64(t, v, "bytes_written", 0, FIGURE_MAX, &p->written);
	if (!t->e)
		rounds(t, v, &x);
	const struct sb_jv *ss = obj_or_null(t, v, "steady_state", 0);
	if (ss) {
		const size_t top = sb_jtake_down(t, "steady_state");
		steady(t, ss, p, &p->ss);
		sb_jtake_up(t, top);
		d->parts[i].has_window = 1;
	}
	const struct sb_jv *wa = sb_jv_get(v, "window_average");
	if (!sb_jv_is(wa, SB_JV_NULL) && sb_jtake_arr(t, v, "window_average", 0) && !t->e) {
		if (!(d->parts[i].avg = calloc(p->ncells, sizeof(*d->parts[i].avg))))
			return t->e = sb_error_set(t->err, -ENOMEM, SB_ERR_ENV, "out of memory");
		cells(t, v, "window_average", 0, p, d->parts[i].avg, NULL);
	}
	return t->e;
}

static void segments(struct sb_jtake *t, const struct sb_jv *c, struct sb_pts_doc *d)
{
	struct sb_segments *s = &d->r.segs;
	const struct sb_jv *o = obj_or_null(t, c, "active_range_segments", OPT);
	uint64_t n = 0;
	if (!o)
		return;
	const size_t top = sb_jtake_down(t, "active_range_segments");
	sb_jtake_u64(t, o, "count", 0, 1u << 20, &n);
	sb_jtake_u64(t, o, "segment_bytes", 0, FIGURE_MAX, &s->seg_bytes);
	sb_jtake_u64(t, o, "active_bytes", 0, FIGURE_MAX, &d->active_bytes);
	sb_jtake_u64(t, o, "align_bytes", 0, FIGURE_MAX, &s->align);
	sb_jtake_u64(t, o, "seed", 0, UINT64_MAX, &s->seed);
	const struct sb_jv *a = sb_jtake_arr(t, o, "starts", 0);
	if (a && !t->e) {
		const size_t at = sb_jtake_down(t, "starts");
		if (sb_jv_len(a) != n)
			sb_jtake_bad(t, NULL, "a start for each segment", a);
		else if (n && !(s->start = calloc(n, sizeof(*s->start))))
			t->e = sb_error_set(t->err, -ENOMEM, SB_ERR_ENV, "out of memory");
		for (size_t i = 0; i < n && !t->e; i++)
			if (sb_jv_u64(sb_jv_at(a, i), &s->start[i])) {
				sb_jtake_item(t, i);
				sb_jtake_bad(t, NULL, "a whole number", sb_jv_at(a, i));
			}
		sb_jtake_up(t, at);
	}
	s->n = t->e ? 0 : (unsigned)n;
	sb_jtake_up(t, top);
}

static void write_cache(struct sb_jtake *t, const struct sb_jv *c, struct sb_pts_doc *d)
{
	struct sb_pts_result *r = &d->r;
	const struct sb_jv *o = sb_jtake_obj(t, c, "write_cache", 0);
	if (!o)
		return;
	const size_t top = sb_jtake_down(t, "write_cache");
	text(t, o, "state", SB_JTAKE_NULLS, "", r->write_cache, sizeof(r->write_cache));
	text(t, o, "required", 0, "", d->cache_required, sizeof(d->cache_required));
	sb_jtake_bool(t, o, "changed", 0, &r->devcache.changed);
	text(t, o, "command", OPT | SB_JTAKE_NULLS, "", d->cache_command, sizeof(d->cache_command));
	r->devcache.command = d->cache_command[0] ? d->cache_command : NULL;
	if (r->devcache.command) {
		static const char *const onoff[] = { "off", "on" };
		int during = 0, restored = 0;
		word(t, o, "before", 0, onoff, 2, "on or off", &r->devcache.before);
		word(t, o, "during", 0, onoff, 1, "off", &during);
		const struct sb_jv *rv = sb_jv_get(o, "restored");
		if (!sb_jv_is(rv, SB_JV_NULL) || r->devcache.changed)
			sb_jtake_bool(t, o, "restored", 0, &restored);
		r->devcache.restored = restored;
	}
	sb_jtake_up(t, top);
}

static void conditions(struct sb_jtake *t, const struct sb_jv *sec, struct sb_pts_doc *d)
{
	struct sb_pts_result *r = &d->r;
	struct sb_pts_opts *o = &r->o;
	const struct sb_jv *c = sb_jtake_obj(t, sec, "conditions", 0);
	if (!c)
		return;
	const size_t top = sb_jtake_down(t, "conditions");
	const char *s = NULL;
	if (!sb_jtake_str(t, c, "purge_requested", 0, &s)) {
		const int m = sb_purge_by_name(s);
		if (m < 0)
			sb_jtake_bad(t, "purge_requested", "a purge method",
				     sb_jv_get(c, "purge_requested"));
		o->purge = m < 0 ? SB_PURGE_AUTO : (enum sb_purge_method)m;
	}
	const struct sb_jv *ar = sb_jtake_obj(t, c, "active_range", 0);
	if (ar) {
		const size_t at = sb_jtake_down(t, "active_range");
		uint64_t off = 0;
		u32(t, ar, "percent", 0, 100, &o->active_pct);
		sb_jtake_u64(t, ar, "offset_bytes", 0, FIGURE_MAX, &off);
		sb_jtake_u64(t, ar, "bytes", 0, FIGURE_MAX, &r->region_bytes);
		sb_jtake_up(t, at);
	}
	segments(t, c, d);
	sb_jtake_u64(t, c, "device_bytes", 0, FIGURE_MAX, &r->device_bytes);
	const struct sb_jv *pc = sb_jtake_obj(t, c, "precondition", 0);
	if (pc) {
		const size_t at = sb_jtake_down(t, "precondition");
		u32(t, pc, "passes", 0, 1000, &o->precondition);
		sb_jtake_up(t, at);
	}
	u32(t, c, "threads", 0, 1024, &o->threads);
	u32(t, c, "iodepth", 0, 65536, &o->iodepth);
	sb_jtake_u64(t, c, "round_time_ns", 0, FIGURE_MAX, &o->round_ns);
	u32(t, c, "max_rounds", 0, SB_PTS_WSAT_MAX_ROUNDS, &o->max_rounds);
	u32(t, c, "wsat_capacity", 0, 1000, &o->wsat_capacity);
	write_cache(t, c, d);
	sb_jtake_u64(t, c, "seed", 0, UINT64_MAX, &o->seed);
	sb_jtake_up(t, top);
}

static int deviation(struct sb_jtake *t, const struct sb_jv *a, struct sb_pts_result *r)
{
	const size_t n = sb_jv_len(a);
	if (n > SB_PTS_MAX_DEVIATIONS)
		return sb_jtake_bad(t, "deviations", "at most 16 deviations", a);
	for (size_t i = 0; i < n && !t->e; i++) {
		const char *s = sb_jv_str(sb_jv_at(a, i));
		const size_t top = sb_jtake_down(t, "deviations");
		sb_jtake_item(t, i);
		if (!s || strlen(s) >= sizeof(r->deviations[0]))
			sb_jtake_bad(t, NULL, "a string of fewer than 160 bytes", sb_jv_at(a, i));
		else
			snprintf(r->deviations[r->ndeviations++], sizeof(r->deviations[0]), "%s",
				 s);
		sb_jtake_up(t, top);
	}
	return t->e;
}

int sb_pts_read(const struct sb_jv *sec, struct sb_pts_doc *d, struct sb_error *err)
{
	static const char *const profiles[] = {
		[SB_PTS_CLIENT] = "client", [SB_PTS_ENTERPRISE] = "enterprise"
	};
	struct sb_jtake t;
	struct sb_pts_result *r = &d->r;
	int profile = 0;
	size_t n = 0;
	memset(d, 0, sizeof(*d));
	sb_jtake_init(&t, err);
	if (!sb_jv_is(sec, SB_JV_OBJ))
		return sb_jtake_bad(&t, NULL, "an object", sec);
	word(&t, sec, "profile", 0, profiles, 2, "client or enterprise", &profile);
	r->o.profile = (enum sb_pts_profile)profile;
	sb_jtake_bool(&t, sec, "pts_result", 0, &d->pts_result);
	const struct sb_jv *dev = sb_jtake_arr(&t, sec, "deviations", 0);
	if (dev)
		deviation(&t, dev, r);
	conditions(&t, sec, d);
	if (!t.e)
		sb_jtake_objects(&t, sec, "tests", 0, SB_PTS_MAX_PARTS, &n, part_item, d);
	return t.e;
}

void sb_pts_doc_free(struct sb_pts_doc *d)
{
	if (!d)
		return;
	for (unsigned i = 0; i < SB_PTS_MAX_PARTS; i++) {
		free(d->parts[i].avg);
		free(d->parts[i].written_total);
		d->parts[i].avg = NULL;
		d->parts[i].written_total = NULL;
	}
	/* the parts' rounds: nparts counts a part whose reading failed too */
	sb_pts_result_free(&d->r);
}
