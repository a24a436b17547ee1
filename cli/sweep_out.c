/*
 * What storbench sweep shows and writes: the matrices as iozone's -R report
 * lays them out (file size down, record size across, both in KiB, one
 * table per test in iozone's order), progress lines, and the test-only
 * trace of every operation.
 */
#include "cli/iozone_cli.h"

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
	render_target_text(f, res);
	conditions(f, c, res);
	/* iozone's row table: iozone's gengnuplot.sh and scripts that cut
	 * iozone's columns read it; the only lines that start with a number */
	fputc('\n', f);
	iozone_print_columns(f);
	iozone_print_rows(f, c->r, c->o.tests, 0, 1);
	const int w = width(c->r);
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		if (c->o.tests & (1u << t))
			matrix_text(f, c->r, t, w);
	sweep_ranks_print(f, c);
	fflush(f);
}

/* iozone -R's blocks as iozone prints them (space-separated, a value per
 * measured cell), so what reads iozone's -R output reads this file. */
static int write_csv(FILE *f, const void *ctx)
{
	const struct sweep_cli *c = ctx;
	iozone_print_blocks(f, c->r, c->o.tests, 0);
	return ferror(f) ? -EIO : 0;
}

int sweep_write_csv(const struct sweep_cli *c, const char *path)
{
	return cli_write_file(path, write_csv, c) ? -1 : 0;
}

uint64_t sweep_done_bytes(const struct sweep_cli *c)
{
	return sb_sweep_meter_done(&c->m);
}

/* "sweep cell 12 of 40, reread, 64.0 MiB file, 4.00 KiB records: 37%
 * 1.20 GiB/s  elapsed 12s  ETA 20s": the percent of the whole sweep by bytes
 * (a test moves its file's size), the rate of the records over the last
 * second, the ETA at the pace so far (small records are slower, so it
 * errs long early on). Under mpirun rank 0's line is every rank's
 * together, as of the last round: "..., 4.00 KiB records, 3 ranks: 37%
 * 1.11 GiB of 3.00 GiB 3.60 GiB/s ...". */
void sweep_draw(struct sweep_cli *c, uint64_t now)
{
	const struct sb_sweep_result *r = c->r;
	char what[128], a[32], b[32];
	const int n = c->ranks ? cli_ranks() : 1;
	const struct sb_sweep_meter *m = &c->m;
	snprintf(what, sizeof(what), "%s, %s file, %s records", sb_sweep_test_name(m->test),
		 sb_fmt_size(r->file_sizes[m->fi], a, sizeof(a)),
		 sb_fmt_size(r->record_sizes[m->ri], b, sizeof(b)));
	if (n > 1)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), ", %d ranks", n);
	double done = (double)sweep_done_bytes(c), total = (double)m->total;
	const uint64_t elapsed = now - c->pg.start_ns;
	struct cli_line l = {
		.label = "sweep",
		.step_word = "cell",
		.step = m->cell,
		.nsteps = m->ncells,
		.what = what,
		.ops = -1,
		.elapsed_ns = elapsed,
		.eta_ns = -1,
	};
	if (n > 1) {
		uint64_t all = 0;
		if (sweep_ranks_figures(c, &all, &l.bps) < 0)
			l.bps = -1;
		done = (double)all;
		total *= n;
		l.done = all;
		l.total = m->total * (uint64_t)n;
	} else if (sb_rate_get(&m->rate, now, m->moved, 0, &l.bps, NULL) < 0) {
		l.bps = -1;
	}
	l.pct = total > 0 ? 100 * done / total : 0;
	if (done > 0 && total > 0)
		l.eta_ns = (double)elapsed * (total - done) / done;
	cli_progress_draw(&c->pg, &l, now);
}

/* Before each test of a cell (test >= 0) and after the cell (-1). */
void sweep_progress(void *ctx, unsigned fi, unsigned ri, int test)
{
	struct sweep_cli *c = ctx;
	const uint64_t now = sb_now_ns();
	char a[32], b[32];
	/* a line for each file size */
	if (sb_sweep_meter_step(&c->m, fi, ri, test, now) && !c->no_notes)
		cli_progress_note(&c->pg, "sweep: file size %s (%u of %u), elapsed %s",
				  sb_fmt_size(c->r->file_sizes[fi], a, sizeof(a)), fi + 1, c->r->nfile,
				  cli_fmt_dur((double)(now - c->pg.start_ns), b, sizeof(b)));
	if (test >= 0 && cli_progress_due(&c->pg, now))
		sweep_draw(c, now);
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

/* Polled before each record: counts it for the rate, and redraws the line
 * when due (the clock read once a MiB, to keep it out of small records'
 * timing). */
int sweep_should_stop(void *ctx)
{
	struct sweep_cli *c = ctx;
	/* many ranks: every rank counts, for rank 0's line */
	uint64_t now;
	if ((!c->pg.quiet || c->ranks) && sb_sweep_meter_record(&c->m, &now) &&
	    cli_progress_due(&c->pg, now))
		sweep_draw(c, now);
	if (cli_interrupted())
		return 1;
	if (!c->ranks)
		return 0;
	int fresh;
	const int a = sweep_ranks_poll(c, sweep_done_bytes(c), &fresh);
	if (fresh && cli_progress_due(&c->pg, now = sb_now_ns()))
		sweep_draw(c, now);
	return a;
}
