/*
 * The one walk over the results model behind the CSV and XLSX tables
 * (report/rows.h): each table's rows in order, every figure a typed cell
 * in base units, absent figures as NaN or empty cells.
 */
#include "report/rows.h"

#include <math.h>

const char *const rep_table_names[REP_T_N] = { "measurements", "intervals",   "summary",
					       "percentiles",  "records",     "verify",
					       "ranges",       "cliff",	      "iozone",
					       "ranks",	       "soak_ranks",  "meta_ranks",
					       "meta_skew",    "verify_ranks" };

static const char *const measurement_cols[RM_N] = {
	"source",
	"command",
	"job",
	"test",
	"run",
	"direction",
	"rw",
	"bs_bytes",
	"iodepth",
	"numjobs",
	"direct",
	"engine",
	"cache",
	"runtime_s",
	"io_bytes",
	"ios",
	"bw_bytes_per_s",
	"iops",
	"lat_kind",
	"lat_min_ns",
	"lat_mean_ns",
	"lat_max_ns",
	"lat_stddev_ns",
	"lat_p50_ns",
	"lat_p90_ns",
	"lat_p99_ns",
	"lat_p99_9_ns",
	"lat_p99_99_ns",
	"errors",
	[RM_BS] = "bs",
};
static const char *const interval_cols[RI_N] = {
	"source",  "command",	     "job",  "direction",   "t_start_s",
	"t_end_s", "bw_bytes_per_s", "iops", "lat_mean_ns", "lat_p99_ns",
};
static const char *const summary_cols[RS_N] = {
	"source",
	"command",
	"test",
	"direction",
	"runs",
	"bw_bytes_per_s_median",
	"bw_bytes_per_s_min",
	"bw_bytes_per_s_max",
	"iops_median",
	"iops_min",
	"iops_max",
	"lat_mean_ns_median",
	"lat_p99_ns_median",
};
static const char *const percentile_cols[RP_N] = {
	"source", "command", "job", "direction", "lat_kind", "percentile", "lat_ns",
};
static const char *const record_cols[RR_N] = { "source", "command", "record", "key", "value" };
static const char *const verify_cols[RV_N] = {
	"source", "command", "iteration", "class", "blocks", "bytes", "share_pct",
};
static const char *const range_cols[RG_N] = {
	"source",
	"command",
	"iteration",
	"class",
	"offset_bytes",
	"length_bytes",
	"expected_offset_bytes",
	"generation",
	"errno",
	"error",
	"rank",
	"host",
};

static const char *const cliff_cols[RC_N] = {
	"source",
	"command",
	"row",
	"index",
	"bytes_written",
	"bw_bytes_per_s",
	"before_bw_bytes_per_s",
	"after_bw_bytes_per_s",
	"idle_s",
	"recovered_bytes",
	"recovered_fraction",
};

static const char *const iozone_cols[RZ_N] = {
	"source",	   "command",		"iteration", "test",
	"file_size_bytes", "record_size_bytes", "kib_per_s",
};
static const char *const rank_cols[RK_N] = {
	"source",   "command",	      "job",  "rank",	 "host",  "direction",
	"io_bytes", "bw_bytes_per_s", "iops", "start_s", "end_s", "clock_offset_s",
};

static const char *const soak_rank_cols[RSK_N] = {
	"source",
	"command",
	"iteration",
	"rank",
	"host",
	"write_bw_bytes_per_s",
	"read_bw_bytes_per_s",
	"write_bytes",
	"checked_bytes",
	"start_s",
	"end_s",
	"write_start_s",
	"write_end_s",
	"check_start_s",
	"check_end_s",
	"blocks_checked",
	"bad_blocks",
	"io_errors",
	"failed",
};
static const char *const meta_rank_cols[RMK_N] = {
	"source",     "command",    "test",	  "rank",    "host",	  "ops",
	"bytes",      "elapsed_ns", "cpu_ns",	  "rate",    "rate_unit", "lat_min_ns",
	"lat_p50_ns", "lat_p99_ns", "lat_max_ns", "start_s", "end_s",
};
static const char *const meta_skew_cols[RMS_N] = {
	"source",
	"command",
	"test",
	"first_start_s",
	"start_spread_s",
	"end_spread_s",
	"span_s",
	"median_rate",
	"rate_unit",
	"slowest_rank",
	"slowest_vs_median",
	"fastest_rank",
	"fastest_vs_median",
};
static const char *const verify_rank_cols[RVK_N] = {
	"source",
	"command",
	"rank",
	"host",
	"path",
	"result",
	"blocks_checked",
	"not_intact",
	"intact",
	"corrupted",
	"misplaced",
	"stale",
	"foreign",
	"unreadable",
	"newer",
	"missing",
	"bad_ranges_omitted",
};
_Static_assert(REP_VCLASS_N == 8, "verify_rank_cols names every class");

