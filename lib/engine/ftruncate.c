/*
 * ftruncate: fio's engine of that name. A write is an ftruncate(2) of the
 * file to the request's offset (its length unused), a sync an fsync; a
 * read or trim is refused (-EINVAL), as fio's. Nothing is read or written
 * but the file's length, so the run takes it only on files it laid out.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <unistd.h>

static int ftruncate_queue(struct sb_engine *e, struct sb_io *io)
{
	if (io->ddir == SB_DDIR_WRITE)
		io->res = ftruncate(e->fd, (off_t)io->offset) < 0 ? -errno : (int64_t)io->len;
	else if (io->ddir >= SB_DDIR_SYNC)
		sb_engine_do_sync(e, io);
	else
		io->res = -EINVAL;
	return SB_Q_DONE;
}

const struct sb_engine_ops sb_engine_ftruncate = {
	.name = "ftruncate",
	.desc = "fio's ftruncate: each write truncates the file to its offset",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_OWNFILES,
	.available = sb_fileop_available,
	.init = sb_fileop_init_fd,
	.queue = ftruncate_queue,
	.commit = sb_fileop_commit,
	.getevents = sb_fileop_getevents,
	.event = sb_fileop_event,
	.cleanup = sb_fileop_cleanup,
};
