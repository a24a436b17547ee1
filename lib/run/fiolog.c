/* fio's log files, line by line as fio 3.33's iolog.c and stat.c write them. */
#include "lib/run/fiolog.h"

#include "lib/base/outfile.h"

#include <fcntl.h>
#include <unistd.h>

/* fio's latency bins: FIO_IO_U_PLAT_BITS 6, FIO_IO_U_PLAT_GROUP_NR 29. The
 * histogram's buckets are the same up to the last, which holds the rest. */
#define PLAT_NR 1856
#define BUF_CAP (64u << 10)
#define HIST_BUF_CAP (128u << 10)
#define LINE_MAX_BYTES 160		    /* a log line: six numbers */
#define HIST_LINE_MAX (PLAT_NR * 22u + 80u) /* a histogram line */

enum { F_BW, F_IOPS, F_LAT, F_CLAT, F_SLAT, F_HIST, F_N };

static const char *const log_type[F_N] = { "bw", "iops", "lat", "clat", "slat", "clat_hist" };
static const char *const log_option[F_N] = { "write_bw_log",  "write_iops_log", "write_lat_log",
					     "write_lat_log", "write_lat_log",	"write_hist_log" };

struct log_file {
	int fd; /* -1: not written */
	char *buf;
	size_t len, cap;
};

/* log_avg_msec's window of one direction of a latency log */
struct window {
	uint64_t n, max, last_ms;
	double sum;
};

struct sb_fiolog {
	const struct sb_fiolog_opts *o;
	struct log_file f[F_N];
	uint64_t t0;
	int err;
	struct window win[3][SB_DDIR_N]; /* lat, clat, slat */
	uint64_t rate_last_ns, prev_bytes[SB_DDIR_N], prev_ios[SB_DDIR_N];
	uint64_t hist_last[SB_DDIR_N];
	uint64_t *hist_prev; /* SB_DDIR_N x PLAT_NR: the counts at the last line */
};

static void flush_file(struct sb_fiolog *l, struct log_file *f)
{
	if (!l->err)
		l->err = sb_write_full(f->fd, f->buf, f->len);
	f->len = 0;
}

/* Room for need bytes, or NULL after a write error. */
static char *room(struct sb_fiolog *l, struct log_file *f, size_t need)
{
	if (f->cap - f->len < need)
		flush_file(l, f);
	return l->err ? NULL : f->buf + f->len;
}

