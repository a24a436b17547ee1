/* fio's I/O logs read for replay, as fio 3.33's read_iolog reads them. */
#include "lib/job/iolog.h"

#include <stdarg.h>

#define IOLOG_LINE 4096 /* fio reads a line into 4096 bytes */
#define IOLOG_FIELDS 6	/* one more than a line has, to find extra ones */

static const char ver2[] = "fio version 2 iolog";
static const char ver3[] = "fio version 3 iolog";

static int fail(char *msg, size_t msglen, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(char *msg, size_t msglen, unsigned line, const char *fmt, ...)
{
	va_list ap;
	if (!msg || !msglen)
		return -EINVAL;
	int n = snprintf(msg, msglen, "line %u: ", line);
	if (n >= 0 && (size_t)n < msglen) {
		va_start(ap, fmt);
		vsnprintf(msg + n, msglen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A whole decimal number, nothing else (fio's %llu, without its sign) */
static int number(const char *s, uint64_t *v)
{
	uint64_t n = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || n > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		n = n * 10 + (uint64_t)(*s - '0');
	}
	*v = n;
	return 0;
}

/* Cut line (NUL-ended, changed) into blank-separated fields. */
static unsigned split(char *line, char **f)
{
	unsigned n = 0;
	for (char *p = line; *p && n < IOLOG_FIELDS;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			*p++ = 0;
		if (!*p)
			break;
		f[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
	}
	return n;
}

static int add(struct sb_iolog *l, const struct sb_iolog_entry *e)
{
	if (l->n == l->cap) {
		const size_t cap = l->cap ? l->cap * 2 : 256;
		struct sb_iolog_entry *ne = realloc(l->e, cap * sizeof(*ne));
		if (!ne)
			return -ENOMEM;
		l->e = ne;
		l->cap = cap;
	}
	l->e[l->n++] = *e;
	return 0;
}

static int ddir_of(const char *act)
{
	static const char *const names[] = { "read", "write", "trim", "sync", "datasync" };
	for (int d = 0; d < (int)SB_ARRAY_SIZE(names); d++)
		if (!strcmp(act, names[d]))
			return d;
	return -1;
}

/* One request line's fields after the time: FILE ACT OFFSET LENGTH. */
static int request(struct sb_iolog *l, char **f, uint64_t t_us, int one_file, uint64_t scale,
		   uint64_t align, unsigned ln, char *msg, size_t msglen)
{
	struct sb_iolog_entry e = { .t_us = t_us };
	uint64_t off, len;
	if (number(f[2], &off) < 0 || number(f[3], &len) < 0 || len > UINT32_MAX)
		return fail(msg, msglen, ln, "'%.64s %.64s': offset and length are not numbers",
			    f[2], f[3]);
	if (!strcmp(f[1], "wait")) {
		if (l->version == 3) /* fio ignores it in version 3 */
			return 0;
		e.wait = 1;
		e.t_us = off > UINT64_MAX / 1000 ? UINT64_MAX : off * 1000; /* ms */
		return add(l, &e);
	}
	const int d = ddir_of(f[1]);
	if (d < 0)
		return fail(msg, msglen, ln,
			    "'%.64s' is not a request fio logs (read, write, trim, "
			    "sync, datasync)",
			    f[1]);
	if (!l->n || !l->file[0])
		snprintf(l->file, sizeof(l->file), "%s", f[0]);
	else if (one_file && strcmp(l->file, f[0]))
		return fail(msg, msglen, ln,
			    "a second file ('%.64s' after '%.64s'): storbench replays a log on one "
			    "file (replay_redirect= names it)",
			    f[0], l->file);
	if (scale > 1)
		off /= scale;
	if (align)
		off -= off % align;
	e.ddir = (uint8_t)d;
	if (d <= SB_DDIR_TRIM) {
		if (!len)
			return fail(msg, msglen, ln, "a %s of 0 bytes", f[1]);
		if (off > UINT64_MAX - len)
			return fail(msg, msglen, ln, "offset %llu + length %llu is too large",
				    (unsigned long long)off, (unsigned long long)len);
		e.offset = off;
		e.len = (uint32_t)len;
		l->end = SB_MAX(l->end, off + len);
		l->bytes += len;
		if (d != SB_DDIR_TRIM)
			l->max_len = SB_MAX(l->max_len, e.len);
	}
	l->reads += d == SB_DDIR_READ;
	l->writes += d == SB_DDIR_WRITE;
	l->trims += d == SB_DDIR_TRIM;
	l->syncs += d > SB_DDIR_TRIM;
	return add(l, &e);
}

static int one_line(struct sb_iolog *l, char *line, int one_file, uint64_t scale, uint64_t align,
		    unsigned ln, char *msg, size_t msglen)
{
	char *f[IOLOG_FIELDS];
	unsigned n = split(line, f);
	uint64_t t_us = 0;
	if (!n)
		return 0;
	if (l->version == 3) {
		if (number(f[0], &t_us) < 0)
			return fail(msg, msglen, ln, "'%.64s' is not a time in microseconds", f[0]);
		memmove(f, f + 1, (n - 1) * sizeof(*f));
		n--;
	}
	if (n == 2) {
		if (strcmp(f[1], "add") && strcmp(f[1], "open") && strcmp(f[1], "close"))
			return fail(msg, msglen, ln,
				    "'%.64s' is not a file action fio logs (add, open, close)",
				    f[1]);
		return 0; /* one file, open for the whole replay */
	}
	if (n != 4)
		return fail(msg, msglen, ln,
			    "not a line of fio's version %d iolog (%sFILE ACTION [OFFSET LENGTH])",
			    l->version, l->version == 3 ? "TIME " : "");
	return request(l, f, t_us, one_file, scale, align, ln, msg, msglen);
}

int sb_iolog_parse(const char *text, size_t len, int one_file, uint64_t scale, uint64_t align,
		   struct sb_iolog *l, char *msg, size_t msglen)
{
	char line[IOLOG_LINE + 1];
	unsigned ln = 0;
	memset(l, 0, sizeof(*l));
	l->time_scale = 100;
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		const size_t end = nl ? (size_t)(nl - text) : len;
		const size_t n = end - pos;
		ln++;
		if (n > IOLOG_LINE || memchr(text + pos, 0, n)) {
			sb_iolog_free(l);
			return fail(msg, msglen, ln, "not a line of text of at most %u bytes",
				    IOLOG_LINE);
		}
		memcpy(line, text + pos, n);
		line[n] = 0;
		pos = end + 1;
		int r = 0;
		if (ln == 1) {
			if (!strncmp(line, ver2, sizeof(ver2) - 1))
				l->version = 2;
			else if (!strncmp(line, ver3, sizeof(ver3) - 1))
				l->version = 3;
			else
				r = fail(msg, msglen, ln,
					 "not fio's iolog version 2 or 3 ('%s' or '%s' first)",
					 ver2, ver3);
		} else {
			r = one_line(l, line, one_file, scale, align, ln, msg, msglen);
		}
		if (r < 0) {
			sb_iolog_free(l);
			return r;
		}
	}
	if (!l->version) {
		sb_iolog_free(l);
		return fail(msg, msglen, 1, "empty: not fio's iolog");
	}
	if (!l->reads && !l->writes && !l->trims) {
		sb_iolog_free(l);
		return fail(msg, msglen, ln, "no read, write or trim to replay");
	}
	return 0;
}

void sb_iolog_free(struct sb_iolog *l)
{
	if (!l)
		return;
	free(l->e);
	l->e = NULL;
	l->n = l->cap = 0;
}
