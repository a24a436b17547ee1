/* One latency run: names, the log of requests, and the lines of the tools
 * a preset reproduces (hdparm, dd). */
#include "lib/latency/lat_run.h"
#include "lib/base/units.h"
#include "lib/target/cache.h"
#include "lib/target/jobtarget.h"

#include <fcntl.h>
#include <math.h>
#include <unistd.h>

void sb_lat_record(struct sb_lat_run *lr, const struct sb_probe_req *r)
{
	if (lr->nrec == lr->rec_cap && lr->rec_cap < SB_LAT_MAX_RECORDS) {
		size_t cap = lr->rec_cap ? SB_MIN(2 * lr->rec_cap, (size_t)SB_LAT_MAX_RECORDS)
					 : 256;
		struct sb_lat_record *v = realloc(lr->rec, cap * sizeof(*v));
		if (v) {
			lr->rec = v;
			lr->rec_cap = cap;
		}
	}
	if (lr->nrec < lr->rec_cap)
		lr->rec[lr->nrec++] = (struct sb_lat_record){ r->offset, r->ns, r->warmup };
	else
		lr->rec_truncated = 1;
}

void sb_lat_run_free(struct sb_lat_run *lr)
{
	sb_ioping_free(&lr->st);
	free(lr->rec);
	lr->rec = NULL;
	lr->nrec = lr->rec_cap = 0;
}

