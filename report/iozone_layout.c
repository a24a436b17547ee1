/*
 * What storbench iozone prints: iozone 3.489's console layout to the
 * column (its header, one row per file size and record size with its field
 * widths, blanks for the tests not run, 0 for the second passes -+n leaves
 * out), its -R "Excel output" blocks (space-separated, a value per measured
 * cell, as iozone's dump_report), and the same rows for sweep's text, so
 * iozone's gengnuplot.sh reads either.
 */
#include "report/iozone_layout.h"

#include <time.h>

/* iozone's columns: the tests of each, the width of a value, the width of
 * the blanks when its -i group did not run (the fread group is one less,
 * as iozone prints it). */
struct iz_col {
	int test, width, blank;
};
static const struct iz_col iz_cols[] = {
	{ SB_SWEEP_WRITE, 9, 9 },	 { SB_SWEEP_REWRITE, 9, 9 },
	{ SB_SWEEP_READ, 9, 9 },	 { SB_SWEEP_REREAD, 9, 9 },
	{ SB_SWEEP_RANDREAD, 9, 9 },	 { SB_SWEEP_RANDWRITE, 9, 9 },
	{ SB_SWEEP_BKWDREAD, 9, 9 },	 { SB_SWEEP_RECREWRITE, 10, 10 },
	{ SB_SWEEP_STRIDEREAD, 10, 10 }, { SB_SWEEP_FWRITE, 9, 9 },
	{ SB_SWEEP_FREWRITE, 9, 9 },	 { SB_SWEEP_FREAD, 9, 9 },
	{ SB_SWEEP_FREREAD, 9, 8 },
};

/* The test's -i group was asked for (a second pass left out by -+n still
 * prints 0, as iozone). */
static int group_on(uint32_t tests, int t)
{
#define B(x) (1u << SB_SWEEP_##x)
	static const uint32_t pairs[] = { B(WRITE) | B(REWRITE), B(READ) | B(REREAD),
					  B(RANDREAD) | B(RANDWRITE), B(FWRITE) | B(FREWRITE),
					  B(FREAD) | B(FREREAD) };
#undef B
	for (size_t k = 0; k < SB_ARRAY_SIZE(pairs); k++)
		if (pairs[k] & (1u << t))
			return (tests & pairs[k]) != 0;
	return (tests & (1u << t)) != 0;
}

/* The figure of a cell: KiB/s, or with ops operations per second. */
static uint64_t figure(const struct sb_sweep_result *r, int t, unsigned fi, unsigned ri, int ops)
{
	if (r->state[t][fi][ri] != SB_SWEEP_CELL_DONE)
		return 0;
	if (!ops)
		return r->kibps[t][fi][ri];
	const uint64_t ns = r->elapsed_ns[t][fi][ri];
	const uint64_t n = r->file_sizes[fi] / r->record_sizes[ri];
	return ns ? (uint64_t)((double)n * 1e9 / (double)ns) : 0;
}

void rep_iozone_columns(FILE *f)
{
	fprintf(f, "%62s%s%36s\n", "", "random    random     bkwd    record    stride", "");
	fprintf(f, "              kB  reclen    write  rewrite    read    reread    read     write"
		   "     read   rewrite      read   fwrite frewrite    fread  freread\n");
}

void rep_iozone_rows(FILE *f, const struct sb_sweep_result *r, uint32_t tests, int ops, int dash)
{
	for (unsigned fi = 0; fi < r->nfile; fi++)
		for (unsigned ri = 0; ri < r->nrec; ri++) {
			int any = 0;
			for (int t = 0; t < SB_SWEEP_NTESTS; t++)
				any |= r->state[t][fi][ri] == SB_SWEEP_CELL_DONE;
			if (!sb_sweep_cell_runs(r, fi, ri) || !any)
				continue;
			fprintf(f, "%16llu%8llu", (unsigned long long)(r->file_sizes[fi] >> 10),
				(unsigned long long)(r->record_sizes[ri] >> 10));
			for (size_t k = 0; k < SB_ARRAY_SIZE(iz_cols); k++) {
				const struct iz_col *c = &iz_cols[k];
				if (dash && r->state[c->test][fi][ri] != SB_SWEEP_CELL_DONE)
					fprintf(f, "%*s", c->width, "-");
				else if (group_on(tests, c->test))
					fprintf(f, "%*llu", c->width,
						(unsigned long long)figure(r, c->test, fi, ri,
									   ops));
				else
					fprintf(f, "%*s", c->blank, "");
			}
			fputc('\n', f);
		}
}

