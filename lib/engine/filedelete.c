/*
 * filedelete: fio's engine of that name. Each file's operation is an
 * unlink of its name, its time the request's latency; nothing is read or
 * written. The files are laid out by the run before the jobs, as fio's,
 * and worked on by name (fileop.c); a name is unlinked only while it is
 * still the regular file the run made there (e->mk_ino): never what took
 * its place, never a file whose making was not recorded.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* the name is still file i as the run laid it out: 0, -ESTALE or -errno */
static int file_ours(const struct sb_engine *e, int dirfd, const char *name, uint64_t i)
{
	struct stat named, dir;
	if (fstatat(dirfd, name, &named, AT_SYMLINK_NOFOLLOW) < 0 || fstat(dirfd, &dir) < 0)
		return -errno;
	const uint64_t ino = e->mk_ino ? e->mk_ino[e->mk_nfiles ? i : 0] : 0;
	if (!ino || !S_ISREG(named.st_mode) || named.st_dev != dir.st_dev ||
	    (uint64_t)named.st_ino != ino)
		return -ESTALE;
	return 0;
}

static int file_delete(const struct sb_engine *e, int dirfd, const char *name, uint64_t i)
{
	(void)e, (void)i;
	return unlinkat(dirfd, name, 0) < 0 ? -errno : 0;
}

SB_FILEOP_ENGINE(sb_engine_filedelete, "filedelete",
		 "fio's filedelete: an unlink of each file, timed", file_ours, file_delete);
