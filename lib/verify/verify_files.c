/*
 * The files of a verify target: their names, opening what exists without
 * following a symlink, telling storbench's own from a user's by what they
 * hold, and using and removing what this run created through the
 * descriptors it holds (lib/verify/verify_target.h).
 */
#include "lib/verify/verify_int.h"
#include "lib/verify/verify_target.h"
#include "lib/job/buffer.h"
#include "lib/target/hold.h"
#include "lib/target/scratch.h"

#include <fcntl.h>
#include <stdarg.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int sb_vfail(char *msg, size_t ml, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, ml, fmt, ap);
	va_end(ap);
	return err;
}

int sb_vseg_add(struct sb_vtarget *t, const char *path, uint64_t base, uint64_t off, uint64_t size,
		char *msg, size_t ml)
{
	struct sb_vseg *s = realloc(t->seg, (t->nseg + 1) * sizeof(*s));
	if (!s)
		return sb_vfail(msg, ml, -ENOMEM, "out of memory");
	t->seg = s;
	s += t->nseg;
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->path = strdup(path);
	if (!s->path)
		return sb_vfail(msg, ml, -ENOMEM, "out of memory");
	s->base = base;
	s->offset = off;
	s->size = size;
	t->nseg++;
	return 0;
}

int sb_vname(char *buf, size_t len, const char *dir, const char *run, unsigned k)
{
	const int n = snprintf(buf, len, "%s/" SB_VNAME_PREFIX "%s%s%u" SB_VNAME_SUFFIX, dir, run,
			       run[0] ? "-" : "", k);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int sb_vopen_regular(const char *path, int write)
{
	struct stat st;
	const int fd = open(path,
			    (write ? O_RDWR : O_RDONLY) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	const int e = fstat(fd, &st) < 0 ? -errno : !S_ISREG(st.st_mode) ? -EINVAL : 0;
	if (e) {
		close(fd);
		return e;
	}
	/* a regular file: back to blocking I/O */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int sb_vtarget_open(const struct sb_vtarget *t, unsigned i, int write)
{
	const int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC | (t->direct ? O_DIRECT : 0);
	const struct sb_vseg *s = &t->seg[i];
	/* a file is used through what was opened once, never its name again */
	if (s->fd >= 0)
		return sb_scratch_reopen(s->fd, flags);
	if (!t->is_blockdev)
		return -ENOENT;
	/* a device is written through what the write gate gave (held as the
	 * segment's fd), never through its name */
	if (write)
		return -EPERM;
	const int fd = open(s->path, flags);
	return fd < 0 ? -errno : fd;
}

int sb_vseg_create(struct sb_vseg *s, char *msg, size_t ml)
{
	const int fd = sb_scratch_create_path(s->path, O_RDWR);
	long who = fd == -EEXIST ? sb_hold_path(s->path) : 0;
	if (who > 0) { /* made meanwhile by a run that is using it */
		sb_hold_why(msg, ml, s->path, who);
		return -EBUSY;
	}
	if (fd < 0)
		return sb_vfail(msg, ml, fd, "cannot create '%s': %s", s->path, strerror(-fd));
	/* held before it is marked or written, then marked: another run that
	 * opens it finds it held, or unmarked and empty, and goes */
	int e = sb_hold_new(fd, &who);
	if (!e)
		e = sb_file_mark(fd);
	if (e) {
		sb_scratch_remove(s->path, fd);
		close(fd);
		if (e == -EBUSY)
			sb_hold_why(msg, ml, s->path, who);
		else
			sb_vfail(msg, ml, e, "cannot create '%s': %s", s->path, strerror(-e));
		return e;
	}
	s->fd = fd;
	s->created = 1;
	return 0;
}

void sb_vseg_drop(struct sb_vseg *s)
{
	sb_scratch_remove(s->path, s->fd);
	close(s->fd);
	s->fd = -1;
	s->created = 0;
}

int sb_vtarget_remove(struct sb_vtarget *t, unsigned i)
{
	struct sb_vseg *s = &t->seg[i];
	int e = 0;
	if (!s->created)
		return 0;
	e = sb_scratch_remove(s->path, s->fd);
	close(s->fd);
	s->fd = -1;
	s->created = s->retired = 0;
	return e;
}

int sb_vtarget_retire(struct sb_vtarget *t, unsigned i)
{
	if (t->is_dir || !t->seg[i].created)
		return sb_vtarget_remove(t, i);
	t->seg[i].retired = 1;
	return 0;
}

/* The warning a person is owed when removing segment i came to e. */
static int said(const struct sb_vtarget *t, unsigned i, int e, char *msg, size_t ml)
{
	msg[0] = '\0';
	if (e == -ESTALE)
		snprintf(msg, ml,
			 "did not remove '%s': the name no longer names the file storbench "
			 "created there",
			 t->seg[i].path);
	else if (e < 0 && e != -ENOENT)
		snprintf(msg, ml, "could not remove '%s': %s", t->seg[i].path, strerror(-e));
	return e;
}

int sb_vtarget_retire_said(struct sb_vtarget *t, unsigned i, char *msg, size_t ml)
{
	return said(t, i, sb_vtarget_retire(t, i), msg, ml);
}

int sb_vtarget_remove_said(struct sb_vtarget *t, unsigned i, char *msg, size_t ml)
{
	return said(t, i, sb_vtarget_remove(t, i), msg, ml);
}

void sb_vtarget_free(struct sb_vtarget *t)
{
	for (unsigned i = 0; i < t->nseg; i++) {
		if (t->seg[i].fd >= 0)
			close(t->seg[i].fd);
		free(t->seg[i].path);
	}
	free(t->seg);
	t->seg = NULL;
	t->nseg = 0;
	if (t->dir_fd)
		close(t->dir_fd - 1); /* and its lock with it */
	t->dir_fd = 0;
}
