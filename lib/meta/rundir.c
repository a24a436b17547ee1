/*
 * The run directory of storbench meta: created exclusively under a name
 * nobody can guess, held open from then on, marked by a file inside, and
 * emptied of nothing but what storbench puts there. A directory left by a
 * killed run keeps its mark, so the next run can name it.
 */
#include "lib/meta/meta.h"
#include "lib/target/scratch.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PREFIX ".storbench-meta-"

/* ".storbench-meta-<pid>-<hex>" (decimal digits in older runs): 1 with
 * *pid set, else 0. */
static int parse_name(const char *base, long *pid)
{
	const size_t pl = strlen(PREFIX);
	if (strncmp(base, PREFIX, pl))
		return 0;
	char *end;
	errno = 0;
	*pid = strtol(base + pl, &end, 10);
	if (errno || end == base + pl || *end != '-' || *pid <= 0)
		return 0;
	const char *n = end + 1;
	if (!*n)
		return 0;
	for (; *n; n++)
		if (!((*n >= '0' && *n <= '9') || (*n >= 'a' && *n <= 'f')))
			return 0;
	return 1;
}

static const char *base_of(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* The marker: a file naming the process, created exclusively. */
static int write_marker(int dfd)
{
	char line[64];
	int fd = openat(dfd, SB_META_MARKER, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0600);
	if (fd < 0)
		return -errno;
	int len = snprintf(line, sizeof(line), "storbench meta %ld\n", (long)getpid());
	int e = write(fd, line, (size_t)len) == len ? 0 : -EIO;
	if (close(fd) < 0 && !e)
		e = -errno;
	if (e)
		unlinkat(dfd, SB_META_MARKER, 0);
	return e;
}

/* The directory just made, not one put in its place (a symlink, or a
 * directory of someone else's): ours, without permissions for others.
 * 0700 again by descriptor: a umask may have taken bits of ours. */
static int open_made(const char *path)
{
	struct stat st;
	const int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	if (fstat(dfd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 077) ||
	    fchmod(dfd, 0700) < 0) {
		close(dfd);
		return -EEXIST;
	}
	return dfd;
}

int sb_meta_rundir_create(const char *parent, char *out, size_t outlen)
{
	for (unsigned n = 0; n < 16; n++) {
		int e = sb_scratch_name(out, outlen, parent, PREFIX, "");
		if (e < 0)
			return e;
		if (mkdir(out, 0700) < 0) {
			if (errno == EEXIST)
				continue;
			return -errno;
		}
		const int dfd = open_made(out);
		if (dfd < 0)
			return dfd; /* swapped under us: not ours, left alone */
		e = write_marker(dfd);
		if (!e)
			return dfd;
		close(dfd);
		rmdir(out);
		return e;
	}
	return -EEXIST;
}

int sb_meta_rundir_is_ours(const char *path)
{
	struct stat st;
	long pid;
	char m[4096];
	if (lstat(path, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || !parse_name(base_of(path), &pid))
		return 0;
	snprintf(m, sizeof(m), "%s/%s", path, SB_META_MARKER);
	if (lstat(m, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	return S_ISREG(st.st_mode);
}

/* A subdirectory name of ours: five digits. */
static int is_subdir_name(const char *n)
{
	if (strlen(n) != 5)
		return 0;
	for (int i = 0; i < 5; i++)
		if (n[i] < '0' || n[i] > '9')
			return 0;
	return 1;
}

/* Reading a directory without malloc (readdir allocates): getdents64
 * into a buffer on the stack, so that a signal handler may do it. */
struct dent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Calls fn(ctx, dfd, entry) for each entry of the directory open at dfd,
 * through a description of its own (dfd's offset is left alone). 0 or
 * -errno. */
static int each_entry(int dfd, void (*fn)(void *ctx, int dfd, const struct dent64 *e), void *ctx)
{
	char buf[4096] __attribute__((aligned(8)));
	const int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	long n;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (long off = 0; off < n;) {
			const struct dent64 *e = (const struct dent64 *)(buf + off);
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				fn(ctx, dfd, e);
			off += e->d_reclen;
		}
	const int err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

static void remove_entry(void *ctx, int dfd, const struct dent64 *e);

/* Remove our test files in the directory open at dfd; subdirectories of
 * ours are emptied and removed too (depth 1 only). Until a pass finds
 * nothing more: entries removed while reading may hide others. */
static void remove_ours(int dfd, int depth)
{
	for (int pass = 0; pass < 4; pass++) {
		int ctx[2] = { depth, 0 }; /* depth, how many removed */
		each_entry(dfd, remove_entry, ctx);
		if (!ctx[1])
			break;
	}
}

static void remove_entry(void *ctx, int dfd, const struct dent64 *e)
{
	int *c = ctx; /* depth, removed */
	const char *name = e->d_name;
	if (e->d_type == DT_DIR || (e->d_type == DT_UNKNOWN && is_subdir_name(name))) {
		if (c[0] > 0 || !is_subdir_name(name))
			return;
		int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			return;
		remove_ours(sub, c[0] + 1);
		close(sub);
		c[1] += unlinkat(dfd, name, AT_REMOVEDIR) == 0;
		return;
	}
	if (sb_meta_is_file_name(name) || (c[0] == 0 && !strcmp(name, SB_META_IO_FILE)))
		c[1] += unlinkat(dfd, name, 0) == 0;
}

static void count_other(void *ctx, int dfd, const struct dent64 *e)
{
	(void)dfd;
	*(int *)ctx += strcmp(e->d_name, SB_META_MARKER) != 0;
}

/* 1 when the directory at dfd holds nothing but the marker. */
static int only_marker_left(int dfd)
{
	int others = 0;
	return each_entry(dfd, count_other, &others) == 0 && others == 0;
}

int sb_meta_rundir_remove_fd(int dfd, const char *path)
{
	char parent[4096];
	struct stat mine, there;
	const char *slash = strrchr(path, '/');
	const size_t plen = slash ? (size_t)(slash - path) : 0;
	if (plen >= sizeof(parent))
		return -ENAMETOOLONG;
	memcpy(parent, path, plen);
	parent[plen] = '\0';
	if (slash && plen == 0)
		memcpy(parent, "/", 2);
	const char *base = slash ? slash + 1 : path;

	remove_ours(dfd, 0);
	if (!only_marker_left(dfd))
		return -ENOTEMPTY; /* something not ours: keep it, and the mark */
	if (fstat(dfd, &mine) < 0)
		return -errno;
	/* the name, checked and removed through one descriptor of its parent */
	const int pfd = open(slash ? parent : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	int e = 0;
	if (fstatat(pfd, base, &there, AT_SYMLINK_NOFOLLOW) < 0)
		e = -errno;
	else if (there.st_dev != mine.st_dev || there.st_ino != mine.st_ino)
		e = -ESTALE; /* the name names another now: ours stays, marked */
	else if (unlinkat(dfd, SB_META_MARKER, 0) < 0 && errno != ENOENT)
		e = -errno;
	else if (unlinkat(pfd, base, AT_REMOVEDIR) < 0)
		e = -errno;
	close(pfd);
	return e;
}

int sb_meta_rundir_remove(const char *path)
{
	int ours = sb_meta_rundir_is_ours(path);
	if (ours <= 0)
		return ours < 0 ? ours : -EPERM;
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	const int e = sb_meta_rundir_remove_fd(dfd, path);
	close(dfd);
	return e;
}

/* Is process pid still running (a zombie is not)? */
static int running(long pid)
{
	char path[64], buf[256];
	if (pid == (long)getpid())
		return 1;
	if (kill((pid_t)pid, 0) < 0 && errno != EPERM)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 1; /* no /proc: trust kill() */
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *close_paren = strrchr(buf, ')'); /* "pid (comm) S ..." */
	return !(close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z');
}

int sb_meta_leftovers(const char *parent, void (*cb)(void *ctx, const char *path), void *ctx)
{
	DIR *d = opendir(parent);
	struct dirent *e;
	char path[4096];
	int n = 0;
	long pid;
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (!parse_name(e->d_name, &pid))
			continue;
		if (running(pid))
			continue; /* its run is still going */
		snprintf(path, sizeof(path), "%s/%s", parent, e->d_name);
		if (sb_meta_rundir_is_ours(path) != 1)
			continue;
		cb(ctx, path);
		n++;
	}
	closedir(d);
	return n;
}
