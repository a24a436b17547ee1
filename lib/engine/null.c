/*
 * null: completes every request at once without touching the target or the
 * buffer. Measures storbench's own cost per I/O, so queue() does nothing else.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

static int null_available(void)
{
	return 0;
}

static int null_init(struct sb_engine *e)
{
	(void)e;
	return 0;
}

static int null_queue(struct sb_engine *e, struct sb_io *io)
{
	(void)e;
	io->res = io->ddir == SB_DDIR_SYNC ? 0 : (int64_t)io->len;
	return SB_Q_DONE;
}

static int null_commit(struct sb_engine *e)
{
	(void)e;
	return 0;
}

static int null_getevents(struct sb_engine *e, unsigned min, unsigned max)
{
	(void)e, (void)min, (void)max;
	return 0;
}

static struct sb_io *null_event(struct sb_engine *e, unsigned i)
{
	(void)e, (void)i;
	return NULL;
}

static void null_cleanup(struct sb_engine *e)
{
	(void)e;
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
