/*
 * The "verify" section read back (verify_json.h): the writer is
 * verify_json.c. Every member read is checked first, and what is wrong is
 * named by its key path below the section, as report/ tells it.
 */
#include "lib/verify/verify_json.h"

#include <math.h>

#define FIGURE_MAX 1e18	    /* a count, size or time no device or run reaches */
#define RANK_MAX 16777216.0 /* ranks: whole numbers below */
#define CLASSES_WORDS                                                                \
	"a verify class (intact, corrupted, misplaced, stale, foreign, unreadable, " \
	"newer, missing)"

/* Where the reader is: the key path below the section, for a message. */
struct at {
	const struct at *up;
	const char *key; /* NULL: an item, index */
	size_t index;
};

static size_t path_of(const struct at *a, char *buf, size_t len)
{
	size_t n = a->up ? path_of(a->up, buf, len) : 0;
	if (!a->up || n >= len)
		return n;
	if (a->key)
		return n + (size_t)snprintf(buf + n, len - n, "%s%s", n ? "." : "", a->key);
	return n + (size_t)snprintf(buf + n, len - n, "[%zu]", a->index);
}

static const char *type_name(const struct sb_jv *v)
{
	static const char *const names[] = { "null",	 "a boolean", "a number",
					     "a string", "an array",  "an object" };
	return !v ? "nothing" : v->type <= SB_JV_OBJ ? names[v->type] : "?";
}

static int bad(struct sb_error *err, const struct at *a, const char *expected,
	       const struct sb_jv *v)
{
	char path[256], found[64];
	path_of(a, path, sizeof(path));
	if (sb_jv_is(v, SB_JV_NUM))
		snprintf(found, sizeof(found), "%g", v->num.d);
	else
		snprintf(found, sizeof(found), "%s", type_name(v));
	return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "%s: expected %s, found %s", path, expected,
			    found);
}

/* A count, size or time; null (none) leaves *out as it was. */
static int figure(const struct sb_jv *v, uint64_t *out, const struct at *a, struct sb_error *err)
{
	if (sb_jv_is(v, SB_JV_NULL))
		return 0;
	if (!sb_jv_is(v, SB_JV_NUM) || !isfinite(v->num.d) || v->num.d < 0 || v->num.d > FIGURE_MAX)
		return bad(err, a, "a number from 0 to 1e18", v);
	*out = (uint64_t)v->num.d;
	return 0;
}

static int text(const struct sb_jv *v, char *buf, size_t len, const struct at *a,
		struct sb_error *err)
{
	if (!sb_jv_is(v, SB_JV_STR))
		return bad(err, a, "a string", v);
	snprintf(buf, len, "%s", v->str.s);
	return 0;
}

static int flag(const struct sb_jv *v, int *out, const struct at *a, struct sb_error *err)
{
	if (!sb_jv_is(v, SB_JV_BOOL))
		return bad(err, a, "a boolean", v);
	*out = v->boolean;
	return 0;
}

static int is(const struct sb_jmember *m, const char *key)
{
	return !strcmp(m->key, key);
}

/* Members of object v in order, each given to fn with its place. */
typedef int (*member_fn)(void *dst, const struct sb_jmember *m, const struct at *a,
			 struct sb_error *err);
static int members(const struct sb_jv *v, void *dst, member_fn fn, const struct at *a,
		   struct sb_error *err)
{
	for (size_t i = 0; i < v->obj.n; i++) {
		const struct at here = { a, v->obj.m[i].key, 0 };
		const int e = fn(dst, &v->obj.m[i], &here, err);
		if (e)
			return e;
	}
	return 0;
}

/* key must be in object v. */
static int needs(const struct sb_jv *v, const char *key, const char *expected, const struct at *a,
		 struct sb_error *err)
{
	const struct at here = { a, key, 0 };
	return sb_jv_get(v, key) ? 0 : bad(err, &here, expected, NULL);
}

static void blocks_free(struct sb_verify_doc_blocks *b)
{
	free(b->ranges);
	b->ranges = NULL;
	b->nranges = 0;
}

static void ranks_free(struct sb_verify_doc *d)
{
	for (size_t i = 0; i < d->nranks; i++)
		blocks_free(&d->ranks[i].b);
	free(d->ranks);
	d->ranks = NULL;
	d->nranks = 0;
}

/* ---- bad ranges ---- */

