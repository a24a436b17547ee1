/* fio's I/O logs, written as fio 3.33's iolog.c writes them (version 3). */
#include "lib/run/iolog_write.h"

#include "lib/base/outfile.h"
#include "lib/target/gate.h"

#include <fcntl.h>
#include <stdarg.h>
#include <unistd.h>

#define IOLOG_BUF (64u << 10)
#define IOLOG_LINE_MAX (4096u + 80u) /* a name and four numbers */

static const char *const ddir_name[] = { "read", "write", "trim", "sync", "datasync" };

struct sb_iolog_w {
	int fd;
	int err;
	uint64_t t0;
	unsigned nfiles;
	char **names;
	size_t len;
	char buf[IOLOG_BUF];
};

static void flush(struct sb_iolog_w *l)
{
	if (!l->err)
		l->err = sb_write_full(l->fd, l->buf, l->len);
	l->len = 0;
}

/* A line: the microseconds since the log began, the file's name, rest */
static void line(struct sb_iolog_w *l, unsigned i, uint64_t now, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void line(struct sb_iolog_w *l, unsigned i, uint64_t now, const char *fmt, ...)
{
	va_list ap;
	if (l->err || i >= l->nfiles)
		return;
	if (sizeof(l->buf) - l->len < IOLOG_LINE_MAX)
		flush(l);
	char *p = l->buf + l->len;
	const size_t room = sizeof(l->buf) - l->len;
	int n = snprintf(p, room, "%llu %s ",
			 (unsigned long long)((now > l->t0 ? now - l->t0 : 0) / 1000u),
			 l->names[i]);
	if (n < 0 || (size_t)n >= room)
		return;
	va_start(ap, fmt);
	const int m = vsnprintf(p + n, room - (size_t)n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)(n + m) >= room)
		return;
	l->len += (size_t)(n + m);
}

int sb_iolog_w_open(struct sb_iolog_w **out, const char *path, int destroy,
		    const char *const *names, unsigned nfiles, uint64_t now)
{
	static const char head[] = "fio version 3 iolog\n";
	*out = NULL;
	struct sb_iolog_w *l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->names = calloc(nfiles ? nfiles : 1, sizeof(*l->names));
	struct sb_error er = { 0 };
	l->fd = sb_gate_log(path, destroy, 0, 0, &er);
	if (l->fd < 0 || !l->names) {
		const int e = l->fd < 0 ? l->fd : -ENOMEM;
		if (l->fd >= 0)
			close(l->fd);
		free(l->names);
		free(l);
		return e;
	}
	l->t0 = now;
	for (unsigned i = 0; i < nfiles; i++) {
		l->names[i] = strdup(names[i]);
		if (!l->names[i]) {
			l->nfiles = i;
			sb_iolog_w_close(l);
			return -ENOMEM;
		}
	}
	l->nfiles = nfiles;
	memcpy(l->buf, head, sizeof(head) - 1);
	l->len = sizeof(head) - 1;
	for (unsigned i = 0; i < nfiles; i++)
		line(l, i, now, "add\n");
	*out = l;
	return 0;
}

void sb_iolog_w_file(struct sb_iolog_w *l, unsigned i, const char *what, uint64_t now)
{
	line(l, i, now, "%s\n", what);
}

void sb_iolog_w_io(struct sb_iolog_w *l, unsigned i, int ddir, uint64_t offset, uint32_t len,
		   uint64_t now)
{
	if (ddir < 0 || (size_t)ddir >= SB_ARRAY_SIZE(ddir_name))
		return;
	line(l, i, now, "%s %llu %u\n", ddir_name[ddir], (unsigned long long)offset, len);
}

int sb_iolog_w_close(struct sb_iolog_w *l)
{
	if (!l)
		return 0;
	flush(l);
	int e = l->err;
	if (close(l->fd) < 0 && !e)
		e = -errno;
	for (unsigned i = 0; i < l->nfiles; i++)
		free(l->names[i]);
	free(l->names);
	free(l);
	return e;
}
