/*
 * The jobs of a results document read back (results_read.h), each member
 * checked for its type and range: a figure no device gives (a negative
 * rate, 1e308 bytes/s) or a wrong type is named by its key path instead
 * of read as 0. null, which fio and storbench write for a figure there is
 * none of, reads as not written.
 */
#include "lib/results/results_read.h"

#include <math.h>

#define FIGURE_MAX 1e18
#define RANK_MAX 16777216.0

/* Where the reader is: the job (or interval) and the object in it. */
struct rd {
	const char *where; /* "jobs[2]" */
	const char *in;	   /* "read.clat_ns", "" the job itself */
	struct sb_error *err;
};

static int bad(const struct rd *r, const char *key, const char *expected, const struct sb_jv *v)
{
	char found[64];
	sb_jv_found(v, found, sizeof(found));
	return sb_error_set(r->err, -EINVAL, SB_ERR_INPUT, "%s%s%s%s%s: expected %s, found %s",
			    r->where, *r->where && (*r->in || key) ? "." : "", r->in,
			    *r->in && key ? "." : "", key ? key : "", expected, found);
}

static int absent(const struct sb_jv *v)
{
	return !v || sb_jv_is(v, SB_JV_NULL);
}

/* A figure: a count, a size, a rate or a time (finite, 0 to 1e18); dflt
 * when not written. */
static int fig(const struct rd *r, const struct sb_jv *obj, const char *key, double dflt,
	       double *out)
{
	const struct sb_jv *v = sb_jv_get(obj, key);
	*out = dflt;
	if (absent(v))
		return 0;
	if (!sb_jv_is(v, SB_JV_NUM) || !isfinite(v->num.d) || v->num.d < 0 || v->num.d > FIGURE_MAX)
		return bad(r, key, "a number from 0 to 1e18", v);
	*out = v->num.d;
	return 0;
}

static int fig_u64(const struct rd *r, const struct sb_jv *obj, const char *key, uint64_t *out)
{
	double d;
	const int e = fig(r, obj, key, 0, &d);
	*out = e ? 0 : (uint64_t)d;
	return e;
}

/* Any number (a clock offset may be negative): finite; dflt when not
 * written. */
static int real(const struct rd *r, const struct sb_jv *obj, const char *key, double dflt,
		double *out)
{
	const struct sb_jv *v = sb_jv_get(obj, key);
	*out = dflt;
	if (absent(v))
		return 0;
	if (!sb_jv_is(v, SB_JV_NUM) || !isfinite(v->num.d))
		return bad(r, key, "a number", v);
	*out = v->num.d;
	return 0;
}

static int str(const struct rd *r, const struct sb_jv *obj, const char *key, const char **out)
{
	const struct sb_jv *v = sb_jv_get(obj, key);
	*out = NULL;
	if (absent(v))
		return 0;
	if (!sb_jv_is(v, SB_JV_STR))
		return bad(r, key, "a string", v);
	*out = sb_jv_str(v);
	return 0;
}

static int flag(const struct rd *r, const struct sb_jv *obj, const char *key, int dflt, int *out)
{
	const struct sb_jv *v = sb_jv_get(obj, key);
	*out = dflt;
	if (absent(v))
		return 0;
	if (!sb_jv_is(v, SB_JV_BOOL))
		return bad(r, key, "true or false", v);
	*out = sb_jv_bool(v, dflt);
	return 0;
}

/* An object member, or NULL when not written. */
static int object(const struct rd *r, const struct sb_jv *obj, const char *key,
		  const struct sb_jv **out)
{
	const struct sb_jv *v = sb_jv_get(obj, key);
	*out = NULL;
	if (absent(v))
		return 0;
	if (!sb_jv_is(v, SB_JV_OBJ))
		return bad(r, key, "an object", v);
	*out = v;
	return 0;
}

