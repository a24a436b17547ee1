/*
 * The results' "sweep" section read back (sweep.h, struct sb_sweep_doc):
 * what sweep_json.c writes, each value's type and range checked, and
 * what is wrong named by its key path. docs/sweep.md describes the keys.
 */
#include "lib/sweep/sweep.h"
#include "lib/json/json_take.h"
#include "lib/results/results_read.h"

#include <math.h>

#define SIZE_MAX_B (1ull << 60)
#define FIGURE_MAX 1000000000000000000ull /* 1e18: bytes, ns, KiB/s */

struct reader {
	struct sb_jtake t;
	struct sb_sweep_doc *d;
	struct sb_sweep_result *r; /* the one being read: the aggregate or a rank's */
	int test;
	struct sb_sweep_rank *rank; /* a rank's stamps, NULL: the aggregate */
};

static int sizes(struct reader *rd, const struct sb_jv *sec, const char *key, uint64_t *v,
		 unsigned *n)
{
	struct sb_jtake *t = &rd->t;
	const struct sb_jv *a = sb_jtake_arr(t, sec, key, 0);
	if (!a)
		return t->e;
	if (!a->arr.n || a->arr.n > SB_SWEEP_MAX_SIZES)
		return sb_jtake_bad(t, key, "an array of 1 to 40 sizes", a);
	const size_t top = sb_jtake_down(t, key);
	for (size_t i = 0; i < a->arr.n && !t->e; i++) {
		const size_t at = sb_jtake_item(t, i);
		if (sb_jv_u64(&a->arr.v[i], &v[i]) < 0 || !v[i] || v[i] > SIZE_MAX_B ||
		    (i && v[i] <= v[i - 1]))
			sb_jtake_bad(t, NULL, "a size in bytes above the one before", &a->arr.v[i]);
		sb_jtake_up(t, at);
	}
	sb_jtake_up(t, top);
	*n = (unsigned)a->arr.n;
	return t->e;
}

static int options(struct reader *rd, const struct sb_jv *sec)
{
	struct sb_jtake *t = &rd->t;
	struct sb_sweep_opts *o = &rd->d->o;
	uint64_t stride = 0;
	const struct sb_jv *v = sb_jtake_obj(t, sec, "options", 0);
	if (!v)
		return t->e;
	const size_t top = sb_jtake_down(t, "options");
	sb_jtake_bool(t, v, "flush", 0, &o->flush);
	sb_jtake_bool(t, v, "close", 0, &o->close);
	sb_jtake_bool(t, v, "direct", 0, &o->direct);
	sb_jtake_bool(t, v, "warm", 0, &o->warm);
	sb_jtake_bool(t, v, "all_records", 0, &o->all_records);
	sb_jtake_u64(t, v, "stride", 0, 1000000, &stride);
	sb_jtake_u64(t, v, "burst_bytes", 0, FIGURE_MAX, &o->burst_bytes);
	sb_jtake_u64(t, v, "burst_idle_ns", 0, FIGURE_MAX, &o->burst_idle_ns);
	o->stride = (unsigned)stride;
	sb_jtake_up(t, top);
	return t->e;
}

/* shape[i][j]: the cell runs, as the sizes and the small-record rule say */
static int shape_cell(struct sb_jtake *t, const struct sb_jv *v, size_t fi, size_t ri, void *ctx)
{
	const struct reader *rd = ctx;
	const int runs = sb_sweep_cell_runs(&rd->d->r, (unsigned)fi, (unsigned)ri);
	if (!sb_jv_is(v, SB_JV_BOOL) || v->boolean != runs)
		return sb_jtake_bad(t, NULL,
				    runs ? "true (the cell is in the matrix)"
					 : "false (the record is larger than the file, or "
					   "skipped by the small-record rule)",
				    v);
	return 0;
}

/* A figure where the cell was measured (null elsewhere); the cell is
 * measured where kib_per_s, read first, has one. */
