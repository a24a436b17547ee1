/*
 * The sweep's vocabulary (test names, iozone's report titles) and the shape
 * of its matrix: iozone's auto ranges and its rule against small records on
 * large files (iozone.c auto_test: CROSSOVER, LARGE_REC).
 */
#include "lib/sweep/sweep.h"
#include "lib/base/units.h"

#define AUTO_FILE_MIN (64ull << 10)
#define AUTO_FILE_MAX (512ull << 20)
#define AUTO_REC_MIN (4ull << 10)

static const char *const names[] = {
	"write",      "rewrite",    "read",   "reread",	  "randread", "randwrite", "bkwdread",
	"recrewrite", "strideread", "fwrite", "frewrite", "fread",    "freread",   "layout",
};

static const char *const titles[] = {
	"Writer report",	"Re-writer report",	 "Reader report",
	"Re-Reader report",	"Random read report",	 "Random write report",
	"Backward read report", "Record rewrite report", "Stride read report",
	"Fwrite report",	"Re-Fwrite report",	 "Fread report",
	"Re-Fread report",
};

const char *sb_sweep_test_name(int test)
{
	return test >= 0 && test <= SB_SWEEP_LAYOUT ? names[test] : "?";
}

int sb_sweep_test_writes(int test)
{
	switch (test) {
	case SB_SWEEP_WRITE:
	case SB_SWEEP_REWRITE:
	case SB_SWEEP_RANDWRITE:
	case SB_SWEEP_RECREWRITE:
	case SB_SWEEP_FWRITE:
	case SB_SWEEP_FREWRITE: return 1;
	default: return 0;
	}
}

const char *sb_sweep_test_title(int test)
{
	return test >= 0 && test < SB_SWEEP_NTESTS ? titles[test] : "?";
}

int sb_sweep_test_by_name(const char *name)
{
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		if (!strcmp(name, names[t]))
			return t;
	return -EINVAL;
}

static int one_test(void *ctx, const char *w)
{
	uint32_t *mask = ctx;
	const int t = sb_sweep_test_by_name(w);
	if (!strcmp(w, "all"))
		*mask |= SB_SWEEP_ALL_TESTS;
	else if (t < 0)
		return -EINVAL;
	else
		*mask |= 1u << t;
	return 0;
}

int sb_sweep_parse_tests(const char *v, uint32_t *mask)
{
	*mask = 0;
	const int rc = sb_parse_list(v, 512, one_test, mask);
	return rc ? rc : *mask ? 0 : -EINVAL;
}

struct sizes {
	uint64_t *out, min, max;
	unsigned *n;
};

static int one_size(void *ctx, const char *w)
{
	struct sizes *s = ctx;
	uint64_t *v = &s->out[*s->n];
	if (*s->n >= SB_SWEEP_MAX_SIZES || sb_parse_size(w, v) < 0 || *v < s->min || *v > s->max)
		return -EINVAL;
	(*s->n)++;
	return 0;
}

int sb_sweep_parse_sizes(const char *v, uint64_t *out, unsigned *n, uint64_t min, uint64_t max)
{
	struct sizes s = { out, min, max, n };
	*n = 0;
	const int rc = sb_parse_list(v, 1024, one_size, &s);
	return rc ? rc : *n ? 0 : -EINVAL;
}

int sb_sweep_parse_burst(struct sb_sweep_opts *o, const char *v)
{
	char size[64];
	const char *comma = strchr(v, ',');
	if (!comma || (size_t)(comma - v) >= sizeof(size))
		return -EINVAL;
	snprintf(size, sizeof(size), "%.*s", (int)(comma - v), v);
	if (sb_parse_size(size, &o->burst_bytes) < 0 || !o->burst_bytes ||
	    sb_parse_duration_ns(comma + 1, &o->burst_idle_ns) < 0 ||
	    o->burst_idle_ns > 3600000000000ull)
		return -EINVAL;
	return 0;
}

const char *sb_sweep_op_name(int op)
{
	static const char *const ops[] = { "begin", "end",   "read", "write",
					   "fsync", "close", "drop", "idle" };
	return op >= 0 && op < (int)SB_ARRAY_SIZE(ops) ? ops[op] : "?";
}

void sb_sweep_opts_default(struct sb_sweep_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->tests = SB_SWEEP_ALL_TESTS;
	o->flush = 1;
	o->close = 1;
	o->stride = 17;
	o->seed = 0x12345; /* fixed, as iozone's: the same offsets every run */
	o->fd = -1;
}

