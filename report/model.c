/*
 * The report model from a parsed result: storbench's layout and fio's are
 * the same where fio has a field, so one reader takes both; where they
 * differ (conditions, which latency carries percentiles, series) the
 * storbench section wins and fio's job options fill in.
 */
#include "report/report.h"

#include <math.h>
#include <stdarg.h>

static const struct sb_jv *get2(const struct sb_jv *v, const char *a, const char *b)
{
	return sb_jv_get(sb_jv_get(v, a), b);
}

const char *rep_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

static uint64_t u64_of(const struct sb_jv *v)
{
	double d = sb_jv_num(v, 0);
	return d > 0 && d < 1.8e19 ? (uint64_t)d : 0;
}

/* A job option: storbench and fio write them as strings. storbench's own
 * (storbench.options) first: a job file's "job options" are its words, and
 * only the options it wrote. */
static const char *opt(const struct rep_doc *d, const struct sb_jv *job, const char *key)
{
	const char *s = sb_jv_str(get2(sb_jv_get(job, "storbench"), "options", key));
	if (!s)
		s = sb_jv_str(get2(job, "job options", key));
	return s ? s : sb_jv_str(get2(d->root, "global options", key));
}

static uint64_t opt_size(const struct rep_doc *d, const struct sb_jv *job, const char *key)
{
	uint64_t v = 0;
	const char *s = opt(d, job, key);
	return s && sb_parse_size(s, &v) == 0 ? v : 0;
}

void *rep_grow_one(void *p, size_t n, size_t sz)
{
	if (p && n & (n - 1))
		return p; /* room up to the next power of two */
	const size_t cap = n ? 2 * n : 1;
	if (cap > SIZE_MAX / sz)
		return NULL;
	return realloc(p, cap * sz);
}

static int vnote(struct rep_doc *d, const char *fmt, va_list ap)
{
	char buf[512], **slot = rep_grow_one(d->notes, d->nnotes, sizeof(*d->notes));
	if (!slot)
		return -ENOMEM;
	d->notes = slot;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (!(d->notes[d->nnotes] = strdup(buf)))
		return -ENOMEM;
	d->nnotes++;
	return 0;
}

int rep_note(struct rep_doc *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int e = vnote(d, fmt, ap);
	va_end(ap);
	return e;
}

int rep_skip_line(struct rep_doc *d, const char *fmt, ...)
{
	va_list ap;
	int e = 0;
	if (d->nskipped++ >= REP_MAX_NOTES)
		return 0;
	va_start(ap, fmt);
	e = vnote(d, fmt, ap);
	va_end(ap);
	return e;
}

int rep_fail(char **why, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(why, fmt, ap) < 0)
		*why = NULL;
	va_end(ap);
	return err;
}

/* ---- latency ---- */
static void lat_read(struct rep_lat *l, const struct sb_jv *h)
{
	const struct sb_jv *p = sb_jv_get(h, "percentile");
	memset(l, 0, sizeof(*l));
	l->n = u64_of(sb_jv_get(h, "N"));
	l->min = sb_jv_num(sb_jv_get(h, "min"), 0);
	l->mean = sb_jv_num(sb_jv_get(h, "mean"), 0);
	l->max = sb_jv_num(sb_jv_get(h, "max"), 0);
	l->stddev = sb_jv_num(sb_jv_get(h, "stddev"), 0);
	for (size_t i = 0; i < sb_jv_len(p) && l->npct < REP_MAX_PCT; i++) {
		const struct sb_jmember *m = &p->obj.m[i];
		char *end;
		double pc = strtod(m->key, &end);
		double v = sb_jv_num(&m->val, -1);
		if (*end || !(pc > 0 && pc < 100) || !(v >= 0))
			continue;
		unsigned k = l->npct++; /* insertion keeps them increasing */
		for (; k > 0 && l->pct[k - 1] > pc; k--) {
			l->pct[k] = l->pct[k - 1];
			l->val[k] = l->val[k - 1];
		}
		l->pct[k] = pc;
		l->val[k] = v;
	}
}

double rep_pct(const struct rep_lat *l, double p)
{
	for (unsigned i = 0; i < l->npct; i++)
		if (fabs(l->pct[i] - p) < 1e-9)
			return l->val[i];
	return NAN;
}

