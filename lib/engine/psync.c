/* psync: pread/pwrite/fsync, every request completed inside queue(). */
#include "lib/sb.h"
#include "lib/engine/engine.h"

static int psync_available(void)
{
	return 0;
}

static int psync_init(struct sb_engine *e)
{
	return e->fd < 0 ? -EBADF : 0;
}

static int psync_queue(struct sb_engine *e, struct sb_io *io)
{
	sb_engine_do_sync(e, io);
	return SB_Q_DONE;
}

static int psync_commit(struct sb_engine *e)
{
	(void)e;
	return 0;
}

static int psync_getevents(struct sb_engine *e, unsigned min, unsigned max)
{
	(void)e, (void)min, (void)max;
	return 0;
}

static struct sb_io *psync_event(struct sb_engine *e, unsigned i)
{
	(void)e, (void)i;
	return NULL;
}

static void psync_cleanup(struct sb_engine *e)
{
	(void)e;
}

const struct sb_engine_ops sb_engine_psync = {
	.name = "psync",
	.desc = "pread/pwrite, one request at a time",
	.flags = SB_ENGINE_SYNC,
	.available = psync_available,
	.init = psync_init,
	.queue = psync_queue,
	.commit = psync_commit,
	.getevents = psync_getevents,
	.event = psync_event,
	.cleanup = psync_cleanup,
};
