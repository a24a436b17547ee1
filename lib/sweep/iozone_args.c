/*
 * iozone's command line mapped to a sweep: the options as iozone's getopt
 * takes them (bundled flags "-azecI", values attached "-L64" or apart
 * "-s 2G", "-+n" and "-+b 400000,30000"), sizes in KiB unless a k/m/g
 * suffix says otherwise, and the lines iozone prints about each option,
 * in the order given, for the report's header. Every option is in one
 * table: what it maps to, or why storbench refuses it and what to use.
 */
#include "lib/sweep/sweep.h"

#include "lib/base/units.h"

#include <stdarg.h>

enum {
	IZ_FLAG, /* no value */
	IZ_VAL,	 /* a value: the rest of the word or the next word */
};

struct iz_opt {
	const char *name; /* "a", "+n" */
	int kind;
	const char *refused; /* NULL: honoured; else what to use instead */
};

static const struct iz_opt iz_opts[] = {
	{ "a", IZ_FLAG, NULL },
	{ "A", IZ_FLAG, NULL },
	{ "z", IZ_FLAG, NULL },
	{ "e", IZ_FLAG, NULL },
	{ "c", IZ_FLAG, NULL },
	{ "I", IZ_FLAG, NULL },
	{ "w", IZ_FLAG, NULL },
	{ "R", IZ_FLAG, NULL },
	{ "O", IZ_FLAG, NULL },
	{ "+n", IZ_FLAG, NULL },
	{ "L", IZ_VAL, NULL },
	{ "S", IZ_VAL, NULL },
	{ "r", IZ_VAL, NULL },
	{ "s", IZ_VAL, NULL },
	{ "i", IZ_VAL, NULL },
	{ "f", IZ_VAL, NULL },
	{ "b", IZ_VAL, NULL },
	{ "j", IZ_VAL, NULL },
	{ "n", IZ_VAL, NULL },
	{ "g", IZ_VAL, NULL },
	{ "y", IZ_VAL, NULL },
	{ "q", IZ_VAL, NULL },
	{ "+b", IZ_VAL, NULL },
	{ "t", IZ_VAL, "throughput mode is not supported; use storbench run --numjobs=N" },
	{ "U", IZ_VAL,
	  "remounting is not supported; for what -U is for, a cold page cache before each "
	  "read test, give storbench iozone --drop-cache (soak --workload=iozone drops it "
	  "already)" },
	{ "F", IZ_VAL, "throughput mode is not supported; use storbench run --numjobs=N" },
	{ "l", IZ_VAL, "throughput mode is not supported; use storbench run --numjobs=N" },
	{ "u", IZ_VAL, "throughput mode is not supported; use storbench run --numjobs=N" },
	{ "T", IZ_FLAG, "throughput mode is not supported; use storbench run --numjobs=N" },
	{ "B", IZ_FLAG, "mmap files are not supported; use storbench run --ioengine=mmap" },
	{ "D", IZ_FLAG, "mmap files are not supported; use storbench run --ioengine=mmap" },
	{ "G", IZ_FLAG, "mmap files are not supported; use storbench run --ioengine=mmap" },
	{ "E", IZ_FLAG, "the pread/pwrite and vector tests are not supported; use -i 0..7" },
	{ "N", IZ_FLAG, "microseconds per operation are not supported; use -O (ops/s)" },
	{ "o", IZ_FLAG, "O_SYNC writes are not supported; use storbench run --sync=1" },
	{ "p", IZ_FLAG,
	  "purging the processor cache is not supported; storbench iozone --drop-cache drops "
	  "the page cache before each read test" },
	{ "m", IZ_FLAG, "multiple buffers are not supported; leave it out" },
	{ "M", IZ_FLAG, "uname output is not supported; storbench's JSON (-o) has the host" },
	{ "K", IZ_FLAG, "jitter is not supported; leave it out" },
	{ "Q", IZ_FLAG, "offset/latency files are not supported; use storbench run" },
	{ "x", IZ_FLAG, "stonewalling applies to throughput mode, not supported" },
	{ "W", IZ_FLAG, "file locking is not supported; leave it out" },
	{ "Z", IZ_FLAG, "mmap files are not supported; use storbench run --ioengine=mmap" },
	{ "C", IZ_FLAG, "throughput mode is not supported; use storbench run --numjobs=N" },
	{ "V", IZ_VAL, "pattern verification is not supported; use storbench verify" },
	{ "H", IZ_VAL, "POSIX async I/O is not supported; use storbench run --ioengine=libaio" },
	{ "k", IZ_VAL, "POSIX async I/O is not supported; use storbench run --ioengine=libaio" },
	{ "J", IZ_VAL, "compute delays are not supported; use storbench run --thinktime" },
	{ "X", IZ_VAL, "telemetry files are not supported; leave it out" },
	{ "Y", IZ_VAL, "telemetry files are not supported; leave it out" },
	{ "P", IZ_VAL, "CPU binding is not supported; use taskset" },
	{ "d", IZ_VAL, "throughput mode is not supported; use storbench run --numjobs=N" },
	{ "+u", IZ_FLAG, "CPU utilisation reports are not supported; storbench run reports CPU" },
	{ "+m", IZ_VAL, "cluster mode is not supported; use storbench built with MPI=1" },
	{ "+d", IZ_FLAG, "diagnostic mode is not supported; use storbench verify" },
	{ "+w", IZ_VAL,
	  "dedupable data is not supported; use storbench run --buffer_compress_percentage" },
	{ "+p", IZ_VAL, "the mixed test (-i 8) is not supported" },
	{ "+r", IZ_FLAG, "O_RSYNC|O_SYNC is not supported; use storbench run --sync=1" },
	{ "+D", IZ_FLAG, "O_DSYNC is not supported; use storbench run --sync=dsync" },
	{ "+q", IZ_VAL, "delays between tests are not supported; leave it out" },
	{ "+z", IZ_FLAG, "latency histograms are not supported here; use storbench run" },
	{ "+x", IZ_VAL, "size multipliers other than 2 are not supported; leave it out" },
	{ "+E", IZ_FLAG, "read-only tests of an existing file are not supported" },
	{ "+k", IZ_FLAG, "constant aggregate size applies to throughput mode, not supported" },
	{ "h", IZ_FLAG, NULL },
	{ "v", IZ_FLAG, NULL },
	{ NULL, 0, NULL },
};

