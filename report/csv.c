/*
 * CSV reports: long-format tables (one row per measurement, interval,
 * summary line, percentile or log record), a header line with the unit in
 * every column name, RFC 4180 quoting, plain numbers in base units (bytes,
 * seconds, nanoseconds) and an empty field for a figure that is absent.
 * One table per file, chosen with --table; pandas and spreadsheets read it.
 * verify and ranges hold the blocks per class and the bad ranges of every
 * verify (verify, run --verify, each soak iteration).
 */
#include "report/report.h"

#include <math.h>

const char *const rep_table_names[REP_T_N] = { "measurements", "intervals", "summary",
					       "percentiles", "records", "verify", "ranges" };

static void field(FILE *f, const char *s, int first)
{
	if (!first)
		fputc(',', f);
	s = s ? s : "";
	if (!s[strcspn(s, ",\"\r\n")] && *s != ' ') {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.15g", v);
	else
		fputc(',', f);
}

static void u64(FILE *f, uint64_t v)
{
	fprintf(f, ",%llu", (unsigned long long)v);
}

static void header(FILE *f, const char *cols)
{
	fprintf(f, "%s\r\n", cols);
}

static void lead(FILE *f, const struct rep_doc *d, const char *job)
{
	field(f, d->name, 1);
	field(f, d->command, 0);
	if (job)
		field(f, job, 0);
}

static void measurements(FILE *f, struct rep_doc *const *docs, size_t n)
{
	static const double pcts[] = { 50, 90, 99, 99.9, 99.99 };
	char a[16];
	header(f, "source,command,job,test,run,direction,rw,bs_bytes,iodepth,numjobs,direct,engine,"
		  "cache,runtime_s,io_bytes,ios,bw_bytes_per_s,iops,lat_kind,lat_min_ns,lat_mean_ns,"
		  "lat_max_ns,lat_stddev_ns,lat_p50_ns,lat_p90_ns,lat_p99_ns,lat_p99_9_ns,"
		  "lat_p99_99_ns,errors");
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < docs[i]->njobs; k++) {
			const struct rep_job *j = &docs[i]->jobs[k];
			for (int dd = 0; dd < SB_DDIR_N; dd++) {
				const struct rep_dir *r = &j->dir[dd];
				if (!r->used)
					continue;
				lead(f, docs[i], j->name);
				field(f, j->group, 0);
				u64(f, j->run);
				field(f, sb_ddir_name(dd), 0);
				field(f, j->rw, 0);
				if (j->bs_bytes)
					u64(f, j->bs_bytes);
				else
					field(f, j->bs, 0);
				u64(f, j->iodepth);
				u64(f, j->numjobs);
				snprintf(a, sizeof(a), "%d", j->direct);
				field(f, j->direct < 0 ? "" : a, 0);
				field(f, j->engine, 0);
				field(f, j->cache, 0);
				num(f, j->runtime_s);
				u64(f, r->bytes);
				u64(f, r->ios);
				num(f, r->bw);
				num(f, r->iops);
				field(f, j->lat_kind, 0);
				num(f, r->lat.n ? r->lat.min : NAN);
				num(f, r->lat.n ? r->lat.mean : NAN);
				num(f, r->lat.n ? r->lat.max : NAN);
				num(f, r->lat.n ? r->lat.stddev : NAN);
				for (size_t p = 0; p < SB_ARRAY_SIZE(pcts); p++)
					num(f, rep_pct(&r->lat, pcts[p]));
				u64(f, j->errors);
				fputs("\r\n", f);
			}
		}
	}
}

static void intervals(FILE *f, struct rep_doc *const *docs, size_t n)
{
	header(f, "source,command,job,direction,t_start_s,t_end_s,bw_bytes_per_s,iops,lat_mean_ns,"
		  "lat_p99_ns");
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < docs[i]->njobs; k++) {
			const struct rep_job *j = &docs[i]->jobs[k];
			for (size_t p = 0; p < j->nseries; p++) {
				const struct rep_point *pt = &j->series[p];
				for (int dd = 0; dd < SB_DDIR_N; dd++) {
					if (!j->dir[dd].used)
						continue;
					lead(f, docs[i], j->name);
					field(f, sb_ddir_name(dd), 0);
					num(f, pt->t0_s);
					num(f, pt->t1_s);
					num(f, pt->has[dd] ? pt->bw[dd] : 0);
					num(f, pt->has[dd] ? pt->iops[dd] : 0);
					num(f, pt->has[dd] ? pt->lat_mean_ns[dd] : NAN);
					num(f, pt->has[dd] ? pt->lat_p99_ns[dd] : NAN);
					fputs("\r\n", f);
				}
			}
		}
	}
}

static void summary(FILE *f, struct rep_doc *const *docs, size_t n)
{
	header(f, "source,command,test,direction,runs,bw_bytes_per_s_median,bw_bytes_per_s_min,"
		  "bw_bytes_per_s_max,iops_median,iops_min,iops_max,lat_mean_ns_median,"
		  "lat_p99_ns_median");
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < docs[i]->nsummary; k++) {
			const struct rep_summary *s = &docs[i]->summary[k];
			lead(f, docs[i], s->test);
			field(f, sb_ddir_name(s->ddir), 0);
			u64(f, s->runs);
			num(f, s->bw_median);
			num(f, s->bw_min);
			num(f, s->bw_max);
			num(f, s->iops_median);
			num(f, s->iops_min);
			num(f, s->iops_max);
			num(f, s->lat_mean_median);
			num(f, s->lat_p99_median);
			fputs("\r\n", f);
		}
	}
}

