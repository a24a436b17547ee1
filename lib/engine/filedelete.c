/*
 * filedelete: fio's engine of that name. Each file's operation is an
 * unlink(2) of its name, its time the request's latency; nothing is read
 * or written. The name is unlinked only while it is still the file the
 * engine was given (e->fd, the run's own): never what took its place.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <sys/stat.h>
#include <unistd.h>

/* the name is still the file open as e->fd (shared with dirdelete) */
int sb_fileop_ours(const struct sb_engine *e, const char *path)
{
	struct stat named, ours;
	if (e->fd < 0)
		return -EBADF;
	if (fstat(e->fd, &ours) < 0 || lstat(path, &named) < 0)
		return -errno;
	return named.st_dev == ours.st_dev && named.st_ino == ours.st_ino ? 0 : -ESTALE;
}

static int file_delete(const struct sb_engine *e, const char *path)
{
	(void)e;
	return unlink(path) < 0 ? -errno : 0;
}

SB_FILEOP_ENGINE(sb_engine_filedelete, "filedelete",
		 "fio's filedelete: an unlink of each file, timed", sb_fileop_ours, file_delete);
