/*
 * storbench meta: what it prints. A table of the tests run (rate, CPU,
 * latency per operation), bonnie++'s CSV line, and the "meta" section of
 * the JSON results.
 */
#include "cli/cmd_meta.h"
#include "lib/storbench.h"

#define MIN_TIME_NS 500000000ull /* bonnie++ shows "+++++" under 0.5 s */

static const double meta_pcts[] = { 1, 5, 10, 50, 90, 95, 99, 99.9, 99.99 };

static int is_io(enum sb_meta_test t)
{
	return t <= SB_META_READ;
}

/* bytes/s for the I/O tests, seeks/s or files/s for the others */
static double rate_of(const struct sb_meta_result *r, enum sb_meta_test t)
{
	if (!r->elapsed_ns)
		return 0;
	const double s = (double)r->elapsed_ns / 1e9;
	return is_io(t) ? (double)r->bytes / s : (double)r->ops / s;
}

static double cpu_pct(const struct sb_meta_result *r)
{
	return r->elapsed_ns ? 100.0 * (double)r->cpu_ns / (double)r->elapsed_ns : 0;
}

void cli_meta_csv(const struct meta_run *m, char *buf, size_t len)
{
	char ver[48];
	snprintf(ver, sizeof(ver), "storbench-%s", sb_version());
	struct sb_meta_csv in = { m->name, ver, 1, m->seed, m->io.size, m->io.chunk, m->io.seeks,
				  m->io.seekers, m->files.nfiles, m->files.size_max,
				  m->files.size_min, m->files.chunk, m->files.ndirs, m->res };
	if (sb_meta_csv_line(&in, buf, len) < 0 && len)
		buf[0] = '\0';
}

/* ---- text ---- */

static void row(FILE *f, const struct sb_meta_result *r, enum sb_meta_test t)
{
	char rate[48], n[32], a[32], b[32], c[32], d[32];
	if (is_io(t)) {
		sb_fmt_rate(rate_of(r, t), rate, sizeof(rate));
	} else {
		sb_fmt_count(rate_of(r, t), n, sizeof(n));
		snprintf(rate, sizeof(rate), "%s %s/s", n, t == SB_META_SEEKS ? "seeks" : "files");
	}
	fprintf(f, "%-12s %14s %4.0f%%  %9s %9s %9s %9s%s%s\n", sb_meta_test_name(t), rate,
		cpu_pct(r), sb_fmt_ns((double)r->lat.min, a, sizeof(a)),
		sb_fmt_ns((double)sb_hist_percentile(&r->lat, 50), b, sizeof(b)),
		sb_fmt_ns((double)sb_hist_percentile(&r->lat, 99), c, sizeof(c)),
		sb_fmt_ns((double)r->lat.max, d, sizeof(d)),
		r->elapsed_ns < MIN_TIME_NS ? " *" : "", r->interrupted ? " (interrupted)" : "");
}

static void header(FILE *f)
{
	fprintf(f, "%-12s %14s %5s  %9s %9s %9s %9s\n", "test", "rate", "cpu", "min", "p50",
		"p99", "max");
}

static int any_ran(const struct meta_run *m, int first, int last)
{
	for (int t = first; t <= last; t++)
		if (m->res[t].ran)
			return 1;
	return 0;
}

static void io_text(FILE *f, const struct meta_run *m)
{
	char a[32], b[32], c[32];
	const struct sb_meta_io *io = &m->io;
	fprintf(f, "\nblock and seek tests: %s file in %s chunks, per-char %s (%s), %s, %s data\n",
		sb_fmt_size(io->size, a, sizeof(a)), sb_fmt_size(io->chunk, b, sizeof(b)),
		sb_fmt_size(io->char_size, c, sizeof(c)), io->char_syscall ? "1-byte syscalls" : "putc/getc",
		io->direct ? "direct I/O" : "buffered", io->bonnie_data ? "bonnie++'s" : "random");
	fprintf(f, "%u seeks by %u threads (every 10th rewrites its chunk%s); page cache %s\n",
		io->seeks, io->seekers, io->fsync ? ", fsync" : "",
		m->cache_method ? sb_cache_method_name(m->cache_method) : "not dropped");
	header(f);
	for (int t = SB_META_PUTC; t <= SB_META_SEEKS; t++)
		if (m->res[t].ran)
			row(f, &m->res[t], (enum sb_meta_test)t);
}

static void files_text(FILE *f, const struct meta_run *m)
{
	char a[32], b[32];
	const struct sb_meta_files *p = &m->files;
	fprintf(f, "\nfile tests: %llu files of ", (unsigned long long)p->nfiles);
	if (p->size_max == p->size_min)
		fprintf(f, "%s", sb_fmt_size(p->size_max, a, sizeof(a)));
	else
		fprintf(f, "%s to %s", sb_fmt_size(p->size_min, a, sizeof(a)),
			sb_fmt_size(p->size_max, b, sizeof(b)));
	fprintf(f, " in %u director%s by %u thread%s%s\n", p->ndirs, p->ndirs > 1 ? "ies" : "y",
		p->nthreads, p->nthreads > 1 ? "s" : "", p->fsync ? ", fsync each" : "");
	header(f);
	for (int t = SB_META_SEQ_CREATE; t <= SB_META_RAND_DELETE; t++)
		if (m->res[t].ran)
			row(f, &m->res[t], (enum sb_meta_test)t);
}