static void dir_read(struct rep_job *j, int d, const struct sb_jv *v)
{
	struct rep_dir *r = &j->dir[d];
	const struct sb_jv *lat = sb_jv_get(v, "lat_ns");
	r->bytes = u64_of(sb_jv_get(v, "io_bytes"));
	if (!r->bytes)
		r->bytes = u64_of(sb_jv_get(v, "io_kbytes")) * 1024;
	r->ios = u64_of(sb_jv_get(v, "total_ios"));
	r->bw = sb_jv_num(sb_jv_get(v, "bw_bytes"), sb_jv_num(sb_jv_get(v, "bw"), 0) * 1024);
	r->iops = sb_jv_num(sb_jv_get(v, "iops"), 0);
	r->used = r->ios > 0 || r->bytes > 0;
	/* storbench's lat_ns has percentiles; fio's only with lat_percentiles */
	if (!sb_jv_get(lat, "percentile") && sb_jv_get(sb_jv_get(v, "clat_ns"), "percentile")) {
		lat = sb_jv_get(v, "clat_ns");
		j->lat_kind = "completion";
	}
	lat_read(&r->lat, lat);
}

/* ---- series ---- */
/* A log line's job holds its series; a document's are read apart (load_doc.c). */
static int series_read(struct rep_job *j, const struct sb_jv *sb)
{
	const struct sb_jv *s = sb_jv_get(sb, "series");
	for (size_t i = 0; i < sb_jv_len(s); i++)
		if (rep_series_add(&j->series, sb_jv_at(s, i)) < 0)
			return -ENOMEM;
	rep_series_end(&j->series, sb_jv_num(sb_jv_get(sb, "log_interval_ns"), 0) / 1e9);
	return 0;
}

/* ---- a job ---- */
static void name_runs(struct rep_job *j)
{
	unsigned a, b;
	int at = -1;
	const char *p = strstr(j->name, " (run ");
	j->run = j->nruns = 1;
	if (p && sscanf(p, " (run %u of %u)%n", &a, &b, &at) == 2 && at > 0 && !p[at] && a >= 1 &&
	    a <= b) {
		j->run = a;
		j->nruns = b;
		snprintf(j->group, sizeof(j->group), "%.*s", (int)(p - j->name), j->name);
	} else {
		snprintf(j->group, sizeof(j->group), "%s", j->name);
	}
}

static void bs_text(struct rep_job *j, const struct rep_doc *d, const struct sb_jv *job)
{
	const char *split = opt(d, job, "bssplit"), *bs = opt(d, job, "bs");
	uint64_t v;
	char tmp[32];
	if (split) {
		snprintf(j->bs, sizeof(j->bs), "%s", split);
	} else if (bs && sb_parse_size(bs, &v) == 0 && v) {
		j->bs_bytes = v;
		snprintf(j->bs, sizeof(j->bs), "%s", sb_fmt_size(v, tmp, sizeof(tmp)));
	} else {
		snprintf(j->bs, sizeof(j->bs), "%s", bs ? bs : d->is_fio ? "4 KiB" : "");
		j->bs_bytes = bs ? 0 : d->is_fio ? 4096 : 0;
	}
}

static void conditions(struct rep_job *j, const struct rep_doc *d, const struct sb_jv *job)
{
	const struct sb_jv *c = get2(job, "storbench", "conditions");
	uint64_t v;
	const char *s;
	j->rw = rep_or(opt(d, job, "rw"),
		       rep_or(opt(d, job, "readwrite"), d->is_fio ? "read" : ""));
	j->engine = rep_or(sb_jv_str(sb_jv_get(c, "engine")),
			   rep_or(opt(d, job, "ioengine"), d->is_fio ? "psync" : ""));
	j->cache = rep_or(sb_jv_str(sb_jv_get(c, "cache")), "");
	j->iodepth = (unsigned)sb_jv_num(sb_jv_get(c, "iodepth"), 0);
	if (!j->iodepth)
		j->iodepth = (s = opt(d, job, "iodepth")) && !sb_parse_u64(s, &v) ? (unsigned)v : 1;
	j->numjobs = (unsigned)sb_jv_num(sb_jv_get(c, "numjobs"), 0);
	if (!j->numjobs)
		j->numjobs = (s = opt(d, job, "numjobs")) && !sb_parse_u64(s, &v) ? (unsigned)v : 1;
	j->direct = sb_jv_bool(sb_jv_get(c, "direct"), -1);
	if (j->direct < 0 && (s = opt(d, job, "direct")))
		j->direct = !strcmp(s, "1") || !strcmp(s, "true");
	if (j->direct < 0 && d->is_fio)
		j->direct = 0; /* fio's default: buffered */
	if (!j->cache[0] && j->direct == 1)
		j->cache = "bypassed (direct I/O)";
	j->size = opt_size(d, job, "size");
	bs_text(j, d, job);
}

