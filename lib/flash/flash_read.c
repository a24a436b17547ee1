/*
 * The results' "flash" section read back (flash.h, struct sb_flash_doc):
 * what flash_json.c writes, each value the doc takes checked for its type
 * and range, and what is wrong named by its key path. docs/flash.md
 * describes the keys.
 */
#include "lib/flash/flash.h"
#include "lib/json/json_items.h"

#include <math.h>

#define FIGURE_MAX 1000000000000000000ull /* 1e18: bytes, ns */
#define NS_MAX 1e18

struct reader {
	struct sb_jtake t;
	struct sb_flash_doc *d;
	unsigned at; /* the profile, run or row being read */
};

static void ns(struct sb_jtake *t, const struct sb_jv *o, const char *key, double *out)
{
	sb_jtake_num_or_null(t, o, key, 0, 0, NS_MAX, out);
}

/* diff_ns, below_ns: a difference of read times, negative too */
static void signed_ns(struct sb_jtake *t, const struct sb_jv *o, const char *key, double *out)
{
	sb_jtake_num_or_null(t, o, key, 0, -NS_MAX, NS_MAX, out);
}

static void size32(struct sb_jtake *t, const struct sb_jv *o, const char *key, uint32_t *out)
{
	uint64_t v = 0;
	sb_jtake_u64(t, o, key, 0, UINT32_MAX, &v);
	*out = (uint32_t)v;
}

static void count(struct sb_jtake *t, const struct sb_jv *o, const char *key, unsigned max,
		  unsigned *out)
{
	uint64_t v = 0;
	sb_jtake_u64(t, o, key, 0, max, &v);
	*out = (unsigned)v;
}

static int conf_of(struct sb_jtake *t, const struct sb_jv *o, int *out)
{
	const char *s = NULL;
	if (sb_jtake_str(t, o, "confidence", 0, &s))
		return t->e;
	for (int c = SB_FLASH_CONF_LOW; c <= SB_FLASH_CONF_HIGH; c++)
		if (!strcmp(s, sb_flash_conf_name(c)))
			return *out = c, 0;
	return sb_jtake_bad(t, "confidence", "low, medium or high", sb_jv_get(o, "confidence"));
}

static int align_row(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	struct reader *rd = ctx;
	struct sb_flash_align_row *r = &rd->d->r.profiles[rd->at].rows[i];
	sb_jtake_u64(t, v, "align", 0, FIGURE_MAX, &r->align);
	ns(t, v, "pre_ns", &r->pre_ns);
	ns(t, v, "on_ns", &r->on_ns);
	ns(t, v, "post_ns", &r->post_ns);
	signed_ns(t, v, "diff_ns", &r->diff_ns);
	ns(t, v, "pre_post_spread_ns", &r->pre_post_spread_ns);
	return t->e;
}

static int step(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	struct reader *rd = ctx;
	struct sb_flash_decision *d = &rd->d->r.decisions[rd->at];
	struct sb_flash_step *s = &d->steps[i];
	const char *kind = NULL;
	sb_jtake_u64(t, v, "align", 0, FIGURE_MAX, &s->align);
	if (!sb_jtake_str(t, v, "kind", 0, &kind)) {
		if (!strcmp(kind, "erase_block"))
			d->erase = (int)i;
		else if (!strcmp(kind, "page"))
			d->page = (int)i;
		else if (strcmp(kind, "other"))
			sb_jtake_bad(t, "kind", "erase_block, page or other", sb_jv_get(v, "kind"));
	}
	ns(t, v, "above_ns", &s->above_ns);
	signed_ns(t, v, "below_ns", &s->below_ns);
	sb_jtake_num_or_null(t, v, "margin", 0, 0, 1e12, &s->margin);
	conf_of(t, v, &s->conf);
	return t->e;
}

