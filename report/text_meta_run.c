/*
 * storbench meta's own text of a run as it ends (report.h,
 * rep_meta_run_text): a table of the tests run (rate, CPU, latency per
 * operation) and under mpirun each rank's figures and the skew, from the
 * run's struct sb_meta_run, the one the report's meta section reads back
 * (rep_text_meta, report/html_meta.c). bonnie++'s CSV line and the "meta"
 * section of the JSON results are lib's (sb_meta_run_csv,
 * sb_results_meta).
 */
#include "report/report.h"

/* ---- text ---- */

static void row(FILE *f, const struct sb_meta_result *r, enum sb_meta_test t)
{
	char rate[48], n[32], a[32], b[32], c[32], d[32];
	if (sb_meta_is_io(t)) {
		rep_fmt_rate(sb_meta_rate(r, t), rate, sizeof(rate));
	} else {
		sb_fmt_count(sb_meta_rate(r, t), n, sizeof(n));
		snprintf(rate, sizeof(rate), "%s %s/s", n, t == SB_META_SEEKS ? "seeks" : "files");
	}
	fprintf(f, "%-12s %14s %4.0f%%  %9s %9s %9s %9s%s%s\n", sb_meta_test_name(t), rate,
		sb_meta_cpu_percent(r), sb_fmt_ns((double)r->lat.min, a, sizeof(a)),
		sb_fmt_ns((double)sb_hist_percentile(&r->lat, 50), b, sizeof(b)),
		sb_fmt_ns((double)sb_hist_percentile(&r->lat, 99), c, sizeof(c)),
		sb_fmt_ns((double)r->lat.max, d, sizeof(d)),
		r->elapsed_ns < SB_META_MIN_TIME_NS ? " *" : "",
		r->interrupted ? " (interrupted)" : "");
}

static void header(FILE *f)
{
	fprintf(f, "%-12s %14s %5s  %9s %9s %9s %9s\n", "test", "rate", "cpu", "min", "p50", "p99",
		"max");
}

static int any_ran(const struct sb_meta_run *m, int first, int last)
{
	for (int t = first; t <= last; t++)
		if (m->res[t].ran)
			return 1;
	return 0;
}

void rep_meta_size_why(const struct sb_meta_run *m, char *buf, size_t len)
{
	char a[32], b[32];
	sb_fmt_size(m->io.size, a, sizeof(a));
	sb_fmt_size(m->twice_ram, b, sizeof(b));
	if (m->size_rule == SB_META_SIZE_COLD)
		snprintf(buf, len,
			 "block test file %s: bonnie++'s twice the RAM (%s) is needed only where "
			 "the page cache cannot be dropped; here it is dropped before each "
			 "reading test (--size sets another size)",
			 a, b);
	else
		snprintf(buf, len,
			 "block test file %s: twice the RAM, as bonnie++, since the whole page "
			 "cache cannot be dropped here (that needs root); --size sets another "
			 "size",
			 a);
}

static void io_text(FILE *f, const struct sb_meta_run *m)
{
	char a[32], b[32], c[32];
	const struct sb_meta_io *io = &m->io;
	fprintf(f, "\nblock and seek tests: %s file in %s chunks, per-char %s (%s), %s, %s data\n",
		sb_fmt_size(io->size, a, sizeof(a)), sb_fmt_size(io->chunk, b, sizeof(b)),
		sb_fmt_size(io->char_size, c, sizeof(c)),
		io->char_syscall ? "1-byte syscalls" : "putc/getc",
		io->direct ? "direct I/O" : "buffered", io->bonnie_data ? "bonnie++'s" : "random");
	fprintf(f, "%u seeks by %u threads (every 10th rewrites its chunk%s); page cache %s\n",
		io->seeks, io->seekers, io->fsync ? ", fsync" : "",
		m->cache_method ? sb_cache_method_name(m->cache_method) : "not dropped");
	if (m->size_rule != SB_META_SIZE_GIVEN) {
		char why[256];
		rep_meta_size_why(m, why, sizeof(why));
		fprintf(f, "%s\n", why);
	}
	header(f);
	for (int t = SB_META_PUTC; t <= SB_META_SEEKS; t++)
		if (m->res[t].ran)
			row(f, &m->res[t], (enum sb_meta_test)t);
}