static void percentiles(FILE *f, struct rep_doc *const *docs, size_t n)
{
	header(f, "source,command,job,direction,lat_kind,percentile,lat_ns");
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < docs[i]->njobs; k++) {
			const struct rep_job *j = &docs[i]->jobs[k];
			for (int dd = 0; dd < SB_DDIR_N; dd++) {
				const struct rep_lat *l = &j->dir[dd].lat;
				for (unsigned p = 0; j->dir[dd].used && p < l->npct; p++) {
					lead(f, docs[i], j->name);
					field(f, sb_ddir_name(dd), 0);
					field(f, j->lat_kind, 0);
					num(f, l->pct[p]);
					num(f, l->val[p]);
					fputs("\r\n", f);
				}
			}
		}
	}
}

/* A record's scalars, nested names joined with '.'; depth is bounded by the reader. */
static void flatten(FILE *f, const struct rep_doc *d, size_t rec, const char *prefix,
		    const struct sb_jv *v)
{
	char key[512];
	for (size_t i = 0; i < sb_jv_len(v); i++) {
		const struct sb_jv *x = v->type == SB_JV_OBJ ? &v->obj.m[i].val : &v->arr.v[i];
		if (v->type == SB_JV_OBJ)
			snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", v->obj.m[i].key);
		else
			snprintf(key, sizeof(key), "%s[%zu]", prefix, i);
		if (x->type == SB_JV_OBJ || x->type == SB_JV_ARR) {
			flatten(f, d, rec, key, x);
			continue;
		}
		lead(f, d, NULL);
		fprintf(f, ",%zu", rec + 1);
		field(f, key, 0);
		if (x->type == SB_JV_STR)
			field(f, x->str.s, 0);
		else if (x->type == SB_JV_NUM)
			num(f, x->num.d);
		else
			field(f, x->type == SB_JV_BOOL ? (x->boolean ? "true" : "false") : "", 0);
		fputs("\r\n", f);
	}
}

static void records(FILE *f, struct rep_doc *const *docs, size_t n)
{
	header(f, "source,command,record,key,value");
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < docs[i]->nrecords; k++)
			flatten(f, docs[i], k, "", docs[i]->records[k]);
}

/* ---- verify: blocks per class, and the bad ranges ---- */
static void iteration(FILE *f, double it)
{
	if (it > 0)
		fprintf(f, ",%.0f", it);
	else
		fputc(',', f);
}

static void verify_counts(void *ctx, const struct rep_doc *d, double it, const struct sb_jv *v)
{
	FILE *f = ctx;
	/* a soak iteration's block size is the log's */
	double bs = sb_jv_num(sb_jv_get(v, "block_size"), sb_jv_num(sb_jv_get(d->root, "block_size"), NAN));
	double all = sb_jv_num(sb_jv_get(v, "blocks_checked"), 0);
	for (int c = 0; c < REP_VCLASS_N; c++) {
		double n = sb_jv_num(sb_jv_get(v, rep_vclass[c]), 0);
		lead(f, d, NULL);
		iteration(f, it);
		field(f, rep_vclass[c], 0);
		num(f, n);
		num(f, n * bs);
		num(f, all > 0 ? 100 * n / all : NAN);
		fputs("\r\n", f);
	}
}

static void verify_ranges(void *ctx, const struct rep_doc *d, double it, const struct sb_jv *v)
{
	FILE *f = ctx;
	const struct sb_jv *rs = sb_jv_get(v, "bad_ranges");
	char a[32];
	for (size_t i = 0; i < sb_jv_len(rs); i++) {
		const struct sb_jv *r = sb_jv_at(rs, i), *e = sb_jv_get(r, "errno");
		lead(f, d, NULL);
		iteration(f, it);
		field(f, sb_jv_str(sb_jv_get(r, "class")), 0);
		num(f, sb_jv_num(sb_jv_get(r, "offset"), NAN));
		num(f, sb_jv_num(sb_jv_get(r, "length"), NAN));
		num(f, sb_jv_num(sb_jv_get(r, "expected_offset"), NAN));
		num(f, sb_jv_num(sb_jv_get(r, "generation"), NAN));
		snprintf(a, sizeof(a), "%.0f", fabs(sb_jv_num(e, 0)));
		field(f, e ? a : "", 0);
		field(f, sb_jv_str(sb_jv_get(r, "error")), 0);
		fputs("\r\n", f);
	}
}

static void verify(FILE *f, struct rep_doc *const *docs, size_t n)
{
	header(f, "source,command,iteration,class,blocks,bytes,share_pct");
	for (size_t i = 0; i < n; i++)
		rep_verify_each(docs[i], verify_counts, f);
}

static void ranges(FILE *f, struct rep_doc *const *docs, size_t n)
{
	header(f, "source,command,iteration,class,offset_bytes,length_bytes,expected_offset_bytes,"
		  "generation,errno,error");
	for (size_t i = 0; i < n; i++)
		rep_verify_each(docs[i], verify_ranges, f);
}

int rep_csv(FILE *f, struct rep_doc *const *docs, size_t n, enum rep_table t)
{
	static void (*const tables[REP_T_N])(FILE *, struct rep_doc *const *, size_t) = {
		measurements, intervals, summary, percentiles, records, verify, ranges,
	};
	tables[t](f, docs, n);
	return fflush(f) || ferror(f) ? -EIO : 0;
}