static int profile(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	struct reader *rd = ctx;
	struct sb_flash_profile *p = &rd->d->r.profiles[i];
	struct sb_flash_decision *d = &rd->d->r.decisions[i];
	size_t n = 0;
	rd->at = (unsigned)i;
	size32(t, v, "bs", &p->bs);
	count(t, v, "count", 1000000, &p->count);
	sb_jtake_u64(t, v, "maxalign", 0, FIGURE_MAX, &p->maxalign);
	sb_jtake_objects(t, v, "rows", 0, SB_FLASH_MAX_ROWS, &n, align_row, rd);
	p->nrows = (unsigned)n;
	ns(t, v, "base_ns", &d->base_ns);
	ns(t, v, "noise_ns", &d->noise_ns);
	ns(t, v, "threshold_ns", &d->threshold_ns);
	d->erase = d->page = -1;
	sb_jtake_objects(t, v, "steps", 0, SB_FLASH_MAX_STEPS, &n, step, rd);
	d->nsteps = (unsigned)n;
	return t->e;
}

/* a finding: its object, or null */
static void finding(struct sb_jtake *t, const struct sb_jv *al, const char *key,
		    struct sb_flash_finding *f)
{
	const struct sb_jv *v = sb_jv_get(al, key);
	if (sb_jv_is(v, SB_JV_NULL) || t->e)
		return;
	if (!(v = sb_jtake_obj(t, al, key, 0)))
		return;
	const size_t top = sb_jtake_down(t, key);
	f->found = 1;
	sb_jtake_u64(t, v, "bytes", 0, FIGURE_MAX, &f->bytes);
	conf_of(t, v, &f->conf);
	sb_jtake_num_or_null(t, v, "margin", 0, 0, 1e12, &f->margin);
	size32(t, v, "bs", &f->bs);
	count(t, v, "seen_at_block_sizes", SB_FLASH_MAX_BS, &f->agree);
	sb_jtake_up(t, top);
}

static void align(struct reader *rd, const struct sb_jv *sec)
{
	struct sb_jtake *t = &rd->t;
	struct sb_flash_doc *d = rd->d;
	struct sb_flash_result *r = &d->r;
	size_t n = 0;
	int decided = 1;
	const struct sb_jv *al = sb_jv_get(sec, "align");
	if (!al || t->e || !(al = sb_jtake_obj(t, sec, "align", 0)))
		return;
	const size_t top = sb_jtake_down(t, "align");
	r->align = 1;
	sb_jtake_objects(t, al, "profiles", 0, SB_FLASH_MAX_BS, &n, profile, rd);
	r->nprofiles = (unsigned)n;
	sb_jtake_bool(t, al, "decided", 0, &decided);
	r->align_partial = !decided;
	d->boundary_effect = -1;
	if (!sb_jv_is(sb_jv_get(al, "boundary_effect"), SB_JV_NULL))
		sb_jtake_bool(t, al, "boundary_effect", 0, &d->boundary_effect);
	finding(t, al, "erase_block", &d->erase);
	finding(t, al, "page", &d->page);
	sb_jtake_up(t, top);
}

static int au_row(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	struct reader *rd = ctx;
	struct sb_flash_au_row *w = &rd->d->r.au.runs[rd->at].rows[i];
	sb_jtake_u64(t, v, "chunk", 0, FIGURE_MAX, &w->chunk);
	sb_jtake_u64(t, v, "writes", 0, FIGURE_MAX, &w->writes);
	ns(t, v, "mean_ns", &w->mean_ns);
	sb_jtake_num_or_null(t, v, "bw_bytes", 0, 0, 1e18, &w->bps);
	/* results before the median decided: absent */
	sb_jtake_num_or_null(t, v, "median_ns", SB_JTAKE_OPTIONAL, 0, NS_MAX, &w->median_ns);
	sb_jtake_num_or_null(t, v, "noise_ns", SB_JTAKE_OPTIONAL, 0, NS_MAX, &w->noise_ns);
	sb_jtake_bool(t, v, "collapsed", 0, &w->collapsed);
	return t->e;
}