static void files_text(FILE *f, const struct sb_meta_run *m)
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

void rep_meta_run_text(FILE *f, const struct sb_meta_run *m)
{
	if (m->nranks) /* under mpirun: the figures are the All clients aggregate */
		fprintf(f,
			"meta: All clients, %u ranks, each in a run directory of its own (rank 0: %s, %s)\n",
			m->nranks, m->rundir, m->kept ? "kept" : "removed");
	else
		fprintf(f, "meta: run directory %s (%s)\n", m->rundir,
			m->kept ? "kept" : "removed");
	if (any_ran(m, SB_META_PUTC, SB_META_SEEKS))
		io_text(f, m);
	if (any_ran(m, SB_META_SEQ_CREATE, SB_META_RAND_DELETE))
		files_text(f, m);
	for (int t = 0; t < SB_META_NTESTS; t++)
		if (m->res[t].ran && m->res[t].elapsed_ns < SB_META_MIN_TIME_NS) {
			fprintf(f, "* under 0.5 s: too short to trust (bonnie++ shows +++++)\n");
			break;
		}
	if (m->interrupted)
		fprintf(f, "(interrupted: the figures cover what ran)\n");
}

/* ---- under mpirun: each rank and the skew ---- */

static void rate_str(enum sb_meta_test t, double v, char *buf, size_t len)
{
	char n[32];
	if (sb_meta_is_io(t)) {
		rep_fmt_rate(v, buf, len);
		return;
	}
	sb_fmt_count(v, n, sizeof(n));
	snprintf(buf, len, "%s %s/s", n, t == SB_META_SEEKS ? "seeks" : "files");
}

void rep_meta_run_ranks_text(FILE *f, const struct sb_meta_run *m)
{
	char a[48], b[32], c[32], d[32];
	if (!m->nranks)
		return;
	fprintf(f,
		"\nper rank (start and end from the earliest start of the test on any rank%s):\n",
		m->stonewall ? "; --stonewall: a stonewalled rank's figures end where the first "
			       "rank ended the test"
			     : "");
	fprintf(f, "%-12s %5s %-16s %14s %10s %9s %9s %9s\n", "test", "rank", "host", "rate", "ops",
		"p99", "start", "end");
	for (int t = 0; t < SB_META_NTESTS; t++) {
		if (!m->res[t].ran)
			continue;
		double t0 = m->ranks[0].t[t].start_s;
		for (unsigned i = 0; i < m->nranks; i++)
			t0 = SB_MIN(t0, m->ranks[i].t[t].start_s);
		for (unsigned i = 0; i < m->nranks; i++) {
			const struct sb_meta_rank_test *k = &m->ranks[i].t[t];
			rate_str((enum sb_meta_test)t, k->rate, a, sizeof(a));
			fprintf(f, "%-12s %5d %-16.16s %14s %10llu %9s %9s %9s%s\n",
				sb_meta_test_name((enum sb_meta_test)t), m->ranks[i].rank,
				m->ranks[i].host, a, (unsigned long long)k->ops,
				sb_fmt_ns((double)k->lat_p99, b, sizeof(b)),
				sb_fmt_ns((k->start_s - t0) * 1e9, c, sizeof(c)),
				sb_fmt_ns((k->end_s - t0) * 1e9, d, sizeof(d)),
				k->stonewalled ? " stonewalled" : "");
		}
	}
	fprintf(f, "\nskew (spread of the starts and of the ends; slowest and fastest rank "
		   "against the median):\n");
	for (int t = 0; t < SB_META_NTESTS; t++) {
		const struct sb_meta_skew *k = &m->skew[t];
		if (!m->res[t].ran)
			continue;
		fprintf(f, "%-12s start %s, end %s; rank %d %+.0f%%, rank %d %+.0f%%\n",
			sb_meta_test_name((enum sb_meta_test)t),
			sb_fmt_ns(k->start_spread_s * 1e9, a, sizeof(a)),
			sb_fmt_ns(k->end_spread_s * 1e9, b, sizeof(b)),
			m->ranks[k->slowest_rank].rank, 100 * k->slowest_vs_median,
			m->ranks[k->fastest_rank].rank, 100 * k->fastest_vs_median);
	}
}
