/*
 * falloc: fio's engine of that name. Each request is an fallocate(2) of
 * its range: a write allocates it (mode 0: the file grows past its end),
 * a read allocates it keeping the size (FALLOC_FL_KEEP_SIZE), a trim
 * punches it out (PUNCH_HOLE | KEEP_SIZE); a sync is an fsync. No data
 * moves; the allocation changes even for a read, so the run takes it only
 * on files it laid out.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <linux/falloc.h>

static int falloc_queue(struct sb_engine *e, struct sb_io *io)
{
	static const int mode[] = { [SB_DDIR_READ] = FALLOC_FL_KEEP_SIZE,
				    [SB_DDIR_WRITE] = 0,
				    [SB_DDIR_TRIM] = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE };
	if (io->ddir >= SB_DDIR_SYNC) {
		sb_engine_do_sync(e, io);
		return SB_Q_DONE;
	}
	io->res = fallocate(e->fd, mode[io->ddir], (off_t)io->offset, (off_t)io->len) < 0
			  ? -errno
			  : (int64_t)io->len;
	return SB_Q_DONE;
}

const struct sb_engine_ops sb_engine_falloc = {
	.name = "falloc",
	.desc = "fio's falloc: each request allocates (write, read) or punches (trim) its range",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_OWNFILES,
	.available = sb_fileop_available,
	.init = sb_fileop_init_fd,
	.queue = falloc_queue,
	.commit = sb_fileop_commit,
	.getevents = sb_fileop_getevents,
	.event = sb_fileop_event,
	.cleanup = sb_fileop_cleanup,
};