const struct rep_columns rep_columns[REP_T_N] = {
	[REP_T_MEASUREMENTS] = { measurement_cols, RM_N, RM_CSV },
	[REP_T_INTERVALS] = { interval_cols, RI_N, RI_N },
	[REP_T_SUMMARY] = { summary_cols, RS_N, RS_N },
	[REP_T_PERCENTILES] = { percentile_cols, RP_N, RP_N },
	[REP_T_RECORDS] = { record_cols, RR_N, RR_N },
	[REP_T_VERIFY] = { verify_cols, RV_N, RV_N },
	[REP_T_RANGES] = { range_cols, RG_N, RG_N },
	[REP_T_CLIFF] = { cliff_cols, RC_N, RC_N },
	[REP_T_IOZONE] = { iozone_cols, RZ_N, RZ_N },
	[REP_T_RANKS] = { rank_cols, RK_N, RK_N },
	[REP_T_SOAK_RANKS] = { soak_rank_cols, RSK_N, RSK_N },
	[REP_T_META_RANKS] = { meta_rank_cols, RMK_N, RMK_N },
	[REP_T_META_SKEW] = { meta_skew_cols, RMS_N, RMS_N },
	[REP_T_VERIFY_RANKS] = { verify_rank_cols, RVK_N, RVK_N },
};

struct walk {
	unsigned flags;
	rep_row_fn fn;
	void *ctx;
	size_t n;
	int err; /* of reading a file again */
	struct rep_row row;
	int ddir; /* intervals of one direction (REP_ROWS_BY_SERIES) */
};

static struct rep_cell str(const char *s)
{
	return (struct rep_cell){ .kind = REP_CELL_STR, .s = s };
}

static struct rep_cell num(double d)
{
	return (struct rep_cell){ .kind = REP_CELL_NUM, .d = d };
}

static struct rep_cell u64(uint64_t u)
{
	return (struct rep_cell){ .kind = REP_CELL_INT, .u = u };
}

static struct rep_cell count(double d)
{
	return (struct rep_cell){ .kind = REP_CELL_WHOLE, .d = d };
}

/* An iteration number, absent (0) outside soak. */
static struct rep_cell iteration(double it)
{
	return it > 0 ? (struct rep_cell){ .kind = REP_CELL_WHOLE, .d = it }
		      : (struct rep_cell){ .kind = REP_CELL_EMPTY };
}

/* A row of d, every cell empty but the two every table starts with. */
static struct rep_cell *row(struct walk *w, const struct rep_doc *d, const struct rep_job *j,
			    int ddir)
{
	struct rep_row *r = &w->row;
	memset(r->cell, 0, sizeof(r->cell));
	r->doc = d;
	r->job = j;
	r->ddir = ddir;
	r->cell[0] = str(d->name);
	r->cell[1] = str(d->command);
	return r->cell;
}

static void emit(struct walk *w)
{
	w->n++;
	if (w->fn)
		w->fn(w->ctx, &w->row);
}