static int figure(struct sb_jtake *t, const struct sb_jv *v, const struct reader *rd, size_t fi,
		  size_t ri, uint64_t *out)
{
	const int done = rd->r->state[rd->test][fi][ri] == SB_SWEEP_CELL_DONE;
	if (!done)
		return sb_jv_is(v, SB_JV_NULL) ? 0
					       : sb_jtake_bad(t, NULL, "null (not measured)", v);
	if (sb_jv_u64(v, out) < 0 || *out > FIGURE_MAX)
		return sb_jtake_bad(t, NULL, "a whole number from 0 to 1e18", v);
	return 0;
}

static int kib_cell(struct sb_jtake *t, const struct sb_jv *v, size_t fi, size_t ri, void *ctx)
{
	struct reader *rd = ctx;
	struct sb_sweep_result *r = rd->r;
	if (sb_jv_is(v, SB_JV_NULL))
		return 0;
	if (!sb_sweep_cell_runs(r, (unsigned)fi, (unsigned)ri))
		return sb_jtake_bad(t, NULL, "null (outside the shape)", v);
	r->state[rd->test][fi][ri] = SB_SWEEP_CELL_DONE;
	return figure(t, v, rd, fi, ri, &r->kibps[rd->test][fi][ri]);
}

static int elapsed_cell(struct sb_jtake *t, const struct sb_jv *v, size_t fi, size_t ri, void *ctx)
{
	struct reader *rd = ctx;
	return figure(t, v, rd, fi, ri, &rd->r->elapsed_ns[rd->test][fi][ri]);
}

static int bytes_cell(struct sb_jtake *t, const struct sb_jv *v, size_t fi, size_t ri, void *ctx)
{
	struct reader *rd = ctx;
	return figure(t, v, rd, fi, ri, &rd->r->bytes[rd->test][fi][ri]);
}

static int early_cell(struct sb_jtake *t, const struct sb_jv *v, size_t fi, size_t ri, void *ctx)
{
	struct reader *rd = ctx;
	if (rd->r->state[rd->test][fi][ri] != SB_SWEEP_CELL_DONE)
		return sb_jv_is(v, SB_JV_NULL) ? 0
					       : sb_jtake_bad(t, NULL, "null (not measured)", v);
	if (!sb_jv_is(v, SB_JV_BOOL))
		return sb_jtake_bad(t, NULL, "a boolean", v);
	rd->r->ended_early[rd->test][fi][ri] = (unsigned char)v->boolean;
	return 0;
}

/* seconds: a spread (the aggregate's, 0 and 1) or a rank's stamp (2, 3) */
static int seconds(struct sb_jtake *t, const struct sb_jv *v, const struct reader *rd, size_t fi,
		   size_t ri, double *out)
{
	if (rd->r->state[rd->test][fi][ri] != SB_SWEEP_CELL_DONE) {
		*out = NAN;
		return sb_jv_is(v, SB_JV_NULL) ? 0
					       : sb_jtake_bad(t, NULL, "null (not measured)", v);
	}
	if (!sb_jv_is(v, SB_JV_NUM) || !isfinite(v->num.d) || v->num.d < 0 || v->num.d > 1e12)
		return sb_jtake_bad(t, NULL, "seconds from 0", v);
	*out = v->num.d;
	return 0;
}

static int start_spread_cell(struct sb_jtake *t, const struct sb_jv *v, size_t fi, size_t ri,
			     void *ctx)
{
	struct reader *rd = ctx;
	return seconds(t, v, rd, fi, ri, &rd->d->spread[rd->test][0][fi][ri]);
}

static int end_spread_cell(struct sb_jtake *t, const struct sb_jv *v, size_t fi, size_t ri,
			   void *ctx)
{
	struct reader *rd = ctx;
	return seconds(t, v, rd, fi, ri, &rd->d->spread[rd->test][1][fi][ri]);
}

static int start_cell(struct sb_jtake *t, const struct sb_jv *v, size_t fi, size_t ri, void *ctx)
{
	struct reader *rd = ctx;
	return seconds(t, v, rd, fi, ri, &rd->rank->start_s[rd->test][fi][ri]);
}

