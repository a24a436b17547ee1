/*
 * bonnie++'s CSV line, format 1.98 (bonnie++ 2.00a, bon_time.cpp
 * DoReportIO/DoReportFile), 50 fields:
 *
 *   0 format_version 1 bonnie_version 2 name 3 concurrency 4 seed
 *   5 file_size 6 chunk_size 7 seeks 8 seek_procs
 *   9-20 putc, put_block, rewrite, getc, get_block, seeks: rate and %CPU each
 *   21 num_files 22 max_size 23 min_size 24 file_chunk_size 25 num_dirs
 *   26-37 seq_create, seq_stat, seq_del, ran_create, ran_stat, ran_del:
 *         rate and %CPU each
 *   38-49 latencies of the 12 tests in the same order
 *
 * Rates are KiB/s (integer) for the I/O tests, seeks/s (one decimal below
 * 1000) and files/s; a test that ran under 0.5 s shows "+++++" and "+++",
 * one not run leaves its fields empty. A chunk size at its default (8192)
 * is left empty; bonnie++ 2.00a never writes field 24 (a bug), storbench
 * writes it when it is not the default.
 */
#include "lib/meta/meta.h"

#include <stdarg.h>

#define CSV_VERSION "1.98"
#define DEFAULT_CHUNK 8192

struct out {
	char *buf;
	size_t len, pos;
	int overflow;
};

__attribute__((format(printf, 2, 3))) static void add(struct out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->pos)
		o->overflow = 1;
	else
		o->pos += (size_t)n;
}

void sb_meta_csv_latency(uint64_t ns, char *buf, size_t len)
{
	const double s = (double)ns / 1e9;
	if (!ns)
		snprintf(buf, len, "%s", "");
	else if (s > 99.999999)
		snprintf(buf, len, "%ds", (int)s);
	else if (s > 0.099999)
		snprintf(buf, len, "%dms", (int)(s * 1000.0));
	else
		snprintf(buf, len, "%dus", (int)(s * 1000000.0));
}

/* bonnie++'s print_size: the largest unit that divides the value. */
static void size_units(uint64_t v, const char *units, char *buf, size_t len)
{
	unsigned i = 0;
	while (v && v % 1024 == 0 && units[i + 1]) {
		v /= 1024;
		i++;
	}
	if (units[i] == ' ')
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, units[i]);
}

static void stat_fields(struct out *o, const struct sb_meta_result *r, enum sb_meta_test t)
{
	if (!r->ran || !r->elapsed_ns) {
		add(o, ",,");
		return;
	}
	if (r->elapsed_ns < SB_META_MIN_TIME_NS) {
		add(o, ",+++++,+++");
		return;
	}
	const double s = (double)r->elapsed_ns / 1e9;
	const double rate = t == SB_META_SEEKS || t >= SB_META_SEQ_CREATE
				    ? (double)r->ops / s
				    : (double)r->bytes / 1024.0 / s;
	if (t == SB_META_SEEKS)
		add(o, rate >= 1000.0 ? ",%.0f" : ",%.1f", rate);
	else
		add(o, ",%d", (int)rate);
	add(o, ",%d", (int)((double)r->cpu_ns / (double)r->elapsed_ns * 100.0));
}

static void io_part(struct out *o, const struct sb_meta_csv *in)
{
	char size[32], chunk[32] = "";
	add(o, CSV_VERSION ",%s,%s,%u,%llu", in->version, in->name, in->concurrency,
	    (unsigned long long)in->seed);
	if (!in->size) {
		add(o, ",,,,,,,,,,,,,,,,"); /* fields 5-20 */
		return;
	}
	size_units(in->size >> 20, "MG", size, sizeof(size));
	if (in->chunk != DEFAULT_CHUNK)
		size_units(in->chunk, " km", chunk, sizeof(chunk));
	add(o, ",%s,%s,%u,%u", size, chunk, in->seeks, in->seekers);
	for (int t = SB_META_PUTC; t <= SB_META_SEEKS; t++)
		stat_fields(o, &in->res[t], (enum sb_meta_test)t);
}

static void file_part(struct out *o, const struct sb_meta_csv *in)
{
	char chunk[32] = "";
	if (!in->nfiles) {
		add(o, ",,,,,,,,,,,,,,,,,"); /* fields 21-37 */
		return;
	}
	if (in->nfiles % 1024 == 0)
		add(o, ",%llu", (unsigned long long)(in->nfiles / 1024));
	else
		add(o, ",%g", (double)in->nfiles / 1024.0); /* bonnie++ counts in 1024s */
	if (in->size_max && in->size_min)
		add(o, ",%llu,%llu", (unsigned long long)in->size_max,
		    (unsigned long long)in->size_min);
	else if (in->size_max)
		add(o, ",%llu,", (unsigned long long)in->size_max);
	else
		add(o, ",,");
	if (in->file_chunk != DEFAULT_CHUNK)
		size_units(in->file_chunk, " km", chunk, sizeof(chunk));
	add(o, ",%s", chunk);
	if (in->ndirs > 1)
		add(o, ",%u", in->ndirs);
	else
		add(o, ",");
	for (int t = SB_META_SEQ_CREATE; t <= SB_META_RAND_DELETE; t++)
		stat_fields(o, &in->res[t], (enum sb_meta_test)t);
}

int sb_meta_csv_line(const struct sb_meta_csv *in, char *buf, size_t len)
{
	struct out o = { buf, len, 0, len == 0 };
	char lat[32];
	if (!len)
		return -ENOSPC;
	io_part(&o, in);
	file_part(&o, in);
	for (int t = 0; t < SB_META_NTESTS; t++) {
		const struct sb_meta_result *r = &in->res[t];
		sb_meta_csv_latency(r->ran && r->lat.count ? r->lat.max : 0, lat, sizeof(lat));
		add(&o, ",%s", lat);
	}
	add(&o, "\n");
	return o.overflow ? -ENOSPC : (int)o.pos;
}

void sb_meta_run_csv(const struct sb_meta_run *m, char *buf, size_t len)
{
	char ver[48];
	snprintf(ver, sizeof(ver), "storbench-%s", sb_version());
	/* under mpirun the ranks are bonnie++'s concurrent copies (-c): the
	 * sizes are each one's, the rates all of them together */
	struct sb_meta_csv in = { m->name,
				  ver,
				  m->nranks ? m->nranks : 1,
				  m->seed,
				  m->io.size,
				  m->io.chunk,
				  m->io.seeks,
				  m->io.seekers,
				  m->files.nfiles,
				  m->files.size_max,
				  m->files.size_min,
				  m->files.chunk,
				  m->files.ndirs,
				  m->res };
	if (sb_meta_csv_line(&in, buf, len) < 0 && len)
		buf[0] = '\0';
}