/* A rank number: whole, from 0 (a skew with none measured names -1). */
static int rank_of(const struct rd *r, const struct sb_jv *obj, const char *key, int none_ok,
		   int *out)
{
	const struct sb_jv *v = sb_jv_get(obj, key);
	uint64_t n;
	*out = -1;
	if (absent(v) || (none_ok && sb_jv_is(v, SB_JV_NUM) && v->num.d == -1))
		return 0;
	if (sb_jv_u64(v, &n) < 0 || (double)n >= RANK_MAX)
		return bad(r, key, "a rank number from 0", v);
	*out = (int)n;
	return 0;
}

/* ---- latency ---- */

static int percentiles(const struct rd *r, const struct sb_jv *p, struct sb_lat_doc *l)
{
	if (absent(p))
		return 0;
	if (!sb_jv_is(p, SB_JV_OBJ))
		return bad(r, "percentile", "an object of percentiles", p);
	l->has_pct = 1;
	for (size_t i = 0; i < sb_jv_len(p) && l->npct < SB_LAT_DOC_PCT; i++) {
		const struct sb_jmember *m = &p->obj.m[i];
		char *end;
		const double pc = strtod(m->key, &end);
		if (!sb_jv_is(&m->val, SB_JV_NUM) || !isfinite(m->val.num.d) || m->val.num.d < 0) {
			char key[96];
			snprintf(key, sizeof(key), "percentile.%s", m->key);
			return bad(r, key, "a latency of 0 or more", &m->val);
		}
		if (*end || !(pc > 0 && pc < 100))
			continue;
		unsigned k = l->npct++; /* insertion keeps them increasing */
		for (; k > 0 && l->pct[k - 1] > pc; k--) {
			l->pct[k] = l->pct[k - 1];
			l->val[k] = l->val[k - 1];
		}
		l->pct[k] = pc;
		l->val[k] = m->val.num.d;
	}
	return 0;
}

static int lat_read(struct rd r, const struct sb_jv *dir, const char *dname, const char *key,
		    struct sb_lat_doc *l)
{
	const struct sb_jv *h;
	char in[48];
	snprintf(in, sizeof(in), "%s", dname);
	r.in = in;
	int e = object(&r, dir, key, &h);
	if (e || !h)
		return e;
	snprintf(in, sizeof(in), "%s.%s", dname, key);
	e = fig_u64(&r, h, "N", &l->n);
	if (!e)
		e = fig(&r, h, "min", 0, &l->min);
	if (!e)
		e = fig(&r, h, "mean", 0, &l->mean);
	if (!e)
		e = fig(&r, h, "max", 0, &l->max);
	if (!e)
		e = fig(&r, h, "stddev", 0, &l->stddev);
	return e ? e : percentiles(&r, sb_jv_get(h, "percentile"), l);
}

/* ---- a job ---- */

/* A direction's object (name: "read", "write", "trim", fio's "mixed"). */
static int dir_read(struct rd r, const struct sb_jv *job, const char *name, struct sb_dir_doc *o)
{
	const struct sb_jv *v;
	o->bw_bytes = o->bw = o->iops = o->iops_min = o->iops_max = NAN;
	int e = object(&r, job, name, &v);
	if (e || !v)
		return e;
	o->present = 1;
	r.in = name;
	if ((e = fig_u64(&r, v, "io_bytes", &o->bytes)) ||
	    (e = fig_u64(&r, v, "io_kbytes", &o->kbytes)) ||
	    (e = fig_u64(&r, v, "total_ios", &o->ios)) || (e = fig(&r, v, "bw", NAN, &o->bw)) ||
	    (e = fig(&r, v, "bw_bytes", NAN, &o->bw_bytes)) ||
	    (e = fig(&r, v, "iops", NAN, &o->iops)) ||
	    (e = fig(&r, v, "runtime", 0, &o->runtime_ms)) ||
	    (e = fig(&r, v, "iops_min", NAN, &o->iops_min)) ||
	    (e = fig(&r, v, "iops_max", NAN, &o->iops_max)))
		return e;
	if ((e = lat_read(r, v, name, "slat_ns", &o->slat)) ||
	    (e = lat_read(r, v, name, "clat_ns", &o->clat)))
		return e;
	return lat_read(r, v, name, "lat_ns", &o->lat);
}