static void measurement(struct walk *w, const struct rep_doc *d, const struct rep_job *j, int dd)
{
	static const double pcts[] = { 50, 90, 99, 99.9, 99.99 };
	const struct rep_dir *r = &j->dir[dd];
	struct rep_cell *c = row(w, d, j, dd);
	c[RM_JOB] = str(j->name);
	c[RM_TEST] = str(j->group);
	c[RM_RUN] = u64(j->run);
	c[RM_DIR] = str(sb_ddir_name(dd));
	c[RM_RW] = str(j->rw);
	c[RM_BS_BYTES] = j->bs_bytes ? u64(j->bs_bytes) : str(j->bs);
	c[RM_IODEPTH] = u64(j->iodepth);
	c[RM_NUMJOBS] = u64(j->numjobs);
	c[RM_DIRECT] = (struct rep_cell){ .kind = REP_CELL_FLAG, .flag = j->direct };
	c[RM_ENGINE] = str(j->engine);
	c[RM_CACHE] = str(j->cache);
	c[RM_RUNTIME] = num(j->runtime_s);
	c[RM_IO_BYTES] = u64(r->bytes);
	c[RM_IOS] = u64(r->ios);
	c[RM_BW] = num(r->bw);
	c[RM_IOPS] = num(r->iops);
	c[RM_LAT_KIND] = str(j->lat_kind);
	c[RM_LAT_MIN] = num(r->lat.n ? r->lat.min : NAN);
	c[RM_LAT_MEAN] = num(r->lat.n ? r->lat.mean : NAN);
	c[RM_LAT_MAX] = num(r->lat.n ? r->lat.max : NAN);
	c[RM_LAT_STDDEV] = num(r->lat.n ? r->lat.stddev : NAN);
	for (size_t p = 0; p < SB_ARRAY_SIZE(pcts); p++)
		c[RM_P50 + p] = num(rep_pct(&r->lat, pcts[p]));
	c[RM_ERRORS] = u64(j->errors);
	c[RM_BS] = str(j->bs);
	emit(w);
}

static void measurements(struct walk *w, const struct rep_doc *d)
{
	for (size_t k = 0; k < d->njobs; k++)
		for (int dd = 0; dd < SB_DDIR_N; dd++)
			if (d->jobs[k].dir[dd].used)
				measurement(w, d, &d->jobs[k], dd);
}

/* A direction that moved nothing in an interval has bandwidth 0 there. */
static void interval(struct walk *w, const struct rep_doc *d, const struct rep_job *j,
		     const struct sb_interval_doc *iv, int dd)
{
	const int has = iv->has[dd];
	const double t1 = iv->t_ns / 1e9, len = iv->len_ns / 1e9;
	struct rep_cell *c = row(w, d, j, dd);
	c[RI_JOB] = str(j->name);
	c[RI_DIR] = str(sb_ddir_name(dd));
	c[RI_T0] = num(t1 - len);
	c[RI_T1] = num(t1);
	c[RI_BW] = num(has ? iv->bw[dd] : 0);
	c[RI_IOPS] = num(has ? iv->iops[dd] : 0);
	c[RI_LAT_MEAN] = num(has ? iv->lat_mean_ns[dd] : NAN);
	c[RI_LAT_P99] = num(has ? iv->lat_p99_ns[dd] : NAN);
	emit(w);
}

/* An interval read again: a row per direction the job used (or the one
 * direction asked for). */
static int interval_rows(void *ctx, const struct rep_doc *d, const struct rep_job *j,
			 const struct sb_interval_doc *iv)
{
	struct walk *w = ctx;
	for (int dd = 0; dd < SB_DDIR_N; dd++)
		if (j->dir[dd].used && (w->ddir < 0 || w->ddir == dd))
			interval(w, d, j, iv, dd);
	return 0;
}

static void intervals(struct walk *w, const struct rep_doc *d)
{
	int e = 0;
	w->ddir = -1;
	if (!(w->flags & REP_ROWS_BY_SERIES)) {
		e = rep_each_interval(d, NULL, interval_rows, w);
	} else { /* the points of each job and direction together */
		for (size_t k = 0; !e && k < d->njobs; k++)
			for (int dd = 0; !e && dd < SB_DDIR_N; dd++) {
				w->ddir = dd;
				if (d->jobs[k].dir[dd].used && d->jobs[k].series.n)
					e = rep_each_interval(d, &d->jobs[k], interval_rows, w);
			}
	}
	if (e < 0 && !w->err)
		w->err = e;
}

