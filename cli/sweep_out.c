/*
 * What storbench sweep writes and shows as it runs: iozone's -R blocks as
 * CSV, progress lines, and the test-only trace of every operation (its
 * text as it ends is report/'s: rep_sweep_run_text).
 */
#include "cli/iozone_cli.h"
#include "report/report.h"

#include <unistd.h>

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