static char *put_u(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;
	do
		tmp[n++] = (char)('0' + v % 10);
	while (v /= 10);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_sep(char *p)
{
	p[0] = ',';
	p[1] = ' ';
	return p + 2;
}

/* fio's priority column: with log_prio the request's ioprio as
 * 0x%04x, else 1 for an RT class request (ioprio_value_is_class_rt) */
static char *put_prio(const struct sb_fiolog *l, char *p, unsigned prio)
{
	static const char hex[] = "0123456789abcdef";
	if (!l->o->prio) {
		*p++ = prio >> 13 == 1 ? '1' : '0';
		return p;
	}
	*p++ = '0';
	*p++ = 'x';
	for (int s = 12; s >= 0; s -= 4)
		*p++ = hex[prio >> s & 15];
	return p;
}

/* "time, value, ddir, bs[, offset], prio" */
static void line(struct sb_fiolog *l, int fi, uint64_t t, uint64_t v, int ddir, uint64_t bs,
		 uint64_t off, unsigned prio)
{
	struct log_file *f = &l->f[fi];
	char *p = room(l, f, LINE_MAX_BYTES), *start = p;
	if (!p)
		return;
	p = put_sep(put_u(p, t));
	p = put_sep(put_u(p, v));
	p = put_sep(put_u(p, (uint64_t)ddir));
	p = put_sep(put_u(p, bs));
	if (l->o->offset)
		p = put_sep(put_u(p, off));
	p = put_prio(l, p, prio);
	*p++ = '\n';
	f->len += (size_t)(p - start);
}

static uint64_t ms_of(const struct sb_fiolog *l, uint64_t now)
{
	return now > l->t0 ? (now - l->t0) / 1000000u : 0;
}

static void window_emit(struct sb_fiolog *l, int k, int ddir, uint64_t t)
{
	struct window *w = &l->win[k][ddir];
	if (w->n)
		line(l, F_LAT + k, t, l->o->max ? w->max : (uint64_t)(w->sum / (double)w->n + 0.5),
		     ddir, 0, 0, 0);
	w->n = w->max = 0;
	w->sum = 0;
}

/* fio's add_log_sample: every value, or the window's mean (max) once the
 * window is over, the window then starting at a multiple of its length. */
static void sample(struct sb_fiolog *l, int k, int ddir, uint64_t v, uint64_t t, uint32_t len,
		   uint64_t off, unsigned prio)
{
	const unsigned avg = l->o->avg_ms;
	if (l->f[F_LAT + k].fd < 0)
		return;
	if (!avg) {
		line(l, F_LAT + k, t, v, ddir, len, off, prio);
		return;
	}
	struct window *w = &l->win[k][ddir];
	w->n++;
	w->sum += (double)v;
	w->max = SB_MAX(w->max, v);
	if (t < w->last_ms || t - w->last_ms < avg)
		return;
	window_emit(l, k, ddir, t);
	w->last_ms = t - t % avg;
}

/* fio's __add_samples: bw (KiB/s) and iops over the window, per direction
 * that moved anything; through fio's window, so block size 0 as there. */
static void rates(struct sb_fiolog *l, uint64_t now, const struct sb_dir_result *dir)
{
	const uint64_t spent = (now - l->rate_last_ns) / 1000000u, t = ms_of(l, now);
	for (int d = 0; d < SB_DDIR_N; d++) {
		const uint64_t db = dir[d].bytes - l->prev_bytes[d];
		const uint64_t di = dir[d].ios - l->prev_ios[d];
		if (db && l->f[F_BW].fd >= 0)
			line(l, F_BW, t, spent ? db * 1000 / spent / 1024 : 0, d, 0, 0, 0);
		if (di && l->f[F_IOPS].fd >= 0)
			line(l, F_IOPS, t, spent ? di * 1000 / spent : 0, d, 0, 0, 0);
		l->prev_bytes[d] = dir[d].bytes;
		l->prev_ios[d] = dir[d].ios;
	}
	l->rate_last_ns = now;
}

/* fio's histogram line: the clat counts since the direction's last line,
 * 2^coarseness bins summed into one. */
static void hist_line(struct sb_fiolog *l, int ddir, uint64_t t, uint32_t len,
		      const struct sb_hist *h)
{
	struct log_file *f = &l->f[F_HIST];
	uint64_t *prev = l->hist_prev + (size_t)ddir * PLAT_NR;
	const unsigned stride = 1u << l->o->hist_coarse;
	char *p = room(l, f, HIST_LINE_MAX), *start = p;
	uint64_t sum = 0;
	if (!p)
		return;
	p = put_sep(put_u(p, t));
	p = put_sep(put_u(p, (uint64_t)ddir));
	p = put_sep(put_u(p, len));
	for (unsigned i = 0; i < PLAT_NR; i++) {
		uint64_t cur = h->bucket[i];
		if (i == PLAT_NR - 1)
			for (unsigned k = PLAT_NR; k < SB_HIST_NBUCKETS; k++)
				cur += h->bucket[k];
		sum += cur - prev[i];
		prev[i] = cur;
		if ((i + 1) % stride)
			continue;
		p = put_u(p, sum);
		p = i + 1 < PLAT_NR ? put_sep(p) : p;
		sum = 0;
	}
	*p++ = '\n';
	f->len += (size_t)(p - start);
}

static void hist(struct sb_fiolog *l, int ddir, uint64_t t, uint32_t len, const struct sb_hist *h)
{
	const unsigned ms = l->o->hist_ms;
	if (!l->hist_last[ddir])
		l->hist_last[ddir] = t;
	const uint64_t this_window = t - l->hist_last[ddir];
	if (t < l->hist_last[ddir] || this_window < ms)
		return;
	hist_line(l, ddir, t, len, h);
	l->hist_last[ddir] = t - (this_window - ms);
}

void sb_fiolog_io(struct sb_fiolog *l, int ddir, uint32_t len, uint64_t offset, uint64_t lat,
		  uint64_t clat, uint64_t now, const struct sb_dir_result *dir, unsigned prio)
{
	const uint64_t t = ms_of(l, now);
	if (l->err)
		return;
	sample(l, 0, ddir, lat, t, len, offset, prio);
	sample(l, 1, ddir, clat, t, len, offset, prio);
	if (l->hist_prev && l->o->hist_ms)
		hist(l, ddir, t, len, &dir[ddir].clat);
	if (l->o->avg_ms) {
		if (now - l->rate_last_ns >= (uint64_t)l->o->avg_ms * 1000000u)
			rates(l, now, dir);
		return;
	}
	if (l->f[F_BW].fd >= 0)
		line(l, F_BW, t, clat ? (uint64_t)len * 1000000u / clat : 0, ddir, len, offset,
		     prio);
	if (l->f[F_IOPS].fd >= 0)
		line(l, F_IOPS, t, 1, ddir, len, offset, prio);
}

void sb_fiolog_slat(struct sb_fiolog *l, int ddir, uint32_t len, uint64_t offset, uint64_t slat,
		    uint64_t now, unsigned prio)
{
	if (!l->err && ddir < SB_DDIR_N)
		sample(l, 2, ddir, slat, ms_of(l, now), len, offset, prio);
}

void sb_fiolog_start(struct sb_fiolog *l, uint64_t now)
{
	l->t0 = l->rate_last_ns = now;
	memset(l->win, 0, sizeof(l->win));
	memset(l->prev_bytes, 0, sizeof(l->prev_bytes));
	memset(l->prev_ios, 0, sizeof(l->prev_ios));
	memset(l->hist_last, 0, sizeof(l->hist_last));
	if (l->hist_prev)
		memset(l->hist_prev, 0, SB_DDIR_N * PLAT_NR * sizeof(*l->hist_prev));
}

int sb_fiolog_finish(struct sb_fiolog *l, uint64_t now)
{
	if (l->o->avg_ms)
		for (int k = 0; k < 3; k++)
			for (int d = 0; d < SB_DDIR_N && l->f[F_LAT + k].fd >= 0; d++)
				window_emit(l, k, d, ms_of(l, now));
	for (int i = 0; i < F_N; i++)
		if (l->f[i].fd >= 0)
			flush_file(l, &l->f[i]);
	return l->err;
}

/* Which files the options ask for. */
static int wanted(const struct sb_fiolog_opts *o, int fi)
{
	switch (fi) {
	case F_BW: return !!(o->on & 1u << SB_FIOLOG_BW);
	case F_IOPS: return !!(o->on & 1u << SB_FIOLOG_IOPS);
	case F_LAT: return (o->on & 1u << SB_FIOLOG_LAT) && !o->no_lat;
	case F_CLAT: return (o->on & 1u << SB_FIOLOG_LAT) && !o->no_clat;
	case F_SLAT: return (o->on & 1u << SB_FIOLOG_LAT) && !o->no_slat;
	default: return !!(o->on & 1u << SB_FIOLOG_HIST);
	}
}

static const int kind_of[F_N] = { SB_FIOLOG_BW,	 SB_FIOLOG_IOPS, SB_FIOLOG_LAT,
				  SB_FIOLOG_LAT, SB_FIOLOG_LAT,	 SB_FIOLOG_HIST };

/* fio's gen_log_name: PREFIX_TYPE.N.log, or PREFIX_TYPE.log when shared. */
static int open_one(struct sb_fiolog *l, const struct sb_job_opts *job, unsigned id, int fi)
{
	const struct sb_fiolog_opts *o = &job->fiolog;
	const char *pre = o->prefix[kind_of[fi]][0] ? o->prefix[kind_of[fi]] : job->name;
	char path[sizeof(o->prefix[0]) + 64];
	const unsigned num = (o->jobnum ? o->jobnum : 1) + id;
	if (o->shared)
		snprintf(path, sizeof(path), "%s_%s.log", pre, log_type[fi]);
	else
		snprintf(path, sizeof(path), "%s_%s.%u.log", pre, log_type[fi], num);
	/* never through a symlink: one planted under a log's name in a shared
	 * directory would have the log truncate whatever it points to */
	const int fl = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
		       (o->shared ? O_APPEND : O_TRUNC);
	struct log_file *f = &l->f[fi];
	f->fd = open(path, fl, 0644);
	if (f->fd < 0)
		return -errno;
	f->cap = fi == F_HIST ? HIST_BUF_CAP : BUF_CAP;
	f->buf = malloc(f->cap);
	return f->buf ? 0 : -ENOMEM;
}

int sb_fiolog_open(struct sb_fiolog **out, const struct sb_job_opts *job, unsigned id,
		   const char **what)
{
	*out = NULL;
	if (!job->fiolog.on)
		return 0;
	struct sb_fiolog *l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->o = &job->fiolog;
	for (int i = 0; i < F_N; i++)
		l->f[i].fd = -1;
	for (int i = 0; i < F_N; i++) {
		if (!wanted(l->o, i))
			continue;
		const int e = open_one(l, job, id, i);
		if (e < 0) {
			*what = log_option[i];
			sb_fiolog_free(l);
			return e;
		}
	}
	if (l->f[F_HIST].fd >= 0) {
		l->hist_prev = calloc(SB_DDIR_N * PLAT_NR, sizeof(*l->hist_prev));
		if (!l->hist_prev) {
			sb_fiolog_free(l);
			return -ENOMEM;
		}
	}
	*out = l;
	return 0;
}

void sb_fiolog_free(struct sb_fiolog *l)
{
	if (!l)
		return;
	for (int i = 0; i < F_N; i++) {
		if (l->f[i].fd >= 0)
			close(l->f[i].fd);
		free(l->f[i].buf);
	}
	free(l->hist_prev);
	free(l);
}
