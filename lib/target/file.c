/*
 * Files storbench creates, and only those it removes. A created file is
 * marked with the xattr SB_CREATED_XATTR before anything is written to it,
 * so a file left by a crash is still recognised. Where the filesystem has no
 * user xattrs, the name ".storbench-*.tmp" is the mark.
 */
#include "lib/target/target.h"
#include "lib/base/rng.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define FILL_CHUNK (1u << 20)
#define NAME_PREFIX ".storbench-"
#define NAME_SUFFIX ".tmp"

static int no_xattrs(int err)
{
	return err == ENOTSUP || err == EOPNOTSUPP;
}

static int name_is_ours(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const size_t len = strlen(base), pre = strlen(NAME_PREFIX), suf = strlen(NAME_SUFFIX);
	return len > pre + suf && strncmp(base, NAME_PREFIX, pre) == 0 &&
	       strcmp(base + len - suf, NAME_SUFFIX) == 0;
}

int sb_file_is_ours(const char *path)
{
	struct stat st;
	char val[8];

	if (lstat(path, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return 0;
	if (lgetxattr(path, SB_CREATED_XATTR, val, sizeof(val)) >= 0)
		return 1;
	if (errno == ERANGE) /* present, with a longer value than ours */
		return 1;
	if (errno == ENODATA)
		return 0;
	if (no_xattrs(errno))
		return name_is_ours(path);
	return -errno;
}

int sb_file_remove_created(const char *path)
{
	const int ours = sb_file_is_ours(path);

	if (ours < 0)
		return ours;
	if (!ours)
		return -EPERM;
	return unlink(path) == 0 ? 0 : -errno;
}

int sb_drop_file_cache(int fd)
{
	if (fdatasync(fd) != 0)
		return -errno;
	const int err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return -err;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		const ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Random data (xoshiro: far faster than the disk), then on the media. */
static int fill_random(int fd, uint64_t size, uint64_t seed)
{
	struct sb_rng rng;
	uint64_t *buf = malloc(FILL_CHUNK);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	sb_rng_seed(&rng, seed);
	for (uint64_t done = 0; done < size && !err;) {
		const size_t len = (size_t)SB_MIN(size - done, (uint64_t)FILL_CHUNK);
		for (size_t i = 0; i < (len + 7) / 8; i++)
			buf[i] = sb_rng_next(&rng);
		err = write_all(fd, (const char *)buf, len);
		done += len;
	}
	free(buf);
	if (!err && fsync(fd) != 0)
		err = -errno;
	return err ? err : sb_drop_file_cache(fd);
}

static int allocate(int fd, uint64_t size)
{
	if (size == 0)
		return 0;
	if (fallocate(fd, 0, 0, (off_t)size) == 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != ENOSYS)
		return -errno;
	return ftruncate(fd, (off_t)size) == 0 ? 0 : -errno;
}

/* Mark first, so that the file is ours even if filling it is cut short. */
static int mark(int fd)
{
	if (fsetxattr(fd, SB_CREATED_XATTR, "1", 1, 0) == 0)
		return 0;
	/* No xattrs: only the name can mark it. A name the user chose stays;
	 * it will not be removed for us. */
	if (no_xattrs(errno))
		return 0;
	return -errno;
}

int sb_file_create(const char *path, uint64_t size, int fill, uint64_t seed)
{
	if (size > (uint64_t)INT64_MAX)
		return -EFBIG;
	const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	int err = mark(fd);
	if (!err)
		err = fill ? fill_random(fd, size, seed) : allocate(fd, size);
	if (close(fd) != 0 && !err)
		err = -errno;
	if (err)
		unlink(path);
	return err;
}