static int au_run(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	struct reader *rd = ctx;
	struct sb_flash_au_run *run = &rd->d->r.au.runs[i];
	const char *order = NULL;
	size_t n = 0;
	rd->at = (unsigned)i;
	count(t, v, "open_au", SB_FLASH_MAX_AU, &run->nau);
	if (!sb_jtake_str(t, v, "order", 0, &order)) {
		if (!strcmp(order, "linear") || !strcmp(order, "random"))
			run->random = !strcmp(order, "random");
		else
			sb_jtake_bad(t, "order", "linear or random", sb_jv_get(v, "order"));
	}
	sb_jtake_bool(t, v, "collapsed", 0, &run->collapsed);
	sb_jtake_objects(t, v, "rows", 0, SB_FLASH_MAX_CHUNKS, &n, au_row, rd);
	run->nrows = (unsigned)n;
	return t->e;
}

static void open_au(struct reader *rd, const struct sb_jv *sec)
{
	static const char *const order[] = { "linear", "random" };
	struct sb_jtake *t = &rd->t;
	struct sb_flash_au_result *au = &rd->d->r.au;
	size_t n = 0;
	const struct sb_jv *o = sb_jv_get(sec, "open_au");
	if (!o || t->e || !(o = sb_jtake_obj(t, sec, "open_au", 0)))
		return;
	const size_t top = sb_jtake_down(t, "open_au");
	rd->d->r.open_au = 1;
	sb_jtake_u64(t, o, "erase_size", 0, FIGURE_MAX, &au->p.erase);
	size32(t, o, "bs", &au->p.bs);
	sb_jtake_u64(t, o, "offset", 0, FIGURE_MAX, &au->p.offset);
	count(t, o, "max_au", SB_FLASH_MAX_AU, &au->p.max_au);
	count(t, o, "device_holds_au", UINT32_MAX, &au->fits);
	sb_jtake_objects(t, o, "runs", 0, 2 * SB_FLASH_MAX_AU, &n, au_run, rd);
	au->nruns = (unsigned)n;
	for (int k = 0; k < 2; k++) {
		char key[32];
		snprintf(key, sizeof(key), "max_open_%s", order[k]);
		if (!sb_jv_is(sb_jv_get(o, key), SB_JV_NULL) && !t->e) {
			count(t, o, key, SB_FLASH_MAX_AU, &au->best[k]);
			au->p.orders |= 1 << k;
		}
		snprintf(key, sizeof(key), "max_open_%s_limited", order[k]);
		sb_jtake_bool(t, o, key, 0, &au->limited[k]);
	}
	sb_jtake_up(t, top);
}

static int fat_row(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	struct reader *rd = ctx;
	struct sb_flash_fat *f = &rd->d->r.fat;
	size_t n = 0;
	sb_jtake_u64(t, v, "chunk", 0, FIGURE_MAX, &f->rows[i].chunk);
	sb_jtake_nums(t, v, "bw_bytes", SB_JTAKE_NULLS, SB_FLASH_MAX_FAT, 0, 1e18, f->rows[i].bps,
		      &n);
	if (!t->e && n != f->nblocks)
		sb_jtake_bad(t, "bw_bytes", "a rate for each block", sb_jv_get(v, "bw_bytes"));
	return t->e;
}

static int fat_diff(struct sb_jtake *t, const struct sb_jv *v, size_t i, void *ctx)
{
	struct sb_flash_fat *f = &((struct reader *)ctx)->d->r.fat;
	const char *how = NULL;
	unsigned b = 0;
	(void)i;
	count(t, v, "block", f->nblocks ? f->nblocks - 1 : 0, &b);
	if (!sb_jtake_str(t, v, "how", 0, &how) && strcmp(how, "faster") && strcmp(how, "slower"))
		sb_jtake_bad(t, "how", "faster or slower", sb_jv_get(v, "how"));
	if (!t->e)
		f->differs[b] = strcmp(how, "faster") ? -1 : 1;
	return t->e;
}

