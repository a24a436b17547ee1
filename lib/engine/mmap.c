/*
 * mmap: fio's engine of that name. The file (or device) is mapped shared,
 * a window at a time, and a read or write is a memcpy from or into the
 * mapping; a sync is an msync(MS_SYNC) of the window, then fsync (or
 * fdatasync) for what earlier windows left dirty; a trim as psync's. With
 * O_DIRECT, as fio: each read or write is msync'ed and its pages dropped
 * (POSIX_MADV_DONTNEED) after the copy, not really direct. Writes are
 * mapped only where the descriptor may write; nothing past the file's end
 * is touched (a read there is short, as pread's).
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MM_WINDOW (64ull << 20) /* mapped at a time: fio maps up to the file's size */

struct mm {
	int fd; /* the descriptor the window maps */
	char *map;
	uint64_t off, len; /* the window: [off, off + len) of the file */
	uint64_t size;	   /* the file's size when mapped */
	int direct, writable;
};

static int mm_init(struct sb_engine *e)
{
	if (e->fd < 0)
		return -EBADF;
	struct mm *m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->fd = -1;
	e->priv = m;
	return 0;
}

static void mm_unmap(struct mm *m)
{
	if (m->map)
		munmap(m->map, m->len);
	m->map = NULL;
	m->fd = -1;
}

static int64_t fd_size(int fd)
{
	struct stat st;
	uint64_t sz;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, &sz) < 0 ? -errno : (int64_t)sz;
	return st.st_size;
}

/* The window that holds [offset, offset + len) of e->fd, or as much of it
 * as the file has: the bytes mapped from offset (0 at or past its end), or
 * -errno. */
static int64_t mm_map(struct sb_engine *e, struct mm *m, uint64_t offset, uint32_t len, int write)
{
	if (m->map && m->fd == e->fd && offset >= m->off && offset + len <= m->off + m->len)
		return len;
	mm_unmap(m);
	const int fl = fcntl(e->fd, F_GETFL);
	if (fl < 0)
		return -errno;
	if (write && (fl & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	const int64_t size = fd_size(e->fd);
	if (size < 0)
		return size;
	if (offset >= (uint64_t)size)
		return 0;
	const uint64_t start = offset - offset % MM_WINDOW;
	uint64_t end = SB_MAX(start + MM_WINDOW, offset + len);
	if (end > (uint64_t)size)
		end = (uint64_t)size;
	const int prot = PROT_READ | ((fl & O_ACCMODE) != O_RDONLY ? PROT_WRITE : 0);
	void *p = mmap(NULL, end - start, prot, MAP_SHARED, e->fd, (off_t)start);
	if (p == MAP_FAILED)
		return -errno;
	m->map = p;
	m->fd = e->fd;
	m->off = start;
	m->len = end - start;
	m->direct = !!(fl & O_DIRECT);
	m->writable = !!(prot & PROT_WRITE);
	return SB_MIN((uint64_t)len, end - offset);
}

static int64_t mm_rw(struct sb_engine *e, struct mm *m, struct sb_io *io)
{
	const int64_t n = mm_map(e, m, io->offset, io->len, io->ddir == SB_DDIR_WRITE);
	if (n <= 0)
		return n;
	char *at = m->map + (io->offset - m->off);
	if (io->ddir == SB_DDIR_WRITE && !m->writable)
		return -EBADF;
	if (io->ddir == SB_DDIR_READ)
		memcpy(io->buf, at, (size_t)n);
	else
		memcpy(at, io->buf, (size_t)n);
	if (m->direct) { /* fio's "not really direct": written back and dropped */
		const uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
		char *lo = (char *)((uintptr_t)at & ~(pg - 1));
		const size_t span = (size_t)(at + n - lo);
		if (msync(lo, span, MS_SYNC) < 0 || posix_madvise(lo, span, POSIX_MADV_DONTNEED))
			return -errno;
	}
	return n;
}

static int mm_queue(struct sb_engine *e, struct sb_io *io)
{
	struct mm *m = e->priv;
	switch (io->ddir) {
	case SB_DDIR_READ:
	case SB_DDIR_WRITE: io->res = mm_rw(e, m, io); break;
	case SB_DDIR_SYNC:
	case SB_DDIR_DATASYNC:
		if (m->map && m->fd == e->fd && msync(m->map, m->len, MS_SYNC) < 0) {
			io->res = -errno;
			break;
		}
		sb_engine_do_sync(e, io);
		break;
	default: sb_engine_do_sync(e, io); break;
	}
	return SB_Q_DONE;
}

static void mm_cleanup(struct sb_engine *e)
{
	struct mm *m = e->priv;
	if (!m)
		return;
	mm_unmap(m);
	free(m);
}

const struct sb_engine_ops sb_engine_mmap = {
	.name = "mmap",
	.desc = "fio's mmap: a memcpy from or into the file mapped shared",
	.flags = SB_ENGINE_SYNC,
	.available = sb_fileop_available,
	.init = mm_init,
	.queue = mm_queue,
	.commit = sb_fileop_commit,
	.getevents = sb_fileop_getevents,
	.event = sb_fileop_event,
	.cleanup = mm_cleanup,
};
