/*
 * storbench sweep's text as its run ends (the run's struct sb_sweep_result,
 * the options it ran with): the target, the conditions, iozone's row
 * table, then one matrix per test as iozone's -R report lays them out
 * (file size down, record size across, both in KiB, one table per test in
 * iozone's order); under mpirun each rank's rate per test and the skew.
 */
#include "report/iozone_layout.h"
#include "report/report.h"

/* A size in KiB as iozone labels it ("64", "1024"); "0.5" for a size that
 * is not a whole number of KiB. */
static const char *kib(uint64_t bytes, char *buf, size_t len)
{
	if (bytes % 1024)
		snprintf(buf, len, "%g", (double)bytes / 1024);
	else
		snprintf(buf, len, "%llu", (unsigned long long)(bytes / 1024));
	return buf;
}

static int width(const struct sb_sweep_result *r)
{
	int w = 7;
	char buf[32];
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		for (unsigned fi = 0; fi < r->nfile; fi++)
			for (unsigned ri = 0; ri < r->nrec; ri++)
				if (r->state[t][fi][ri] == SB_SWEEP_CELL_DONE)
					w = SB_MAX(w, snprintf(buf, sizeof(buf), "%llu",
							       (unsigned long long)
								       r->kibps[t][fi][ri]));
	for (unsigned ri = 0; ri < r->nrec; ri++)
		w = SB_MAX(w, (int)strlen(kib(r->record_sizes[ri], buf, sizeof(buf))));
	return w;
}

static void matrix_text(FILE *f, const struct sb_sweep_result *r, int t, int w)
{
	char buf[32];
	fprintf(f, "\n%s: KiB/s, file size down, record size across (both in KiB)\n",
		sb_sweep_test_title(t));
	fprintf(f, "%-10s %9s", sb_sweep_test_name(t), "kB");
	for (unsigned ri = 0; ri < r->nrec; ri++)
		fprintf(f, " %*s", w, kib(r->record_sizes[ri], buf, sizeof(buf)));
	fputc('\n', f);
	for (unsigned fi = 0; fi < r->nfile; fi++) {
		fprintf(f, "%-10s %9s", sb_sweep_test_name(t),
			kib(r->file_sizes[fi], buf, sizeof(buf)));
		for (unsigned ri = 0; ri < r->nrec; ri++) {
			if (r->state[t][fi][ri] == SB_SWEEP_CELL_DONE)
				fprintf(f, " %*llu", w, (unsigned long long)r->kibps[t][fi][ri]);
			else
				fprintf(f, " %*s", w, "-");
		}
		fputc('\n', f);
	}
}

static void conditions(FILE *f, const struct sb_sweep_result *r, const struct sb_sweep_opts *o,
		       const struct sb_results *res)
{
	char a[32], b[32], x[32], y[32];
	fprintf(f,
		"sizes: %u file size%s (%s to %s) x %u record size%s (%s to %s), %u of %u cells "
		"measured%s\n",
		r->nfile, r->nfile > 1 ? "s" : "", sb_fmt_size(r->file_sizes[0], a, sizeof(a)),
		sb_fmt_size(r->file_sizes[r->nfile - 1], b, sizeof(b)), r->nrec,
		r->nrec > 1 ? "s" : "", sb_fmt_size(r->record_sizes[0], x, sizeof(x)),
		sb_fmt_size(r->record_sizes[r->nrec - 1], y, sizeof(y)), r->cells_done,
		r->cells_planned, r->interrupted ? " (interrupted)" : "");
	if (r->nranks)
		fprintf(f,
			"All clients of %u ranks: each cell the ranks' bytes over the time from "
			"the earliest start to the latest end%s\n",
			r->nranks,
			r->stonewall ? "; --stonewall: each pass ended on every rank when the "
				       "first rank ended it"
				     : "");
	fprintf(f, "%s inside the timings, %s, %s, random data",
		o->flush && o->close ? "fsync and close"
		: o->flush	     ? "fsync (not close)"
		: o->close	     ? "close (not fsync)"
				     : "neither fsync nor close",
		o->direct ? "direct I/O (stdio tests buffered)" : "buffered I/O",
		o->warm			  ? "page cache kept (--warm)"
		: res->cache_dropped == 2 ? "page cache dropped before read tests (drop_caches)"
		: res->cache_dropped == 1 ? "page cache dropped before read tests (fadvise)"
					  : "page cache not dropped");
	if (o->burst_bytes)
		fprintf(f, ", burst: fsync and %s idle after every %s",
			sb_fmt_ns((double)o->burst_idle_ns, a, sizeof(a)),
			sb_fmt_size(o->burst_bytes, b, sizeof(b)));
	fputc('\n', f);
	if (r->small_record_rule)
		fprintf(f, "records under 64 KiB are skipped on files over 16 MiB, as iozone "
			   "does (--all-records measures them)\n");
}

