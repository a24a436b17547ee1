/* The job model: option table, setters and the whole-job check. */
#include "lib/job/job.h"
#include "lib/engine/engine.h"
#include "lib/job/buffer.h"

#include <stdarg.h>
#include <strings.h>
#include <unistd.h>

enum opt_kind {
	K_ENUM, /* int from names[] */
	K_SIZE64,
	K_SIZE32,
	K_DURATION,
	K_UINT,	     /* unsigned, 0..max */
	K_UINT_AUTO, /* "auto" (0) or unsigned min..max */
	K_PERCENT,
	K_BOOL, /* 0|1 */
	K_U64,
	K_STRING, /* char[16] */
	K_BSSPLIT,
	K_DIST,
	K_PATTERN, /* fio's buffer_pattern */
};

struct opt {
	struct sb_job_optdef def;
	enum opt_kind kind;
	size_t off;
	const char *const *names; /* K_ENUM */
	uint64_t min, max;	  /* K_UINT, K_SIZE*, K_DURATION */
};

static const char *const rw_names[] = { "read",	     "write",	      "randread", "randwrite",
					"rw",	     "randrw",	      "trim",	  "randtrim",
					"trimwrite", "randtrimwrite", NULL };
static const char *const sync_names[] = { "none", "dsync", "sync", NULL };
static const char *const continue_names[] = { "none", "read", "write", "all", NULL };

#define OFF(f) offsetof(struct sb_job_opts, f)
#define GiB (1ull << 30)

