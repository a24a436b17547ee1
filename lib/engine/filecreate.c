/*
 * filecreate: fio's engine of that name. The request that starts a file
 * in a loop opens it by name, made new (O_CREAT | O_EXCL, never through a
 * symlink) in the job's directory and nowhere else, its open the
 * request's latency; a name that exists already (a later loop, a clone
 * sharing a filename=) is opened to read, never truncated or written. The
 * file's other requests move nothing, counted untimed as fio's. Each file
 * is closed as the next one opens (fio's openfiles=1): one descriptor and
 * a bit a file of memory, however many files (fileop.c).
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <unistd.h>

/* the file opened last closes, untimed, before the next opens */
static int fc_close_last(const struct sb_engine *e, int dirfd, const char *name, uint64_t i)
{
	(void)dirfd, (void)name, (void)i;
	sb_fileop_hold(e, -1);
	return 0;
}

/* open the file, made new or (made before) to read: 0 or -errno */
static int fc_open(const struct sb_engine *e, int dirfd, const char *name, uint64_t i)
{
	(void)i;
	int fd = openat(dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST)
		fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	sb_fileop_hold(e, fd);
	return 0;
}

static int fc_queue(struct sb_engine *e, struct sb_io *io)
{
	return sb_fileop_queue(e, io, fc_close_last, fc_open);
}

const struct sb_engine_ops sb_engine_filecreate = {
	.name = "filecreate",
	.desc = "fio's filecreate: each file made new by name, its open timed",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NOIO | SB_ENGINE_FILEOP | SB_ENGINE_MKFILES,
	.available = sb_fileop_available,
	.init = sb_fileop_init,
	.queue = fc_queue,
	.commit = sb_fileop_commit,
	.getevents = sb_fileop_getevents,
	.event = sb_fileop_event,
	.cleanup = sb_fileop_free,
};
