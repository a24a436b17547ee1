/*
 * splice: fio's engine of that name. A read splices the file's range into
 * a pipe and reads the pipe into the buffer; a write vmsplices the buffer
 * into the pipe and splices the pipe into the file, a pipe's worth at a
 * time (64 KiB, fio's). Syncs and trims as psync's. A read at the end of
 * the file is short, as pread's; after a failure midway the pipe is made
 * anew, nothing of one request left in it for the next.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#define SP_CHUNK 65536u /* a pipe's default capacity */

static int sp_pipe(struct sb_engine *e)
{
	int *p = e->priv;
	if (p[0] >= 0)
		close(p[0]), close(p[1]);
	p[0] = p[1] = -1;
	return pipe2(p, O_CLOEXEC) < 0 ? -errno : 0;
}

static int sp_init(struct sb_engine *e)
{
	if (e->fd < 0)
		return -EBADF;
	int *p = malloc(2 * sizeof(*p));
	if (!p)
		return -ENOMEM;
	p[0] = p[1] = -1;
	e->priv = p;
	const int r = sp_pipe(e);
	if (r < 0) {
		free(p);
		e->priv = NULL;
	}
	return r;
}

/* one chunk of len bytes at off through the pipe: the bytes moved (0: the
 * file's end), or -errno */
static ssize_t sp_chunk(struct sb_engine *e, int rd, char *buf, size_t len, loff_t off)
{
	const int *p = e->priv;
	size_t in = 0, out = 0;
	if (rd) {
		ssize_t r;
		while ((r = splice(e->fd, &off, p[1], NULL, len, SPLICE_F_MORE)) < 0 &&
		       (errno == EINTR || errno == EAGAIN))
			;
		if (r <= 0)
			return r < 0 ? -errno : 0;
		for (in = (size_t)r; out < in;) {
			const ssize_t n = read(p[0], buf + out, in - out);
			if (n <= 0)
				return n < 0 && errno != EINTR ? -errno : n == 0 ? -EIO : 0;
			out += (size_t)n;
		}
		return (ssize_t)out;
	}
	while (in < len) {
		struct iovec iov = { buf + in, len - in };
		const ssize_t r = vmsplice(p[1], &iov, 1, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		in += (size_t)r;
	}
	while (out < in) {
		const ssize_t r = splice(p[0], NULL, e->fd, &off, in - out, SPLICE_F_MORE);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		out += (size_t)r;
	}
	return (ssize_t)out;
}

static int64_t sp_rw(struct sb_engine *e, struct sb_io *io)
{
	const int rd = io->ddir == SB_DDIR_READ;
	uint32_t done = 0;
	while (done < io->len) {
		const size_t len = SB_MIN((size_t)(io->len - done), (size_t)SP_CHUNK);
		const ssize_t r = sp_chunk(e, rd, (char *)io->buf + done, len,
					   (loff_t)(io->offset + done));
		if (r < 0 || (size_t)r < len) {
			if (r < 0 || !rd)
				sp_pipe(e); /* whatever is left in it is not the next one's */
			if (r < 0)
				return done ? (int64_t)done : r;
			return done + (uint32_t)r;
		}
		done += (uint32_t)r;
	}
	return done;
}

static int sp_queue(struct sb_engine *e, struct sb_io *io)
{
	if (io->ddir == SB_DDIR_READ || io->ddir == SB_DDIR_WRITE)
		io->res = sp_rw(e, io);
	else
		sb_engine_do_sync(e, io);
	return SB_Q_DONE;
}

static void sp_cleanup(struct sb_engine *e)
{
	int *p = e->priv;
	if (!p)
		return;
	if (p[0] >= 0)
		close(p[0]), close(p[1]);
	free(p);
}

const struct sb_engine_ops sb_engine_splice = {
	.name = "splice",
	.desc = "fio's splice: the file to or from a pipe, the pipe to or from the buffer",
	.flags = SB_ENGINE_SYNC,
	.available = sb_fileop_available,
	.init = sp_init,
	.queue = sp_queue,
	.commit = sb_fileop_commit,
	.getevents = sb_fileop_getevents,
	.event = sb_fileop_event,
	.cleanup = sp_cleanup,
};