static int range_member(void *dst, const struct sb_jmember *m, const struct at *a,
			struct sb_error *err)
{
	struct sb_verify_doc_range *r = dst;
	const struct sb_jv *v = &m->val;
	uint64_t n = 0;
	int e = 0;
	if (is(m, "class")) {
		const int c = sb_verify_class_by_name(sb_jv_str(v));
		if (c < 0)
			return bad(err, a, CLASSES_WORDS, v);
		r->g.cls = (uint8_t)c;
	} else if (is(m, "offset")) {
		e = figure(v, &r->g.offset, a, err);
	} else if (is(m, "length")) {
		e = figure(v, &r->g.length, a, err);
	} else if (is(m, "expected_offset")) {
		r->has |= SB_VDOC_EXPECTED;
		e = figure(v, &r->g.expected_offset, a, err);
	} else if (is(m, "generation")) {
		r->has |= SB_VDOC_GENERATION;
		e = figure(v, &r->g.generation, a, err);
	} else if (is(m, "file")) {
		if (!(e = figure(v, &n, a, err)))
			r->file = n < 1u << 20 ? (int)n : -1;
	} else if (is(m, "errno")) {
		/* a positive errno; older results may have written it negative */
		if (!sb_jv_is(v, SB_JV_NUM) || !(fabs(v->num.d) < 4096))
			return bad(err, a, "an errno", v);
		r->g.err = (int)fabs(v->num.d);
		r->has |= SB_VDOC_ERRNO;
	} else if (is(m, "error")) {
		e = text(v, r->error, sizeof(r->error), a, err); /* strerror(errno) */
	}
	return e;
}

/* Array v of objects into a new array of its items, size bytes each (*out,
 * *n), each read by item. words: of the array, of an item. */
typedef int (*item_fn)(const struct sb_jv *x, void *slot, const struct at *a, struct sb_error *err);
static int objects(const struct sb_jv *v, size_t size, void **out, size_t *n,
		   const char *const words[2], item_fn item, const struct at *a,
		   struct sb_error *err)
{
	if (!sb_jv_is(v, SB_JV_ARR))
		return bad(err, a, words[0], v);
	if (!v->arr.n)
		return 0;
	if (!(*out = calloc(v->arr.n, size)))
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	for (size_t i = 0; i < v->arr.n; i++) {
		const struct sb_jv *x = &v->arr.v[i];
		const struct at here = { a, NULL, i };
		void *slot = (char *)*out + size * (*n)++;
		if (!sb_jv_is(x, SB_JV_OBJ))
			return bad(err, &here, words[1], x);
		const int e = item(x, slot, &here, err);
		if (e)
			return e;
	}
	return 0;
}

static int range_item(const struct sb_jv *x, void *slot, const struct at *a, struct sb_error *err)
{
	struct sb_verify_doc_range *r = slot;
	r->file = -1;
	int e = members(x, r, range_member, a, err);
	if (!e)
		e = needs(x, "class", CLASSES_WORDS, a, err);
	if (!e)
		e = needs(x, "offset", "a number from 0 to 1e18", a, err);
	if (!e)
		e = needs(x, "length", "a number from 0 to 1e18", a, err);
	return e;
}

static int ranges(const struct sb_jv *v, struct sb_verify_doc_blocks *b, const struct at *a,
		  struct sb_error *err)
{
	static const char *const words[] = { "an array of ranges", "an object of a bad range" };
	blocks_free(b); /* a member given twice: the last one's */
	return objects(v, sizeof(*b->ranges), (void **)&b->ranges, &b->nranges, words, range_item,
		       a, err);
}

/* A member of the blocks (blocks_checked, a class, the ranges): 1 when m
 * is none of them. */
static int blocks_member(struct sb_verify_doc_blocks *b, const struct sb_jmember *m,
			 const struct at *a, struct sb_error *err)
{
	const int c = sb_verify_class_by_name(m->key);
	if (c >= 0) {
		b->classes |= 1u << c;
		return figure(&m->val, &b->count[c], a, err);
	}
	if (is(m, "blocks_checked"))
		return figure(&m->val, &b->blocks, a, err);
	if (is(m, "bad_ranges"))
		return ranges(&m->val, b, a, err);
	if (is(m, "bad_ranges_omitted"))
		return figure(&m->val, &b->omitted, a, err);
	return 1;
}

/* ---- ranks ---- */

