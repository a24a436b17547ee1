/*
 * Engine setup and teardown. The registry (registry.c) finds engines by
 * name; the synchronous I/O path they share is in inline_io.c.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

int sb_engine_init(struct sb_engine *e, const struct sb_engine_ops *ops, int fd, unsigned depth,
		   int is_blockdev)
{
	if (!e || !ops || depth == 0)
		return -EINVAL;
	*e = (struct sb_engine){
		.ops = ops,
		.priv = NULL,
		.fd = fd,
		.depth = depth,
		.is_blockdev = is_blockdev,
		.sync = !!(ops->flags & SB_ENGINE_SYNC),
		.wlo = 0,
		.whi = UINT64_MAX,
		.out_fd = { -1, -1 },
	};
	/* An engine's init frees what it allocated when it fails, so
	 * sb_engine_cleanup is safe (and a no-op) afterwards. */
	return ops->init ? ops->init(e) : 0;
}

void sb_engine_register_bufs(struct sb_engine *e, void *buf, size_t len)
{
	if (e && e->ops && e->ops->register_bufs && buf && len)
		e->fixed_bufs = e->ops->register_bufs(e, buf, len) == 0;
}

void sb_engine_cleanup(struct sb_engine *e)
{
	if (!e || !e->ops)
		return;
	if (e->ops->cleanup)
		e->ops->cleanup(e);
	e->priv = NULL;
}
