/*
 * The run directory of storbench meta: created exclusively, marked by a
 * file inside, and emptied of nothing but what storbench puts there. A
 * directory left by a killed run keeps its mark, so the next run can name
 * it.
 */
#include "lib/meta/meta.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#define PREFIX ".storbench-meta-"

/* ".storbench-meta-<pid>-<n>": 1 with *pid set, else 0. */
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
		if (*n < '0' || *n > '9')
			return 0;
	return 1;
}

static const char *base_of(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* The marker: a file naming the process, created exclusively. */
static int write_marker(const char *dir)
{
	char m[4096], line[64];
	snprintf(m, sizeof(m), "%s/%s", dir, SB_META_MARKER);
	int fd = open(m, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	int len = snprintf(line, sizeof(line), "storbench meta %ld\n", (long)getpid());
	int e = write(fd, line, (size_t)len) == len ? 0 : -EIO;
	if (close(fd) < 0 && !e)
		e = -errno;
	if (e)
		unlink(m);
	return e;
}

int sb_meta_rundir_create(const char *parent, char *out, size_t outlen)
{
	for (unsigned n = 0; n < 1000; n++) {
		int k = snprintf(out, outlen, "%s/" PREFIX "%ld-%u", parent, (long)getpid(), n);
		if (k < 0 || (size_t)k >= outlen)
			return -ENAMETOOLONG;
		if (mkdir(out, 0700) < 0) {
			if (errno == EEXIST)
				continue;
			return -errno;
		}
		int e = write_marker(out);
		if (e)
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

/* Remove our test files in the directory open at dfd; subdirectories of
 * ours are emptied and removed too (depth 1 only). */
static void remove_ours(int dfd, int depth)
{
	DIR *d = fdopendir(dup(dfd));
	struct dirent *e;
	if (!d)
		return;
	rewinddir(d); /* a dup shares the offset of an earlier pass */
	while ((e = readdir(d))) {
		if (e->d_type == DT_DIR || (e->d_type == DT_UNKNOWN && is_subdir_name(e->d_name))) {
			if (depth > 0 || !is_subdir_name(e->d_name))
				continue;
			int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0)
				continue;
			remove_ours(sub, depth + 1);
			close(sub);
			unlinkat(dfd, e->d_name, AT_REMOVEDIR);
			continue;
		}
		if (sb_meta_is_file_name(e->d_name) || (depth == 0 && !strcmp(e->d_name, SB_META_IO_FILE)))
			unlinkat(dfd, e->d_name, 0);
	}
	closedir(d);
}

/* 1 when the directory at dfd holds nothing but the marker. */
static int only_marker_left(int dfd)
{
	DIR *d = fdopendir(dup(dfd));
	struct dirent *e;
	int only = 1;
	if (!d)
		return 0;
	rewinddir(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, SB_META_MARKER))
			only = 0;
	closedir(d);
	return only;
}

int sb_meta_rundir_remove(const char *path)
{
	int ours = sb_meta_rundir_is_ours(path);
	if (ours <= 0)
		return ours < 0 ? ours : -EPERM;
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	remove_ours(dfd, 0);
	int e = 0;
	if (!only_marker_left(dfd))
		e = -ENOTEMPTY; /* something not ours: keep it, and the mark */
	else if (unlinkat(dfd, SB_META_MARKER, 0) < 0)
		e = -errno;
	close(dfd);
	if (!e && rmdir(path) < 0)
		e = -errno;
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