static int rank_member(void *dst, const struct sb_jmember *m, const struct at *a,
		       struct sb_error *err)
{
	struct sb_verify_doc_rank *k = dst;
	const struct sb_jv *v = &m->val;
	uint64_t n = 0;
	int e = blocks_member(&k->b, m, a, err);
	if (e <= 0)
		return e;
	e = 0;
	if (is(m, "rank")) {
		if (sb_jv_u64(v, &n) < 0 || (double)n >= RANK_MAX)
			return bad(err, a, "a rank number from 0", v);
		k->rank = (int)n;
	} else if (is(m, "hostname") || (is(m, "host") && !k->host[0])) {
		e = text(v, k->host, sizeof(k->host), a, err);
	} else if (is(m, "host")) {
		char skip[8];
		e = text(v, skip, sizeof(skip), a, err);
	} else if (is(m, "path")) {
		e = text(v, k->path, sizeof(k->path), a, err);
	} else if (is(m, "bytes_written")) {
		e = figure(v, &k->bytes_written, a, err);
	} else if (is(m, "bytes_checked")) {
		e = figure(v, &k->bytes_checked, a, err);
	} else if (is(m, "write_errors")) {
		e = figure(v, &k->write_errors, a, err);
	} else if (is(m, "missing_blocks")) {
		e = figure(v, &k->missing_blocks, a, err);
	} else if (is(m, "files")) {
		if (!(e = figure(v, &n, a, err)))
			k->files = (unsigned)SB_MIN(n, (uint64_t)UINT32_MAX);
	} else if (is(m, "seed")) {
		e = figure(v, &k->seed, a, err);
	} else if (is(m, "failed")) {
		e = flag(v, &k->failed, a, err);
	} else if (is(m, "interrupted")) {
		e = flag(v, &k->interrupted, a, err);
	} else if (is(m, "result")) {
		e = text(v, k->result, sizeof(k->result), a, err);
	}
	return e;
}

static int rank_item(const struct sb_jv *x, void *slot, const struct at *a, struct sb_error *err)
{
	struct sb_verify_doc_rank *k = slot;
	k->failed = k->interrupted = -1;
	if (!sb_jv_get(x, "rank")) { /* as report/ says of every rank's entry */
		char path[256];
		path_of(a, path, sizeof(path));
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "%s: a rank's entry without its 'rank'", path);
	}
	return members(x, k, rank_member, a, err);
}

static int ranks(const struct sb_jv *v, struct sb_verify_doc *d, const struct at *a,
		 struct sb_error *err)
{
	static const char *const words[] = { "an array of ranks", "an object of a rank's figures" };
	ranks_free(d); /* a member given twice: the last one's */
	return objects(v, sizeof(*d->ranks), (void **)&d->ranks, &d->nranks, words, rank_item, a,
		       err);
}

/* ---- the phases, the coverage, the probe ---- */

static int pass_member(void *dst, const struct sb_jmember *m, const struct at *a,
		       struct sb_error *err)
{
	struct sb_verify_doc_pass *p = dst;
	const struct sb_jv *v = &m->val;
	uint64_t n = 0, skip = 0;
	int e = 0;
	if (is(m, "bytes"))
		e = figure(v, &p->bytes, a, err);
	else if (is(m, "ns"))
		e = figure(v, &p->ns, a, err);
	else if (is(m, "bw_bytes")) /* bytes over ns */
		e = figure(v, &skip, a, err);
	else if (is(m, "errors"))
		e = figure(v, &p->errors, a, err);
	else if (is(m, "first_error_offset"))
		e = figure(v, &p->first_error_offset, a, err);
	else if (is(m, "first_errno") && !(e = figure(v, &n, a, err)))
		p->first_errno = n < 4096 ? (int)n : 0;
	else if (is(m, "interrupted"))
		e = flag(v, &p->interrupted, a, err);
	return e;
}

static int coverage_member(void *dst, const struct sb_jmember *m, const struct at *a,
			   struct sb_error *err)
{
	struct sb_verify_doc *d = dst;
	const struct sb_jv *v = &m->val;
	if (is(m, "bytes"))
		return figure(v, &d->coverage_bytes, a, err);
	if (is(m, "free_before"))
		return figure(v, &d->free_before, a, err);
	if (is(m, "fill"))
		return flag(v, &d->coverage_fill, a, err);
	if (!is(m, "percent") || sb_jv_is(v, SB_JV_NULL))
		return 0;
	if (!sb_jv_is(v, SB_JV_NUM) || !isfinite(v->num.d) || v->num.d < 0)
		return bad(err, a, "a percentage from 0", v);
	d->coverage_percent = v->num.d;
	return 0;
}

static int probe_member(void *dst, const struct sb_jmember *m, const struct at *a,
			struct sb_error *err)
{
	static const char *const keys[] = { "block_size",  "announced_bytes", "usable_bytes",
					    "wrap_bytes",  "cache_bytes",     "blocks_written",
					    "blocks_read", "io_errors",	      "seed",
					    "ns" };
	struct sb_verify_doc_probe *p = dst;
	uint64_t *const at[] = { &p->block_size,  &p->announced_bytes, &p->usable_bytes,
				 &p->wrap_bytes,  &p->cache_bytes,     &p->blocks_written,
				 &p->blocks_read, &p->io_errors,       &p->seed,
				 &p->ns };
	if (is(m, "kind"))
		return text(&m->val, p->kind, sizeof(p->kind), a, err);
	for (size_t i = 0; i < SB_ARRAY_SIZE(keys); i++)
		if (is(m, keys[i])) {
			p->has |= sb_jv_is(&m->val, SB_JV_NUM) ? 1u << i : 0;
			return figure(&m->val, at[i], a, err);
		}
	return 0;
}