static void find_fat(struct reader *rd, const struct sb_jv *sec)
{
	struct sb_jtake *t = &rd->t;
	struct sb_flash_fat *f = &rd->d->r.fat;
	size_t n = 0;
	const struct sb_jv *o = sb_jv_get(sec, "find_fat");
	if (!o || t->e || !(o = sb_jtake_obj(t, sec, "find_fat", 0)))
		return;
	const size_t top = sb_jtake_down(t, "find_fat");
	rd->d->r.find_fat = 1;
	sb_jtake_u64(t, o, "erase_size", 0, FIGURE_MAX, &f->erase);
	size32(t, o, "bs", &f->bs);
	count(t, o, "blocks", SB_FLASH_MAX_FAT, &f->nblocks);
	sb_jtake_objects(t, o, "rows", 0, SB_FLASH_MAX_CHUNKS, &n, fat_row, rd);
	f->nrows = (unsigned)n;
	sb_jtake_objects(t, o, "different", 0, SB_FLASH_MAX_FAT, &n, fat_diff, rd);
	sb_jtake_up(t, top);
}

/* scatter's map: [offset, ns or null] per position */
static void scatter_rows(struct reader *rd, const struct sb_jv *o)
{
	struct sb_jtake *t = &rd->t;
	struct sb_flash_scatter *s = &rd->d->r.sc;
	const struct sb_jv *rows = sb_jtake_arr(t, o, "rows", 0);
	if (!rows)
		return;
	if (rows->arr.n > (1u << 20))
		return (void)sb_jtake_bad(t, "rows", "at most 2^20 positions", rows);
	s->n = (uint32_t)rows->arr.n;
	s->off = calloc(s->n ? s->n : 1, sizeof(*s->off));
	s->ns = calloc(s->n ? s->n : 1, sizeof(*s->ns));
	if (!s->off || !s->ns) {
		t->e = -ENOMEM;
		return;
	}
	const size_t top = sb_jtake_down(t, "rows");
	for (uint32_t i = 0; i < s->n && !t->e; i++) {
		const struct sb_jv *r = &rows->arr.v[i], *x;
		const size_t at = sb_jtake_item(t, i);
		if (!sb_jv_is(r, SB_JV_ARR) || r->arr.n != 2 ||
		    sb_jv_u64(&r->arr.v[0], &s->off[i]) < 0 || s->off[i] > FIGURE_MAX)
			sb_jtake_bad(t, NULL, "[offset, ns or null]", r);
		else if (sb_jv_is((x = &r->arr.v[1]), SB_JV_NULL))
			s->ns[i] = INFINITY; /* not read */
		else if (!sb_jv_is(x, SB_JV_NUM) || !isfinite(x->num.d) || x->num.d < 0)
			sb_jtake_bad(t, NULL, "[offset, ns or null]", r);
		else
			s->ns[i] = x->num.d;
		sb_jtake_up(t, at);
	}
	sb_jtake_up(t, top);
}

/* the offsets of the slowest reads */
static void slowest(struct reader *rd, const struct sb_jv *o)
{
	struct sb_jtake *t = &rd->t;
	struct sb_flash_doc *d = rd->d;
	const struct sb_jv *a = sb_jtake_arr(t, o, "slowest_offsets", 0);
	if (!a)
		return;
	if (a->arr.n > SB_FLASH_SLOWEST)
		return (void)sb_jtake_bad(t, "slowest_offsets", "at most 8 offsets", a);
	const size_t top = sb_jtake_down(t, "slowest_offsets");
	for (size_t i = 0; i < a->arr.n && !t->e; i++) {
		const size_t at = sb_jtake_item(t, i);
		if (sb_jv_u64(&a->arr.v[i], &d->slowest[i]) < 0 || d->slowest[i] > FIGURE_MAX)
			sb_jtake_bad(t, NULL, "an offset in bytes", &a->arr.v[i]);
		sb_jtake_up(t, at);
	}
	sb_jtake_up(t, top);
	d->nslowest = (unsigned)a->arr.n;
}

