/*
 * vsync: fio's engine of that name. Requests queue into one vector while
 * each starts where the last ended (same file, same direction); commit,
 * or a request that does not follow, moves the vector with one preadv or
 * pwritev, fio's merge. Every request is still counted on its own; a
 * short transfer is shared out in order, the rest of the vector short.
 * Syncs and trims are done inline (queued requests first), as psync's.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <stdlib.h>
#include <limits.h>
#include <sys/uio.h>
#include <unistd.h>

struct vs {
	struct sb_io **q; /* queued, in offset order */
	struct iovec *iov;
	unsigned nq;
	int fd;		     /* the file of the queued ones */
	uint64_t next;	     /* where the next request must start to join */
	struct sb_io **done; /* moved, not yet reaped */
	unsigned ndone;
	struct sb_io **ev; /* the last getevents' */
};

static int vs_init(struct sb_engine *e)
{
	if (e->fd < 0)
		return -EBADF;
	struct vs *v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	v->q = calloc(e->depth, sizeof(*v->q));
	v->iov = calloc(e->depth, sizeof(*v->iov));
	v->done = calloc(e->depth, sizeof(*v->done));
	v->ev = calloc(e->depth, sizeof(*v->ev));
	if (!v->q || !v->iov || !v->done || !v->ev) {
		free(v->q), free(v->iov), free(v->done), free(v->ev), free(v);
		return -ENOMEM;
	}
	e->priv = v;
	e->sync = e->depth == 1; /* one at a time: nothing to merge, done in queue() */
	return 0;
}

/* Move the queued vector with one call (more where it comes back short of
 * a whole request), each request's result set, and mark them done. */
static void vs_flush(struct vs *v)
{
	if (!v->nq)
		return;
	const int rd = v->q[0]->ddir == SB_DDIR_READ;
	uint64_t off = v->q[0]->offset;
	unsigned i = 0;	   /* the first request not whole yet */
	uint32_t part = 0; /* its bytes moved */
	for (unsigned k = 0; k < v->nq; k++)
		v->iov[k] = (struct iovec){ v->q[k]->buf, v->q[k]->len };
	while (i < v->nq) {
		struct iovec *iov = &v->iov[i];
		iov->iov_base = (char *)v->q[i]->buf + part;
		iov->iov_len = v->q[i]->len - part;
		const ssize_t r = rd ? preadv(v->fd, iov, (int)(v->nq - i), (off_t)off)
				     : pwritev(v->fd, iov, (int)(v->nq - i), (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) { /* the rest: what it moved, else the error (0: EOF) */
			const int64_t err = r < 0 ? -errno : 0;
			for (; i < v->nq; i++, part = 0)
				v->q[i]->res = part ? (int64_t)part : err;
			break;
		}
		off += (uint64_t)r;
		for (uint64_t left = (uint64_t)r; left && i < v->nq;) {
			const uint32_t want = v->q[i]->len - part;
			if (left < want) {
				part += (uint32_t)left;
				break;
			}
			left -= want;
			v->q[i]->res = v->q[i]->len;
			i++;
			part = 0;
		}
	}
	for (i = 0; i < v->nq; i++)
		v->done[v->ndone++] = v->q[i];
	v->nq = 0;
}

static int vs_queue(struct sb_engine *e, struct sb_io *io)
{
	struct vs *v = e->priv;
	if (io->ddir != SB_DDIR_READ && io->ddir != SB_DDIR_WRITE) {
		vs_flush(v);
		sb_engine_do_sync(e, io);
		return SB_Q_DONE;
	}
	if (e->sync) {
		sb_engine_do_sync(e, io);
		return SB_Q_DONE;
	}
	if (v->nq && (v->fd != e->fd || io->offset != v->next || io->ddir != v->q[0]->ddir ||
		      v->nq >= IOV_MAX))
		vs_flush(v);
	if (v->nq + v->ndone >= e->depth)
		return -EBUSY;
	v->fd = e->fd;
	v->q[v->nq++] = io;
	v->next = io->offset + io->len;
	return SB_Q_QUEUED;
}

static int vs_commit(struct sb_engine *e)
{
	vs_flush(e->priv);
	return 0;
}

static int vs_getevents(struct sb_engine *e, unsigned min, unsigned max)
{
	struct vs *v = e->priv;
	(void)min;
	vs_flush(v);
	const unsigned n = SB_MIN(max, v->ndone);
	memcpy(v->ev, v->done, n * sizeof(*v->ev));
	memmove(v->done, v->done + n, (v->ndone - n) * sizeof(*v->done));
	v->ndone -= n;
	return (int)n;
}

static struct sb_io *vs_event(struct sb_engine *e, unsigned i)
{
	return ((struct vs *)e->priv)->ev[i];
}

static void vs_cleanup(struct sb_engine *e)
{
	struct vs *v = e->priv;
	if (!v)
		return;
	free(v->q), free(v->iov), free(v->done), free(v->ev), free(v);
}

const struct sb_engine_ops sb_engine_vsync = {
	.name = "vsync",
	.desc = "fio's vsync: readv/writev, adjacent requests merged into one vector",
	/* synchronous at a depth of 1 (init clears it above): never the default
	 * engine of a deeper job */
	.flags = SB_ENGINE_SYNC | SB_ENGINE_DEEP,
	.available = sb_fileop_available,
	.init = vs_init,
	.queue = vs_queue,
	.commit = vs_commit,
	.getevents = vs_getevents,
	.event = vs_event,
	.cleanup = vs_cleanup,
};
