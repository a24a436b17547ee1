/*
 * Scratch files (scratch.h): new, unguessable, used by descriptor, removed
 * only while the name still names them.
 */
#include "lib/target/scratch.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CREATE_FLAGS (O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC)
#define CREATE_TRIES 16

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* 64 bits nobody else can predict: the kernel's generator (getrandom,
 * Linux 3.17, or /dev/urandom before it); only where neither answers, the
 * clock mixed with addresses, which is still not guessable in advance. */
static uint64_t random64(void)
{
	uint64_t v = 0;
#ifdef SYS_getrandom
	if (syscall(SYS_getrandom, &v, sizeof(v), 1 /* GRND_NONBLOCK */) == (long)sizeof(v))
		return v;
#endif
	const int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		const ssize_t n = read(fd, &v, sizeof(v));
		close(fd);
		if (n == (ssize_t)sizeof(v))
			return v;
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return mix(sb_now_ns() ^ mix((uint64_t)ts.tv_nsec ^ (uint64_t)(uintptr_t)&v) ^
		   ((uint64_t)getpid() << 32));
}

int sb_scratch_name(char *buf, size_t len, const char *dir, const char *prefix, const char *suffix)
{
	const int have_dir = dir && dir[0];
	const int n = snprintf(buf, len, "%s%s%s%ld-%016llx%s", have_dir ? dir : "",
			       have_dir ? "/" : "", prefix ? prefix : "", (long)getpid(),
			       (unsigned long long)random64(), suffix ? suffix : "");
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int sb_scratch_create_path(const char *path, int flags)
{
	const int fd = open(path, flags | CREATE_FLAGS, 0600);
	return fd < 0 ? -errno : fd;
}

int sb_scratch_create(const char *dir, const char *prefix, const char *suffix, int flags,
		      char *path, size_t len)
{
	int fd = -EEXIST;
	for (int i = 0; i < CREATE_TRIES && fd == -EEXIST; i++) {
		const int e = sb_scratch_name(path, len, dir, prefix, suffix);
		if (e < 0)
			return e;
		fd = sb_scratch_create_path(path, flags);
	}
	return fd;
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int sb_scratch_same(const char *path, int fd)
{
	struct stat a, b;
	if (fstat(fd, &a) < 0 || lstat(path, &b) < 0)
		return -errno;
	return S_ISREG(b.st_mode) && same_file(&a, &b);
}

/* Only calls that are async-signal-safe: no stdio, no allocation. */
int sb_scratch_remove(const char *path, int fd)
{
	char dir[4096];
	const char *base = strrchr(path, '/');
	size_t dlen = base ? (size_t)(base - path) : 0;
	if (dlen >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, dlen);
	dir[dlen] = '\0';
	if (base && dlen == 0) /* "/name" */
		memcpy(dir, "/", 2);
	base = base ? base + 1 : path;

	struct stat mine, there;
	if (fstat(fd, &mine) < 0)
		return -errno;
	/* O_PATH: a directory we may write but not list (a drop box) works too */
	const int dfd = open(base == path ? "." : dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	int e = 0;
	if (fstatat(dfd, base, &there, AT_SYMLINK_NOFOLLOW) < 0)
		e = -errno;
	else if (!S_ISREG(there.st_mode) || !same_file(&mine, &there))
		e = -ESTALE;
	else if (unlinkat(dfd, base, 0) < 0)
		e = -errno;
	close(dfd);
	return e;
}

static int exchange(const char *a, const char *b)
{
	return syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) < 0 ? -errno : 0;
}

int sb_scratch_replace(const char *path, int old, int flags, int (*prep)(int fd, void *ctx),
		       void *ctx)
{
	char dir[4096], tmp[4096];
	const char *slash = strrchr(path, '/');
	if (slash && (size_t)(slash - path) >= sizeof(dir))
		return -ENAMETOOLONG;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 0, path);
	const int fd = sb_scratch_create(slash == path ? "/" : dir, ".storbench-", ".tmp", flags,
					 tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	int e = prep ? prep(fd, ctx) : 0;
	/* the name is still the old file's, and the swap gave it */
	if (!e)
		e = sb_scratch_same(path, old) == 1 ? exchange(tmp, path) : -ESTALE;
	if (!e && sb_scratch_same(tmp, old) != 1) {
		exchange(tmp, path); /* what it took is put back */
		e = -ESTALE;
	}
	const int gone = e ? fd : old;
	sb_scratch_remove(tmp, gone); /* tmp names it now */
	close(gone);
	if (e)
		return e == -EINVAL || e == -ENOSYS ? -EOPNOTSUPP : e;
	return fd;
}

/* Without /proc: the same description, O_DIRECT as asked. */
static int reopen_dup(int fd, int flags)
{
	const int have = fcntl(fd, F_GETFL);
	if (have < 0)
		return -errno;
	if ((flags & O_SYNC & ~have) || (flags & O_DSYNC & ~have))
		return -EOPNOTSUPP;
	const int n = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (n < 0)
		return -errno;
	int e = 0;
	if (((have ^ flags) & O_DIRECT) &&
	    fcntl(n, F_SETFL, (have & ~O_DIRECT) | (flags & O_DIRECT)) < 0)
		e = -errno;
	if (!e && (flags & O_TRUNC) && ftruncate(n, 0) < 0)
		e = -errno;
	if (!e && lseek(n, 0, SEEK_SET) < 0)
		e = -errno;
	if (e)
		close(n);
	return e ? e : n;
}

int sb_scratch_reopen(int fd, int flags)
{
	char link[64];
	struct stat a, b;
	const int have = fcntl(fd, F_GETFL);
	if (have < 0 || fstat(fd, &a) < 0)
		return -errno;
	/* write access only where the descriptor has it (the write gate's) */
	if ((flags & O_ACCMODE) != O_RDONLY && (have & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	const int n = open(link, (flags & ~(O_CREAT | O_EXCL)) | O_CLOEXEC);
	if (n < 0) {
		const int e = errno;
		if (e == ENOENT && access("/proc/self/fd", F_OK) < 0)
			return reopen_dup(fd, flags);
		return -e;
	}
	/* the link names the open file itself; a mismatch would be a bug */
	if (fstat(n, &b) < 0 || !same_file(&a, &b)) {
		close(n);
		return -ESTALE;
	}
	return n;
}
