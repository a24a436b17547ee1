/*
 * filestat: fio's engine of that name. Each file's operation is a stat(2)
 * of its name (lstat(2) or statx(2) with stat_type=), its time the
 * request's latency; nothing is read or written. The files are laid out
 * by the run before the jobs, as fio's, and worked on by name (fileop.c).
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <linux/stat.h> /* struct statx: musl before 1.2.5 has neither it nor statx() */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int sb_fileop_stat(const struct sb_engine *e, int dirfd, const char *name, uint64_t i)
{
	struct stat st;
	struct statx stx;
	int r;
	(void)i;
	switch (e->stat_type) {
	case SB_STAT_LSTAT: r = fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW); break;
	case SB_STAT_STATX: r = (int)syscall(SYS_statx, dirfd, name, 0, STATX_ALL, &stx); break;
	default: r = fstatat(dirfd, name, &st, 0); break;
	}
	return r < 0 ? -errno : 0;
}

SB_FILEOP_ENGINE(sb_engine_filestat, "filestat", "fio's filestat: a stat of each file, timed", NULL,
		 sb_fileop_stat);