static unsigned range_pow2(uint64_t *out, uint64_t lo, uint64_t hi)
{
	unsigned n = 0;
	for (uint64_t v = lo; v <= hi && n < SB_SWEEP_MAX_SIZES; v *= 2)
		out[n++] = v;
	return n;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Sorted, without duplicates; -EINVAL for a 0. */
static int sorted_unique(uint64_t *out, unsigned *nout, const uint64_t *in, unsigned n)
{
	unsigned k = 0;
	memcpy(out, in, n * sizeof(*in));
	qsort(out, n, sizeof(*out), cmp_u64);
	for (unsigned i = 0; i < n; i++) {
		if (!out[i])
			return -EINVAL;
		if (!k || out[k - 1] != out[i])
			out[k++] = out[i];
	}
	*nout = k;
	return 0;
}

int sb_sweep_cell_runs(const struct sb_sweep_result *r, unsigned fi, unsigned ri)
{
	const uint64_t f = r->file_sizes[fi], rec = r->record_sizes[ri];
	if (rec > f)
		return 0;
	return !(r->small_record_rule && f > SB_SWEEP_CROSSOVER && rec < SB_SWEEP_LARGE_REC);
}

static int sizes(struct sb_sweep_result *r, const struct sb_sweep_opts *o)
{
	int e = 0;
	if (o->nfile > SB_SWEEP_MAX_SIZES || o->nrec > SB_SWEEP_MAX_SIZES)
		return -E2BIG;
	if (o->nfile)
		e = sorted_unique(r->file_sizes, &r->nfile, o->file_sizes, o->nfile);
	else
		r->nfile = range_pow2(r->file_sizes, AUTO_FILE_MIN, AUTO_FILE_MAX);
	if (!e && o->nrec)
		e = sorted_unique(r->record_sizes, &r->nrec, o->record_sizes, o->nrec);
	else if (!e)
		r->nrec = range_pow2(r->record_sizes, AUTO_REC_MIN, SB_SWEEP_MAX_RECORD);
	if (e)
		return e;
	if (r->record_sizes[r->nrec - 1] > SB_SWEEP_MAX_RECORD)
		return -EINVAL;
	if (r->file_sizes[r->nfile - 1] > (uint64_t)INT64_MAX)
		return -ERANGE;
	return 0;
}

int sb_sweep_plan(struct sb_sweep_result *r, const struct sb_sweep_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->fail_test = r->fail_op = -1;
	if (!(o->tests & SB_SWEEP_ALL_TESTS) || !o->stride)
		return -EINVAL;
	int e = sizes(r, o);
	if (e)
		return e;
	/* iozone applies it only while it chooses the record sizes itself */
	r->small_record_rule = !o->nrec && !o->all_records;
	for (unsigned fi = 0; fi < r->nfile; fi++) {
		for (unsigned ri = 0; ri < r->nrec; ri++) {
			if (!sb_sweep_cell_runs(r, fi, ri))
				continue;
			r->cells_planned++;
			for (int t = 0; t < SB_SWEEP_NTESTS; t++)
				if (o->tests & (1u << t))
					r->state[t][fi][ri] = SB_SWEEP_CELL_PLANNED;
		}
	}
	return r->cells_planned ? 0 : -EINVAL;
}

int sb_sweep_plan_given(struct sb_sweep_result *r, struct sb_sweep_opts *o, uint32_t tests_given,
			int no_retest, char *msg, size_t ml)
{
	o->tests = tests_given ? tests_given : SB_SWEEP_ALL_TESTS;
	if (no_retest) {
		const uint32_t named = tests_given == SB_SWEEP_ALL_TESTS ? 0 : tests_given;
		if (named & SB_SWEEP_RETESTS)
			return snprintf(msg, ml,
					"--no-retest: leaves out rewrite, reread, frewrite and "
					"freread, which --tests names"),
			       -EINVAL;
		o->tests &= ~(uint32_t)SB_SWEEP_RETESTS;
	}
	const int e = sb_sweep_plan(r, o);
	if (e == -EINVAL)
		snprintf(msg, ml,
			 "--record-sizes: no record size fits in any file size (records "
			 "are never larger than the file)");
	else if (e)
		snprintf(msg, ml, "--file-sizes: %s", strerror(-e));
	return e ? -EINVAL : 0;
}
