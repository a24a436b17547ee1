/*
 * bonnie++'s command line (bonnie++ 2.00a, its getopt string and
 * man bonnie++(8)) turned into storbench meta's options. Options are single
 * letters, flags may be grouped (-qb), an argument follows its letter or
 * the next word (-s64, -s 64), -f's optional size only attached (-f20), as
 * getopt takes them. Sizes are MiB where bonnie++ takes MiB (-s, -f, -r).
 *
 * What meta cannot do is refused here, naming the option and what to use
 * instead, before anything runs; the values meta checks are checked here
 * too so that a message names bonnie++'s option, not meta's.
 */
#include "lib/meta/meta.h"
#include "lib/base/units.h"

#include <stdarg.h>
#include <unistd.h>

#define MIB (1ull << 20)

struct bparse {
	struct sb_bonnie_args *a;
	size_t used; /* bytes of a->store */
	char *msg;
	size_t msglen;
	uint64_t ram_mib; /* -r */
	int size_given, ram_given;
	int no_size, no_files; /* -s 0, -n 0 */
};

__attribute__((format(printf, 2, 3))) static int bad(struct bparse *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->msg, p->msglen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* One meta option, kept in the store. */
__attribute__((format(printf, 2, 3))) static int add(struct bparse *p, const char *fmt, ...)
{
	struct sb_bonnie_args *a = p->a;
	va_list ap;
	va_start(ap, fmt);
	const int n = vsnprintf(a->store + p->used, sizeof(a->store) - p->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(a->store) - p->used || a->n >= SB_BONNIE_MAX_ARGS - 1)
		return bad(p, "command line too long");
	a->argv[a->n++] = a->store + p->used;
	a->argv[a->n] = NULL;
	p->used += (size_t)n + 1;
	return 0;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* A number of MiB: plain (MiB, as bonnie++) or with a unit, whole MiB. */
static int mib(const char *s, uint64_t *out)
{
	uint64_t v;
	if (all_digits(s)) {
		v = strtoull(s, NULL, 10);
		if (v > (1ull << 40))
			return -EINVAL;
		*out = v;
		return 0;
	}
	if (sb_parse_size(s, &v) < 0 || v % MIB)
		return -EINVAL;
	*out = v / MIB;
	return 0;
}

static int count(const char *s, uint64_t *out, uint64_t max)
{
	if (!all_digits(s) || strlen(s) > 12)
		return -EINVAL;
	*out = strtoull(s, NULL, 10);
	return *out <= max ? 0 : -EINVAL;
}

/* Split v at ':' into at most n fields (empty ones stay ""). */
static int split(const char *v, char f[][32], int n)
{
	int i = 0;
	for (const char *s = v;; i++) {
		const char *c = strchr(s, ':');
		const size_t l = c ? (size_t)(c - s) : strlen(s);
		if (i >= n || l >= 32)
			return -1;
		memcpy(f[i], s, l);
		f[i][l] = '\0';
		if (!c)
			return i + 1;
		s = c + 1;
	}
}

static int pow2_chunk(struct bparse *p, const char *opt, const char *v, const char *meta)
{
	uint64_t c;
	if (sb_parse_size(v, &c) < 0 || c < 256 || c > MIB || (c & (c - 1)))
		return bad(p, "%s: chunk size '%s' is not a power of two from 256 to 1M (e.g. 8k)",
			   opt, v);
	return add(p, "--%s=%llu", meta, (unsigned long long)c);
}

/* -s size(MiB)[:chunk[:seeks[:seekers]]] */
static int opt_s(struct bparse *p, const char *v)
{
	char f[4][32];
	uint64_t size, n;
	const int nf = split(v, f, 4);
	if (nf < 1 || mib(f[0], &size))
		return bad(p,
			   "-s: '%s' is not size(MiB)[:chunk[:seeks[:seekers]]] (e.g. 1024, "
			   "2048:4k)",
			   v);
	p->size_given = 1;
	p->a->size_mib = size;
	p->no_size = !size;
	int e = add(p, "--size=%lluM", (unsigned long long)size);
	if (!e && nf > 1 && f[1][0])
		e = pow2_chunk(p, "-s", f[1], "chunk");
	if (!e && nf > 2 && f[2][0])
		e = count(f[2], &n, 100000000) ? bad(p, "-s: seeks '%s' is not a number", f[2])
					       : add(p, "--seeks=%llu", (unsigned long long)n);
	if (!e && nf > 3 && f[3][0])
		e = count(f[3], &n, 256) || !n
			    ? bad(p, "-s: seekers '%s' is not a number from 1 to 256", f[3])
			    : add(p, "--seekers=%llu", (unsigned long long)n);
	return e;
}

/* -n number(x1024)[:max[:min[:dirs[:chunk]]]] */
static int opt_n(struct bparse *p, const char *v)
{
	char f[5][32];
	uint64_t n, max = 0, min = 0, dirs;
	const int nf = split(v, f, 5);
	if (nf < 1 || count(f[0], &n, 100000))
		return bad(p,
			   "-n: '%s' is not number(x1024)[:max[:min[:dirs[:chunk]]]] (e.g. 16, "
			   "1:4096:0:8)",
			   v);
	if (nf > 1 && f[1][0] == '-')
		return bad(p,
			   "-n: max size %s (hard or symbolic links) is not supported by "
			   "storbench: give a size in bytes (e.g. -n 16:4096)",
			   f[1]);
	if ((nf > 1 && f[1][0] && sb_parse_size(f[1], &max) < 0) ||
	    (nf > 2 && f[2][0] && sb_parse_size(f[2], &min) < 0) || max > (1ull << 30) || min > max)
		return bad(p, "-n: sizes '%s' are not max[:min] in bytes, min <= max <= 1G", v);
	p->no_files = !n;
	int e = add(p, "--files=%llu", (unsigned long long)(n * 1024));
	if (!e && (max || min))
		e = add(p, "--file-size=%llu:%llu", (unsigned long long)min,
			(unsigned long long)max);
	if (!e && nf > 3 && f[3][0]) {
		if (count(f[3], &dirs, 99999) || !dirs || (n && dirs > n * 1024))
			return bad(p,
				   "-n: directories '%s' is not a number from 1 to 99999 (and "
				   "at most the files)",
				   f[3]);
		e = add(p, "--dirs=%llu", (unsigned long long)dirs);
	}
	if (!e && nf > 4 && f[4][0])
		e = pow2_chunk(p, "-n", f[4], "file-chunk");
	return e;
}

static int opt_with_arg(struct bparse *p, char o, const char *v)
{
	struct sb_bonnie_args *a = p->a;
	uint64_t n;
	switch (o) {
	case 'd': a->dir = v; return 0;
	case 's': return opt_s(p, v);
	case 'n': return opt_n(p, v);
	case 'm':
		if (!*v || strlen(v) > 63 || strchr(v, ',') || strchr(v, '\n'))
			return bad(p, "-m: '%s': give 1 to 63 characters without commas", v);
		return add(p, "--name=%s", v);
	case 'r':
		if (mib(v, &n))
			return bad(p, "-r: '%s' is not a RAM size in MiB (e.g. 4096)", v);
		p->ram_mib = n;
		p->ram_given = 1;
		return 0;
	case 'x':
		if (count(v, &n, 100000) || !n)
			return bad(p, "-x: '%s' is not a number of runs from 1 (e.g. 3)", v);
		a->reps = (unsigned)n;
		return 0;
	case 'u': a->user = v; return 0;
	case 'g': a->group = v; return 0;
	case 'z':
		if (count(v, &n, UINT64_MAX / 2) || !n)
			return bad(p, "-z: '%s' is not a seed storbench takes: a number above 0",
				   v);
		return add(p, "--seed=%llu", (unsigned long long)n);
	case 'c':
		if (count(v, &n, 100000) || n != 1)
			return bad(p,
				   "-c: storbench runs one copy of the test, not %s: use "
				   "storbench meta --threads=N to share the file tests among "
				   "N threads",
				   v);
		return 0;
	case 'p':
		return bad(p, "-p: bonnie++'s semaphores for several processes are not supported "
			      "by storbench: run one storbench bonnie, or storbench meta "
			      "--threads=N");
	case 'y':
		return bad(p, "-y: bonnie++'s semaphores for several processes are not supported "
			      "by storbench: run one storbench bonnie, or storbench meta "
			      "--threads=N");
	case 'Z':
		return bad(p, "-Z: storbench makes its own random data: leave -Z out (-z SEED "
			      "repeats a run)");
	}
	return -EINVAL;
}

/* -f alone: no per-char tests; -fSIZE: their size (MiB). */
static int opt_f(struct bparse *p, const char *v)
{
	uint64_t n;
	if (!*v)
		return add(p, "--char-size=0");
	if (mib(v, &n))
		return bad(p, "-f: '%s' is not a size in MiB (attached: -f20)", v);
	return add(p, "--char-size=%lluM", (unsigned long long)n);
}

/* One word starting with '-': its letters, the argument of the last. */
static int word(struct bparse *p, int argc, char *const *argv, int *i)
{
	const char *w = argv[*i];
	for (const char *c = w + 1; *c; c++) {
		switch (*c) {
		case 'q': p->a->quiet = 1; continue;
		case 'b':
			if (add(p, "--fsync"))
				return -EINVAL;
			continue;
		case 'D':
			if (add(p, "--direct"))
				return -EINVAL;
			continue;
		case 'f': return opt_f(p, c + 1);
		case 'h': return 1;
		}
		if (!strchr("dsnmrxugzcpyZ", *c)) /* named whole, as typed: "-\u00e9" */
			return bad(p,
				   "-%.*s%s%s%s: not a bonnie++ option storbench takes (see "
				   "storbench bonnie --help)",
				   (int)sb_utf8_char_len(c), c, c > w + 1 ? " (in '" : "",
				   c > w + 1 ? w : "", c > w + 1 ? "')" : "");
		if (*c == 'y' && !c[1])
			return opt_with_arg(p, 'y', "");
		const char *v = c[1] ? c + 1 : *i + 1 < argc ? argv[++*i] : NULL;
		if (!v)
			return bad(p, "-%c: needs a value", *c);
		return opt_with_arg(p, *c, v);
	}
	return 0;
}

uint64_t sb_bonnie_size(uint64_t ram_mib)
{
	uint64_t s = 2 * ram_mib;
	if (s % 1024 > 512)
		s += 1024 - s % 1024;
	return s;
}

uint64_t sb_bonnie_ram_mib(void)
{
	const long page = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES);
	return page > 0 && pages > 0 ? (uint64_t)page / 1024 * ((uint64_t)pages / 1024) : 0;
}

int sb_bonnie_args(int argc, char *const *argv, struct sb_bonnie_args *a, char *msg, size_t len)
{
	struct bparse p = { .a = a, .msg = msg, .msglen = len };
	memset(a, 0, sizeof(*a));
	a->dir = ".";
	a->reps = 1;
	int e = add(&p, "--per-char=syscall"); /* bonnie++ 1.97 and later */
	if (!e)
		e = add(&p, "--data=bonnie");
	for (int i = 1; !e && i < argc; i++) {
		const char *w = argv[i];
		if (!strcmp(w, "--help"))
			return 1;
		if ((!strncmp(w, "--output=", 9) && w[9]) || !strcmp(w, "--stonewall") ||
		    !strncmp(w, "--per-rank-dir=", 15))
			e = add(&p, "%s", w); /* storbench's own; meta checks them */
		else if (!strcmp(w, "--output="))
			e = bad(&p, "--output: '' is not valid (expected a file name)");
		else if (w[0] != '-' || !w[1] || w[1] == '-')
			e = bad(&p,
				"'%s': not a bonnie++ option (bonnie++ takes -d DIR for the "
				"directory)",
				w);
		else
			e = word(&p, argc, argv, &i);
	}
	if (e)
		return e;
	if (p.no_size && p.no_files)
		return bad(&p, "-n: nothing to do with -n 0 and -s 0");
	a->size_given = p.size_given;
	a->ram_given = p.ram_given;
	a->ram_mib = p.ram_mib;
	if (!p.size_given && p.ram_mib)
		e = add(&p, "--size=%lluM", (unsigned long long)sb_bonnie_size(p.ram_mib));
	if (!e && a->quiet)
		e = add(&p, "--quiet");
	return e ? e : add(&p, "%s", a->dir);
}
