/*
 * The sweep's section of the results file: one matrix per test, file sizes
 * down and record sizes across as in iozone's -R report, null where a cell
 * was not measured. docs/sweep.md describes it for readers (the HTML and
 * XLSX reports).
 */
#include "lib/sweep/sweep.h"
#include "lib/coord/coord.h"
#include "lib/json/json_write.h"
#include "lib/results/results.h"
#include "lib/target/cache.h"

static void sizes(struct sb_json *j, const char *key, const uint64_t *v, unsigned n)
{
	sb_json_arr_open(j, key);
	for (unsigned i = 0; i < n; i++)
		sb_json_u64(j, NULL, v[i]);
	sb_json_arr_close(j);
}

static void options(struct sb_json *j, const struct sb_sweep_opts *o)
{
	sb_json_obj_open(j, "options");
	sb_json_bool(j, "flush", o->flush);
	sb_json_bool(j, "close", o->close);
	sb_json_bool(j, "direct", o->direct);
	sb_json_bool(j, "warm", o->warm);
	sb_json_bool(j, "all_records", o->all_records);
	sb_json_u64(j, "stride", o->stride);
	sb_json_u64(j, "burst_bytes", o->burst_bytes);
	sb_json_u64(j, "burst_idle_ns", o->burst_idle_ns);
	sb_json_obj_close(j);
}

static const char *cache_state(const struct sb_sweep_result *r, const struct sb_sweep_opts *o)
{
	if (o->warm)
		return "warm";
	if (r->cache_error)
		return "not dropped (error)";
	if (r->cache_method == SB_CACHE_DROP_CACHES)
		return "dropped (drop_caches)";
	if (r->cache_method == SB_CACHE_FADVISE)
		return "dropped (fadvise)";
	return o->direct ? "bypassed (direct I/O)" : "not dropped";
}

static void shape(struct sb_json *j, const struct sb_sweep_result *r)
{
	sb_json_arr_open(j, "shape");
	for (unsigned fi = 0; fi < r->nfile; fi++) {
		sb_json_arr_open(j, NULL);
		for (unsigned ri = 0; ri < r->nrec; ri++)
			sb_json_bool(j, NULL, sb_sweep_cell_runs(r, fi, ri));
		sb_json_arr_close(j);
	}
	sb_json_arr_close(j);
}

/* rows of one test: the value where measured, null elsewhere */
static void matrix(struct sb_json *j, const char *key, const struct sb_sweep_result *r, int t,
		   const uint64_t (*v)[SB_SWEEP_MAX_SIZES])
{
	sb_json_arr_open(j, key);
	for (unsigned fi = 0; fi < r->nfile; fi++) {
		sb_json_arr_open(j, NULL);
		for (unsigned ri = 0; ri < r->nrec; ri++) {
			if (r->state[t][fi][ri] == SB_SWEEP_CELL_DONE)
				sb_json_u64(j, NULL, v[fi][ri]);
			else
				sb_json_null(j, NULL);
		}
		sb_json_arr_close(j);
	}
	sb_json_arr_close(j);
}

/* What a double matrix holds in a cell (value set when measured). */
typedef int (*cell_fn)(const struct sb_sweep_result *r, const void *arg, int t, unsigned fi,
		       unsigned ri, double *v);

static int agg_bytes(const struct sb_sweep_result *r, const void *arg, int t, unsigned fi,
		     unsigned ri, double *v);
static int rank_bytes(const struct sb_sweep_result *r, const void *arg, int t, unsigned fi,
		      unsigned ri, double *v);

static void dmatrix(struct sb_json *j, const char *key, const struct sb_sweep_result *r, int t,
		    cell_fn fn, const void *arg)
{
	sb_json_arr_open(j, key);
	for (unsigned fi = 0; fi < r->nfile; fi++) {
		sb_json_arr_open(j, NULL);
		for (unsigned ri = 0; ri < r->nrec; ri++) {
			double v;
			if (!fn(r, arg, t, fi, ri, &v))
				sb_json_null(j, NULL);
			else if (fn == agg_bytes || fn == rank_bytes)
				sb_json_u64(j, NULL, (uint64_t)v);
			else
				sb_json_double(j, NULL, v);
		}
		sb_json_arr_close(j);
	}
	sb_json_arr_close(j);
}

