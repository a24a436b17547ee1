/*
 * null: completes every request without touching the target or the
 * buffer. Measures storbench's own cost per I/O, so queue() does nothing
 * else. At a depth of 1 every request completes inside queue(). Above it,
 * as fio's null engine: requests are queued, a commit completes every one
 * queued, and nothing more is taken until those are reaped (e->full, fio's
 * FIO_Q_BUSY): in flight are the requests of one submission, which
 * iodepth_batch_submit sets, up to iodepth.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

struct null_q {
	unsigned n;	   /* q[0, n): queued, or completed once committed */
	unsigned events;   /* the committed ones, not yet reaped */
	struct sb_io *q[]; /* depth of them */
};

static int null_available(void)
{
	return 0;
}

static int null_init(struct sb_engine *e)
{
	if (e->depth <= 1)
		return 0;
	struct null_q *n = calloc(1, sizeof(*n) + e->depth * sizeof(n->q[0]));
	if (!n)
		return -ENOMEM;
	e->priv = n;
	e->sync = 0;
	return 0;
}

static int null_queue(struct sb_engine *e, struct sb_io *io)
{
	struct null_q *n = e->priv;
	io->res = io->ddir >= SB_DDIR_SYNC ? 0 : (int64_t)io->len;
	if (!n)
		return SB_Q_DONE;
	if (n->events || n->n >= e->depth)
		return -EBUSY;
	n->q[n->n++] = io;
	return SB_Q_QUEUED;
}

static int null_commit(struct sb_engine *e)
{
	struct null_q *n = e->priv;
	if (n && !n->events && n->n) {
		n->events = n->n;
		e->full = 1;
	}
	return 0;
}

/* The committed requests, all at once, as fio's null; min and max are
 * the caller's to keep (max is the depth, min at most what is in flight). */
static int null_getevents(struct sb_engine *e, unsigned min, unsigned max)
{
	struct null_q *n = e->priv;
	(void)min, (void)max;
	if (!n || !n->events)
		return 0;
	const unsigned ev = n->events;
	n->events = 0;
	n->n = 0;
	e->full = 0;
	return (int)ev;
}

static struct sb_io *null_event(struct sb_engine *e, unsigned i)
{
	struct null_q *n = e->priv;
	return n ? n->q[i] : NULL;
}

static void null_cleanup(struct sb_engine *e)
{
	free(e->priv);
}

const struct sb_engine_ops sb_engine_null = {
	.name = "null",
	.desc = "no I/O: measures storbench's own overhead",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NOIO,
	.available = null_available,
	.init = null_init,
	.queue = null_queue,
	.commit = null_commit,
	.getevents = null_getevents,
	.event = null_event,
	.cleanup = null_cleanup,
};