static void summary(struct walk *w, const struct rep_doc *d)
{
	for (size_t k = 0; k < d->nsummary; k++) {
		const struct rep_summary *s = &d->summary[k];
		struct rep_cell *c = row(w, d, NULL, s->ddir);
		c[RS_TEST] = str(s->test);
		c[RS_DIR] = str(sb_ddir_name(s->ddir));
		c[RS_RUNS] = u64(s->runs);
		c[RS_BW_MED] = num(s->bw_median);
		c[RS_BW_MIN] = num(s->bw_min);
		c[RS_BW_MAX] = num(s->bw_max);
		c[RS_IOPS_MED] = num(s->iops_median);
		c[RS_IOPS_MIN] = num(s->iops_min);
		c[RS_IOPS_MAX] = num(s->iops_max);
		c[RS_LAT_MEAN_MED] = num(s->lat_mean_median);
		c[RS_LAT_P99_MED] = num(s->lat_p99_median);
		emit(w);
	}
}

static void percentiles(struct walk *w, const struct rep_doc *d)
{
	for (size_t k = 0; k < d->njobs; k++) {
		const struct rep_job *j = &d->jobs[k];
		for (int dd = 0; dd < SB_DDIR_N; dd++) {
			const struct rep_lat *l = &j->dir[dd].lat;
			for (unsigned p = 0; j->dir[dd].used && p < l->npct; p++) {
				struct rep_cell *c = row(w, d, j, dd);
				c[RP_JOB] = str(j->name);
				c[RP_DIR] = str(sb_ddir_name(dd));
				c[RP_LAT_KIND] = str(j->lat_kind);
				c[RP_PCT] = num(l->pct[p]);
				c[RP_LAT] = num(l->val[p]);
				emit(w);
			}
		}
	}
}

/* A record's scalars, nested names joined with '.'; depth is bounded by the reader. */
static void flatten(struct walk *w, const struct rep_doc *d, size_t rec, const char *prefix,
		    const struct sb_jv *v)
{
	char key[512];
	for (size_t i = 0; i < sb_jv_len(v); i++) {
		const struct sb_jv *x = v->type == SB_JV_OBJ ? &v->obj.m[i].val : &v->arr.v[i];
		if (v->type == SB_JV_OBJ)
			snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "",
				 v->obj.m[i].key);
		else
			snprintf(key, sizeof(key), "%s[%zu]", prefix, i);
		if (x->type == SB_JV_OBJ || x->type == SB_JV_ARR) {
			flatten(w, d, rec, key, x);
			continue;
		}
		struct rep_cell *c = row(w, d, NULL, -1);
		c[RR_RECORD] = u64(rec + 1);
		c[RR_KEY] = str(key);
		c[RR_VALUE] = x->type == SB_JV_STR ? str(x->str.s)
			      : x->type == SB_JV_NUM
				      ? num(x->num.d)
				      : str(x->type == SB_JV_BOOL ? (x->boolean ? "true" : "false")
								  : "");
		emit(w);
	}
}

static int record_rows(void *ctx, const struct rep_doc *d, size_t index, const struct sb_jv *r)
{
	flatten(ctx, d, index, "", r);
	return 0;
}

static void records(struct walk *w, const struct rep_doc *d)
{
	int e = rep_each_record(d, record_rows, w);
	if (e < 0 && !w->err)
		w->err = e;
}

/* ---- verify: blocks per class, and the bad ranges ---- */
static void verify_counts(void *ctx, const struct rep_doc *d, double it,
			  const struct sb_verify_doc *v)
{
	struct walk *w = ctx;
	/* a soak iteration's block size is the log's */
	struct sb_soak_line config;
	sb_soak_line_read(d->root, &config);
	const double bs = v->block_size ? v->block_size : config.block_size;
	const double all = (double)v->b.blocks;
	for (int k = 0; k < REP_VCLASS_N; k++) {
		if (!rep_vclass_shown(&v->b, k))
			continue;
		const double n = (double)v->b.count[k];
		struct rep_cell *c = row(w, d, NULL, -1);
		c[RV_ITERATION] = iteration(it);
		c[RV_CLASS] = str(sb_verify_class_name(k));
		c[RV_BLOCKS] = num(n);
		c[RV_BYTES] = num(n * bs);
		c[RV_SHARE] = num(all > 0 ? 100 * n / all : NAN);
		emit(w);
	}
}