#define PRINT_RANKS 8 /* columns; more are in the JSON */

/* Under mpirun: each rank's rate per test and the skew. */
static void ranks_text(FILE *f, const struct sb_sweep_result *r, uint32_t tests)
{
	const unsigned n = SB_MIN(r->nranks, PRINT_RANKS);
	char buf[32];
	if (!r->nranks)
		return;
	fprintf(f, "\nEach rank: %s of the test's cells (its bytes over its time)%s\n",
		rep_rate_unit(), r->nranks > n ? "; the first 8 ranks, every one in the JSON" : "");
	fprintf(f, "%-10s", "test");
	for (unsigned k = 0; k < n; k++) {
		snprintf(buf, sizeof(buf), "rank %d", r->ranks[k].rank);
		fprintf(f, " %10s", buf);
	}
	fprintf(f, " %13s %13s\n", "start spread", "end spread");
	for (int t = 0; t < SB_SWEEP_NTESTS; t++) {
		if (!(tests & (1u << t)))
			continue;
		fprintf(f, "%-10s", sb_sweep_test_name(t));
		for (unsigned k = 0; k < n; k++) {
			const struct sb_sweep_result *m = &r->ranks[k].r;
			double bytes = 0, ns = 0;
			for (unsigned fi = 0; fi < m->nfile; fi++)
				for (unsigned ri = 0; ri < m->nrec; ri++)
					if (m->state[t][fi][ri] == SB_SWEEP_CELL_DONE) {
						bytes += (double)sb_sweep_pass_bytes(m, t, fi, ri);
						ns += (double)m->elapsed_ns[t][fi][ri];
					}
			if (ns > 0)
				fprintf(f, " %10.1f", bytes / ns * 1e9 / rep_rate_div());
			else
				fprintf(f, " %10s", "-");
		}
		/* the widest spread of the test's cells */
		double sw = 0, ew = 0;
		for (unsigned fi = 0; fi < r->nfile; fi++)
			for (unsigned ri = 0; ri < r->nrec; ri++) {
				double s, e;
				sb_sweep_spread(r, t, fi, ri, &s, &e);
				sw = SB_MAX(sw, s);
				ew = SB_MAX(ew, e);
			}
		fprintf(f, " %10.3f ms %10.3f ms\n", sw * 1e3, ew * 1e3);
	}
	for (unsigned k = 0; k < r->nranks; k++) {
		const struct sb_sweep_result *m = &r->ranks[k].r;
		unsigned early = 0, passes = 0;
		for (int t = 0; t < SB_SWEEP_NTESTS; t++)
			for (unsigned fi = 0; fi < m->nfile; fi++)
				for (unsigned ri = 0; ri < m->nrec; ri++)
					if (m->state[t][fi][ri] == SB_SWEEP_CELL_DONE) {
						passes++;
						early += m->ended_early[t][fi][ri];
					}
		fprintf(f, "rank %d on %s", r->ranks[k].rank, r->ranks[k].host);
		if (r->stonewall)
			fprintf(f, ": %u of %u passes ended early by --stonewall", early, passes);
		fprintf(f, "%s\n", m->interrupted ? " (stopped before the end)" : "");
	}
}

void rep_sweep_run_text(FILE *f, const struct sb_sweep_result *r, const struct sb_sweep_opts *o,
			const struct sb_results *res)
{
	rep_target_text(f, res);
	conditions(f, r, o, res);
	/* iozone's row table: iozone's gengnuplot.sh and scripts that cut
	 * iozone's columns read it; the only lines that start with a number */
	fputc('\n', f);
	rep_iozone_columns(f);
	rep_iozone_rows(f, r, o->tests, 0, 1);
	const int w = width(r);
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		if (o->tests & (1u << t))
			matrix_text(f, r, t, w);
	ranks_text(f, r, o->tests);
	fflush(f);
}