/* How long a fio job ran, in s: the longest of its directions' runtime,
 * not job_runtime, which fio sums over the jobs group_reporting merges
 * (2 s for numjobs=2 of 1 s); job_runtime only when no direction ran. */
static double fio_runtime_s(const struct sb_jv *job)
{
	double ms = 0;
	for (int dd = 0; dd < SB_DDIR_N; dd++) {
		double r = sb_jv_num(sb_jv_get(sb_jv_get(job, sb_ddir_name(dd)), "runtime"), 0);
		ms = r > ms ? r : ms;
	}
	return (ms > 0 ? ms : sb_jv_num(sb_jv_get(job, "job_runtime"), 0)) / 1e3;
}

/* A job read for its figures alone: its strings copied out of the tree,
 * which goes. */
static int own_strings(struct rep_job *j)
{
	const char **s[] = { &j->name, &j->rw, &j->engine, &j->cache };
	size_t len = 0;
	for (size_t i = 0; i < SB_ARRAY_SIZE(s); i++)
		len += strlen(*s[i]) + 1;
	char *p = j->owned = malloc(len);
	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < SB_ARRAY_SIZE(s); i++) {
		const size_t n = strlen(*s[i]) + 1;
		memcpy(p, *s[i], n);
		*s[i] = p;
		p += n;
	}
	j->json = NULL;
	return 0;
}

int rep_add_job(struct rep_doc *d, const struct sb_jv *job)
{
	struct rep_job *nj = rep_grow_one(d->jobs, d->njobs, sizeof(*d->jobs));
	if (!nj)
		return -ENOMEM;
	d->jobs = nj;
	struct rep_job *j = &d->jobs[d->njobs];
	const struct sb_jv *sb = sb_jv_get(job, "storbench");
	memset(j, 0, sizeof(*j));
	j->json = job;
	j->in_log = d->src && d->src->is_log;
	j->name = rep_or(sb_jv_str(sb_jv_get(job, "jobname")), "job");
	j->lat_kind = "total";
	name_runs(j);
	conditions(j, d, job);
	for (int dd = 0; dd < SB_DDIR_N; dd++)
		dir_read(j, dd, sb_jv_get(job, sb_ddir_name(dd)));
	j->runtime_s = sb ? sb_jv_num(sb_jv_get(sb, "runtime_ns"), 0) / 1e9 : fio_runtime_s(job);
	j->errors = sb ? u64_of(sb_jv_get(sb, "errors"))
		       : sb_jv_num(sb_jv_get(job, "error"), 0) != 0;
	j->usr_cpu = sb_jv_num(sb_jv_get(job, "usr_cpu"), 0);
	j->sys_cpu = sb_jv_num(sb_jv_get(job, "sys_cpu"), 0);
	j->interrupted = sb_jv_bool(sb_jv_get(sb, "interrupted"), 0);
	d->njobs++;
	return d->figures_only ? own_strings(j) : series_read(j, sb);
}

/* ---- the document's header ---- */
static void host_read(struct rep_host *h, const struct sb_jv *v)
{
	h->hostname = sb_jv_str(sb_jv_get(v, "hostname"));
	h->kernel = sb_jv_str(sb_jv_get(v, "kernel"));
	h->arch = sb_jv_str(sb_jv_get(v, "arch"));
	h->cpu = sb_jv_str(sb_jv_get(v, "cpu"));
	h->cpus = (unsigned)sb_jv_num(sb_jv_get(v, "cpus"), 0);
	h->mem_total = u64_of(sb_jv_get(v, "mem_total"));
}

