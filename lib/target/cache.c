/* Cold caches: drop_caches when allowed, fadvise otherwise. */
#include "lib/target/cache.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
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

int sb_cache_flush_blockdev(int fd)
{
	sync();
	fsync(fd);
	fdatasync(fd);
	sync();
	const int r = ioctl(fd, BLKFLSBUF, 0) < 0 ? -errno : SB_CACHE_BLKFLSBUF;
	sync();
	return r;
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
	case SB_CACHE_BLKFLSBUF: return "BLKFLSBUF";
	default: return "none";
	}
}

#define RESIDENT_WINDOW (256ull << 20)
#define RESIDENT_ALL (16ull << 30)

/* One window, off a multiple of the page size. */
static int resident_window(int fd, uint64_t off, uint64_t len, unsigned char *vec, size_t page,
			   uint64_t *resident)
{
	void *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
	if (m == MAP_FAILED)
		return -errno;
	const int r = mincore(m, len, vec) < 0 ? -errno : 0;
	const uint64_t pages = (len + page - 1) / page;
	for (uint64_t i = 0; !r && i < pages; i++)
		*resident += (vec[i] & 1) ? SB_MIN((uint64_t)page, len - i * page) : 0;
	munmap(m, len);
	return r;
}

int sb_cache_resident(int fd, uint64_t off, uint64_t len, uint64_t *resident, uint64_t *checked)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	*resident = *checked = 0;
	const uint64_t start = off / page * page;
	len += off - start;
	unsigned char *vec = malloc(RESIDENT_WINDOW / page);
	if (!vec)
		return -ENOMEM;
	const uint64_t step = len > RESIDENT_ALL ? len / 64 / page * page : RESIDENT_WINDOW;
	int r = 0;
	for (uint64_t at = 0; at < len && !r; at += step) {
		const uint64_t n = SB_MIN(RESIDENT_WINDOW, len - at);
		r = resident_window(fd, start + at, n, vec, page, resident);
		*checked += n;
	}
	free(vec);
	return r;
}