/* the aggregate's bytes: every rank's summed */
static int agg_bytes(const struct sb_sweep_result *r, const void *arg, int t, unsigned fi,
		     unsigned ri, double *v)
{
	uint64_t sum = 0;
	(void)arg;
	for (unsigned k = 0; k < r->nranks; k++)
		sum += sb_sweep_pass_bytes(&r->ranks[k].r, t, fi, ri);
	*v = (double)sum;
	return r->state[t][fi][ri] == SB_SWEEP_CELL_DONE;
}

static int spread(const struct sb_sweep_result *r, const void *arg, int t, unsigned fi, unsigned ri,
		  double *v)
{
	double s, e;
	sb_sweep_spread(r, t, fi, ri, &s, &e);
	*v = arg ? e : s;
	return r->state[t][fi][ri] == SB_SWEEP_CELL_DONE;
}

static int rank_bytes(const struct sb_sweep_result *r, const void *arg, int t, unsigned fi,
		      unsigned ri, double *v)
{
	(void)arg;
	*v = (double)sb_sweep_pass_bytes(r, t, fi, ri);
	return r->state[t][fi][ri] == SB_SWEEP_CELL_DONE;
}

/* true where the pass ended early (--stonewall), null where not measured */
static void early_matrix(struct sb_json *j, const struct sb_sweep_result *r, int t)
{
	sb_json_arr_open(j, "stonewalled");
	for (unsigned fi = 0; fi < r->nfile; fi++) {
		sb_json_arr_open(j, NULL);
		for (unsigned ri = 0; ri < r->nrec; ri++) {
			if (r->state[t][fi][ri] == SB_SWEEP_CELL_DONE)
				sb_json_bool(j, NULL, r->ended_early[t][fi][ri]);
			else
				sb_json_null(j, NULL);
		}
		sb_json_arr_close(j);
	}
	sb_json_arr_close(j);
}

static unsigned early_passes(const struct sb_sweep_result *r)
{
	unsigned n = 0;
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		for (unsigned fi = 0; fi < r->nfile; fi++)
			for (unsigned ri = 0; ri < r->nrec; ri++)
				n += r->state[t][fi][ri] == SB_SWEEP_CELL_DONE &&
				     r->ended_early[t][fi][ri];
	return n;
}

/* a rank's start or end, from the earliest start of the run (every rank,
 * every pass) */
struct stamp_arg {
	const struct sb_sweep_rank *rank;
	double origin;
	int end;
};

static int stamp(const struct sb_sweep_result *r, const void *arg, int t, unsigned fi, unsigned ri,
		 double *v)
{
	const struct stamp_arg *a = arg;
	*v = (a->end ? a->rank->end_s[t][fi][ri] : a->rank->start_s[t][fi][ri]) - a->origin;
	return r->state[t][fi][ri] == SB_SWEEP_CELL_DONE;
}

static double origin(const struct sb_sweep_result *agg)
{
	double o = 0;
	int any = 0;
	for (unsigned k = 0; k < agg->nranks; k++)
		for (int t = 0; t < SB_SWEEP_NTESTS; t++)
			for (unsigned fi = 0; fi < agg->nfile; fi++)
				for (unsigned ri = 0; ri < agg->nrec; ri++) {
					const struct sb_sweep_rank *rk = &agg->ranks[k];
					if (rk->r.state[t][fi][ri] != SB_SWEEP_CELL_DONE)
						continue;
					if (!any || rk->start_s[t][fi][ri] < o)
						o = rk->start_s[t][fi][ri];
					any = 1;
				}
	return o;
}