static void target_read(struct rep_target *t, const struct sb_jv *v)
{
	t->path = sb_jv_str(sb_jv_get(v, "path"));
	t->kind = sb_jv_str(sb_jv_get(v, "kind"));
	t->device = sb_jv_str(sb_jv_get(v, "device"));
	t->disk = sb_jv_str(sb_jv_get(v, "disk"));
	t->model = sb_jv_str(sb_jv_get(v, "model"));
	t->scheduler = sb_jv_str(sb_jv_get(v, "scheduler"));
	t->write_cache = sb_jv_str(sb_jv_get(v, "write_cache"));
	t->filesystem = sb_jv_str(sb_jv_get(v, "filesystem"));
	t->mountpoint = sb_jv_str(sb_jv_get(v, "mountpoint"));
	t->capacity = u64_of(sb_jv_get(v, "capacity"));
	t->lbs = (unsigned)sb_jv_num(sb_jv_get(v, "logical_block_size"), 0);
	t->pbs = (unsigned)sb_jv_num(sb_jv_get(v, "physical_block_size"), 0);
	t->rotational = sb_jv_bool(sb_jv_get(v, "rotational"), -1);
	t->created = sb_jv_bool(sb_jv_get(v, "created"), 0);
	t->in_ram = sb_jv_bool(sb_jv_get(v, "in_ram"), 0);
}

static void summary_read(struct rep_doc *d, const struct sb_jv *rows)
{
	size_t n = sb_jv_len(rows);
	if (!n || !(d->summary = calloc(n, sizeof(*d->summary))))
		return;
	for (size_t i = 0; i < n; i++) {
		const struct sb_jv *r = sb_jv_at(rows, i);
		struct rep_summary *s = &d->summary[d->nsummary];
		const char *dir = sb_jv_str(sb_jv_get(r, "direction"));
		s->test = sb_jv_str(sb_jv_get(r, "test"));
		s->ddir = -1;
		for (int k = 0; k < SB_DDIR_N; k++)
			if (dir && !strcmp(dir, sb_ddir_name(k)))
				s->ddir = k;
		if (!s->test || s->ddir < 0)
			continue;
		s->runs = (unsigned)sb_jv_num(sb_jv_get(r, "runs"), 1);
		s->bw_median = sb_jv_num(sb_jv_get(r, "bw_bytes_median"), 0);
		s->bw_min = sb_jv_num(sb_jv_get(r, "bw_bytes_min"), s->bw_median);
		s->bw_max = sb_jv_num(sb_jv_get(r, "bw_bytes_max"), s->bw_median);
		s->iops_median = sb_jv_num(sb_jv_get(r, "iops_median"), 0);
		s->iops_min = sb_jv_num(sb_jv_get(r, "iops_min"), s->iops_median);
		s->iops_max = sb_jv_num(sb_jv_get(r, "iops_max"), s->iops_median);
		s->lat_mean_median = sb_jv_num(sb_jv_get(r, "lat_mean_ns_median"), NAN);
		s->lat_p99_median = sb_jv_num(sb_jv_get(r, "lat_p99_ns_median"), NAN);
		d->nsummary++;
	}
}

static void warnings_read(struct rep_doc *d, const struct sb_jv *w)
{
	size_t n = sb_jv_len(w);
	if (!n || !(d->warnings = calloc(n, sizeof(*d->warnings))))
		return;
	for (size_t i = 0; i < n; i++)
		if (sb_jv_str(sb_jv_at(w, i)))
			d->warnings[d->nwarnings++] = sb_jv_str(sb_jv_at(w, i));
}