static const struct opt opts[] = {
	{ { "rw", "read|write|randread|randwrite|rw|randrw|trim|randtrim|trimwrite|randtrimwrite",
	    "access pattern", "read" },
	  K_ENUM,
	  OFF(rw),
	  rw_names,
	  0,
	  0 },
	{ { "rwmixread", "PCT", "share of reads in rw and randrw", "50" },
	  K_PERCENT,
	  OFF(rwmixread),
	  NULL,
	  0,
	  100 },
	{ { "bs", "SIZE", "block size of each I/O", "4k" }, K_SIZE32, OFF(bs), NULL, 1, GiB },
	{ { "bssplit", "BS/PCT:...", "mix of block sizes, e.g. 4k/60:64k/40", NULL },
	  K_BSSPLIT,
	  OFF(bssplit),
	  NULL,
	  0,
	  0 },
	{ { "size", "SIZE", "region to test (file size to create)",
	    "whole target, 1G for a new file" },
	  K_SIZE64,
	  OFF(size),
	  NULL,
	  1,
	  UINT64_MAX >> 2 },
	{ { "offset", "SIZE", "start of the region in the target", "0" },
	  K_SIZE64,
	  OFF(offset),
	  NULL,
	  0,
	  UINT64_MAX >> 2 },
	{ { "iodepth", "N", "requests in flight per job", "1" },
	  K_UINT,
	  OFF(iodepth),
	  NULL,
	  1,
	  65536 },
	{ { "iodepth-batch-complete", "N|auto",
	    "with a full queue, wait for N completions at once (fio's "
	    "iodepth_batch_complete_min); auto: one, or up to 30 us of them where "
	    "io_uring hands the I/O to kernel workers",
	    "auto" },
	  K_UINT_AUTO,
	  OFF(batch_complete),
	  NULL,
	  1,
	  65536 },
	{ { "numjobs", "N", "parallel jobs (threads)", "1" }, K_UINT, OFF(numjobs), NULL, 1, 4096 },
	{ { "engine", sb_engine_choices, "I/O engine", sb_engine_default_text },
	  K_STRING,
	  OFF(engine),
	  NULL,
	  0,
	  0 },
	{ { "direct", "0|1", "O_DIRECT: bypass the page cache", "1" },
	  K_BOOL,
	  OFF(direct),
	  NULL,
	  0,
	  1 },
	{ { "runtime", "TIME", "measure for this long (e.g. 30s, 5m)", "until size is done" },
	  K_DURATION,
	  OFF(runtime_ns),
	  NULL,
	  0,
	  UINT64_MAX >> 1 },
	{ { "time-based", "0|1", "repeat the region until runtime has passed", "0" },
	  K_BOOL,
	  OFF(time_based),
	  NULL,
	  0,
	  1 },
	{ { "norandommap", "0|1",
	    "random offsets drawn afresh each time (blocks may repeat or be missed) and "
	    "the last request of a pass whole, so a pass may move up to a block more than "
	    "its size, as fio's norandommap (with verify or several files each block once)",
	    "0" },
	  K_BOOL,
	  OFF(norandommap),
	  NULL,
	  0,
	  1 },
	{ { "ramp", "TIME", "run this long before measuring", "0" },
	  K_DURATION,
	  OFF(ramp_ns),
	  NULL,
	  0,
	  UINT64_MAX >> 1 },
	{ { "fsync", "N", "fsync after every N writes", "0 (never)" },
	  K_UINT,
	  OFF(fsync_every),
	  NULL,
	  0,
	  UINT32_MAX },
	{ { "fdatasync", "N", "fdatasync after every N writes (fio's fdatasync=N)", "0 (never)" },
	  K_UINT,
	  OFF(fdatasync_every),
	  NULL,
	  0,
	  UINT32_MAX },
	{ { "end-fsync", "0|1", "fsync when done, timed with the writes", "0" },
	  K_BOOL,
	  OFF(end_fsync),
	  NULL,
	  0,
	  1 },
	{ { "sync", "none|dsync|sync", "open with O_DSYNC or O_SYNC", "none" },
	  K_ENUM,
	  OFF(sync),
	  sync_names,
	  0,
	  0 },
	{ { "seed", "N", "seed of offsets and data", "random" }, K_U64, OFF(seed), NULL, 0, 0 },
	{ { "rate", "SIZE", "bandwidth cap per job, bytes per second (e.g. 10M)", "none" },
	  K_SIZE64,
	  OFF(rate_bps),
	  NULL,
	  1,
	  UINT64_MAX >> 2 },
	{ { "rate-iops", "N", "requests per second, reads and writes each (fio's rate_iops)",
	    "none" },
	  K_U64,
	  OFF(rate_iops),
	  NULL,
	  0,
	  0 },
	{ { "random-distribution", "uniform|zipf:THETA|pareto:H|zoned:A/S:...|zoned_abs:A/S:...",
	    "how random offsets are spread (zoned: A% of accesses to the next S% of the region, "
	    "as fio; zoned_abs: to the next S bytes)",
	    "uniform" },
	  K_DIST,
	  OFF(dist),
	  NULL,
	  0,
	  0 },
	{ { "buffer-compress", "PCT", "share of each written block that compresses", "0" },
	  K_PERCENT,
	  OFF(buffer_compress),
	  NULL,
	  0,
	  100 },
	{ { "buffer-pattern", "PATTERN",
	    "fill written blocks with this, repeated (fio's buffer_pattern: \"TEXT\", 0xHEX, "
	    "DECIMAL, joined)",
	    "random data" },
	  K_PATTERN,
	  OFF(buffer_pattern),
	  NULL,
	  0,
	  0 },
	{ { "continue-on-error", "none|read|write|all",
	    "keep going after failed requests of that kind (counted, exit 1)", "none" },
	  K_ENUM,
	  OFF(continue_on_error),
	  continue_names,
	  0,
	  0 },
	{ { "io-size", "SIZE", "bytes to move per loop, wrapping over the region (fio's io_size)",
	    "size" },
	  K_SIZE64,
	  OFF(io_size),
	  NULL,
	  0,
	  UINT64_MAX >> 2 },
	{ { "loops", "N", "run the job N times over, dropping the cache before each", "1" },
	  K_UINT,
	  OFF(loops),
	  NULL,
	  1,
	  1000000 },
	{ { "number-ios", "N", "stop after N requests (0: no limit)", "0" },
	  K_U64,
	  OFF(number_ios),
	  NULL,
	  0,
	  0 },
	{ { "startdelay", "TIME", "wait this long before starting (not measured)", "0" },
	  K_DURATION,
	  OFF(startdelay_ns),
	  NULL,
	  0,
	  UINT64_MAX >> 1 },
	{ { "invalidate", "0|1",
	    "drop the region's page cache (fdatasync, posix_fadvise DONTNEED; BLKFLSBUF) before "
	    "each loop",
	    "1, as fio" },
	  K_BOOL,
	  OFF(invalidate),
	  NULL,
	  0,
	  1 },
	{ { "iodepth-batch-submit", "N",
	    "submit once N requests are queued (0: a full queue); 1 stamps each request's "
	    "submission alone, as fio",
	    "1" },
	  K_UINT,
	  OFF(batch_submit),
	  NULL,
	  0,
	  65536 },
	{ { "log-interval", "TIME", "time series interval", "1s" },
	  K_DURATION,
	  OFF(log_interval_ns),
	  NULL,
	  1000000,
	  UINT64_MAX >> 1 },
};