/* The bad ranges of blocks b (rank: its rank's part, else NULL). */
static void ranges_of(struct walk *w, const struct rep_doc *d, double it,
		      const struct sb_verify_doc_blocks *b, const struct sb_verify_doc_rank *rank)
{
	for (size_t i = 0; i < b->nranges; i++) {
		const struct sb_verify_doc_range *r = &b->ranges[i];
		struct rep_cell *c = row(w, d, NULL, -1);
		c[RG_ITERATION] = iteration(it);
		c[RG_CLASS] = str(sb_verify_class_name(r->g.cls));
		c[RG_OFFSET] = num((double)r->g.offset);
		c[RG_LENGTH] = num((double)r->g.length);
		c[RG_EXPECTED] = num(r->has & SB_VDOC_EXPECTED ? (double)r->g.expected_offset
							       : NAN);
		c[RG_GENERATION] = num(r->has & SB_VDOC_GENERATION ? (double)r->g.generation : NAN);
		if (r->has & SB_VDOC_ERRNO)
			c[RG_ERRNO] = (struct rep_cell){ .kind = REP_CELL_WHOLE, .d = r->g.err };
		c[RG_ERROR] = str(r->error[0] ? r->error : NULL);
		if (rank) {
			c[RG_RANK] = (struct rep_cell){ .kind = REP_CELL_WHOLE, .d = rank->rank };
			c[RG_HOST] = str(rank->host[0] ? rank->host : NULL);
		}
		emit(w);
	}
}

/* verify's own ranges, then (many ranks) each rank's, offsets in its own target */
static void verify_ranges(void *ctx, const struct rep_doc *d, double it,
			  const struct sb_verify_doc *v)
{
	ranges_of(ctx, d, it, &v->b, NULL);
	for (size_t i = 0; i < v->nranks; i++)
		ranges_of(ctx, d, it, &v->ranks[i].b, &v->ranks[i]);
}

/* spo's classes: a check's blocks (iteration empty), or each cycle's of a
 * cycles log (the cycle as the iteration) */
static void spo_class_row(struct walk *w, const struct rep_doc *d, double it, int k, double n,
			  double bs, double all)
{
	struct rep_cell *c = row(w, d, NULL, -1);
	c[RV_ITERATION] = iteration(it);
	c[RV_CLASS] = str(sb_spo_class_name(k));
	c[RV_BLOCKS] = num(n);
	c[RV_BYTES] = num(n * bs);
	c[RV_SHARE] = num(all > 0 ? 100 * n / all : NAN);
	emit(w);
}

static void spo_counts(struct walk *w, const struct rep_doc *d)
{
	const struct sb_spo_check *s = d->spo ? &d->spo->c : NULL;
	const struct rep_cycles *cy = d->cycles;
	for (int k = 0; s && k < SB_SPO_NCLASS; k++)
		spo_class_row(w, d, NAN, k, (double)s->count[k], (double)s->h.bs,
			      (double)s->blocks);
	for (size_t i = 0; cy && i < cy->n; i++) {
		double all = 0;
		for (int k = 0; k < SB_SPO_NCLASS; k++)
			all += cy->blocks[k][i];
		for (int k = 0; k < SB_SPO_NCLASS; k++)
			spo_class_row(w, d, cy->x[i], k, cy->blocks[k][i], cy->bs, all);
	}
}

static void spo_ranges(struct walk *w, const struct rep_doc *d)
{
	for (size_t i = 0; d->spo && i < d->spo->c.nranges; i++) {
		const struct sb_spo_range *r = &d->spo->c.ranges[i];
		struct rep_cell *c = row(w, d, NULL, -1);
		c[RG_CLASS] = str(sb_spo_class_name(r->cls));
		c[RG_OFFSET] = num((double)r->offset);
		c[RG_LENGTH] = num((double)r->length);
		emit(w);
	}
}

static void verify(struct walk *w, const struct rep_doc *d)
{
	int e = rep_verify_each(d, verify_counts, w);
	if (e < 0 && !w->err)
		w->err = e;
	spo_counts(w, d);
}

static void ranges(struct walk *w, const struct rep_doc *d)
{
	int e = rep_verify_each(d, verify_ranges, w);
	if (e < 0 && !w->err)
		w->err = e;
	spo_ranges(w, d);
}

