/*
 * Files storbench creates, and only those it removes. A created file is
 * marked with the xattr SB_CREATED_XATTR before anything is written to it,
 * so a file left by a crash, or kept (--keep), is still recognised. That
 * mark is the only proof, for every command: neither a name (a user may
 * call a file anything, ".storbench-*.tmp" too) nor the data (a verify
 * block is copied with the file, and a user may keep such a copy) says
 * whose a file is. Where the filesystem has no user xattrs (ramfs, FAT
 * and exFAT on SD cards, a FUSE filesystem without them) no file is
 * marked: a run's own files are used through the descriptors it holds,
 * and a file an earlier run kept is written again only with
 * --destroy-data, and never removed.
 */
#include "lib/target/target.h"
#include "lib/target/scratch.h"
#include "lib/base/rng.h"
#include "lib/base/outfile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define FILL_CHUNK (1u << 20)

static int no_xattrs(int err)
{
	return err == ENOTSUP || err == EOPNOTSUPP;
}

int sb_file_is_ours_fd(int fd)
{
	struct stat st;
	char val[8];

	if (fstat(fd, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return 0;
	if (fgetxattr(fd, SB_CREATED_XATTR, val, sizeof(val)) >= 0)
		return 1;
	if (errno == ERANGE) /* present, with a longer value than ours */
		return 1;
	if (errno == ENODATA || no_xattrs(errno))
		return 0; /* unmarked, or nothing here can carry the mark */
	return -errno;
}

int sb_file_is_ours(const char *path)
{
	/* not through a symlink; O_NONBLOCK: a fifo planted there does not hang us */
	const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? 0 : -errno;
	const int ours = sb_file_is_ours_fd(fd);
	close(fd);
	return ours;
}

int sb_file_remove_created(const char *path)
{
	const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	int e = sb_file_is_ours_fd(fd);
	if (e == 0)
		e = -EPERM;
	if (e > 0) /* still the file we looked at */
		e = sb_scratch_remove(path, fd);
	close(fd);
	return e == -ESTALE ? -EPERM : e;
}

int sb_drop_file_cache(int fd)
{
	if (fdatasync(fd) != 0)
		return -errno;
	const int err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return -err;
}

/* Random data (xoshiro: far faster than the disk), then on the media.
 * stop is asked between chunks: laying out GiBs takes a while. */
static int fill_random(int fd, uint64_t size, uint64_t seed, const struct sb_stop *stop)
{
	struct sb_rng rng;
	uint64_t *buf = malloc(FILL_CHUNK);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	sb_rng_seed(&rng, seed);
	for (uint64_t done = 0; done < size && !err;) {
		if (stop && stop->fn && stop->fn(stop->ctx)) {
			err = -EINTR;
			break;
		}
		const size_t len = (size_t)SB_MIN(size - done, (uint64_t)FILL_CHUNK);
		for (size_t i = 0; i < (len + 7) / 8; i++)
			buf[i] = sb_rng_next(&rng);
		err = sb_write_full(fd, (const char *)buf, len);
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

int sb_file_mark(int fd)
{
	if (fsetxattr(fd, SB_CREATED_XATTR, "1", 1, 0) == 0)
		return 0;
	/* No xattrs: the file cannot be marked. Those who created it hold its
	 * descriptor and remove it by that; a later run does not take it. */
	if (no_xattrs(errno))
		return 0;
	return -errno;
}

int sb_file_layout(int fd, uint64_t size, int fill, uint64_t seed, const struct sb_stop *stop)
{
	if (size > (uint64_t)INT64_MAX)
		return -EFBIG;
	int err = sb_file_mark(fd); /* first: ours even if cut short */
	if (!err)
		err = fill ? fill_random(fd, size, seed, stop) : allocate(fd, size);
	return err;
}

int sb_file_create(const char *path, uint64_t size, int fill, uint64_t seed)
{
	if (size > (uint64_t)INT64_MAX)
		return -EFBIG;
	const int fd = sb_scratch_create_path(path, O_WRONLY);
	if (fd < 0)
		return fd;
	int err = sb_file_layout(fd, size, fill, seed, NULL);
	if (!err) { /* a late write error (NFS) shows on close: of a duplicate, so
		     * that the file can still be removed by its descriptor */
		const int d = dup(fd);
		if (d < 0 || close(d) != 0)
			err = -errno;
	}
	if (err)
		sb_scratch_remove(path, fd);
	close(fd);
	return err;
}
