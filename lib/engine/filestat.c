/*
 * filestat: fio's engine of that name. Each file's operation is a stat(2)
 * of its name (lstat(2) or statx(2) with stat_type=), its time the
 * request's latency; nothing is read or written.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <linux/stat.h> /* struct statx: musl before 1.2.5 has neither it nor statx() */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int sb_fileop_stat(const struct sb_engine *e, const char *path)
{
	struct stat st;
	struct statx stx;
	int r;
	switch (e->stat_type) {
	case SB_STAT_LSTAT: r = lstat(path, &st); break;
	case SB_STAT_STATX: r = (int)syscall(SYS_statx, AT_FDCWD, path, 0, STATX_ALL, &stx); break;
	default: r = stat(path, &st); break;
	}
	return r < 0 ? -errno : 0;
}

SB_FILEOP_ENGINE(sb_engine_filestat, "filestat", "fio's filestat: a stat of each file, timed", NULL,
		 sb_fileop_stat);
