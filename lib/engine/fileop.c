/*
 * What fio's file and directory engines share (its fileoperations.c):
 * the request that starts a file's loop does the engine's operation on
 * the file's name and is timed; the file's other requests move nothing
 * and are counted, untimed, as fio counts its fake I/O. One request at a
 * time, done inside queue().
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

int sb_fileop_queue(struct sb_engine *e, struct sb_io *io, sb_fileop_fn check, sb_fileop_fn op)
{
	io->untimed = 1;
	if (io->ddir >= SB_DDIR_SYNC) {
		io->res = 0;
		return SB_Q_DONE;
	}
	if (!e->path_fresh || !e->path) {
		io->res = io->len;
		return SB_Q_DONE;
	}
	e->path_fresh = 0;
	io->untimed = 0;
	const int c = check ? check(e, e->path) : 0;
	if (c < 0) {
		io->res = c;
		return SB_Q_DONE;
	}
	io->start_ns = sb_now_ns();
	io->issue_ns = io->start_ns;
	const int r = op(e, e->path);
	io->res = r < 0 ? r : (int64_t)io->len;
	return SB_Q_DONE;
}

int sb_fileop_available(void)
{
	return 0;
}

int sb_fileop_init(struct sb_engine *e)
{
	(void)e;
	return 0;
}

int sb_fileop_init_fd(struct sb_engine *e)
{
	return e->fd < 0 ? -EBADF : 0;
}

int sb_fileop_commit(struct sb_engine *e)
{
	(void)e;
	return 0;
}

int sb_fileop_getevents(struct sb_engine *e, unsigned min, unsigned max)
{
	(void)e, (void)min, (void)max;
	return 0;
}

struct sb_io *sb_fileop_event(struct sb_engine *e, unsigned i)
{
	(void)e, (void)i;
	return NULL;
}

void sb_fileop_cleanup(struct sb_engine *e)
{
	(void)e;
}