/* ---- cliff: the binned series (bytes written at each bin's end), the
 * cache's end and the further steps, and the recoveries ---- */
static void cliff_level(struct walk *w, const struct rep_doc *d, const char *what, size_t i,
			uint64_t at, double before, double after)
{
	struct rep_cell *c = row(w, d, NULL, -1);
	c[RC_ROW] = str(what);
	c[RC_INDEX] = u64(i);
	c[RC_BYTES] = (struct rep_cell){ .kind = REP_CELL_WHOLE, .d = (double)at };
	c[RC_BEFORE_BW] = num(before);
	c[RC_AFTER_BW] = num(after);
	emit(w);
}

static void cliff(struct walk *w, const struct rep_doc *d)
{
	if (!d->cliff)
		return;
	const struct sb_cliff_result *r = &d->cliff->r;
	const struct sb_cliff_find *f = &r->find;
	for (size_t i = 0; i < f->nbins; i++) {
		struct rep_cell *c = row(w, d, NULL, -1);
		const double at = i + 1 == f->nbins ? (double)f->total_bytes
						    : (double)f->bin_bytes * (double)(i + 1);
		c[RC_ROW] = str("series");
		c[RC_INDEX] = u64(i);
		c[RC_BYTES] = (struct rep_cell){ .kind = REP_CELL_WHOLE, .d = at };
		c[RC_BW] = num(r->bw[i]);
		emit(w);
	}
	/* the drop at the cache's end: the first step */
	if (f->found)
		cliff_level(w, d, "cache", 0, f->cache_bytes, f->before_bw, f->after_bw);
	for (size_t i = 0; i < f->nsteps; i++)
		cliff_level(w, d, "step", i, f->steps[i].at_bytes, f->steps[i].before_bw,
			    f->steps[i].after_bw);
	for (unsigned i = 0; i < r->nrecovery; i++) {
		const struct sb_cliff_recovery *x = &r->recovery[i];
		struct rep_cell *c = row(w, d, NULL, -1);
		c[RC_ROW] = str("recovery");
		c[RC_INDEX] = u64(i);
		c[RC_BYTES] = (struct rep_cell){ .kind = REP_CELL_WHOLE,
						 .d = (double)x->burst_bytes };
		c[RC_BW] = num(x->fast_bw);
		c[RC_IDLE] = num((double)x->idle_ns / 1e9);
		c[RC_RECOVERED] = (struct rep_cell){ .kind = REP_CELL_WHOLE,
						     .d = (double)x->recovered_bytes };
		c[RC_FRACTION] = num(x->fraction);
		emit(w);
	}
}

/* ---- iozone: soak --workload=iozone's cells, per iteration ---- */
static void iozone(struct walk *w, const struct rep_doc *d)
{
	const struct rep_iters *it = &d->iters;
	for (size_t i = 0; i < it->n; i++)
		for (size_t j = 0; j < it->ncs; j++) {
			const struct rep_cellser *s = &it->cs[j];
			if (!isfinite(s->v[i]))
				continue;
			struct rep_cell *c = row(w, d, NULL, -1);
			c[RZ_ITERATION] = iteration(it->x[i]);
			c[RZ_TEST] = str(sb_sweep_test_name(s->test));
			c[RZ_FILE] = (struct rep_cell){ .kind = REP_CELL_WHOLE, .d = s->file_size };
			c[RZ_RECORD] = (struct rep_cell){ .kind = REP_CELL_WHOLE,
							  .d = s->record_size };
			c[RZ_KIBPS] = num(s->v[i]);
			emit(w);
		}
}

/* ---- ranks: each rank's job of client_stats, a row per direction that
 * moved data; times from the earliest start ---- */