static int end_cell(struct sb_jtake *t, const struct sb_jv *v, size_t fi, size_t ri, void *ctx)
{
	struct reader *rd = ctx;
	return seconds(t, v, rd, fi, ri, &rd->rank->end_s[rd->test][fi][ri]);
}

/* The name of test i: a test of the sweep, after the one before. */
static int test_name(struct reader *rd, const struct sb_jv *x, int before, int *test)
{
	struct sb_jtake *t = &rd->t;
	const char *name = NULL;
	if (sb_jtake_str(t, x, "test", 0, &name))
		return t->e;
	const int k = sb_sweep_test_by_name(name);
	if (k < 0 || k <= before)
		return sb_jtake_bad(t, "test",
				    "a sweep test (write, rewrite, read, ...) after the one before",
				    sb_jv_get(x, "test"));
	*test = k;
	return 0;
}

/* One test's matrices: the aggregate's (or the one process's) or a
 * rank's; the cells of the shape planned, those with a figure measured. */
static int test_matrices(struct reader *rd, const struct sb_jv *x, int many)
{
	struct sb_jtake *t = &rd->t;
	struct sb_sweep_result *r = rd->r;
	const unsigned nf = r->nfile, nr = r->nrec;
	const int opt = many ? 0 : SB_JTAKE_OPTIONAL;
	for (unsigned fi = 0; fi < nf; fi++)
		for (unsigned ri = 0; ri < nr; ri++)
			r->state[rd->test][fi][ri] = sb_sweep_cell_runs(r, fi, ri)
							     ? SB_SWEEP_CELL_PLANNED
							     : SB_SWEEP_CELL_SKIP;
	sb_jtake_matrix(t, x, "kib_per_s", 0, nf, nr, kib_cell, rd);
	sb_jtake_matrix(t, x, "elapsed_ns", 0, nf, nr, elapsed_cell, rd);
	if (rd->rank) {
		sb_jtake_matrix(t, x, "bytes", 0, nf, nr, bytes_cell, rd);
		sb_jtake_matrix(t, x, "start_s", SB_JTAKE_OPTIONAL, nf, nr, start_cell, rd);
		sb_jtake_matrix(t, x, "end_s", SB_JTAKE_OPTIONAL, nf, nr, end_cell, rd);
	} else {
		sb_jtake_matrix(t, x, "bytes", opt, nf, nr, bytes_cell, rd);
		if (many) {
			sb_jtake_matrix(t, x, "start_spread_s", 0, nf, nr, start_spread_cell, rd);
			sb_jtake_matrix(t, x, "end_spread_s", 0, nf, nr, end_spread_cell, rd);
		}
	}
	sb_jtake_matrix(t, x, "stonewalled", opt, nf, nr, early_cell, rd);
	return t->e;
}

static int tests(struct reader *rd, const struct sb_jv *sec, int many)
{
	struct sb_jtake *t = &rd->t;
	const struct sb_jv *a = sb_jtake_arr(t, sec, "tests", 0);
	const char *title;
	int before = -1;
	if (!a)
		return t->e;
	const size_t top = sb_jtake_down(t, "tests");
	for (size_t i = 0; i < a->arr.n && !t->e; i++) {
		const struct sb_jv *x = &a->arr.v[i];
		const size_t at = sb_jtake_item(t, i);
		if (!sb_jv_is(x, SB_JV_OBJ))
			sb_jtake_bad(t, NULL, "an object of a test's matrices", x);
		else if (!test_name(rd, x, before, &rd->test) &&
			 !sb_jtake_str(t, x, "title", 0, &title))
			test_matrices(rd, x, many);
		if (!t->e) {
			before = rd->test;
			rd->d->o.tests |= 1u << rd->test;
		}
		sb_jtake_up(t, at);
	}
	sb_jtake_up(t, top);
	return t->e;
}

