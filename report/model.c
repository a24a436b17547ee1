/*
 * The report model from a parsed result: storbench's layout and fio's are
 * the same where fio has a field, so one reader takes both; where they
 * differ (conditions, which latency carries percentiles, series) the
 * storbench section wins and fio's job options fill in.
 */
#include "report/report.h"

#include <math.h>
#include <stdarg.h>

/* fio's documents are read by key (fio_header, "global options",
 * "client_stats"): fio's schema is fio's, with no writer in storbench to
 * hold a typed reader beside; each of their jobs is read by sb_job_read.
 * storbench's header is read by sb_results_head_read. */
static const struct sb_jv *get2(const struct sb_jv *v, const char *a, const char *b)
{
	return sb_jv_get(sb_jv_get(v, a), b);
}

const char *rep_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

static uint64_t size_of(const char *s)
{
	uint64_t v = 0;
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
static void lat_read(struct rep_lat *l, const struct sb_lat_doc *h)
{
	memset(l, 0, sizeof(*l));
	l->n = h->n;
	l->min = h->min;
	l->mean = h->mean;
	l->max = h->max;
	l->stddev = h->stddev;
	l->npct = SB_MIN(h->npct, (unsigned)REP_MAX_PCT);
	memcpy(l->pct, h->pct, l->npct * sizeof(*l->pct));
	memcpy(l->val, h->val, l->npct * sizeof(*l->val));
}

double rep_pct(const struct rep_lat *l, double p)
{
	for (unsigned i = 0; i < l->npct; i++)
		if (fabs(l->pct[i] - p) < 1e-9)
			return l->val[i];
	return NAN;
}

static void dir_read(struct rep_job *j, int d, const struct sb_dir_doc *v)
{
	struct rep_dir *r = &j->dir[d];
	const struct sb_lat_doc *lat = &v->lat;
	r->bytes = v->bytes ? v->bytes : v->kbytes * 1024;
	r->ios = v->ios;
	r->bw = isnan(v->bw_bytes) ? (isnan(v->bw) ? 0 : v->bw * 1024) : v->bw_bytes;
	r->iops = isnan(v->iops) ? 0 : v->iops;
	r->used = r->ios > 0 || r->bytes > 0;
	/* storbench's lat_ns has percentiles; fio's only with lat_percentiles */
	if (!lat->has_pct && v->clat.has_pct) {
		lat = &v->clat;
		j->lat_kind = "completion";
	}
	lat_read(&r->lat, lat);
}

/* ---- series ---- */
/* A log line's job holds its series; a document's are read apart (load_doc.c). */
static int series_read(struct rep_job *j, const struct sb_jv *s, const char *where, char *msg,
		       size_t len)
{
	for (size_t i = 0; i < sb_jv_len(s); i++) {
		struct sb_interval_doc iv;
		struct sb_error er;
		char at[96];
		snprintf(at, sizeof(at), "%s%sstorbench.series[%zu]", where, *where ? "." : "", i);
		if (sb_interval_read(sb_jv_at(s, i), at, &iv, &er) < 0)
			return snprintf(msg, len, "%s", er.msg), -REP_EINPUT;
		if (rep_series_add(&j->series, &iv) < 0)
			return -ENOMEM;
	}
	rep_series_end(&j->series, j->interval_s);
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

static void bs_text(struct rep_job *j, const struct rep_doc *d, const struct sb_opts_doc *o)
{
	uint64_t v;
	char tmp[32];
	if (o->bssplit) {
		snprintf(j->bs, sizeof(j->bs), "%s", o->bssplit);
	} else if (o->bs && sb_parse_size(o->bs, &v) == 0 && v) {
		j->bs_bytes = v;
		snprintf(j->bs, sizeof(j->bs), "%s", sb_fmt_size(v, tmp, sizeof(tmp)));
	} else {
		snprintf(j->bs, sizeof(j->bs), "%s", o->bs ? o->bs : d->is_fio ? "4 KiB" : "");
		j->bs_bytes = o->bs ? 0 : d->is_fio ? 4096 : 0;
	}
}

static unsigned count_of(unsigned written, const char *opt)
{
	uint64_t v;
	if (written)
		return written;
	return opt && !sb_parse_u64(opt, &v) ? (unsigned)v : 1;
}

static void conditions(struct rep_job *j, const struct rep_doc *d, const struct sb_job_doc *x)
{
	const struct sb_opts_doc *o = &x->opts;
	j->rw = rep_or(o->rw, d->is_fio ? "read" : "");
	j->engine = rep_or(x->engine, rep_or(o->ioengine, d->is_fio ? "psync" : ""));
	j->cache = rep_or(x->cache, "");
	j->iodepth = count_of(x->iodepth, o->iodepth);
	j->numjobs = count_of(x->numjobs, o->numjobs);
	j->direct = x->direct;
	if (j->direct < 0 && o->direct)
		j->direct = !strcmp(o->direct, "1") || !strcmp(o->direct, "true");
	if (j->direct < 0 && d->is_fio)
		j->direct = 0; /* fio's default: buffered */
	if (!j->cache[0] && j->direct == 1)
		j->cache = "bypassed (direct I/O)";
	j->size = size_of(o->size);
	bs_text(j, d, o);
}

/* How long a fio job ran, in s: the longest of its directions' runtime,
 * not job_runtime, which fio sums over the jobs group_reporting merges
 * (2 s for numjobs=2 of 1 s); job_runtime only when no direction ran. */
static double fio_runtime_s(const struct sb_job_doc *x)
{
	double ms = 0;
	for (int dd = 0; dd < SB_DDIR_N; dd++)
		ms = SB_MAX(ms, x->dir[dd].runtime_ms);
	return (ms > 0 ? ms : x->job_runtime_ms) / 1e3;
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
	j->series_json = NULL;
	return 0;
}

int rep_add_job(struct rep_doc *d, const struct sb_jv *job, const char *where, char *msg,
		size_t len)
{
	struct sb_job_doc x;
	struct sb_error er;
	if (sb_job_read(job, sb_jv_get(d->root, "global options"), where, &x, &er) < 0)
		return snprintf(msg, len, "%s", er.msg), -REP_EINPUT;
	struct rep_job *nj = rep_grow_one(d->jobs, d->njobs, sizeof(*d->jobs));
	if (!nj)
		return -ENOMEM;
	d->jobs = nj;
	struct rep_job *j = &d->jobs[d->njobs];
	memset(j, 0, sizeof(*j));
	j->json = job;
	j->in_log = d->src && d->src->is_log;
	j->name = x.name;
	j->lat_kind = "total";
	name_runs(j);
	conditions(j, d, &x);
	for (int dd = 0; dd < SB_DDIR_N; dd++)
		dir_read(j, dd, &x.dir[dd]);
	j->runtime_s = x.have_sb ? x.runtime_ns / 1e9 : fio_runtime_s(&x);
	j->errors = x.have_sb ? x.errors : x.error != 0;
	j->usr_cpu = x.usr_cpu;
	j->sys_cpu = x.sys_cpu;
	j->interrupted = x.interrupted;
	j->interval_s = x.log_interval_ns / 1e9;
	j->series_json = x.series;
	d->njobs++;
	if (d->figures_only)
		return own_strings(j);
	return series_read(j, x.series, where, msg, len);
}

size_t rep_nclients(const struct rep_doc *d)
{
	return d->root ? sb_jv_len(sb_jv_get(d->root, "client_stats")) : 0;
}

int rep_client(const struct rep_doc *d, size_t i, struct sb_job_doc *out)
{
	struct sb_error er;
	const struct sb_jv *c = sb_jv_at(sb_jv_get(d->root, "client_stats"), i);
	return sb_job_read(c, NULL, "", out, &er) < 0 ? -1 : 0;
}

/* ---- the document's header ---- */
static double or_num(double v, double dflt)
{
	return isnan(v) ? dflt : v;
}

static int summary_read(struct rep_doc *d, const struct sb_jv *rows, char *msg, size_t len)
{
	size_t n = sb_jv_len(rows);
	if (!n || !(d->summary = calloc(n, sizeof(*d->summary))))
		return 0;
	for (size_t i = 0; i < n; i++) {
		struct rep_summary *s = &d->summary[d->nsummary];
		struct sb_summary_doc x;
		struct sb_error er;
		char where[48];
		snprintf(where, sizeof(where), "storbench.summary[%zu]", i);
		if (sb_summary_read(sb_jv_at(rows, i), where, &x, &er) < 0)
			return snprintf(msg, len, "%s", er.msg), -REP_EINPUT;
		s->test = x.test;
		s->ddir = x.ddir;
		if (!s->test || s->ddir < 0)
			continue;
		s->runs = (unsigned)or_num(x.runs, 1);
		s->bw_median = or_num(x.bw_median, 0);
		s->bw_min = or_num(x.bw_min, s->bw_median);
		s->bw_max = or_num(x.bw_max, s->bw_median);
		s->iops_median = or_num(x.iops_median, 0);
		s->iops_min = or_num(x.iops_min, s->iops_median);
		s->iops_max = or_num(x.iops_max, s->iops_median);
		s->lat_mean_median = x.lat_mean_median;
		s->lat_p99_median = x.lat_p99_median;
		d->nsummary++;
	}
	return 0;
}

/* A run's sentence, "... in 'JOB': ADVICE", without its figures and its
 * job: the same key for the same warning of every run; 0 for a sentence
 * about no run. An FNV-1a hash: keys that differ may share one, and are
 * told apart by same_warning. */
static uint64_t warning_key(const char *s)
{
	const char *job = strstr(s, " in '"), *end = job ? strchr(job + 5, '\'') : NULL;
	uint64_t h = 1469598103934665603ull;
	if (!end)
		return 0;
	for (const char *p = s; *p; p++) {
		if (p == job)
			p = end; /* the closing quote: the job left out */
		else if ((*p < '0' || *p > '9') && *p != '.')
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
	}
	return h | 1;
}

/* Whether two sentences are one warning of two runs: the same but for
 * their figures and their jobs. */
static int same_warning(const char *a, const char *b)
{
	const char *ja = strstr(a, " in '"), *jb = strstr(b, " in '");
	const char *ea = strchr(ja + 5, '\''), *eb = strchr(jb + 5, '\'');
	for (;;) {
		while (*a && (a == ja || (*a >= '0' && *a <= '9') || *a == '.'))
			a = a == ja ? ea + 1 : a + 1;
		while (*b && (b == jb || (*b >= '0' && *b <= '9') || *b == '.'))
			b = b == jb ? eb + 1 : b + 1;
		if (*a != *b)
			return 0;
		if (!*a)
			return 1;
		a++;
		b++;
	}
}

/* Each warning once: the lines the program said (warning_lines), or, in
 * results written before them, the first run's sentence of each warning
 * with how many more runs raised it (in time linear in the sentences: a
 * table of each warning's key). */
static void warnings_read(struct rep_doc *d, const struct sb_results_doc *x)
{
	const int grouped = x->warning_lines != NULL;
	const struct sb_jv *w = grouped ? x->warning_lines : x->warnings;
	const size_t n = sb_jv_len(w);
	size_t nslot = 4;
	while (nslot < 2 * n)
		nslot *= 2;
	if (!n || !(d->warnings = calloc(n, sizeof(*d->warnings))))
		return;
	unsigned *more = grouped ? NULL : calloc(n, sizeof(*more));
	uint64_t *key = more ? calloc(nslot, sizeof(*key)) : NULL;
	size_t *at = key ? calloc(nslot, sizeof(*at)) : NULL;
	for (size_t i = 0; i < n; i++) {
		const char *s = sb_jv_str(sb_jv_at(w, i));
		const uint64_t h = at && s ? warning_key(s) : 0;
		size_t slot = h & (nslot - 1);
		if (!s)
			continue;
		for (; h && key[slot]; slot = (slot + 1) & (nslot - 1))
			if (key[slot] == h && same_warning(s, d->warnings[at[slot]]))
				break;
		if (h && key[slot]) {
			more[at[slot]]++;
			continue;
		}
		if (h) {
			key[slot] = h;
			at[slot] = d->nwarnings;
		}
		d->warnings[d->nwarnings++] = s;
	}
	free(key);
	free(at);
	if (more && d->nwarnings < n)
		d->warnings_made = calloc(d->nwarnings, sizeof(*d->warnings_made));
	for (size_t k = 0; d->warnings_made && k < d->nwarnings; k++) {
		const char *s = d->warnings[k], *end;
		if (!more[k] || !(end = strchr(strstr(s, " in '") + 5, '\'')))
			continue;
		if (asprintf(&d->warnings_made[k], "%.*s and %u more run%s%s", (int)(end + 1 - s),
			     s, more[k], more[k] == 1 ? "" : "s", end + 1) >= 0)
			d->warnings[k] = d->warnings_made[k];
		else
			d->warnings_made[k] = NULL;
	}
	free(more);
}

/* The state the target was brought to (--precondition, --discard-before). */
static void state_read(struct rep_doc *d, const struct sb_state_doc *st)
{
	char a[32];
	d->state = st->name;
	if (!d->state)
		return;
	const char *pre = rep_or(st->precondition, "none");
	const char *purge = st->purge, *asked = st->purge_asked;
	size_t n = 0;
	d->state_buf[0] = '\0';
	if (purge)
		n += (size_t)snprintf(d->state_buf, sizeof(d->state_buf), "purge by %s%s%s", purge,
				      asked && strcmp(asked, purge) ? ", --purge=" : "",
				      asked && strcmp(asked, purge) ? asked : "");
	else if (st->have_written)
		n += (size_t)snprintf(d->state_buf, sizeof(d->state_buf), "%s, %s written", pre,
				      sb_fmt_size(st->written, a, sizeof(a)));
	if (st->discard_before && n < sizeof(d->state_buf))
		snprintf(d->state_buf + n, sizeof(d->state_buf) - n, "%sdiscarded by %s",
			 n ? ", " : "", rep_or(st->discard_method, "?"));
	d->state_detail = d->state_buf;
	/* what compare sets side by side: the purge method with the name */
	d->state_label = d->state;
	if (purge) {
		snprintf(d->state_label_buf, sizeof(d->state_label_buf), "%s (by %s)", d->state,
			 purge);
		d->state_label = d->state_label_buf;
	}
}

/* What fio's document tells of the setting. */
static void fio_header(struct rep_doc *d, const struct sb_jv *root)
{
	d->command = "fio";
	snprintf(d->producer, sizeof(d->producer), "%s",
		 rep_or(sb_jv_str(sb_jv_get(root, "fio version")), "fio"));
	d->target.path = sb_jv_str(get2(root, "global options", "filename"));
	if (!d->target.path)
		d->target.path = sb_jv_str(
			get2(sb_jv_at(sb_jv_get(root, "jobs"), 0), "job options", "filename"));
	d->target.device = sb_jv_str(sb_jv_get(sb_jv_at(sb_jv_get(root, "disk_util"), 0), "name"));
	d->target.rotational = -1;
}

/* storbench's header (through the results' reader), or fio's. */
int rep_read_header(struct rep_doc *d, const struct sb_jv *root, char *msg, size_t len)
{
	/* the root's members by name: "storbench" tells the schema, "time"
	 * both schemas write at the root (a generic loader) */
	const struct sb_jv *sb = sb_jv_get(root, "storbench");
	struct sb_results_doc x;
	struct sb_error er;
	d->root = root;
	d->time = sb_jv_str(sb_jv_get(root, "time"));
	if (d->is_fio) {
		fio_header(d, root);
		return 0;
	}
	d->sb = sb;
	if (sb_results_head_read(sb, "storbench", &x, &er) < 0)
		return snprintf(msg, len, "%s", er.msg), -REP_EINPUT;
	d->command = rep_or(x.command, "?");
	snprintf(d->producer, sizeof(d->producer), "storbench %s", rep_or(x.version, "?"));
	d->interrupted = x.interrupted;
	d->host = x.host;
	d->target = x.target;
	state_read(d, &x.state);
	if (!d->target.path)
		d->target.path = sb_jv_str(get2(root, "global options", "filename"));
	warnings_read(d, &x);
	if (sb_jv_is(sb_results_section(sb, SB_SECTION_SOAK), SB_JV_OBJ) && !d->src->is_log) {
		d->soak_summary =
			sb_results_section(sb, SB_SECTION_SOAK); /* its iterations are its own */
		d->soak_summary_at = SIZE_MAX;
	}
	return summary_read(d, x.summary, msg, len);
}

/* ---- human figures ---- */
/* The program's one choice of rate units (--units), set before anything is
 * printed: every text, table and chart of the process shows rates alike. */
static int units_si;

void rep_set_units_si(int si)
{
	units_si = si;
}

int rep_units_si(void)
{
	return units_si;
}

double rep_rate_div(void)
{
	return units_si ? 1e6 : 1048576;
}

const char *rep_rate_unit(void)
{
	return units_si ? "MB/s" : "MiB/s";
}

char *rep_fmt_rate(double bps, char *buf, size_t len)
{
	if (!isfinite(bps))
		return snprintf(buf, len, "-"), buf;
	return units_si ? sb_fmt_rate_si(bps, buf, len) : sb_fmt_rate(bps, buf, len);
}

char *rep_fmt_ns(double ns, char *buf, size_t len)
{
	return isfinite(ns) ? sb_fmt_ns(ns, buf, len) : (snprintf(buf, len, "-"), buf);
}

char *rep_fmt_dur(double ns, char *buf, size_t len)
{
	const uint64_t s = ns > 0 ? (uint64_t)(ns / 1e9 + 0.5) : 0;
	if (s < 60)
		snprintf(buf, len, "%llus", (unsigned long long)s);
	else if (s < 3600)
		snprintf(buf, len, "%llum%02llus", (unsigned long long)(s / 60),
			 (unsigned long long)(s % 60));
	else if (s < 86400)
		snprintf(buf, len, "%lluh%02llum", (unsigned long long)(s / 3600),
			 (unsigned long long)(s / 60 % 60));
	else
		snprintf(buf, len, "%llud%02lluh", (unsigned long long)(s / 86400),
			 (unsigned long long)(s / 3600 % 24));
	return buf;
}

char *rep_fmt_count(double n, char *buf, size_t len)
{
	return isfinite(n) ? sb_fmt_count(n, buf, len) : (snprintf(buf, len, "-"), buf);
}