/* fio's "sync": the fsync requests. */
static int sync_read(struct rd r, const struct sb_jv *job, struct sb_job_doc *o)
{
	const struct sb_jv *v;
	int e = object(&r, job, "sync", &v);
	if (e || !v)
		return e;
	r.in = "sync";
	if ((e = fig_u64(&r, v, "total_ios", &o->sync_ios)))
		return e;
	return lat_read(r, v, "sync", "lat_ns", &o->sync_lat);
}

/* An option as written: storbench's own, the job's, the document's. */
static int opt(const struct rd *r, const struct sb_jv *const *in, const char *key, const char **out)
{
	static const char *const names[] = { "storbench.options", "job options", "global options" };
	*out = NULL;
	for (unsigned i = 0; i < 3 && !*out; i++) {
		struct rd at = *r;
		at.in = names[i];
		if (i == 2) /* the document's */
			at.where = "";
		const int e = str(&at, in[i], key, out);
		if (e)
			return e;
	}
	return 0;
}

static int opts_read(const struct rd *r, const struct sb_jv *job, const struct sb_jv *sb,
		     const struct sb_jv *global, struct sb_opts_doc *o)
{
	const struct sb_jv *in[3] = { sb_jv_get(sb, "options"), sb_jv_get(job, "job options"),
				      global };
	for (unsigned i = 0; i < 3; i++)
		if (!absent(in[i]) && !sb_jv_is(in[i], SB_JV_OBJ))
			return bad(r,
				   i == 0   ? "storbench.options"
				   : i == 1 ? "job options"
					    : "global options",
				   "an object", in[i]);
	int e = opt(r, in, "rw", &o->rw);
	if (!e && !o->rw)
		e = opt(r, in, "readwrite", &o->rw);
	if (!e)
		e = opt(r, in, "bs", &o->bs);
	if (!e)
		e = opt(r, in, "bssplit", &o->bssplit);
	if (!e)
		e = opt(r, in, "iodepth", &o->iodepth);
	if (!e)
		e = opt(r, in, "numjobs", &o->numjobs);
	if (!e)
		e = opt(r, in, "direct", &o->direct);
	if (!e)
		e = opt(r, in, "size", &o->size);
	if (!e)
		e = opt(r, in, "ioengine", &o->ioengine);
	return e;
}

static int conditions_read(struct rd r, const struct sb_jv *sb, struct sb_job_doc *o)
{
	const struct sb_jv *c;
	double n;
	r.in = "storbench";
	int e = object(&r, sb, "conditions", &c);
	if (e || !c)
		return e;
	r.in = "storbench.conditions";
	if ((e = str(&r, c, "engine", &o->engine)) || (e = str(&r, c, "cache", &o->cache)) ||
	    (e = flag(&r, c, "direct", -1, &o->direct)))
		return e;
	if ((e = fig(&r, c, "iodepth", 0, &n)))
		return e;
	o->iodepth = n < 1e9 ? (unsigned)n : 0;
	if ((e = fig(&r, c, "numjobs", 0, &n)))
		return e;
	o->numjobs = n < 1e9 ? (unsigned)n : 0;
	return 0;
}