/* Rank k's tests: the section's, in its order. */
static int rank_tests(struct reader *rd, const struct sb_jv *x)
{
	struct sb_jtake *t = &rd->t;
	const struct sb_jv *a = sb_jtake_arr(t, x, "tests", 0);
	int before = -1;
	if (!a)
		return t->e;
	const size_t top = sb_jtake_down(t, "tests");
	for (size_t i = 0; i < a->arr.n && !t->e; i++) {
		const struct sb_jv *y = &a->arr.v[i];
		const size_t at = sb_jtake_item(t, i);
		if (!sb_jv_is(y, SB_JV_OBJ))
			sb_jtake_bad(t, NULL, "an object of a test's matrices", y);
		else if (test_name(rd, y, before, &rd->test))
			; /* said */
		else if (!(rd->d->o.tests & (1u << rd->test)))
			sb_jtake_bad(t, "test", "a test the section's tests have",
				     sb_jv_get(y, "test"));
		else
			test_matrices(rd, y, 1);
		if (!t->e)
			before = rd->test;
		sb_jtake_up(t, at);
	}
	sb_jtake_up(t, top);
	return t->e;
}

static int rank(struct reader *rd, const struct sb_jv *x, struct sb_sweep_rank *k)
{
	struct sb_jtake *t = &rd->t;
	const struct sb_sweep_result *agg = &rd->d->r;
	const char *host = "";
	uint64_t n = 0, cells = 0, early = 0;
	int stopped = 0;
	double off = 0;
	if (!sb_jv_is(x, SB_JV_OBJ))
		return sb_jtake_bad(t, NULL, "an object of a rank's figures", x);
	sb_jtake_u64(t, x, "rank", 0, 16777215, &n);
	sb_jtake_str(t, x, "hostname", 0, &host);
	sb_jtake_num(t, x, "clock_offset_s", SB_JTAKE_OPTIONAL, -1e9, 1e9, &off);
	sb_jtake_u64(t, x, "cells_done", SB_JTAKE_OPTIONAL, agg->cells_planned, &cells);
	sb_jtake_bool(t, x, "interrupted", SB_JTAKE_OPTIONAL, &stopped);
	sb_jtake_u64(t, x, "stonewalled_passes", SB_JTAKE_OPTIONAL, FIGURE_MAX, &early);
	k->rank = (int)n;
	snprintf(k->host, sizeof(k->host), "%s", host);
	k->clock_offset_s = off;
	/* the aggregate's shape, its own figures */
	k->r.nfile = agg->nfile;
	k->r.nrec = agg->nrec;
	memcpy(k->r.file_sizes, agg->file_sizes, sizeof(agg->file_sizes));
	memcpy(k->r.record_sizes, agg->record_sizes, sizeof(agg->record_sizes));
	k->r.small_record_rule = agg->small_record_rule;
	k->r.cells_planned = agg->cells_planned;
	k->r.cells_done = (unsigned)cells;
	k->r.interrupted = stopped;
	rd->r = &k->r;
	rd->rank = k;
	rank_tests(rd, x);
	rd->r = &rd->d->r;
	rd->rank = NULL;
	return t->e;
}

static int ranks(struct reader *rd, const struct sb_jv *sec)
{
	struct sb_jtake *t = &rd->t;
	struct sb_sweep_doc *d = rd->d;
	const struct sb_jv *a = sb_jtake_arr(t, sec, "ranks", 0);
	if (!a)
		return t->e;
	if (!a->arr.n)
		return sb_jtake_bad(t, "ranks", "an array of the ranks' figures", a);
	if (!(d->ranks = calloc(a->arr.n, sizeof(*d->ranks))))
		return t->e = sb_error_set(t->err, -ENOMEM, SB_ERR_ENV, "out of memory");
	const size_t top = sb_jtake_down(t, "ranks");
	for (size_t k = 0; k < a->arr.n && !t->e; k++) {
		const size_t at = sb_jtake_item(t, k);
		rank(rd, &a->arr.v[k], &d->ranks[k]);
		sb_jtake_up(t, at);
	}
	sb_jtake_up(t, top);
	d->r.ranks = d->ranks;
	d->r.nranks = (unsigned)a->arr.n;
	return t->e;
}

