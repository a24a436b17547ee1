/* Cold caches: drop_caches when allowed, fadvise otherwise. */
#include "lib/target/cache.h"

#include <fcntl.h>
#include <unistd.h>

static int drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	sync();
	int r = write(fd, "3\n", 2) == 2 ? 0 : -errno;
	close(fd);
	return r;
}

int sb_cache_drop(int fd)
{
	if (drop_caches() == 0)
		return SB_CACHE_DROP_CACHES;
	if (fd < 0)
		return -EPERM;
	if (fdatasync(fd) < 0 && errno != EINVAL && errno != EROFS)
		return -errno;
	int e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return e ? -e : SB_CACHE_FADVISE;
}

int sb_cache_can_drop_all(void)
{
	return access("/proc/sys/vm/drop_caches", W_OK) == 0;
}

const char *sb_cache_method_name(int method)
{
	switch (method) {
	case SB_CACHE_DROP_CACHES: return "drop_caches";
	case SB_CACHE_FADVISE: return "fadvise";
	default: return "none";
	}
}
