/*
 * What storbench sweep shows and writes: the matrices as iozone's -R report
 * lays them out (file size down, record size across, both in KiB, one
 * table per test in iozone's order), progress lines, and the test-only
 * trace of every operation.
 */
#include "cli/iozone_cli.h"
#include "report/report.h"

#include <unistd.h>

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

static void ranks_text(FILE *f, const struct sweep_cli *c);

static void conditions(FILE *f, const struct sweep_cli *c, const struct sb_results *res)
{
	const struct sb_sweep_result *r = c->r;
	const struct sb_sweep_opts *o = &c->o;
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

void sweep_print_text(FILE *f, const struct sweep_cli *c, const char *path,
		      const struct sb_results *res)
{
	rep_target_text(f, res);
	conditions(f, c, res);
	/* iozone's row table: iozone's gengnuplot.sh and scripts that cut
	 * iozone's columns read it; the only lines that start with a number */
	fputc('\n', f);
	rep_iozone_columns(f);
	rep_iozone_rows(f, c->r, c->o.tests, 0, 1);
	const int w = width(c->r);
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		if (c->o.tests & (1u << t))
			matrix_text(f, c->r, t, w);
	ranks_text(f, c);
	fflush(f);
}

/* iozone -R's blocks as iozone prints them (space-separated, a value per
 * measured cell), so what reads iozone's -R output reads this file. */
static int write_csv(FILE *f, const void *ctx)
{
	const struct sweep_cli *c = ctx;
	rep_iozone_blocks(f, c->r, c->o.tests, 0);
	return ferror(f) ? -EIO : 0;
}

int sweep_write_csv(const struct sweep_cli *c, const char *path)
{
	return cli_write_file(path, write_csv, c) ? -1 : 0;
}

/* "sweep cell 12 of 40, reread, 64.0 MiB file, 4.00 KiB records: 37%
 * 1.20 GiB/s  elapsed 12s  ETA 20s": the percent of the whole sweep by bytes
 * (a test moves its file's size), the rate of the records over the last
 * second, the ETA at the pace so far (small records are slower, so it
 * errs long early on). Under mpirun rank 0's line is every rank's
 * together, as of the last round: "..., 4.00 KiB records, 3 ranks: 37%
 * 1.11 GiB of 3.00 GiB 3.60 GiB/s ...". */
static void draw(struct sweep_cli *c, uint64_t now)
{
	const struct sb_sweep_result *r = c->r;
	const struct sb_sweep_progress *p = &c->p;
	char what[128], a[32], b[32];
	const unsigned n = p->nranks > 1 ? p->nranks : 1;
	snprintf(what, sizeof(what), "%s, %s file, %s records", sb_sweep_test_name(p->test),
		 sb_fmt_size(r->file_sizes[p->fi], a, sizeof(a)),
		 sb_fmt_size(r->record_sizes[p->ri], b, sizeof(b)));
	if (n > 1)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), ", %u ranks", n);
	double done = (double)p->done, total = (double)p->total;
	const uint64_t elapsed = now - c->pg.start_ns;
	struct cli_line l = {
		.label = "sweep",
		.step_word = "cell",
		.step = p->cell,
		.nsteps = p->ncells,
		.what = what,
		.ops = -1,
		.elapsed_ns = elapsed,
		.eta_ns = -1,
	};
	if (n > 1) { /* as of the last round (nothing before one) */
		const uint64_t all = p->have_all ? p->all_done : 0;
		l.bps = p->have_all ? p->all_bps : -1;
		done = (double)all;
		total *= n;
		l.done = all;
		l.total = p->total * (uint64_t)n;
	} else {
		l.bps = p->bps;
	}
	l.pct = total > 0 ? 100 * done / total : 0;
	if (done > 0 && total > 0)
		l.eta_ns = (double)elapsed * (total - done) / done;
	cli_progress_draw(&c->pg, &l, now);
}

void sweep_progress(void *ctx, const struct sb_sweep_progress *p)
{
	struct sweep_cli *c = ctx;
	const int step = p->kind == SB_SWEEP_TELL_STEP;
	c->p = *p;
	if (step && p->size_begins && !c->no_notes) { /* a line for each file size */
		char a[32], b[32];
		cli_progress_note(&c->pg, "sweep: file size %s (%u of %u), elapsed %s",
				  sb_fmt_size(c->r->file_sizes[p->fi], a, sizeof(a)), p->fi + 1,
				  c->r->nfile,
				  cli_fmt_dur((double)(p->now_ns - c->pg.start_ns), b, sizeof(b)));
	}
	if ((!step || p->test >= 0) && cli_progress_due(&c->pg, p->now_ns))
		draw(c, p->now_ns);
}

/* FNV-1a: enough to tell records apart in a trace. */
static uint64_t fnv1a(const void *data, uint64_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ull;
	for (uint64_t i = 0; p && i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return p ? h : 0;
}

/* "TEST OP FILE_SIZE RECORD_SIZE OFFSET LENGTH HASH", one per operation. */
void sweep_trace(void *ctx, const struct sb_sweep_event *ev)
{
	struct sweep_cli *c = ctx;
	fprintf(c->trace, "%s %s %llu %llu %llu %llu %016llx\n", sb_sweep_test_name(ev->test),
		sb_sweep_op_name(ev->op), (unsigned long long)ev->file_size,
		(unsigned long long)ev->record_size, (unsigned long long)ev->offset,
		(unsigned long long)ev->length, (unsigned long long)fnv1a(ev->data, ev->length));
}

int sweep_should_stop(void *ctx)
{
	(void)ctx;
	return cli_interrupted() != 0;
}

void sweep_error(void *ctx, const char *msg)
{
	(void)ctx;
	sb_err("%s", msg);
}

#define PRINT_RANKS 8 /* columns; more are in the JSON */

/* Under mpirun: each rank's rate per test and the skew. */
static void ranks_text(FILE *f, const struct sweep_cli *c)
{
	const struct sb_sweep_result *r = c->r;
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
		if (!(c->o.tests & (1u << t)))
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
