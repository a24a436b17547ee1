/*
 * The synchronous I/O path shared by the engines: psync does everything
 * here; io_uring and libaio do trim and, for libaio, fsync here.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

/*
 * pread/pwrite until len bytes moved. A 0-byte read (EOF) ends the loop with
 * a short count. An error after some progress also returns the bytes done,
 * as the kernel does for a partial transfer: with O_DIRECT the retry at an
 * unaligned offset would fail with EINVAL and hide the short I/O.
 */
static int64_t rw_full(int fd, const struct sb_io *io)
{
	char *buf = io->buf;
	uint32_t done = 0;

	while (done < io->len) {
		const size_t left = io->len - done;
		const off_t off = (off_t)(io->offset + done);
		const ssize_t r = io->ddir == SB_DDIR_READ ? pread(fd, buf + done, left, off)
							   : pwrite(fd, buf + done, left, off);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return done ? (int64_t)done : -errno;
		}
		if (r == 0)
			break;
		done += (uint32_t)r;
	}
	return done;
}

static int64_t trim(const struct sb_engine *e, const struct sb_io *io)
{
	int r;

	if (e->is_blockdev) {
		uint64_t range[2] = { io->offset, io->len };
		r = ioctl(e->fd, BLKDISCARD, range);
	} else {
		r = fallocate(e->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)io->offset,
			      (off_t)io->len);
	}
	return r < 0 ? -errno : (int64_t)io->len;
}

void sb_engine_do_sync(struct sb_engine *e, struct sb_io *io)
{
	switch (io->ddir) {
	case SB_DDIR_READ:
	case SB_DDIR_WRITE: io->res = rw_full(e->fd, io); break;
	case SB_DDIR_SYNC: io->res = fsync(e->fd) < 0 ? -errno : 0; break;
	case SB_DDIR_DATASYNC: io->res = fdatasync(e->fd) < 0 ? -errno : 0; break;
	case SB_DDIR_TRIM: io->res = trim(e, io); break;
	default: io->res = -EINVAL; break;
	}
}