static int skew_read(struct rd r, const struct sb_jv *sb, struct sb_job_doc *o)
{
	const struct sb_jv *k;
	struct sb_skew *s = &o->skew;
	double n;
	r.in = "storbench";
	int e = object(&r, sb, "skew", &k);
	if (e || !k)
		return e;
	r.in = "storbench.skew";
	o->have_skew = 1;
	if ((e = fig(&r, k, "ranks", 0, &n)) || (e = fig(&r, k, "span_s", 0, &s->span_s)) ||
	    (e = fig(&r, k, "start_spread_s", 0, &s->start_spread_s)) ||
	    (e = fig(&r, k, "end_spread_s", 0, &s->end_spread_s)) ||
	    (e = fig(&r, k, "median_bw_bytes", 0, &s->median_bw)) ||
	    (e = rank_of(&r, k, "slowest_rank", 1, &s->slowest_rank)) ||
	    (e = rank_of(&r, k, "fastest_rank", 1, &s->fastest_rank)) ||
	    (e = real(&r, k, "slowest_vs_median", 0, &s->slowest_vs_median)) ||
	    (e = real(&r, k, "fastest_vs_median", 0, &s->fastest_vs_median)))
		return e;
	o->skew_ranks = n < RANK_MAX ? (unsigned)n : 0;
	return 0;
}

static int first_error_read(struct rd r, const struct sb_jv *sb, struct sb_first_error_doc *f)
{
	const struct sb_jv *v;
	const char *dir;
	f->ddir = -1;
	int e = object(&r, sb, "first_error", &v);
	if (e || !v)
		return e;
	r.in = "storbench.first_error";
	f->present = 1;
	if ((e = str(&r, v, "direction", &dir)) || (e = fig_u64(&r, v, "offset", &f->offset)) ||
	    (e = fig_u64(&r, v, "length", &f->length)) || (e = real(&r, v, "errno", 0, &f->err)) ||
	    (e = str(&r, v, "error", &f->error)))
		return e;
	for (int d = 0; dir && d < SB_DDIR_N; d++)
		if (!strcmp(dir, sb_ddir_name(d)))
			f->ddir = d;
	return 0;
}

/* storbench's own section of the job. */
static int sb_read(struct rd r, const struct sb_jv *sb, struct sb_job_doc *o)
{
	const struct sb_jv *s;
	int e;
	r.in = "storbench";
	o->have_sb = 1;
	if ((e = fig(&r, sb, "runtime_ns", 0, &o->runtime_ns)) ||
	    (e = fig_u64(&r, sb, "errors", &o->errors)) ||
	    (e = flag(&r, sb, "interrupted", 0, &o->interrupted)) ||
	    (e = flag(&r, sb, "stonewalled", 0, &o->stonewalled)) ||
	    (e = fig(&r, sb, "log_interval_ns", 0, &o->log_interval_ns)) ||
	    (e = real(&r, sb, "clock_offset_s", NAN, &o->clock_offset_s)) ||
	    (e = fig(&r, sb, "clock_rtt_s", NAN, &o->clock_rtt_s)) ||
	    (e = real(&r, sb, "start_s", NAN, &o->start_s)) ||
	    (e = real(&r, sb, "end_s", NAN, &o->end_s)))
		return e;
	if ((e = first_error_read(r, sb, &o->first_error)))
		return e;
	s = sb_jv_get(sb, "series");
	if (!absent(s) && !sb_jv_is(s, SB_JV_ARR))
		return bad(&r, "series", "an array of intervals", s);
	o->series = absent(s) ? NULL : s;
	if ((e = conditions_read(r, sb, o)))
		return e;
	return skew_read(r, sb, o);
}