/* The state the target was brought to (--precondition, --discard-before). */
static void state_read(struct rep_doc *d, const struct sb_jv *st)
{
	char a[32];
	uint64_t bytes = 0;
	d->state = sb_jv_str(sb_jv_get(st, "name"));
	if (!d->state)
		return;
	const char *pre = rep_or(sb_jv_str(sb_jv_get(st, "precondition")), "none");
	const char *purge = sb_jv_str(sb_jv_get(st, "purge"));
	const char *asked = sb_jv_str(sb_jv_get(st, "purge_asked"));
	const struct sb_jv *w = sb_jv_get(st, "written_bytes");
	size_t n = 0;
	d->state_buf[0] = '\0';
	if (purge)
		n += (size_t)snprintf(d->state_buf, sizeof(d->state_buf), "purge by %s%s%s", purge,
				      asked && strcmp(asked, purge) ? ", --purge=" : "",
				      asked && strcmp(asked, purge) ? asked : "");
	else if (w && !sb_jv_u64(w, &bytes))
		n += (size_t)snprintf(d->state_buf, sizeof(d->state_buf), "%s, %s written", pre,
				      sb_fmt_size(bytes, a, sizeof(a)));
	if (sb_jv_bool(sb_jv_get(st, "discard_before"), 0) && n < sizeof(d->state_buf))
		snprintf(d->state_buf + n, sizeof(d->state_buf) - n, "%sdiscarded by %s",
			 n ? ", " : "", rep_or(sb_jv_str(sb_jv_get(st, "discard_method")), "?"));
	d->state_detail = d->state_buf;
	/* what compare sets side by side: the purge method with the name */
	d->state_label = d->state;
	if (purge) {
		snprintf(d->state_label_buf, sizeof(d->state_label_buf), "%s (by %s)", d->state,
			 purge);
		d->state_label = d->state_label_buf;
	}
}

/* storbench's header, or what fio's document tells of the setting. */
void rep_read_header(struct rep_doc *d, const struct sb_jv *root)
{
	const struct sb_jv *sb = sb_jv_get(root, "storbench");
	d->root = root;
	d->time = sb_jv_str(sb_jv_get(root, "time"));
	if (d->is_fio) {
		d->command = "fio";
		snprintf(d->producer, sizeof(d->producer), "%s",
			 rep_or(sb_jv_str(sb_jv_get(root, "fio version")), "fio"));
		d->target.path = sb_jv_str(get2(root, "global options", "filename"));
		if (!d->target.path)
			d->target.path = sb_jv_str(get2(sb_jv_at(sb_jv_get(root, "jobs"), 0),
							"job options", "filename"));
		d->target.device = sb_jv_str(
			sb_jv_get(sb_jv_at(sb_jv_get(root, "disk_util"), 0), "name"));
		d->target.rotational = -1;
		return;
	}
	d->sb = sb;
	d->command = rep_or(sb_jv_str(sb_jv_get(sb, "command")), "?");
	snprintf(d->producer, sizeof(d->producer), "storbench %s",
		 rep_or(sb_jv_str(sb_jv_get(sb, "version")), "?"));
	d->interrupted = sb_jv_bool(sb_jv_get(sb, "interrupted"), 0);
	host_read(&d->host, sb_jv_get(sb, "host"));
	target_read(&d->target, sb_jv_get(sb, "target"));
	state_read(d, sb_jv_get(sb, "state"));
	if (!d->target.path)
		d->target.path = sb_jv_str(get2(root, "global options", "filename"));
	summary_read(d, sb_jv_get(sb, "summary"));
	warnings_read(d, sb_jv_get(sb, "warnings"));
	if (sb_jv_is(sb_jv_get(sb, "soak"), SB_JV_OBJ) && !d->src->is_log) {
		d->soak_summary = sb_jv_get(sb, "soak"); /* its iterations are its own */
		d->soak_summary_at = SIZE_MAX;
	}
}

/* ---- human figures ---- */
char *rep_fmt_rate(double bps, char *buf, size_t len)
{
	return isfinite(bps) ? sb_fmt_rate(bps, buf, len) : (snprintf(buf, len, "-"), buf);
}

char *rep_fmt_ns(double ns, char *buf, size_t len)
{
	return isfinite(ns) ? sb_fmt_ns(ns, buf, len) : (snprintf(buf, len, "-"), buf);
}

char *rep_fmt_count(double n, char *buf, size_t len)
{
	return isfinite(n) ? sb_fmt_count(n, buf, len) : (snprintf(buf, len, "-"), buf);
}