static void ranks(struct walk *w, const struct rep_doc *d)
{
	const size_t n = rep_nclients(d);
	struct sb_job_doc c;
	double t0 = INFINITY;
	for (size_t i = 0; i < n; i++)
		if (!rep_client(d, i, &c) && isfinite(c.start_s))
			t0 = fmin(t0, c.start_s);
	for (size_t i = 0; i < n; i++) {
		if (rep_client(d, i, &c) < 0 || !c.hostname)
			continue; /* the All clients entry: the measurements table's */
		for (int k = 0; k < SB_DDIR_N; k++) {
			const struct sb_dir_doc *dj = &c.dir[k];
			if (!dj->bytes)
				continue;
			struct rep_cell *x = row(w, d, NULL, -1);
			x[RK_JOB] = str(c.name);
			x[RK_RANK] = (struct rep_cell){ .kind = REP_CELL_WHOLE,
							.d = c.rank >= 0 ? c.rank : NAN };
			x[RK_HOST] = str(c.hostname);
			x[RK_DIR] = str(sb_ddir_name(k));
			x[RK_IO_BYTES] = (struct rep_cell){ .kind = REP_CELL_WHOLE,
							    .d = (double)dj->bytes };
			x[RK_BW] = num(dj->bw_bytes);
			x[RK_IOPS] = num(dj->iops);
			x[RK_START] = num(c.start_s - t0);
			x[RK_END] = num(c.end_s - t0);
			x[RK_OFFSET] = num(c.clock_offset_s);
			emit(w);
		}
	}
}

/* ---- soak_ranks: each rank's own iteration, a row per iteration and rank ---- */
static int soak_rank_rows(void *ctx, const struct rep_doc *d, size_t index, const struct sb_jv *r)
{
	struct walk *w = ctx;
	struct sb_soak_record rec;
	struct sb_error err;
	(void)index;
	/* checked when first read: what the reader refuses is no iteration */
	if (!rep_is_iteration(r) || sb_soak_read_record(r, &rec, &err) < 0)
		return 0;
	for (unsigned i = 0; i < rec.nranks; i++) {
		const struct sb_soak_rank *k = &rec.ranks[i];
		struct rep_cell *c = row(w, d, NULL, -1);
		c[RSK_ITERATION] = count((double)rec.it.n);
		c[RSK_RANK] = count(k->rank);
		c[RSK_HOST] = str(k->host);
		c[RSK_WRITE_BW] = num(k->it.write_bw);
		c[RSK_READ_BW] = num(k->it.read_bw);
		c[RSK_WRITE_BYTES] = count((double)k->write_bytes);
		c[RSK_CHECKED_BYTES] = count((double)k->read_bytes);
		c[RSK_START] = num(k->start_s);
		c[RSK_END] = num(k->end_s);
		c[RSK_WRITE_START] = num(k->wstart_s);
		c[RSK_WRITE_END] = num(k->wend_s);
		c[RSK_CHECK_START] = num(k->rstart_s);
		c[RSK_CHECK_END] = num(k->rend_s);
		c[RSK_BLOCKS] = count((double)k->it.blocks);
		c[RSK_BAD] = count((double)sb_soak_iter_bad(&k->it));
		c[RSK_IO_ERRORS] = count((double)k->it.io_errors);
		c[RSK_FAILED] = (struct rep_cell){ .kind = REP_CELL_FLAG, .flag = k->it.failed };
		emit(w);
	}
	sb_soak_record_release(&rec);
	return 0;
}

static void soak_ranks(struct walk *w, const struct rep_doc *d)
{
	if (!d->iters.nrk)
		return; /* no iteration has ranks: nothing to read again */
	int e = rep_each_record(d, soak_rank_rows, w);
	if (e < 0 && !w->err)
		w->err = e;
}

/* ---- meta_ranks and meta_skew: meta of many ranks, per test ---- */
static struct rep_cell wholed(double d)
{
	return (struct rep_cell){ .kind = REP_CELL_WHOLE, .d = d };
}

static void meta_ranks(struct walk *w, const struct rep_doc *d)
{
	const struct sb_meta_run *m = d->meta ? &d->meta->m : NULL;
	for (int t = 0; m && t < SB_META_NTESTS; t++)
		for (unsigned i = 0; i < m->nranks; i++) {
			const struct sb_meta_rank *k = &m->ranks[i];
			const struct sb_meta_rank_test *x = &k->t[t];
			if (!x->ran)
				continue;
			struct rep_cell *c = row(w, d, NULL, -1);
			c[RMK_TEST] = str(sb_meta_test_name((enum sb_meta_test)t));
			c[RMK_RANK] = wholed(k->rank);
			c[RMK_HOST] = str(k->host);
			c[RMK_OPS] = wholed((double)x->ops);
			c[RMK_BYTES] = wholed((double)x->bytes);
			c[RMK_ELAPSED] = wholed((double)x->elapsed_ns);
			c[RMK_CPU] = wholed((double)x->cpu_ns);
			c[RMK_RATE] = num(x->rate);
			c[RMK_UNIT] = str(rep_meta_unit(t));
			c[RMK_LAT_MIN] = num((double)x->lat_min);
			c[RMK_LAT_P50] = num((double)x->lat_p50);
			c[RMK_LAT_P99] = num((double)x->lat_p99);
			c[RMK_LAT_MAX] = num((double)x->lat_max);
			c[RMK_START] = num(x->start_s);
			c[RMK_END] = num(x->end_s);
			emit(w);
		}
}