int sb_job_read(const struct sb_jv *job, const struct sb_jv *global, const char *where,
		struct sb_job_doc *out, struct sb_error *err)
{
	struct rd r = { where ? where : "", "", err };
	const struct sb_jv *sb;
	memset(out, 0, sizeof(*out));
	out->json = job;
	out->rank = -1;
	out->direct = -1;
	out->clock_offset_s = out->clock_rtt_s = out->start_s = out->end_s = NAN;
	if (!sb_jv_is(job, SB_JV_OBJ))
		return bad(&r, NULL, "an object of a job's figures", job);
	int e = str(&r, job, "jobname", &out->name);
	if (!e && !out->name)
		return bad(&r, "jobname", "the job's name", sb_jv_get(job, "jobname"));
	if (e || (e = str(&r, job, "job", &out->job)) ||
	    (e = str(&r, job, "hostname", &out->hostname)) ||
	    (e = rank_of(&r, job, "rank", 0, &out->rank)) ||
	    (e = real(&r, job, "error", 0, &out->error)) ||
	    (e = fig(&r, job, "job_runtime", 0, &out->job_runtime_ms)) ||
	    (e = fig(&r, job, "usr_cpu", 0, &out->usr_cpu)) ||
	    (e = fig(&r, job, "sys_cpu", 0, &out->sys_cpu)) ||
	    (e = object(&r, job, "storbench", &sb)) ||
	    (e = opts_read(&r, job, sb, absent(global) ? NULL : global, &out->opts)))
		return e;
	for (int d = 0; d < SB_DDIR_N; d++)
		if ((e = dir_read(r, job, sb_ddir_name(d), &out->dir[d])))
			return e;
	if ((e = dir_read(r, job, "mixed", &out->mixed)) || (e = sync_read(r, job, out)))
		return e;
	return sb ? sb_read(r, sb, out) : 0;
}

int sb_interval_read(const struct sb_jv *iv, const char *where, struct sb_interval_doc *out,
		     struct sb_error *err)
{
	struct rd r = { where ? where : "", "", err };
	int e;
	memset(out, 0, sizeof(*out));
	if (!sb_jv_is(iv, SB_JV_OBJ))
		return bad(&r, NULL, "an object of an interval's figures", iv);
	if ((e = fig(&r, iv, "t_ns", NAN, &out->t_ns)) ||
	    (e = fig(&r, iv, "len_ns", NAN, &out->len_ns)))
		return e;
	for (int d = 0; d < SB_DDIR_N; d++) {
		const struct sb_jv *v;
		r.in = "";
		out->lat_mean_ns[d] = out->lat_p99_ns[d] = NAN;
		if ((e = object(&r, iv, sb_ddir_name(d), &v)) || !v) {
			if (e)
				return e;
			continue;
		}
		out->has[d] = 1;
		r.in = sb_ddir_name(d);
		if ((e = fig_u64(&r, v, "bytes", &out->bytes[d])) ||
		    (e = fig_u64(&r, v, "ios", &out->ios[d])) ||
		    (e = fig(&r, v, "bw_bytes", 0, &out->bw[d])) ||
		    (e = fig(&r, v, "iops", 0, &out->iops[d])) ||
		    (e = fig(&r, v, "lat_mean_ns", NAN, &out->lat_mean_ns[d])) ||
		    (e = fig(&r, v, "lat_p99_ns", NAN, &out->lat_p99_ns[d])))
			return e;
	}
	return 0;
}

/* ---- the document's own section ---- */

static int host_read(struct rd r, const struct sb_jv *sb, struct sb_host_doc *h)
{
	const struct sb_jv *v;
	double n;
	int e = object(&r, sb, "host", &v);
	if (e || !v)
		return e;
	r.in = "host";
	if ((e = str(&r, v, "hostname", &h->hostname)) || (e = str(&r, v, "kernel", &h->kernel)) ||
	    (e = str(&r, v, "arch", &h->arch)) || (e = str(&r, v, "cpu", &h->cpu)) ||
	    (e = fig(&r, v, "cpus", 0, &n)) || (e = fig_u64(&r, v, "mem_total", &h->mem_total)))
		return e;
	h->cpus = n < 1e9 ? (unsigned)n : 0;
	return 0;
}