/* The keys before the tests: sizes, options, counts. */
static int head(struct reader *rd, const struct sb_jv *sec)
{
	struct sb_jtake *t = &rd->t;
	struct sb_sweep_doc *d = rd->d;
	struct sb_sweep_result *r = &d->r;
	const char *unit = NULL, *cache = NULL;
	uint64_t planned = 0, done = 0;
	if (!sb_jtake_str(t, sec, "unit", 0, &unit) && strcmp(unit, "KiB/s"))
		sb_jtake_bad(t, "unit", "\"KiB/s\"", sb_jv_get(sec, "unit"));
	sizes(rd, sec, "file_sizes", r->file_sizes, &r->nfile);
	sizes(rd, sec, "record_sizes", r->record_sizes, &r->nrec);
	sb_jtake_bool(t, sec, "small_record_rule", 0, &r->small_record_rule);
	options(rd, sec);
	if (!sb_jtake_str(t, sec, "cache", 0, &cache))
		snprintf(d->cache, sizeof(d->cache), "%s", cache);
	if (t->e)
		return t->e;
	const unsigned cells = r->nfile * r->nrec;
	sb_jtake_u64(t, sec, "cells_planned", 0, cells, &planned);
	sb_jtake_u64(t, sec, "cells_done", 0, planned, &done);
	sb_jtake_bool(t, sec, "interrupted", 0, &r->interrupted);
	r->cells_planned = (unsigned)planned;
	r->cells_done = (unsigned)done;
	return sb_jtake_matrix(t, sec, "shape", 0, r->nfile, r->nrec, shape_cell, rd);
}

int sb_sweep_read(const struct sb_jv *sec, struct sb_sweep_doc *out, struct sb_error *err)
{
	struct reader rd = { .d = out, .r = &out->r };
	memset(out, 0, sizeof(*out));
	sb_jtake_init(&rd.t, err);
	out->r.opts = &out->o;
	if (!sb_jv_is(sec, SB_JV_OBJ))
		return sb_jtake_bad(&rd.t, NULL, "an object", sec);
	int e = sb_ranks_check(sec, "", err); /* its ranks, as every section's */
	if (e < 0)
		return e;
	/* many ranks: the aggregate with each rank's figures */
	const int many = sb_jv_get(sec, "ranks") != NULL;
	if (many && !(out->spread = calloc(SB_SWEEP_NTESTS, sizeof(*out->spread))))
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	if (!head(&rd, sec) && many)
		sb_jtake_bool(&rd.t, sec, "stonewall", 0, &out->r.stonewall);
	if (!rd.t.e)
		tests(&rd, sec, many);
	if (!rd.t.e && many)
		ranks(&rd, sec);
	if (rd.t.e)
		sb_sweep_doc_free(out);
	return rd.t.e;
}

void sb_sweep_doc_free(struct sb_sweep_doc *d)
{
	if (!d)
		return;
	free(d->ranks);
	free(d->spread);
	d->ranks = NULL;
	d->spread = NULL;
	d->r.ranks = NULL;
	d->r.nranks = 0;
}

double sb_sweep_rank_rate(const struct sb_sweep_result *m, int t)
{
	double bytes = 0, ns = 0;
	for (unsigned fi = 0; fi < m->nfile; fi++)
		for (unsigned ri = 0; ri < m->nrec; ri++)
			if (m->state[t][fi][ri] == SB_SWEEP_CELL_DONE &&
			    m->elapsed_ns[t][fi][ri] > 0) {
				bytes += (double)sb_sweep_pass_bytes(m, t, fi, ri);
				ns += (double)m->elapsed_ns[t][fi][ri];
			}
	return ns > 0 ? bytes / ns * 1e9 : -1;
}