void cli_meta_print_text(FILE *f, const struct meta_run *m)
{
	fprintf(f, "meta: run directory %s (%s)\n", m->rundir, m->kept ? "kept" : "removed");
	if (any_ran(m, SB_META_PUTC, SB_META_SEEKS))
		io_text(f, m);
	if (any_ran(m, SB_META_SEQ_CREATE, SB_META_RAND_DELETE))
		files_text(f, m);
	for (int t = 0; t < SB_META_NTESTS; t++)
		if (m->res[t].ran && m->res[t].elapsed_ns < MIN_TIME_NS) {
			fprintf(f, "* under 0.5 s: too short to trust (bonnie++ shows +++++)\n");
			break;
		}
	if (m->interrupted)
		fprintf(f, "(interrupted: the figures cover what ran)\n");
}

/* ---- JSON ---- */

static void lat_json(struct sb_json *j, const struct sb_hist *h)
{
	char k[32];
	sb_json_obj_open(j, "lat_ns");
	sb_json_u64(j, "min", h->count ? h->min : 0);
	sb_json_u64(j, "max", h->count ? h->max : 0);
	sb_json_double(j, "mean", sb_hist_mean(h));
	sb_json_double(j, "stddev", sb_hist_stddev(h));
	sb_json_u64(j, "N", h->count);
	sb_json_obj_open(j, "percentile");
	for (size_t i = 0; h->count && i < SB_ARRAY_SIZE(meta_pcts); i++) {
		snprintf(k, sizeof(k), "%f", meta_pcts[i]);
		sb_json_u64(j, k, sb_hist_percentile(h, meta_pcts[i]));
	}
	sb_json_obj_close(j);
	sb_json_obj_close(j);
}

static void test_json(struct sb_json *j, const struct sb_meta_result *r, enum sb_meta_test t)
{
	sb_json_obj_open(j, sb_meta_test_name(t));
	sb_json_bool(j, "ran", r->ran);
	sb_json_bool(j, "interrupted", r->interrupted);
	sb_json_u64(j, "ops", r->ops);
	if (is_io(t) || t == SB_META_SEEKS)
		sb_json_u64(j, "bytes", r->bytes);
	sb_json_u64(j, "elapsed_ns", r->elapsed_ns);
	sb_json_u64(j, "cpu_ns", r->cpu_ns);
	sb_json_double(j, "cpu_percent", cpu_pct(r));
	sb_json_double(j, is_io(t) ? "bw_bytes" : t == SB_META_SEEKS ? "seeks_per_s" : "files_per_s",
		       rate_of(r, t));
	sb_json_bool(j, "too_short", r->ran && r->elapsed_ns < MIN_TIME_NS);
	lat_json(j, &r->lat);
	sb_json_obj_close(j);
}

static void params_json(struct sb_json *j, const struct meta_run *m)
{
	sb_json_obj_open(j, "params");
	sb_json_u64(j, "size", m->io.size);
	sb_json_u64(j, "char_size", m->io.char_size);
	sb_json_u64(j, "chunk", m->io.chunk);
	sb_json_u64(j, "seeks", m->io.seeks);
	sb_json_u64(j, "seekers", m->io.seekers);
	sb_json_bool(j, "direct", m->io.direct);
	sb_json_bool(j, "fsync", m->io.fsync);
	sb_json_str(j, "per_char", m->io.char_syscall ? "syscall" : "putc");
	sb_json_str(j, "data", m->io.bonnie_data ? "bonnie" : "random");
	sb_json_u64(j, "files", m->files.nfiles);
	sb_json_u64(j, "file_size_min", m->files.size_min);
	sb_json_u64(j, "file_size_max", m->files.size_max);
	sb_json_u64(j, "file_chunk", m->files.chunk);
	sb_json_u64(j, "dirs", m->files.ndirs);
	sb_json_u64(j, "threads", m->files.nthreads);
	sb_json_u64(j, "seed", m->seed);
	sb_json_obj_close(j);
}

static void extra_json(struct sb_json *j, const void *ctx)
{
	const struct meta_run *m = ctx;
	char line[2048];
	sb_json_str(j, "run_directory", m->rundir);
	sb_json_bool(j, "run_directory_removed", !m->kept);
	sb_json_str(j, "cache", m->cache_method ? sb_cache_method_name(m->cache_method) : "warm");
	sb_json_bool(j, "interrupted", m->interrupted);
	params_json(j, m);
	sb_json_obj_open(j, "tests");
	for (int t = 0; t < SB_META_NTESTS; t++)
		if (m->res[t].ran)
			test_json(j, &m->res[t], (enum sb_meta_test)t);
	sb_json_obj_close(j);
	cli_meta_csv(m, line, sizeof(line));
	line[strcspn(line, "\n")] = '\0';
	sb_json_str(j, "bonnie_csv", line);
}

void cli_meta_fill_results(struct sb_results *res, const struct meta_run *m)
{
	res->interrupted = m->interrupted;
	res->cache_dropped = m->cache_method;
	res->extra_key = "meta";
	res->extra_json = extra_json;
	res->extra_ctx = m;
}