/* Each rank's own matrices (client_stats' place for a sweep). */
static void ranks_json(struct sb_json *j, const struct sb_sweep_result *agg)
{
	const struct sb_sweep_opts *o = agg->opts;
	const double t0 = origin(agg);
	sb_json_arr_open(j, "ranks");
	for (unsigned k = 0; k < agg->nranks; k++) {
		const struct sb_sweep_rank *rk = &agg->ranks[k];
		const struct sb_sweep_result *r = &rk->r;
		sb_json_obj_open(j, NULL);
		sb_json_i64(j, "rank", rk->rank);
		sb_json_str(j, "hostname", rk->host);
		sb_json_double(j, "clock_offset_s", rk->clock_offset_s);
		sb_json_u64(j, "cells_done", r->cells_done);
		sb_json_bool(j, "interrupted", r->interrupted);
		sb_json_u64(j, "stonewalled_passes", early_passes(r));
		sb_json_arr_open(j, "tests");
		for (int t = 0; t < SB_SWEEP_NTESTS; t++) {
			if (!(o->tests & (1u << t)))
				continue;
			const struct stamp_arg s0 = { rk, t0, 0 }, s1 = { rk, t0, 1 };
			sb_json_obj_open(j, NULL);
			sb_json_str(j, "test", sb_sweep_test_name(t));
			matrix(j, "kib_per_s", r, t, r->kibps[t]);
			matrix(j, "elapsed_ns", r, t, r->elapsed_ns[t]);
			dmatrix(j, "bytes", r, t, rank_bytes, NULL);
			dmatrix(j, "start_s", r, t, stamp, &s0);
			dmatrix(j, "end_s", r, t, stamp, &s1);
			early_matrix(j, r, t);
			sb_json_obj_close(j);
		}
		sb_json_arr_close(j);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

static void sweep_json(struct sb_json *j, const void *ctx)
{
	const struct sb_sweep_result *r = ctx;
	const struct sb_sweep_opts *o = r->opts;
	sb_json_str(j, "unit", "KiB/s");
	sizes(j, "file_sizes", r->file_sizes, r->nfile);
	sizes(j, "record_sizes", r->record_sizes, r->nrec);
	sb_json_bool(j, "small_record_rule", r->small_record_rule);
	options(j, o);
	sb_json_str(j, "cache", cache_state(r, o));
	sb_json_u64(j, "cells_planned", r->cells_planned);
	sb_json_u64(j, "cells_done", r->cells_done);
	sb_json_bool(j, "interrupted", r->interrupted);
	if (r->nranks)
		sb_json_bool(j, "stonewall", r->stonewall);
	shape(j, r);
	sb_json_arr_open(j, "tests");
	for (int t = 0; t < SB_SWEEP_NTESTS; t++) {
		if (!(o->tests & (1u << t)))
			continue;
		sb_json_obj_open(j, NULL);
		sb_json_str(j, "test", sb_sweep_test_name(t));
		sb_json_str(j, "title", sb_sweep_test_title(t));
		matrix(j, "kib_per_s", r, t, r->kibps[t]);
		matrix(j, "elapsed_ns", r, t, r->elapsed_ns[t]);
		if (r->nranks) {
			dmatrix(j, "bytes", r, t, agg_bytes, NULL);
			dmatrix(j, "start_spread_s", r, t, spread, NULL);
			dmatrix(j, "end_spread_s", r, t, spread, r);
			early_matrix(j, r, t);
		}
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	if (r->nranks)
		ranks_json(j, r);
}

int sb_results_sweep(struct sb_results *res, const struct sb_sweep_result *r)
{
	res->extra_key = sb_section_name(SB_SECTION_SWEEP);
	res->extra_json = sweep_json;
	res->extra_ctx = r;
	res->interrupted = r->interrupted;
	res->cache_dropped = r->cache_method;
	if (r->nranks) { /* many ranks: the All clients aggregate */
		res->nranks = r->nranks;
		snprintf(res->mpi_library, sizeof(res->mpi_library), "%s",
			 sb_coord_library() ? sb_coord_library() : "");
		res->stonewall = r->stonewall;
	}
	if (r->cache_error)
		return sb_results_warn(res,
				       "the page cache could not be dropped before read tests "
				       "(%s): their figures may come from memory",
				       strerror(r->cache_error));
	return 0;
}