static void meta_skew(struct walk *w, const struct rep_doc *d)
{
	const struct sb_meta_doc *m = d->meta;
	for (int t = 0; m && t < SB_META_NTESTS; t++) {
		const struct sb_meta_skew *k = &m->m.skew[t];
		if (!(m->skews & (1u << t)))
			continue;
		struct rep_cell *c = row(w, d, NULL, -1);
		c[RMS_TEST] = str(sb_meta_test_name((enum sb_meta_test)t));
		c[RMS_FIRST_START] = num(m->first_start_s[t]);
		c[RMS_START_SPREAD] = num(k->start_spread_s);
		c[RMS_END_SPREAD] = num(k->end_spread_s);
		c[RMS_SPAN] = num(k->span_s);
		c[RMS_MEDIAN_RATE] = num(k->median_rate);
		/* the rate's unit is the aggregate test's */
		c[RMS_UNIT] = str(m->tests & (1u << t) ? rep_meta_unit(t) : NULL);
		c[RMS_SLOWEST] = wholed(rep_meta_rank_no(&m->m, k->slowest_rank));
		c[RMS_SLOWEST_VS] = num(k->slowest_vs_median);
		c[RMS_FASTEST] = wholed(rep_meta_rank_no(&m->m, k->fastest_rank));
		c[RMS_FASTEST_VS] = num(k->fastest_vs_median);
		emit(w);
	}
}

/* ---- verify_ranks: each rank's verdict and blocks per class ---- */
static struct rep_cell count_cell(uint64_t n)
{
	return (struct rep_cell){ .kind = REP_CELL_WHOLE, .d = (double)n };
}

static void verify_ranks(struct walk *w, const struct rep_doc *d)
{
	for (size_t i = 0; d->verify && i < d->verify->nranks; i++) {
		const struct sb_verify_doc_rank *k = &d->verify->ranks[i];
		struct rep_cell *c = row(w, d, NULL, -1);
		c[RVK_RANK] = count_cell((uint64_t)k->rank);
		c[RVK_HOST] = str(k->host[0] ? k->host : NULL);
		c[RVK_PATH] = str(k->path);
		c[RVK_RESULT] = str(rep_rank_verdict(k));
		c[RVK_BLOCKS] = count_cell(k->b.blocks);
		c[RVK_NOT_INTACT] = count_cell(sb_verify_doc_bad(&k->b));
		for (int x = 0; x < REP_VCLASS_N; x++)
			if (k->b.classes & 1u << x)
				c[RVK_CLASS0 + x] = count_cell(k->b.count[x]);
		c[RVK_RANGES_OMITTED] = count_cell(k->b.omitted);
		emit(w);
	}
}

long rep_rows(enum rep_table t, struct rep_doc *const *docs, size_t n, unsigned flags,
	      rep_row_fn fn, void *ctx)
{
	static void (*const tables[REP_T_N])(struct walk *, const struct rep_doc *) = {
		measurements, intervals, summary, percentiles, records,	   verify,    ranges,
		cliff,	      iozone,	 ranks,	  soak_ranks,  meta_ranks, meta_skew, verify_ranks,
	};
	struct walk w;
	memset(&w, 0, sizeof(w));
	w.flags = flags;
	w.fn = fn;
	w.ctx = ctx;
	w.row.table = t;
	for (size_t i = 0; i < n && !w.err; i++)
		tables[t](&w, docs[i]);
	return w.err ? w.err : (long)w.n;
}