void rep_iozone_header(FILE *f, const struct sb_iozone_args *a, int argc, char **argv)
{
	char when[64];
	const time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	fprintf(f,
		"\tIozone: Performance Test of File I/O\n"
		"\t        storbench %s: iozone's tests, iozone 3.489's output layout\n\n",
		sb_version());
	fprintf(f, "\tRun began: %s\n\n", when);
	fputs(a->notes, f);
	fprintf(f, "\tCommand line used: storbench iozone");
	for (int i = 0; i < argc; i++)
		fprintf(f, " %s", argv[i]);
	fputc('\n', f);
	if (!a->ops)
		fprintf(f, "\tOutput is in kBytes/sec\n");
	fprintf(f, "\tTime Resolution = 0.000000001 seconds.\n");
	fprintf(f, "\tProcessor cache size set to %llu kBytes.\n",
		(unsigned long long)a->cache_kib);
	fprintf(f, "\tProcessor cache line size set to %llu bytes.\n",
		(unsigned long long)a->line_bytes);
	fprintf(f, "\tFile stride size set to %u * record size.\n", a->o.stride);
	if (a->o.burst_bytes) {
		fprintf(f, "\tBurst size set to %llu Kbytes.\n",
			(unsigned long long)(a->o.burst_bytes >> 10));
		fprintf(f, "\tBurst sleep duration set to %llu msec\n",
			(unsigned long long)(a->o.burst_idle_ns / 1000000));
	}
	fprintf(f, "\tstorbench: %s%s, random data\n",
		a->o.direct ? "direct I/O (stdio tests buffered), " : "",
		a->o.warm     ? "page cache kept as iozone keeps it"
		: a->o.direct ? "page cache dropped before fread (--drop-cache)"
			      : "page cache dropped before each read test (--drop-cache)");
	fflush(f);
}

/* iozone's dump_report: the record sizes, then per file size a value per
 * measured cell (0 for a test that did not run in it). */
static void excel_block(FILE *f, const struct sb_sweep_result *r, int t, int ops)
{
	fprintf(f, "\n\"%s\"\n      ", sb_sweep_test_title(t));
	for (unsigned ri = 0; ri < r->nrec; ri++)
		fprintf(f, "  \"%llu\"", (unsigned long long)(r->record_sizes[ri] >> 10));
	fputc('\n', f);
	int row = 0;
	for (unsigned fi = 0; fi < r->nfile; fi++) {
		int started = 0;
		for (unsigned ri = 0; ri < r->nrec; ri++) {
			if (!sb_sweep_cell_runs(r, fi, ri))
				continue;
			if (!started) {
				fprintf(f, "%s\"%llu\"  ", row++ ? "\n" : "",
					(unsigned long long)(r->file_sizes[fi] >> 10));
				started = 1;
			}
			fprintf(f, " %llu ", (unsigned long long)figure(r, t, fi, ri, ops));
		}
	}
	fputc('\n', f);
}

void rep_iozone_blocks(FILE *f, const struct sb_sweep_result *r, uint32_t tests, int ops)
{
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		if (group_on(tests, t))
			excel_block(f, r, t, ops);
}

void rep_iozone_excel(FILE *f, const struct sb_sweep_result *r, uint32_t tests, int ops)
{
	fprintf(f, "Excel output is below:\n");
	rep_iozone_blocks(f, r, tests, ops);
}