static void scatter(struct reader *rd, const struct sb_jv *sec)
{
	struct sb_jtake *t = &rd->t;
	struct sb_flash_doc *d = rd->d;
	struct sb_flash_scatter_params *p = &d->r.sc.p;
	const struct sb_jv *o = sb_jv_get(sec, "scatter");
	if (!o || t->e || !(o = sb_jtake_obj(t, sec, "scatter", 0)))
		return;
	const size_t top = sb_jtake_down(t, "scatter");
	d->r.scatter = 1;
	size32(t, o, "bs", &p->bs);
	count(t, o, "order", 20, &p->order);
	count(t, o, "span", 1u << 20, &p->span);
	count(t, o, "count", 1000000, &p->count);
	sb_jtake_u64(t, o, "offset", 0, FIGURE_MAX, &p->offset);
	ns(t, o, "min_ns", &d->sc_min_ns);
	ns(t, o, "median_ns", &d->sc_median_ns);
	ns(t, o, "max_ns", &d->sc_max_ns);
	slowest(rd, o);
	scatter_rows(rd, o);
	sb_jtake_up(t, top);
}

static void priority(struct reader *rd, const struct sb_jv *sec)
{
	struct sb_jtake *t = &rd->t;
	struct sb_flash_doc *d = rd->d;
	const char *asked = "", *why = "";
	int raised = 1;
	const struct sb_jv *o = sb_jtake_obj(t, sec, "priority", 0);
	if (!o)
		return;
	const size_t top = sb_jtake_down(t, "priority");
	sb_jtake_str(t, o, "asked", 0, &asked);
	sb_jtake_bool(t, o, "raised", 0, &raised);
	if (!raised)
		sb_jtake_str(t, o, "error", SB_JTAKE_OPTIONAL, &why);
	snprintf(d->r.priority, sizeof(d->r.priority), "%s", t->e ? "" : asked);
	snprintf(d->priority_error, sizeof(d->priority_error), "%s", t->e ? "" : why);
	d->r.priority_err = !raised;
	sb_jtake_up(t, top);
}

static void meaning(struct reader *rd, const struct sb_jv *sec)
{
	struct sb_jtake *t = &rd->t;
	struct sb_flash_doc *d = rd->d;
	const struct sb_jv *m = sb_jtake_arr(t, sec, "meaning", 0);
	if (!m)
		return;
	if (!(d->meaning = calloc(m->arr.n ? m->arr.n : 1, sizeof(*d->meaning)))) {
		t->e = -ENOMEM;
		return;
	}
	const size_t top = sb_jtake_down(t, "meaning");
	for (size_t i = 0; i < m->arr.n && !t->e; i++) {
		const size_t at = sb_jtake_item(t, i);
		if (!sb_jv_is(&m->arr.v[i], SB_JV_STR))
			sb_jtake_bad(t, NULL, "a string", &m->arr.v[i]);
		else if (!(d->meaning[d->nmeaning++] = strdup(m->arr.v[i].str.s)))
			t->e = -ENOMEM;
		sb_jtake_up(t, at);
	}
	sb_jtake_up(t, top);
}

int sb_flash_read(const struct sb_jv *sec, struct sb_flash_doc *d, struct sb_error *err)
{
	struct reader rd = { .d = d };
	memset(d, 0, sizeof(*d));
	d->r.erase_from = d->r.page_from = -1;
	d->boundary_effect = -1;
	sb_jtake_init(&rd.t, err);
	if (!sb_jv_is(sec, SB_JV_OBJ))
		return sb_jtake_bad(&rd.t, NULL, "an object", sec);
	priority(&rd, sec);
	sb_jtake_bool(&rd.t, sec, "interrupted", 0, &d->r.interrupted);
	align(&rd, sec);
	open_au(&rd, sec);
	find_fat(&rd, sec);
	scatter(&rd, sec);
	meaning(&rd, sec);
	if (rd.t.e == -ENOMEM)
		sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	return rd.t.e;
}

void sb_flash_doc_free(struct sb_flash_doc *d)
{
	if (!d)
		return;
	sb_flash_scatter_free(&d->r.sc);
	for (unsigned i = 0; i < d->nmeaning; i++)
		free(d->meaning[i]);
	free(d->meaning);
	d->meaning = NULL;
	d->nmeaning = 0;
}