/* The tests of iozone's -i numbers 0..7, as sweep test bits. */
static const uint32_t iz_tests[] = {
	(1u << SB_SWEEP_WRITE) | (1u << SB_SWEEP_REWRITE),
	(1u << SB_SWEEP_READ) | (1u << SB_SWEEP_REREAD),
	(1u << SB_SWEEP_RANDREAD) | (1u << SB_SWEEP_RANDWRITE),
	1u << SB_SWEEP_BKWDREAD,
	1u << SB_SWEEP_RECREWRITE,
	1u << SB_SWEEP_STRIDEREAD,
	(1u << SB_SWEEP_FWRITE) | (1u << SB_SWEEP_FREWRITE),
	(1u << SB_SWEEP_FREAD) | (1u << SB_SWEEP_FREREAD),
};

static int fail(struct sb_iozone_args *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(struct sb_iozone_args *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->error, sizeof(a->error), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void note(struct sb_iozone_args *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct sb_iozone_args *a, const char *fmt, ...)
{
	const size_t used = strlen(a->notes);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->notes + used, sizeof(a->notes) - used, fmt, ap);
	va_end(ap);
}

/* iozone's size: KiB, or with a k/m/g suffix (either case). */
static int iz_size(const char *v, uint64_t *out)
{
	char *end;
	if (!*v || *v < '0' || *v > '9')
		return -EINVAL;
	errno = 0;
	const unsigned long long n = strtoull(v, &end, 10);
	int shift = 10;
	if (*end == 'k' || *end == 'K')
		end++;
	else if (*end == 'm' || *end == 'M')
		shift = 20, end++;
	else if (*end == 'g' || *end == 'G')
		shift = 30, end++;
	if (errno || *end || !n || n > (1ull << 50) >> shift)
		return -EINVAL;
	*out = (uint64_t)n << shift;
	return 0;
}

static int iz_u64(const char *v, uint64_t *out, uint64_t max)
{
	return sb_parse_u64(v, out) < 0 || *out > max ? -EINVAL : 0;
}

static int add_size(struct sb_iozone_args *a, const char *opt, const char *v, uint64_t *list,
		    unsigned *n, uint64_t max)
{
	uint64_t s;
	if (iz_size(v, &s) < 0 || s > max)
		return fail(a, "-%s: '%s' is not a size (KiB, or with k, m or g: 64, 4k, 2m, 1g)",
			    opt, v);
	if (*n >= SB_SWEEP_MAX_SIZES)
		return fail(a, "-%s: at most %d sizes", opt, SB_SWEEP_MAX_SIZES);
	list[(*n)++] = s;
	return 0;
}

static int set_value(struct sb_iozone_args *a, const char *o, const char *v)
{
	uint64_t n;
	switch (o[0] == '+' ? o[1] | 0x100 : o[0]) {
	case 'L':
		if (iz_u64(v, &n, 1 << 20) < 0 || !n)
			return fail(a, "-L: '%s' is not a cache line size in bytes", v);
		a->line_bytes = n;
		return 0;
	case 'S':
		if (iz_size(v, &n) < 0)
			return fail(a, "-S: '%s' is not a cache size (KiB, or with k, m or g)", v);
		a->cache_kib = n >> 10;
		return 0;
	case 'r':
		if (add_size(a, "r", v, a->o.record_sizes, &a->o.nrec, SB_SWEEP_MAX_RECORD))
			return -EINVAL;
		note(a, "\tRecord Size %llu kB\n",
		     (unsigned long long)(a->o.record_sizes[a->o.nrec - 1] >> 10));
		return 0;
	case 's':
		if (add_size(a, "s", v, a->o.file_sizes, &a->o.nfile, 1ull << 50))
			return -EINVAL;
		note(a, "\tFile size set to %llu kB\n",
		     (unsigned long long)(a->o.file_sizes[a->o.nfile - 1] >> 10));
		return 0;
	case 'i':
		if (iz_u64(v, &n, 100) < 0)
			return fail(a, "-i: '%s' is not a test number (0 to 7)", v);
		if (n > 7)
			return fail(a,
				    "-i %llu: tests 8 to 12 (random mix, pwrite, pread, pwritev, "
				    "preadv) are not supported; use -i 0 to 7",
				    (unsigned long long)n);
		a->tests |= iz_tests[n];
		return 0;
	case 'f':
		if (!*v)
			return fail(a, "-f: needs a file name");
		a->file = v;
		return 0;
	case 'b':
		if (!*v)
			return fail(a, "-b: needs a file name");
		a->xls = v;
		return 0;
	case 'j':
		if (iz_u64(v, &n, 1000000) < 0 || !n)
			return fail(a, "-j: '%s' is not a stride in records (1 to 1000000)", v);
		a->o.stride = (unsigned)n;
		return 0;
	case 'n':
	case 'g':
	case 'y':
	case 'q': {
		uint64_t *dst = o[0] == 'n'   ? &a->min_file
				: o[0] == 'g' ? &a->max_file
				: o[0] == 'y' ? &a->min_rec
					      : &a->max_rec;
		if (iz_size(v, dst) < 0)
			return fail(a, "-%s: '%s' is not a size (KiB, or with k, m or g)", o, v);
		const unsigned long long k = *dst >> 10;
		if (o[0] == 'n')
			note(a, "\tUsing minimum file size of %llu kilobytes.\n", k);
		else if (o[0] == 'g')
			note(a, "\tUsing maximum file size of %llu kilobytes.\n", k);
		else if (o[0] == 'y')
			note(a, "\tUsing Minimum Record Size %llu kB\n", k);
		else
			note(a, "\tUsing Maximum Record Size %llu kB\n", k);
		return 0;
	}
	case 'b' | 0x100: {
		unsigned long long kb, ms;
		char end;
		if (sscanf(v, "%llu,%llu%c", &kb, &ms, &end) != 2 || !kb || kb > (1ull << 40) ||
		    ms > 3600000)
			return fail(a,
				    "-+b: '%s' is not KB,MSEC (burst size in KiB, sleep in ms, "
				    "example: 400000,30000)",
				    v);
		a->o.burst_bytes = kb << 10;
		a->o.burst_idle_ns = ms * 1000000ull;
		return 0;
	}
	}
	return fail(a, "-%s: not handled", o);
}

static int set_flag(struct sb_iozone_args *a, const char *o)
{
	switch (o[0] == '+' ? o[1] | 0x100 : o[0]) {
	case 'a':
		a->auto_mode = 1;
		note(a, "\tAuto Mode\n");
		return 0;
	case 'A':
		a->auto_mode = a->all_records = 1;
		note(a, "\tAuto Mode 2. This option is obsolete. Use -az -i0 -i1 \n");
		return 0;
	case 'z':
		a->all_records = 1;
		note(a, "\tCross over of record size disabled.\n");
		return 0;
	case 'e':
		a->o.flush = 1;
		note(a, "\tInclude fsync in write timing\n");
		return 0;
	case 'c':
		a->o.close = 1;
		note(a, "\tInclude close in write timing\n");
		return 0;
	case 'I':
		a->o.direct = 1;
		note(a, "\tO_DIRECT feature enabled\n");
		return 0;
	case 'w':
		a->keep = 1;
		note(a, "\tSetting no_unlink\n");
		return 0;
	case 'R':
		a->excel = 1;
		note(a, "\tExcel chart generation enabled\n");
		return 0;
	case 'O':
		a->ops = 1;
		note(a, "\tOPS Mode. Output is in operations per second.\n");
		return 0;
	case 'n' | 0x100:
		a->no_retest = 1;
		note(a, "\tNo retest option selected\n");
		return 0;
	case 'h': a->help = 1; return 0;
	case 'v': a->version = 1; return 0;
	}
	return fail(a, "-%s: not handled", o);
}

static const struct iz_opt *find(const char *name, size_t len)
{
	for (const struct iz_opt *p = iz_opts; p->name; p++)
		if (strlen(p->name) == len && !strncmp(p->name, name, len))
			return p;
	return NULL;
}

/* One option of the word at w (after '-' or inside a bundle): its value
 * from the rest of the word or the next word. Returns how many argv words
 * were used beyond this one (0 or 1), or -EINVAL. *rest: where the bundle
 * goes on (NULL: the word is done). */
static int one(struct sb_iozone_args *a, const char *w, int argc, char **argv, int i,
	       const char **rest)
{
	/* the option as typed: '+' and a letter, or one character (UTF-8
	 * whole: "-\u00e9", never a lone byte of it) */
	const size_t len = w[0] == '+' && w[1] ? 1 + sb_utf8_char_len(w + 1) : sb_utf8_char_len(w);
	char name[16] = { 0 };
	memcpy(name, w, SB_MIN(len, sizeof(name) - 1));
	const struct iz_opt *p = w[0] == '+' && !w[1] ? NULL : find(w, len);
	*rest = NULL;
	if (!p && w != argv[i] + 1)
		return fail(a, "-%s (in '%s'): unknown iozone option (see storbench iozone --help)",
			    name, argv[i]);
	if (!p)
		return fail(a, "-%s: unknown iozone option (see storbench iozone --help)", name);
	const char *v = NULL;
	int used = 0;
	if (p->kind == IZ_VAL) {
		if (w[len])
			v = w + len;
		else if (i + 1 < argc)
			v = argv[i + 1], used = 1;
		else
			return fail(a, "-%s: needs a value", name);
	} else if (w[len]) {
		*rest = w + len;
	}
	if (p->refused)
		return fail(a, "-%s: %s", name, p->refused);
	const int e = v ? set_value(a, name, v) : set_flag(a, name);
	return e ? e : used;
}

/* The sizes of auto mode from lo to hi, doubling, as iozone's. */
static unsigned pow2_list(uint64_t *out, uint64_t lo, uint64_t hi)
{
	unsigned n = 0;
	for (uint64_t v = lo; v <= hi && n < SB_SWEEP_MAX_SIZES; v *= 2)
		out[n++] = v;
	return n;
}

/* From what was given to the sweep's options. */
static int finish(struct sb_iozone_args *a)
{
	struct sb_sweep_opts *o = &a->o;
	if ((a->min_file || a->max_file || a->min_rec || a->max_rec) && !a->auto_mode)
		return fail(a, "-n, -g, -y, -q: set the ranges of auto mode; add -a");
	if (!o->nfile) {
		if (a->auto_mode) {
			const uint64_t lo = a->min_file ? a->min_file : 64 << 10;
			const uint64_t hi = a->max_file ? a->max_file : 512ull << 20;
			if (lo > hi)
				return fail(a, "-n: the minimum file size is above -g's maximum");
			o->nfile = pow2_list(o->file_sizes, lo, hi);
		} else {
			o->file_sizes[o->nfile++] = 512 << 10; /* iozone's default */
		}
	} else {
		a->all_records = 1; /* iozone drops the crossover with -s */
	}
	if (!o->nrec) {
		if (a->auto_mode && (a->min_rec || a->max_rec)) {
			const uint64_t lo = a->min_rec ? a->min_rec : 4 << 10;
			const uint64_t hi = a->max_rec ? a->max_rec : SB_SWEEP_MAX_RECORD;
			if (lo > hi || hi > SB_SWEEP_MAX_RECORD)
				return fail(a,
					    "-y, -q: record sizes from 4k to 16m, minimum first");
			o->nrec = pow2_list(o->record_sizes, lo, hi);
		} else if (!a->auto_mode) {
			o->record_sizes[o->nrec++] = 4 << 10; /* iozone's default */
		}
	}
	o->all_records = a->all_records;
	o->tests = a->tests ? a->tests : SB_SWEEP_ALL_TESTS;
	if (a->no_retest)
		o->tests &= ~(uint32_t)SB_SWEEP_RETESTS;
	if (!a->file)
		a->file = "iozone.tmp"; /* iozone's default, in the working directory */
	return 0;
}

int sb_iozone_args_parse(struct sb_iozone_args *a, int argc, char **argv)
{
	memset(a, 0, sizeof(*a));
	sb_sweep_opts_default(&a->o);
	a->o.flush = a->o.close = 0; /* iozone: only with -e and -c */
	a->cache_kib = 1024;	     /* iozone's defaults, shown in its header */
	a->line_bytes = 32;
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		if (w[0] != '-' || !w[1])
			return fail(a, "'%s': iozone takes options only (the test file is -f FILE)",
				    w);
		if (w[1] == '-')
			return fail(a,
				    "'%s': not an iozone option (storbench's own flags go before "
				    "iozone's options)",
				    w);
		for (const char *p = w + 1; p;) {
			const char *rest;
			const int used = one(a, p, argc, argv, i, &rest);
			if (used < 0)
				return used;
			i += used;
			p = rest;
		}
	}
	if (a->help || a->version)
		return 0;
	return finish(a);
}