/* An object member read by fn into dst. */
static int object(const struct sb_jv *v, void *dst, member_fn fn, const char *what,
		  const struct at *a, struct sb_error *err)
{
	if (!sb_jv_is(v, SB_JV_OBJ))
		return bad(err, a, what, v);
	return members(v, dst, fn, a, err);
}

/* ---- the section ---- */

static int phase_of(const char *name)
{
	static const char *const names[] = { "", "write", "check", "both" };
	for (int p = 1; p < (int)SB_ARRAY_SIZE(names); p++)
		if (!strcmp(name, names[p]))
			return p;
	return 0;
}

/* The settings of storbench verify: 1 when m is none of them. */
static int setting(struct sb_verify_doc *d, const struct sb_jmember *m, const struct at *a,
		   struct sb_error *err)
{
	static const char *const keys[] = { "offset",	  "size",	  "seed",
					    "generation", "request_size", "iodepth" };
	uint64_t *const at[] = { &d->offset,	 &d->size,	   &d->seed,
				 &d->generation, &d->request_size, &d->iodepth };
	uint64_t n = 0;
	for (size_t i = 0; i < SB_ARRAY_SIZE(keys); i++)
		if (is(m, keys[i]))
			return figure(&m->val, at[i], a, err);
	if (is(m, "block_size")) {
		const int e = figure(&m->val, &n, a, err);
		d->block_size = (uint32_t)SB_MIN(n, (uint64_t)UINT32_MAX);
		return e;
	}
	if (is(m, "seed_from_data"))
		return flag(&m->val, &d->seed_from_data, a, err);
	if (is(m, "direct"))
		return flag(&m->val, &d->direct, a, err);
	if (is(m, "checksum"))
		return text(&m->val, d->checksum, sizeof(d->checksum), a, err);
	if (is(m, "engine"))
		return text(&m->val, d->engine, sizeof(d->engine), a, err);
	return 1;
}

static int section_member(void *dst, const struct sb_jmember *m, const struct at *a,
			  struct sb_error *err)
{
	struct sb_verify_doc *d = dst;
	const struct sb_jv *v = &m->val;
	char name[16];
	int e = blocks_member(&d->b, m, a, err);
	if (e <= 0)
		return e;
	if ((e = setting(d, m, a, err)) <= 0)
		return e;
	if (is(m, "phase")) {
		if ((e = text(v, name, sizeof(name), a, err)))
			return e;
		d->phase = phase_of(name);
		d->kind = !strcmp(name, "probe") ? SB_VDOC_PROBE : SB_VDOC_VERIFY;
		return 0;
	}
	if (is(m, "write"))
		return d->wrote = 1, object(v, &d->wr, pass_member, "an object of a phase", a, err);
	if (is(m, "check"))
		return d->checked = 1,
		       object(v, &d->rd, pass_member, "an object of a phase", a, err);
	if (is(m, "coverage"))
		return d->has_coverage = 1,
		       object(v, d, coverage_member, "an object of the coverage", a, err);
	if (is(m, "probe"))
		return object(v, &d->probe, probe_member, "an object of the probe's findings", a,
			      err);
	if (is(m, "ranks"))
		return ranks(v, d, a, err);
	if (is(m, "error"))
		return text(v, d->error, sizeof(d->error), a, err);
	if (is(m, "result"))
		return text(v, d->result, sizeof(d->result), a, err);
	return 0;
}

int sb_verify_read(const struct sb_jv *section, struct sb_verify_doc *out, struct sb_error *err)
{
	const struct at top = { NULL, NULL, 0 };
	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	out->coverage_percent = NAN;
	if (!sb_jv_is(section, SB_JV_OBJ))
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "verify: expected an object of verify's results, found %s",
				    type_name(section));
	int e = members(section, out, section_member, &top, err);
	if (e)
		return e;
	if (out->kind == SB_VDOC_PROBE)
		return needs(section, "probe", "an object of the probe's findings", &top, err);
	if ((e = needs(section, "blocks_checked", "a number from 0 to 1e18", &top, err)))
		return e;
	out->has_blocks = sb_jv_is(sb_jv_get(section, "blocks_checked"), SB_JV_NUM);
	/* run --verify names its block size and seed, but no phase */
	if (out->kind == SB_VDOC_BLOCKS && sb_jv_get(section, "block_size"))
		out->kind = SB_VDOC_JOB;
	return 0;
}

void sb_verify_doc_free(struct sb_verify_doc *d)
{
	if (!d)
		return;
	blocks_free(&d->b);
	ranks_free(d);
}

uint64_t sb_verify_doc_bad(const struct sb_verify_doc_blocks *b)
{
	uint64_t bad = 0;
	for (int c = SB_VERIFY_INTACT + 1; c < SB_VERIFY_NCLASS; c++)
		bad += b->count[c];
	return bad;
}