static int target_read(struct rd r, const struct sb_jv *sb, struct sb_target_doc *t)
{
	const struct sb_jv *v;
	double lbs, pbs;
	int e = object(&r, sb, "target", &v);
	t->rotational = -1;
	if (e || !v)
		return e;
	r.in = "target";
	if ((e = str(&r, v, "path", &t->path)) || (e = str(&r, v, "kind", &t->kind)) ||
	    (e = str(&r, v, "device", &t->device)) || (e = str(&r, v, "disk", &t->disk)) ||
	    (e = str(&r, v, "model", &t->model)) || (e = str(&r, v, "scheduler", &t->scheduler)) ||
	    (e = str(&r, v, "write_cache", &t->write_cache)) ||
	    (e = str(&r, v, "filesystem", &t->filesystem)) ||
	    (e = str(&r, v, "mountpoint", &t->mountpoint)) ||
	    (e = fig_u64(&r, v, "capacity", &t->capacity)) ||
	    (e = fig(&r, v, "logical_block_size", 0, &lbs)) ||
	    (e = fig(&r, v, "physical_block_size", 0, &pbs)) ||
	    (e = flag(&r, v, "rotational", -1, &t->rotational)) ||
	    (e = flag(&r, v, "created", 0, &t->created)) ||
	    (e = flag(&r, v, "in_ram", 0, &t->in_ram)))
		return e;
	t->lbs = lbs < 1e9 ? (unsigned)lbs : 0;
	t->pbs = pbs < 1e9 ? (unsigned)pbs : 0;
	return 0;
}

static int state_read(struct rd r, const struct sb_jv *sb, struct sb_state_doc *st)
{
	const struct sb_jv *v;
	double w;
	int e = object(&r, sb, "state", &v);
	if (e || !v)
		return e;
	r.in = "state";
	if ((e = str(&r, v, "name", &st->name)) ||
	    (e = str(&r, v, "precondition", &st->precondition)) ||
	    (e = str(&r, v, "purge", &st->purge)) ||
	    (e = str(&r, v, "purge_asked", &st->purge_asked)) ||
	    (e = str(&r, v, "discard_method", &st->discard_method)) ||
	    (e = flag(&r, v, "discard_before", 0, &st->discard_before)) ||
	    (e = fig(&r, v, "written_bytes", NAN, &w)))
		return e;
	st->have_written = !isnan(w);
	st->written = st->have_written ? (uint64_t)w : 0;
	return 0;
}

/* The state's "ranks" (each rank's, under mpirun): sb_ranks_check's. */
static int state_ranks(struct rd r, const struct sb_jv *sb, struct sb_error *err)
{
	char at[300];
	snprintf(at, sizeof(at), "%s%sstate", r.where, *r.where ? "." : "");
	const struct sb_jv *st = sb_jv_get(sb, "state");
	return sb_jv_is(st, SB_JV_OBJ) ? sb_ranks_check(st, at, err) : 0;
}

static int array(const struct rd *r, const struct sb_jv *obj, const char *key, const char *expected,
		 const struct sb_jv **out)
{
	const struct sb_jv *v = sb_jv_get(obj, key);
	*out = NULL;
	if (absent(v))
		return 0;
	if (!sb_jv_is(v, SB_JV_ARR))
		return bad(r, key, expected, v);
	*out = v;
	return 0;
}

int sb_results_head_read(const struct sb_jv *sb, const char *where, struct sb_results_doc *out,
			 struct sb_error *err)
{
	struct rd r = { where ? where : "", "", err };
	int e;
	memset(out, 0, sizeof(*out));
	out->target.rotational = -1;
	if (!sb_jv_is(sb, SB_JV_OBJ))
		return bad(&r, NULL, "an object", sb);
	if ((e = str(&r, sb, "command", &out->command)) ||
	    (e = str(&r, sb, "version", &out->version)) ||
	    (e = str(&r, sb, "job_file", &out->job_file)) ||
	    (e = flag(&r, sb, "interrupted", 0, &out->interrupted)) ||
	    (e = host_read(r, sb, &out->host)) || (e = target_read(r, sb, &out->target)) ||
	    (e = state_read(r, sb, &out->state)) ||
	    (e = state_ranks(r, sb, err)) ||
	    (e = array(&r, sb, "summary", "an array of rows", &out->summary)) ||
	    (e = array(&r, sb, "warnings", "an array of sentences", &out->warnings)))
		return e;
	for (size_t i = 0; i < sb_jv_len(out->warnings); i++)
		if (!sb_jv_is(sb_jv_at(out->warnings, i), SB_JV_STR)) {
			char key[48];
			snprintf(key, sizeof(key), "warnings[%zu]", i);
			return bad(&r, key, "a string", sb_jv_at(out->warnings, i));
		}
	const struct sb_jv *said = sb_jv_get(sb, "warning_lines");
	if (sb_jv_is(said, SB_JV_ARR) && sb_jv_len(said))
		out->warning_lines = said;
	return 0;
}

