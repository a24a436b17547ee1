/* Output files written whole or not at all (see outfile.h). */
#include "lib/base/outfile.h"

#include <fcntl.h>
#include <libgen.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes through the descriptor, keeping the first error with its errno
 * (stdio would keep only a flag, and fclose's errno is not the write's). */
static ssize_t cookie_write(void *cookie, const char *buf, size_t n)
{
	struct sb_outfile *o = cookie;
	size_t done = 0;
	while (done < n) {
		ssize_t w = write(o->fd, buf + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!o->err)
				o->err = w < 0 ? -errno : -EIO;
			return -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)n;
}

static int cookie_close(void *cookie)
{
	(void)cookie; /* the descriptor is closed after fsync, by its owner */
	return 0;
}

static int attach(struct sb_outfile *o)
{
	cookie_io_functions_t io = { .write = cookie_write, .close = cookie_close };
	o->f = fopencookie(o, "w", io);
	return o->f ? 0 : -ENOMEM;
}

static void init(struct sb_outfile *o)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

/* An existing node that is not a regular file (/dev/null, a FIFO, a
 * terminal) is written in place: renaming over it would replace it. A block
 * device never: results written over the start of a disk would destroy what
 * it holds (-EPERM; the caller names the reason). */
static int open_special(struct sb_outfile *o)
{
	struct stat st;
	if (stat(o->path, &st) < 0 || S_ISREG(st.st_mode))
		return 1;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (S_ISBLK(st.st_mode))
		return -EPERM;
	o->fd = open(o->path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (o->fd < 0)
		return -errno;
	int e = attach(o);
	if (e < 0) {
		close(o->fd);
		o->fd = -1;
	}
	return e;
}

void sb_outfile_stream(struct sb_outfile *o, FILE *f)
{
	init(o);
	o->f = f;
	o->borrowed = 1;
}

int sb_outfile_open(struct sb_outfile *o, const char *path)
{
	init(o);
	if (!path || !*path)
		return -ENOENT;
	if (snprintf(o->path, sizeof(o->path), "%s", path) >= (int)sizeof(o->path))
		return -ENAMETOOLONG;
	int e = open_special(o);
	if (e <= 0)
		return e;
	/* the name needs no secrecy (O_EXCL|O_NOFOLLOW neither follows nor
	 * reuses anything), only to differ from a stale one: retry on EEXIST */
	for (unsigned i = 0; i < 64; i++) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		unsigned long r = (unsigned long)ts.tv_nsec ^ ((unsigned long)ts.tv_sec << 20) ^
				  ((unsigned long)i * 0x9e3779b9ul);
		if (snprintf(o->tmp, sizeof(o->tmp), "%s.tmp-%d-%06lx", o->path, (int)getpid(),
			     r & 0xfffffful) >= (int)sizeof(o->tmp))
			return -ENAMETOOLONG;
		o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (o->fd >= 0)
			break;
		if (errno != EEXIST) {
			e = -errno;
			o->tmp[0] = '\0';
			return e;
		}
	}
	if (o->fd < 0) {
		o->tmp[0] = '\0';
		return -EEXIST;
	}
	if ((e = attach(o)) < 0)
		sb_outfile_abort(o);
	return e;
}

static void sync_dir(const char *path)
{
	char copy[4096];
	snprintf(copy, sizeof(copy), "%s", path);
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd); /* the rename is done; a directory that cannot sync is no error */
		close(fd);
	}
}

int sb_outfile_commit(struct sb_outfile *o)
{
	if (o->borrowed) {
		int e = fflush(o->f) == 0 && !ferror(o->f) ? 0 : -(errno ? errno : EIO);
		o->f = NULL;
		return e;
	}
	if (!o->f)
		return -EBADF;
	if (fflush(o->f) != 0 && !o->err)
		o->err = -EIO;
	fclose(o->f);
	o->f = NULL;
	int e = o->err;
	/* EINVAL: a node that cannot sync (a FIFO, /dev/null) */
	if (!e && fsync(o->fd) < 0 && errno != EINVAL)
		e = -errno;
	if (close(o->fd) < 0 && !e && errno != EINTR)
		e = -errno;
	o->fd = -1;
	if (!o->tmp[0])
		return e;
	if (!e && rename(o->tmp, o->path) < 0)
		e = -errno;
	if (e < 0) {
		unlink(o->tmp);
	} else {
		sync_dir(o->path);
	}
	o->tmp[0] = '\0';
	return e;
}

void sb_outfile_abort(struct sb_outfile *o)
{
	if (o->f && !o->borrowed)
		fclose(o->f);
	o->f = NULL;
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}

int sb_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		const ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
