/*
 * Lines of a log, one at a time: the file is read in chunks and only the
 * line being looked at is held, up to a limit; a longer line is skipped to
 * its end and said to be too long. A last line without its newline is a
 * line (has_nl 0): a crash may have cut it.
 */
#include "report/report.h"

#define CHUNK 65536

int rep_lines_open(struct rep_lines *lr, FILE *f, long long start, long long end, unsigned line0,
		   size_t max)
{
	memset(lr, 0, sizeof(*lr));
	lr->f = f;
	lr->off = start;
	lr->end = end;
	lr->lineno = line0 ? line0 - 1 : 0;
	lr->max = max;
	lr->chunk = malloc(CHUNK);
	lr->cap = 4096;
	lr->buf = malloc(lr->cap);
	return lr->chunk && lr->buf ? 0 : -ENOMEM;
}

void rep_lines_close(struct rep_lines *lr)
{
	free(lr->chunk);
	free(lr->buf);
	memset(lr, 0, sizeof(*lr));
}

static int fill(struct rep_lines *lr)
{
	size_t want = CHUNK;
	if (lr->end >= 0 && (long long)want > lr->end - lr->off)
		want = lr->end > lr->off ? (size_t)(lr->end - lr->off) : 0;
	lr->pos = 0;
	lr->fill = want ? fread(lr->chunk, 1, want, lr->f) : 0;
	if (!lr->fill && want && ferror(lr->f))
		return -EIO;
	return 0;
}

static int keep(struct rep_lines *lr, const char *p, size_t n)
{
	if (lr->too_long || n > lr->max - lr->len) {
		lr->too_long = 1;
		return 0;
	}
	if (lr->len + n + 1 > lr->cap) {
		size_t cap = lr->cap;
		while (cap < lr->len + n + 1)
			cap *= 2;
		char *b = realloc(lr->buf, cap);
		if (!b)
			return -ENOMEM;
		lr->buf = b;
		lr->cap = cap;
	}
	memcpy(lr->buf + lr->len, p, n);
	lr->len += n;
	return 0;
}

int rep_lines_next(struct rep_lines *lr)
{
	int any = 0, e;
	lr->len = 0;
	lr->has_nl = lr->too_long = 0;
	for (;;) {
		if (lr->pos == lr->fill) {
			if ((e = fill(lr)) < 0)
				return e;
			if (!lr->fill)
				break;
		}
		const char *p = lr->chunk + lr->pos;
		size_t avail = lr->fill - lr->pos;
		const char *nl = memchr(p, '\n', avail);
		size_t n = nl ? (size_t)(nl - p) : avail;
		any = 1;
		if ((e = keep(lr, p, n)) < 0)
			return e;
		lr->pos += n + (nl != NULL);
		lr->off += (long long)(n + (nl != NULL));
		if (nl) {
			lr->has_nl = 1;
			break;
		}
	}
	if (!any)
		return 0;
	if (lr->too_long)
		lr->len = 0;
	lr->buf[lr->len] = 0;
	lr->lineno++;
	return 1;
}
