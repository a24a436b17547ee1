/*
 * Linux native AIO through libaio. Reads and writes go through io_submit
 * (asynchronous only with O_DIRECT: buffered AIO blocks in io_submit);
 * fsync and trim are done inline, the worker drains the queue before a sync.
 */
#ifdef HAVE_AIO
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <libaio.h>

#ifndef IOCB_FLAG_IOPRIO /* linux/aio_abi.h's, which clashes with libaio.h */
#define IOCB_FLAG_IOPRIO (1 << 1)
#endif

struct aio {
	io_context_t ctx;
	unsigned inflight; /* queued and not yet reaped */
	unsigned npending; /* queued, not yet submitted */
	unsigned nfree;
	unsigned nfailed; /* rejected by io_submit, reported by getevents */
	struct iocb *iocbs;
	struct iocb **free;
	struct iocb **pending;
	struct sb_io **failed;
	struct io_event *evs;
	struct sb_io **events;
};

static int aio_available(void)
{
	io_context_t ctx = 0;
	const int r = io_setup(1, &ctx);

	if (r < 0)
		return r;
	io_destroy(ctx);
	return 0;
}

static void aio_free(struct aio *a)
{
	free(a->iocbs);
	free(a->free);
	free(a->pending);
	free(a->failed);
	free(a->evs);
	free(a->events);
	free(a);
}

static struct aio *aio_alloc(unsigned depth)
{
	struct aio *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->iocbs = calloc(depth, sizeof(*a->iocbs));
	a->free = calloc(depth, sizeof(*a->free));
	a->pending = calloc(depth, sizeof(*a->pending));
	a->failed = calloc(depth, sizeof(*a->failed));
	a->evs = calloc(depth, sizeof(*a->evs));
	a->events = calloc(depth, sizeof(*a->events));
	if (!a->iocbs || !a->free || !a->pending || !a->failed || !a->evs || !a->events) {
		aio_free(a);
		return NULL;
	}
	for (unsigned i = 0; i < depth; i++)
		a->free[i] = &a->iocbs[i];
	a->nfree = depth;
	return a;
}

static int aio_init(struct sb_engine *e)
{
	struct aio *a;
	int r;

	if (e->fd < 0)
		return -EBADF;
	a = aio_alloc(e->depth);
	if (!a)
		return -ENOMEM;
	r = io_setup((int)e->depth, &a->ctx);
	if (r < 0) {
		aio_free(a);
		return r;
	}
	e->priv = a;
	return 0;
}

static int aio_queue(struct sb_engine *e, struct sb_io *io)
{
	struct aio *a = e->priv;
	struct iocb *iocb;

	if (SB_UNLIKELY(io->ddir != SB_DDIR_READ && io->ddir != SB_DDIR_WRITE)) {
		sb_engine_do_sync(e, io);
		return SB_Q_DONE;
	}
	if (SB_UNLIKELY(!a->nfree))
		return -EBUSY;
	iocb = a->free[--a->nfree];
	if (io->ddir == SB_DDIR_READ)
		io_prep_pread(iocb, e->fd, io->buf, io->len, (long long)io->offset);
	else
		io_prep_pwrite(iocb, e->fd, io->buf, io->len, (long long)io->offset);
	if (io->ioprio) { /* fio's cmdprio: the request's own priority */
		iocb->u.c.flags |= IOCB_FLAG_IOPRIO;
		iocb->aio_reqprio = (short)io->ioprio;
	}
	iocb->data = io;
	a->pending[a->npending++] = iocb;
	a->inflight++;
	return SB_Q_QUEUED;
}

/* io_submit refused this request: complete it with the error so that the
 * worker sees it through getevents, as io_uring would report it. */
static void aio_reject(struct aio *a, struct iocb *iocb, int err)
{
	struct sb_io *io = iocb->data;

	io->res = err;
	a->failed[a->nfailed++] = io;
	a->free[a->nfree++] = iocb;
}

static int aio_commit(struct sb_engine *e)
{
	struct aio *a = e->priv;
	unsigned done = 0;

	while (done < a->npending) {
		const int r = io_submit(a->ctx, (long)(a->npending - done), a->pending + done);
		if (r > 0)
			done += (unsigned)r;
		else if (r == -EINTR)
			continue;
		else
			aio_reject(a, a->pending[done++], r < 0 ? r : -EAGAIN);
	}
	a->npending = 0;
	return 0;
}

/* Reap up to max completions into events[got...], waiting for min of them.
 * Returns how many, or -errno. */
static int aio_reap(struct aio *a, unsigned got, unsigned min, unsigned max)
{
	struct timespec zero = { 0, 0 };
	int r;

	do /* a zero timeout lets libaio skip the system call when idle */
		r = io_getevents(a->ctx, (long)min, (long)max, a->evs, min ? NULL : &zero);
	while (r == -EINTR);
	for (int i = 0; i < r; i++) {
		struct iocb *iocb = a->evs[i].obj;
		struct sb_io *io = iocb->data;

		io->res = (long)a->evs[i].res;
		a->events[got + (unsigned)i] = io;
		a->free[a->nfree++] = iocb;
	}
	return r;
}

static int aio_getevents(struct sb_engine *e, unsigned min, unsigned max)
{
	struct aio *a = e->priv;
	unsigned got = 0;

	/* Waiting on requests never submitted would hang: submit them first. */
	if (a->npending && min)
		aio_commit(e);
	max = SB_MIN(max, e->depth);
	/* Never wait for more than can come back: that would hang. */
	min = SB_MIN(SB_MIN(min, max), a->inflight);
	while (got < max && a->nfailed)
		a->events[got++] = a->failed[--a->nfailed];
	if (got < max) {
		const int r = aio_reap(a, got, min > got ? min - got : 0, max - got);
		if (r < 0 && !got)
			return r;
		if (r > 0)
			got += (unsigned)r;
	}
	a->inflight -= got;
	return (int)got;
}

static struct sb_io *aio_event(struct sb_engine *e, unsigned i)
{
	const struct aio *a = e->priv;
	return a->events[i];
}

static void aio_cleanup(struct sb_engine *e)
{
	struct aio *a = e->priv;

	if (!a)
		return;
	io_destroy(a->ctx); /* waits for requests still in flight */
	aio_free(a);
	e->priv = NULL;
}

const struct sb_engine_ops sb_engine_libaio = {
	.name = "libaio",
	.desc = "Linux native AIO (libaio), asynchronous with O_DIRECT",
	.flags = 0,
	.available = aio_available,
	.init = aio_init,
	.queue = aio_queue,
	.commit = aio_commit,
	.getevents = aio_getevents,
	.event = aio_event,
	.cleanup = aio_cleanup,
};
#endif /* HAVE_AIO */