int sb_lat_open(struct sb_lat_run *lr, const struct sb_jobtarget *t)
{
	int flags = (lr->p.write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	if (lr->direct)
		flags |= O_DIRECT;
	if (lr->dsync)
		flags |= O_DSYNC;
	lr->p.fd = sb_jobtarget_open(t, 0, flags);
	return lr->p.fd < 0 ? lr->p.fd : 0;
}

void sb_lat_close(struct sb_lat_run *lr)
{
	close(lr->p.fd);
	lr->p.fd = -1;
}

static int is_hdparm(const struct sb_lat_run *lr)
{
	return lr->preset == SB_LAT_HDPARM || lr->preset == SB_LAT_HDPARM_CACHE;
}

int sb_lat_prime(struct sb_lat_run *lr)
{
	int e = 0;
	if (lr->preset == SB_LAT_HDPARM_CACHE) {
		void *b = sb_probe_buffer(lr->p.bs);
		if (b && pread(lr->p.fd, b, lr->p.bs, (off_t)lr->p.offset) < 0)
			e = -errno;
		free(b);
	}
	if (!lr->direct || lr->preset == SB_LAT_HDPARM_CACHE) {
		int m = is_hdparm(lr) ? sb_cache_flush_blockdev(lr->p.fd) : -ENOTTY;
		if (m < 0)
			m = sb_cache_drop(lr->p.fd);
		lr->cache_method = m > 0 ? m : 0;
	}
	return e;
}

void sb_lat_flush_after(struct sb_lat_run *lr)
{
	if (!is_hdparm(lr))
		return;
	const int m = sb_cache_flush_blockdev(lr->p.fd);
	if (m > 0)
		lr->cache_after = m;
	else if (!posix_fadvise(lr->p.fd, 0, 0, POSIX_FADV_DONTNEED))
		lr->cache_after = SB_CACHE_FADVISE;
}

/* ---- the original tools' lines ---- */

double sb_lat_hdparm_seconds(const struct sb_lat_run *lr)
{
	uint64_t ns = lr->st.wall_ns;
	if (lr->preset == SB_LAT_HDPARM_CACHE)
		ns = ns > lr->overhead_ns ? ns - lr->overhead_ns : 0;
	return (double)ns / 1e9;
}

/* hdparm.c: time_device / time_cache ("MB" there is MiB), the line without
 * the space hdparm puts before it */
void sb_lat_hdparm_line(const struct sb_lat_run *lr, char *buf, size_t len)
{
	const double mb = (double)lr->st.count * lr->p.bs / 1048576.0,
		     s = sb_lat_hdparm_seconds(lr);
	const int cache = lr->preset == SB_LAT_HDPARM_CACHE;
	const int fast = s > 0 && (cache ? mb >= s : mb / s > 1.0);
	const char *kind = cache ? (lr->direct ? "O_DIRECT cached reads" : "cached reads")
				 : (lr->direct ? "O_DIRECT disk reads" : "buffered disk reads");
	char at[48] = "";
	if (!cache && lr->p.offset) /* hdparm --offset counts GiB */
		snprintf(at, sizeof(at), " (offset %llu GB)",
			 (unsigned long long)(lr->p.offset >> 30));
	snprintf(buf, len, "Timing %s%s:%s%3.0f MB in %5.2f seconds = %6.2f %s", kind, at,
		 cache ? "   " : " ", mb, s, s > 0 ? (fast ? mb / s : mb / s * 1024) : 0.0,
		 fast ? "MB/sec" : "kB/sec");
}

/* gnulib human_readable as dd uses it: 3 significant digits, one decimal
 * below 10 for exact byte counts, below 100 for rates. */
static void dd_human(double v, double base, int rate, char *buf, size_t len, const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	const char *const *pre = base == 1000 ? si : iec;
	unsigned p = 0;
	while (v >= base && p < 6) {
		v /= base;
		p++;
	}
	const double one_decimal_below = rate ? 99.95 : 9.95;
	if (p && v < one_decimal_below) {
		snprintf(buf, len, "%.1f %s%s", v, pre[p], unit);
		return;
	}
	double r = round(v);
	if (r >= base && p < 6) {
		snprintf(buf, len, "%.1f %s%s", r / base, pre[p + 1], unit);
		return;
	}
	snprintf(buf, len, "%.0f %s%s", r, pre[p], unit);
}

/* coreutils dd: print_stats / print_xfer_stats */
void sb_lat_dd_lines(const struct sb_lat_run *lr, char *buf, size_t len)
{
	const uint64_t n = lr->st.count, bytes = n * lr->p.bs;
	const double s = (double)lr->st.wall_ns / 1e9;
	char sib[32], iecb[32], rate[32], secs[32];
	dd_human((double)bytes, 1000, 0, sib, sizeof(sib), "B");
	dd_human((double)bytes, 1024, 0, iecb, sizeof(iecb), "B");
	if (s > 0)
		dd_human((double)bytes / s, 1000, 1, rate, sizeof(rate), "B/s");
	else
		snprintf(rate, sizeof(rate), "Infinity B/s");
	snprintf(secs, sizeof(secs), "%g s", s);
	int k = snprintf(buf, len, "%llu+0 records in\n%llu+0 records out\n", (unsigned long long)n,
			 (unsigned long long)n);
	if (k < 0 || (size_t)k >= len)
		return;
	if (bytes < 1000)
		snprintf(buf + k, len - (size_t)k, "%llu byte%s copied, %s, %s",
			 (unsigned long long)bytes, bytes == 1 ? "" : "s", secs, rate);
	else if (bytes < 1024)
		snprintf(buf + k, len - (size_t)k, "%llu bytes (%s) copied, %s, %s",
			 (unsigned long long)bytes, sib, secs, rate);
	else
		snprintf(buf + k, len - (size_t)k, "%llu bytes (%s, %s) copied, %s, %s",
			 (unsigned long long)bytes, sib, iecb, secs, rate);
}

/* ---- the run ---- */

struct run {
	const struct sb_latency_hooks *h;
	struct sb_lat_run *lr;
	int asked;
};

static int stop(void *ctx)
{
	struct run *r = ctx;
	if (!r->asked && r->h->stop && r->h->stop(r->h->ctx))
		r->asked = 1;
	return r->asked;
}

static void request(void *ctx, const struct sb_probe_req *q)
{
	struct run *r = ctx;
	sb_lat_record(r->lr, q);
	if (r->h->request)
		r->h->request(r->h->ctx, r->lr, q);
}

int sb_latency_run(const struct sb_latency_opts *o, const struct sb_latency_hooks *h,
		   struct sb_coord *coord, struct sb_lat_run *out, struct sb_error *err)
{
	static const struct sb_latency_hooks none;
	struct run r = { h ? h : &none, out, 0 };
	(void)coord;
	memset(err, 0, sizeof(*err));
	out->preset = o->preset;
	out->path = o->path;
	out->p = o->p;
	out->direct = o->direct;
	out->dsync = o->dsync;
	if (stop(&r)) { /* before anything ran: nothing measured */
		out->interrupted = 1;
		return 0;
	}
	int e = sb_lat_open(out, o->target);
	if (e)
		return sb_error_set(err, e,
				    e == -EACCES || e == -EPERM || e == -EBUSY ? SB_ERR_ENV
									       : SB_ERR_INPUT,
				    "cannot open '%s': %s", o->target->paths[0], strerror(-e));
	out->p.stop = stop;
	out->p.on_request = request;
	out->p.ctx = &r;
	sb_ioping_init(&out->st, out->p.bs);
	e = sb_lat_prime(out);
	if (e < 0 && r.h->warn) {
		char msg[4400];
		snprintf(msg, sizeof(msg), "priming read of '%s' failed: %s", out->path,
			 strerror(-e));
		r.h->warn(r.h->ctx, msg);
	}
	sb_probe_settle(&out->p); /* a Ctrl-C ends it, and the probe at once */
	if (r.h->begin)
		r.h->begin(r.h->ctx, out);
	out->failed = sb_probe_run(&out->p, &out->st, &out->fail_offset);
	if (out->preset == SB_LAT_HDPARM_CACHE && out->st.count)
		out->overhead_ns = sb_probe_seek_overhead_ns(out->p.fd, out->p.offset,
							     out->st.count);
	sb_lat_flush_after(out);
	sb_lat_close(out);
	out->interrupted = stop(&r);
	out->p.stop = NULL;
	out->p.on_request = NULL;
	out->p.ctx = NULL;
	if (!out->failed)
		return 0;
	char a[32];
	return sb_error_set(err, out->failed, SB_ERR_FAIL,
			    "%s error at offset %llu (%s) of '%s': %s",
			    out->p.write ? "write" : "read", (unsigned long long)out->fail_offset,
			    sb_fmt_size(out->fail_offset, a, sizeof(a)), out->path,
			    strerror(-out->failed));
}

void sb_latency_result_free(struct sb_lat_run *lr)
{
	if (lr)
		sb_lat_run_free(lr);
}