int sb_summary_read(const struct sb_jv *row, const char *where, struct sb_summary_doc *out,
		    struct sb_error *err)
{
	struct rd r = { where ? where : "", "", err };
	const char *dir;
	int e;
	memset(out, 0, sizeof(*out));
	out->ddir = -1;
	if (!sb_jv_is(row, SB_JV_OBJ))
		return bad(&r, NULL, "an object of a test's figures", row);
	if ((e = str(&r, row, "test", &out->test)) || (e = str(&r, row, "direction", &dir)) ||
	    (e = fig(&r, row, "runs", NAN, &out->runs)) ||
	    (e = fig(&r, row, "bw_bytes_median", NAN, &out->bw_median)) ||
	    (e = fig(&r, row, "bw_bytes_min", NAN, &out->bw_min)) ||
	    (e = fig(&r, row, "bw_bytes_max", NAN, &out->bw_max)) ||
	    (e = fig(&r, row, "iops_median", NAN, &out->iops_median)) ||
	    (e = fig(&r, row, "iops_min", NAN, &out->iops_min)) ||
	    (e = fig(&r, row, "iops_max", NAN, &out->iops_max)) ||
	    (e = fig(&r, row, "lat_mean_ns_median", NAN, &out->lat_mean_median)) ||
	    (e = fig(&r, row, "lat_p99_ns_median", NAN, &out->lat_p99_median)))
		return e;
	for (int k = 0; dir && k < SB_DDIR_N; k++)
		if (!strcmp(dir, sb_ddir_name(k)))
			out->ddir = k;
	return 0;
}

static const char *const section_names[SB_SECTION_N] = {
	[SB_SECTION_VERIFY] = "verify",	  [SB_SECTION_SWEEP] = "sweep",
	[SB_SECTION_META] = "meta",	  [SB_SECTION_SPO] = "spo",
	[SB_SECTION_CLIFF] = "cliff",	  [SB_SECTION_FLASH] = "flash",
	[SB_SECTION_PTS] = "pts",	  [SB_SECTION_SOAK] = "soak",
	[SB_SECTION_LATENCY] = "latency", [SB_SECTION_INFO] = "info",
};

const char *sb_section_name(enum sb_section s)
{
	return (unsigned)s < SB_SECTION_N ? section_names[s] : NULL;
}

const struct sb_jv *sb_results_section(const struct sb_jv *sb, enum sb_section s)
{
	const char *name = sb_section_name(s);
	return name && sb_jv_is(sb, SB_JV_OBJ) ? sb_jv_get(sb, name) : NULL;
}

int sb_results_schema_read(const struct sb_jv *sb, uint64_t *n, double *found)
{
	const struct sb_jv *v = sb_jv_is(sb, SB_JV_OBJ) ? sb_jv_get(sb, "schema_version") : NULL;
	*n = 0;
	*found = NAN;
	if (!v)
		return -ENOENT;
	if (sb_jv_u64(v, n) < 0 || *n < 1) {
		if (sb_jv_is(v, SB_JV_NUM))
			*found = v->num.d;
		return -EINVAL;
	}
	return 0;
}