const struct sb_job_optdef *sb_job_optdef(unsigned i)
{
	return i < SB_ARRAY_SIZE(opts) ? &opts[i].def : NULL;
}

void sb_job_opts_default(struct sb_job_opts *o)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->name, sizeof(o->name), "job");
	o->rw = SB_RW_READ;
	o->rwmixread = 50;
	o->bs = 4096;
	o->iodepth = 1;
	o->batch_complete = 0;
	o->numjobs = 1;
	o->direct = 1;
	o->sync = SB_SYNC_NONE;
	o->dist = SB_DIST_UNIFORM;
	o->log_interval_ns = 1000000000ull;
	o->loops = 1;
	o->batch_submit = 1;
	o->cpuio.chunk_us = 50000; /* fio's */
	o->exec.grace_s = 1;
	o->exec.std_redirect = 1;
}

static int hintf(char *hint, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int hintf(char *hint, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (hint && len)
		vsnprintf(hint, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int set_enum(const struct opt *d, void *field, const char *v, char *hint, size_t hl)
{
	for (int i = 0; d->names[i]; i++) {
		if (!strcmp(d->names[i], v)) {
			*(int *)field = i;
			return 0;
		}
	}
	return hintf(hint, hl, "one of %s", d->def.arg);
}

static int set_dist(struct sb_job_opts *o, const char *v, char *hint, size_t hl)
{
	static const char accepts[] =
		"uniform, zipf:THETA (THETA > 0, not 1), pareto:H (0 < H < 1), "
		"zoned:ACCESS%/SIZE%:... or zoned_abs:ACCESS%/SIZE:... (accesses adding up to "
		"100, at most 64 zones)";
	double p = 0;
	if (!strncmp(v, "zoned:", 6) || !strncmp(v, "zoned_abs:", 10)) {
		struct sb_zones z;
		if (sb_parse_zones(v, &z) < 0)
			return hintf(hint, hl, "%s", accepts);
		o->dist = SB_DIST_ZONED;
		o->dist_param = 0;
		o->zones = z;
		return 0;
	}
	if (!strcmp(v, "uniform")) {
		o->dist = SB_DIST_UNIFORM;
		o->dist_param = 0;
		return 0;
	}
	if (!strncmp(v, "zipf:", 5) && sb_parse_double(v + 5, &p) == 0 && p > 0 && p != 1) {
		o->dist = SB_DIST_ZIPF;
		o->dist_param = p;
		return 0;
	}
	if (!strncmp(v, "pareto:", 7) && sb_parse_double(v + 7, &p) == 0 && p > 0 && p < 1) {
		o->dist = SB_DIST_PARETO;
		o->dist_param = p;
		return 0;
	}
	return hintf(hint, hl, "%s", accepts);
}

static int set_number(const struct opt *d, void *field, const char *v, char *hint, size_t hl)
{
	uint64_t x = 0;
	unsigned pct = 0;
	int r;

	switch (d->kind) {
	case K_SIZE64:
	case K_SIZE32:
		r = sb_parse_size(v, &x);
		if (r < 0)
			return hintf(hint, hl, "a size (examples: 512, 4k, 1M, 2G)");
		break;
	case K_DURATION:
		r = sb_parse_duration_ns(v, &x);
		if (r < 0)
			return hintf(hint, hl, "a duration (examples: 500ms, 30s, 5m, 2h)");
		break;
	case K_PERCENT:
		r = sb_parse_percent(v, &pct);
		if (r < 0)
			return hintf(hint, hl, "a percentage from 0 to 100");
		x = pct;
		break;
	case K_UINT_AUTO:
		if (!strcmp(v, "auto")) {
			*(unsigned *)field = 0;
			return 0;
		}
		r = sb_parse_u64(v, &x);
		if (r < 0 || x < d->min || x > d->max)
			return hintf(hint, hl, "auto or a number from %llu to %llu",
				     (unsigned long long)d->min, (unsigned long long)d->max);
		break;
	case K_BOOL:
		if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes"))
			x = 1;
		else if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no"))
			x = 0;
		else
			return hintf(hint, hl, "0 or 1");
		break;
	default:
		r = sb_parse_u64(v, &x);
		if (r < 0)
			return hintf(hint, hl, "a whole number");
		break;
	}
	if (d->max && (x < d->min || x > d->max)) {
		char lo[32], hi[32];
		if (d->kind == K_SIZE64 || d->kind == K_SIZE32)
			return hintf(hint, hl, "a size from %s to %s",
				     sb_fmt_size(d->min, lo, sizeof(lo)),
				     sb_fmt_size(d->max, hi, sizeof(hi)));
		if (d->kind == K_DURATION)
			return hintf(hint, hl, "a duration of at least %s",
				     sb_fmt_ns((double)d->min, lo, sizeof(lo)));
		return hintf(hint, hl, "a number from %llu to %llu", (unsigned long long)d->min,
			     (unsigned long long)d->max);
	}
	switch (d->kind) {
	case K_SIZE32: *(uint32_t *)field = (uint32_t)x; break;
	case K_UINT:
	case K_UINT_AUTO:
	case K_PERCENT:
	case K_BOOL: *(unsigned *)field = (unsigned)x; break;
	default: *(uint64_t *)field = x; break;
	}
	return 0;
}

/* size and offset: a size, or N% of the file or device (fio's size=50%,
 * offset=10%), resolved when the target is known. */
static int set_extent(struct sb_job_opts *o, const struct opt *d, void *field, const char *v,
		      char *hint, size_t hl)
{
	unsigned *pct = d->off == OFF(size) ? &o->size_pct : &o->offset_pct;
	const size_t n = strlen(v);
	if (n && v[n - 1] == '%') {
		unsigned p;
		if (sb_parse_percent(v, &p) < 0 || p < (d->off == OFF(size)) || p > 100)
			return hintf(hint, hl,
				     "a size (examples: 512, 4k, 1M, 2G) or a percentage "
				     "of the target from %d%% to 100%%",
				     d->off == OFF(size));
		*pct = p;
		*(uint64_t *)field = 0;
		return 0;
	}
	int r = set_number(d, field, v, hint, hl);
	if (!r)
		*pct = 0;
	return r;
}

int sb_job_set(struct sb_job_opts *o, const char *name, const char *value, char *hint,
	       size_t hintlen)
{
	const struct opt *d = NULL;
	for (size_t i = 0; i < SB_ARRAY_SIZE(opts); i++)
		if (!strcmp(opts[i].def.name, name))
			d = &opts[i];
	if (!d)
		return -ENOENT;
	if (!value)
		value = "";
	void *field = (char *)o + d->off;

	switch (d->kind) {
	case K_ENUM: return set_enum(d, field, value, hint, hintlen);
	case K_DIST: return set_dist(o, value, hint, hintlen);
	case K_PATTERN: {
		int n = sb_buf_parse_pattern(value, o->buffer_pattern, sizeof(o->buffer_pattern));
		if (n < 0)
			return hintf(hint, hintlen,
				     "\"TEXT\", 0xHEX and DECIMAL parts joined, at most %zu bytes "
				     "(example: \"abcd\"-120xdeadface)",
				     sizeof(o->buffer_pattern));
		o->buffer_pattern_len = (unsigned)n;
		return 0;
	}
	case K_STRING:
		if (!*value || strlen(value) >= sizeof(o->engine))
			return hintf(hint, hintlen, "one of %s", d->def.arg);
		snprintf(o->engine, sizeof(o->engine), "%s", value);
		return 0;
	case K_BSSPLIT:
		if (sb_parse_bssplit(value, o->bssplit, SB_BSSPLIT_MAX, &o->nbssplit) < 0)
			return hintf(hint, hintlen,
				     "SIZE/PCT entries joined by ':' with shares adding up "
				     "to 100 (example: 4k/60:64k/40)");
		return 0;
	default:
		if (d->off == OFF(direct))
			o->direct_given = 1;
		if (d->off == OFF(size) || d->off == OFF(offset))
			return set_extent(o, d, field, value, hint, hintlen);
		return set_number(d, field, value, hint, hintlen);
	}
}

const char *sb_rw_name(enum sb_rw rw)
{
	return (unsigned)rw < SB_ARRAY_SIZE(rw_names) - 1 ? rw_names[rw] : "?";
}

int sb_rw_is_random(enum sb_rw rw)
{
	return rw == SB_RW_RANDREAD || rw == SB_RW_RANDWRITE || rw == SB_RW_RANDRW ||
	       rw == SB_RW_RANDTRIM || rw == SB_RW_RANDTRIMWRITE;
}

int sb_rw_reads(enum sb_rw rw)
{
	return rw == SB_RW_READ || rw == SB_RW_RANDREAD || rw == SB_RW_RW || rw == SB_RW_RANDRW;
}

int sb_rw_trims(enum sb_rw rw)
{
	return rw == SB_RW_TRIM || rw == SB_RW_RANDTRIM || rw == SB_RW_TRIMWRITE ||
	       rw == SB_RW_RANDTRIMWRITE;
}

int sb_rw_writes(enum sb_rw rw)
{
	return !sb_rw_reads(rw) || rw == SB_RW_RW || rw == SB_RW_RANDRW;
}

unsigned sb_job_nsizes(const struct sb_job_opts *o)
{
	return o->nbssplit ? o->nbssplit + o->nwbssplit : 1;
}

uint32_t sb_job_size(const struct sb_job_opts *o, unsigned i)
{
	if (!o->nbssplit)
		return o->bs;
	return i < o->nbssplit ? o->bssplit[i].bs : o->wbssplit[i - o->nbssplit].bs;
}

const struct sb_bssplit *sb_job_split(const struct sb_job_opts *o, int d, unsigned *n)
{
	if (d && o->nwbssplit) {
		*n = o->nwbssplit;
		return o->wbssplit;
	}
	*n = o->nbssplit;
	return o->nbssplit ? o->bssplit : NULL;
}

uint32_t sb_job_max_bs(const struct sb_job_opts *o)
{
	uint32_t m = 0;
	for (unsigned i = 0, n = sb_job_nsizes(o); i < n; i++)
		m = SB_MAX(m, sb_job_size(o, i));
	return m;
}

uint32_t sb_job_min_bs(const struct sb_job_opts *o)
{
	uint32_t m = UINT32_MAX;
	for (unsigned i = 0, n = sb_job_nsizes(o); i < n; i++)
		m = SB_MIN(m, sb_job_size(o, i));
	return m;
}

/* The CPUs of fio's cpus_allowed that this machine does not have, as
 * fio refuses them ("CPU 7 too large"): the first, or -1. */
static int cpu_missing(const struct sb_job_opts *o)
{
	const long have = sysconf(_SC_NPROCESSORS_CONF);
	for (int i = 0; i < SB_CPUS_MAX; i++)
		if ((o->cpus[i / 64] >> (i % 64) & 1) && i >= have)
			return i;
	return -1;
}

unsigned sb_ioprio_value(unsigned cls, unsigned level)
{
	return (cls ? cls : 2) << 13 | level;
}

unsigned sb_job_ioprio(const struct sb_job_opts *o)
{
	return o->prio_given ? sb_ioprio_value(o->prioclass, o->prio) : 0;
}

unsigned sb_job_cmdprio(const struct sb_job_opts *o, int d)
{
	return sb_ioprio_value(o->cmdprio_class[d] ? o->cmdprio_class[d] : 1, o->cmdprio[d]);
}

unsigned sb_job_split_prio(const struct sb_job_opts *o, int d, const struct sb_cmdprio_split *e)
{
	return e->prio == SB_CMDPRIO_IMPLICIT ? sb_job_cmdprio(o, d) : e->prio;
}

int sb_job_has_prio(const struct sb_job_opts *o)
{
	return o->prio_given || o->cmdprio_pct[0] || o->cmdprio_pct[1] || o->ncmdprio_split[0] ||
	       o->ncmdprio_split[1];
}

/* The priorities direction d's requests may carry: the job's, and those
 * cmdprio gives them. */
static unsigned prios_of(const struct sb_job_opts *o, int d)
{
	unsigned v[1 + SB_CMDPRIO_SPLIT_MAX], n = 0;
	v[n++] = sb_job_ioprio(o);
	if (o->cmdprio_pct[d])
		v[n++] = sb_job_cmdprio(o, d);
	for (unsigned i = 0; i < o->ncmdprio_split[d]; i++) {
		const unsigned p = sb_job_split_prio(o, d, &o->cmdprio_split[d][i]);
		unsigned k = 0;
		while (k < n && v[k] != p)
			k++;
		if (k == n)
			v[n++] = p;
	}
	return n;
}

int sb_job_filename_list(const char *v, char *out, size_t len, char *msg, size_t ml)
{
	size_t n = 0, start = 0;
	unsigned count = 0;
	for (const char *p = v;; p++) {
		if (!*p || *p == ':') {
			if (n == start) {
				snprintf(msg, ml, "name %u of the list is empty", count + 1);
				return -EINVAL;
			}
			if (++count > SB_JOB_MAX_NRFILES) {
				snprintf(msg, ml, "more than %d names", SB_JOB_MAX_NRFILES);
				return -E2BIG;
			}
			if (n + 1 > len) {
				snprintf(msg, ml, "the names are longer than %zu bytes", len - 1);
				return -ENAMETOOLONG;
			}
			out[n++] = 0;
			start = n;
			if (!*p)
				return (int)count;
			continue;
		}
		if (p[0] == '\\' && p[1] == ':')
			p++;
		if (n + 2 > len) {
			snprintf(msg, ml, "the names are longer than %zu bytes", len - 2);
			return -ENAMETOOLONG;
		}
		out[n++] = *p;
	}
}

const char *sb_job_filename_at(const char *list, unsigned i)
{
	while (i--)
		list += strlen(list) + 1;
	return list;
}

int sb_job_file_name(const struct sb_job_opts *o, unsigned jobnum, unsigned filenum, char *buf,
		     size_t len)
{
	/* fio replaces each keyword in turn, every place it is, in this order */
	static const char *const keys[] = { "$jobname", "$jobnum", "$filenum", "$clientuid" };
	char tmp[2][256], num[2][16];
	const char *values[] = { o->name, num[0], num[1], "" };
	const char *src = o->filename_format[0] ? o->filename_format : "$jobname.$jobnum.$filenum";
	snprintf(num[0], sizeof(num[0]), "%u", jobnum);
	snprintf(num[1], sizeof(num[1]), "%u", filenum);
	for (unsigned k = 0; k < SB_ARRAY_SIZE(keys); k++) {
		char *dst = tmp[k % 2];
		const size_t kl = strlen(keys[k]);
		size_t n = 0;
		for (const char *p = src; *p;) {
			const char *add = p;
			size_t al = 1;
			if (!strncasecmp(p, keys[k], kl)) {
				add = values[k];
				al = strlen(add);
				p += kl;
			} else {
				p++;
			}
			if (n + al >= sizeof(tmp[0]))
				return -ENAMETOOLONG;
			memcpy(dst + n, add, al);
			n += al;
		}
		dst[n] = 0;
		src = dst;
	}
	if (!*src || !strcmp(src, ".") || !strcmp(src, "..") || strchr(src, '/'))
		return -EINVAL;
	return snprintf(buf, len, "%s", src) >= (int)len ? -ENAMETOOLONG : 0;
}

int sb_job_nrfiles_check(const struct sb_job_opts *o, int in_dir, char *msg, size_t msglen)
{
	const struct sb_engine_ops *mk = sb_engine_find(o->engine);
	const int named = mk && (mk->flags & SB_ENGINE_MKFILES);
	if (o->nrfiles > (named ? SB_JOB_MAX_NRFILES_MADE : SB_JOB_MAX_NRFILES))
		return hintf(msg, msglen, "nrfiles: at most %u files%s",
			     named ? SB_JOB_MAX_NRFILES_MADE : SB_JOB_MAX_NRFILES,
			     named ? ""
				   : " (ioengine=filecreate, filestat and filedelete take more)");
	if (in_dir && !named && o->nrfiles > 1 &&
	    (uint64_t)o->nrfiles * o->numjobs > SB_JOB_MAX_NRFILES)
		return hintf(msg, msglen,
			     "nrfiles: %u files for each of %u jobs: at most %d files in all",
			     o->nrfiles, o->numjobs, SB_JOB_MAX_NRFILES);
	return 0;
}

int sb_job_check(const struct sb_job_opts *o, char *msg, size_t msglen)
{
	char a[32], b[32];
	uint32_t maxbs = sb_job_max_bs(o);
	const int cpu = cpu_missing(o);

	if (cpu >= 0)
		return hintf(msg, msglen,
			     "cpus_allowed: CPU %d is not present (this machine has CPUs 0-%ld)",
			     cpu, sysconf(_SC_NPROCESSORS_CONF) - 1);

	/* cpuio and exec take their settings from a job file only */
	if (!strcmp(o->engine, "cpuio") && !o->cpuio.load)
		return hintf(msg, msglen,
			     "--engine: cpuio needs cpuload=, which a job file gives "
			     "(ioengine=cpuio)");
	if (!strcmp(o->engine, "exec") && !o->exec.program[0])
		return hintf(msg, msglen,
			     "--engine: exec needs program=, which a job file gives (ioengine=exec)");
	const int split = o->ncmdprio_split[0] || o->ncmdprio_split[1];
	if ((o->cmdprio_pct[0] || o->cmdprio_pct[1] || split) && strcmp(o->engine, "libaio") &&
	    strcmp(o->engine, "io_uring"))
		return hintf(msg, msglen, "%s: fio's libaio and io_uring option, not ioengine=%s's",
			     split ? "cmdprio_bssplit" : "cmdprio_percentage",
			     o->engine[0] ? o->engine : "psync");
	if (split && (o->cmdprio_pct[0] || o->cmdprio_pct[1]))
		return hintf(msg, msglen,
			     "cmdprio_bssplit: not with cmdprio_percentage, as fio refuses them "
			     "together");
	for (int d = 0; d < 2; d++)
		if (prios_of(o, d) > SB_PRIO_MAX)
			return hintf(msg, msglen,
				     "cmdprio_bssplit: %u priorities for %s: storbench keeps the "
				     "latencies of at most %d",
				     prios_of(o, d), d ? "writes" : "reads", SB_PRIO_MAX);

	if (o->nwbssplit && (!o->nbssplit || (o->rw != SB_RW_RW && o->rw != SB_RW_RANDRW)))
		return hintf(msg, msglen,
			     "bssplit: a split for writes of their own needs rw=rw "
			     "or randrw and a split for reads");
	if (o->nwbssplit && o->rw == SB_RW_RANDRW && o->dist != SB_DIST_UNIFORM)
		return hintf(msg, msglen,
			     "bssplit: a split for each direction is supported with "
			     "random_distribution=random only");

	if (o->dedupe_pct && (o->buffer_pattern_len || o->fio_verify[0]))
		return hintf(msg, msglen,
			     "dedupe_percentage: not with %s (storbench writes those blocks as "
			     "they are)",
			     o->buffer_pattern_len ? "buffer_pattern" : "verify=");
	if (o->dedupe_pct && o->dedupe_ws && o->dedupe_pct < 100) {
		if (!o->size || o->size_pct)
			return hintf(msg, msglen,
				     "dedupe_mode=working_set: needs size= (its working set is a "
				     "share of it), as fio");
		if (o->nrfiles > 1)
			return hintf(msg, msglen,
				     "dedupe_mode=working_set: one file per job, not nrfiles=%u, as "
				     "fio",
				     o->nrfiles);
		if (o->dedupe_pct + o->dedupe_ws_pct > 100)
			return hintf(msg, msglen,
				     "dedupe_percentage: %u%% with a working set of %u%% (unique "
				     "blocks) is more than 100%%, as fio refuses it",
				     o->dedupe_pct, o->dedupe_ws_pct);
	}

	char name[256];
	const int named = o->filename_format[0] ? sb_job_file_name(o, 0, 0, name, sizeof(name)) : 0;
	if (named < 0)
		return hintf(msg, msglen, "filename_format: '%s' %s", o->filename_format,
			     named == -EINVAL ? "names no file inside the job's directory (no '/', "
						"'.' or '..', not empty)"
					      : "makes a name longer than 255 bytes");

	if (o->size && maxbs > o->size)
		return hintf(msg, msglen, "--bs: block size %s is larger than --size %s",
			     sb_fmt_size(maxbs, a, sizeof(a)), sb_fmt_size(o->size, b, sizeof(b)));
	if (o->iodepth < 1)
		return hintf(msg, msglen, "--iodepth: must be at least 1");
	if (o->numjobs < 1)
		return hintf(msg, msglen, "--numjobs: must be at least 1");
	if (o->batch_complete > o->iodepth)
		return hintf(msg, msglen, "--iodepth-batch-complete: %u is more than --iodepth=%u",
			     o->batch_complete, o->iodepth);
	if (o->time_based && !o->runtime_ns)
		return hintf(msg, msglen, "--time-based: needs --runtime");
	if (o->dist != SB_DIST_UNIFORM && !sb_rw_is_random(o->rw))
		return hintf(msg, msglen,
			     "--random-distribution: applies to randread, randwrite, randrw "
			     "and randtrim only, not --rw=%s",
			     sb_rw_name(o->rw));
	if (o->dist == SB_DIST_ZONED && o->size && !o->size_pct &&
	    sb_zones_abs_bytes(&o->zones) > o->size)
		return hintf(msg, msglen,
			     "--random-distribution: the zoned_abs zones cover %s, "
			     "more than --size %s",
			     sb_fmt_size(sb_zones_abs_bytes(&o->zones), a, sizeof(a)),
			     sb_fmt_size(o->size, b, sizeof(b)));
	const struct sb_engine_ops *mk = sb_engine_find(o->engine);
	if (mk && (mk->flags & SB_ENGINE_DONOR) && !o->donorname[0])
		return hintf(msg, msglen,
			     "donorname: ioengine=%s needs a donor file, donorname=NAME (a job "
			     "file's option), as fio",
			     mk->name);
	if (sb_job_nrfiles_check(o, 0, msg, msglen) < 0)
		return -EINVAL;
	if (o->filesize_lo > o->filesize_hi)
		return hintf(msg, msglen, "filesize: LOW-HIGH needs LOW <= HIGH");
	if (o->nrfiles > 1 && o->filesize_lo && o->filesize_lo < maxbs)
		return hintf(msg, msglen, "filesize: %s is smaller than the block size %s",
			     sb_fmt_size(o->filesize_lo, a, sizeof(a)),
			     sb_fmt_size(maxbs, b, sizeof(b)));
	if (o->nrfiles > 1 && !o->filesize_lo && o->size && o->size / o->nrfiles < maxbs)
		return hintf(msg, msglen,
			     "nrfiles: --size %s split over %u files is less than a block (%s) each",
			     sb_fmt_size(o->size, a, sizeof(a)), o->nrfiles,
			     sb_fmt_size(maxbs, b, sizeof(b)));
	if (o->nrfiles > 1 && (o->offset || o->offset_pct))
		return hintf(msg, msglen, "offset: not supported with nrfiles > 1");
	if (o->blockalign && o->fio_verify[0])
		return hintf(msg, msglen,
			     "blockalign: not with verify= (storbench verifies blocks that do not "
			     "overlap)");
	if (o->buffer_pattern_len && o->buffer_compress)
		return hintf(msg, msglen,
			     "--buffer-pattern: not with --buffer-compress (storbench fills the "
			     "compressible share with zeros)");
	if (o->fsync_every && !sb_rw_writes(o->rw))
		return hintf(msg, msglen, "--fsync: --rw=%s does not write", sb_rw_name(o->rw));
	if (o->fdatasync_every && !sb_rw_writes(o->rw))
		return hintf(msg, msglen, "--fdatasync: --rw=%s does not write", sb_rw_name(o->rw));
	if (o->direct) {
		uint32_t minbs = sb_job_min_bs(o);
		if (minbs % 512)
			return hintf(msg, msglen,
				     "--bs: %u bytes is not a multiple of 512, which --direct=1 "
				     "needs (use --direct=0 for odd sizes)",
				     minbs);
		if (o->offset % 512)
			return hintf(msg, msglen,
				     "--offset: not a multiple of 512, which --direct=1 needs");
		if (o->blockalign % 512)
			return hintf(msg, msglen,
				     "blockalign: %u bytes is not a multiple of 512, which direct=1 "
				     "needs",
				     o->blockalign);
	}
	return 0;
}
