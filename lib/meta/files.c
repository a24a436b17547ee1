/*
 * bonnie++'s file tests (bon_file.cpp): create, stat and delete N files in
 * sequential, then random order. Files are numbered 0..N-1 and spread in
 * contiguous blocks over the directories; with several threads, directory
 * d belongs to thread d % threads, and so do its files. Each test is timed
 * from the moment every thread is ready to the end of the slowest, and the
 * create and delete tests include a syncfs (bonnie++ calls sync()).
 */
#include "lib/meta/meta_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* First file of directory d: ceil(d * N / D). */
static uint64_t dir_first(const struct sb_meta_files *p, uint64_t d)
{
	return (d * p->nfiles + p->ndirs - 1) / p->ndirs;
}

static unsigned dir_of(const struct sb_meta_files *p, uint64_t i)
{
	return (unsigned)(i * p->ndirs / p->nfiles);
}

/* Names relative to the run directory (p->dirfd). */
static void dir_rel(const struct sb_meta_files *p, unsigned d, char *buf, size_t len)
{
	if (p->ndirs > 1)
		snprintf(buf, len, "%05u", d);
	else
		snprintf(buf, len, ".");
}

static void file_rel(const struct meta_worker *w, uint64_t i, int random_first, char *buf,
		     size_t len)
{
	const struct sb_meta_files *p = w->fr->p;
	char name[SB_META_NAME_MAX];
	sb_meta_file_name(p->seed, i, random_first, name);
	if (p->ndirs > 1)
		snprintf(buf, len, "%05u/%s", dir_of(p, i), name);
	else
		snprintf(buf, len, "%s", name);
}

static uint64_t file_size(const struct sb_meta_files *p, uint64_t i)
{
	if (p->size_max <= p->size_min)
		return p->size_min;
	uint64_t x = p->seed ^ (i * 0xd6e8feb86659fd93ull);
	return p->size_min + sb_splitmix64(&x) % (p->size_max - p->size_min + 1);
}

/* Syncing directories and removing a subdirectory: part of the create
 * and delete tests, timed with them. */
int sb_meta_fsync_fd(int fd)
{
	return fsync(fd) < 0 ? -errno : 0;
}

int sb_meta_fsync_parent(int dfd, const char *rel)
{
	char dir[256];
	const char *slash = strrchr(rel, '/');
	if (!slash)
		return sb_meta_fsync_fd(dfd);
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - rel), rel);
	int fd = openat(dfd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int e = sb_meta_fsync_fd(fd);
	close(fd);
	return e;
}

int sb_meta_remove_subdir(struct meta_worker *w, unsigned d)
{
	char rel[16];
	if (w->fr->p->ndirs < 2)
		return 0;
	sb_meta_dir_rel(w->fr->p, d, rel, sizeof(rel));
	if (unlinkat(w->fr->p->dirfd, rel, AT_REMOVEDIR) == 0)
		return 0;
	w->err = errno;
	sb_meta_shown_path(w->fr->p, rel, w->errpath, sizeof(w->errpath));
	return -w->err;
}

/* rel: where, relative to the run directory ("." for itself). */
static int fail(struct meta_worker *w, int err, const char *rel)
{
	w->err = err;
	sb_meta_shown_path(w->fr->p, rel, w->errpath, sizeof(w->errpath));
	return -err;
}

static int write_data(struct meta_worker *w, int fd, uint64_t size)
{
	const uint32_t chunk = w->fr->p->chunk;
	for (uint64_t done = 0; done < size;) {
		size_t n = (size_t)SB_MIN((uint64_t)chunk, size - done);
		ssize_t k = write(fd, w->buf, n);
		if (k < 0)
			return -errno;
		if (k == 0)
			return -EIO;
		done += (uint64_t)k;
	}
	return 0;
}

static int create_one(struct meta_worker *w, uint64_t i, int random_first)
{
	const struct sb_meta_files *p = w->fr->p;
	char rel[64];
	file_rel(w, i, random_first, rel, sizeof(rel));
	int fd = openat(p->dirfd, rel, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return fail(w, errno, rel);
	int e = write_data(w, fd, file_size(p, i));
	if (!e && p->fsync && fsync(fd) < 0)
		e = -errno;
	if (close(fd) < 0 && !e)
		e = -errno;
	if (!e && p->fsync)
		e = sb_meta_fsync_parent(p->dirfd, rel);
	return e ? fail(w, -e, rel) : 0;
}

/* bonnie++'s stat_file: stat, and read the data when there is any. name is
 * relative to dfd, shown to the run directory. */
static int stat_one(struct meta_worker *w, int dfd, const char *name, const char *shown)
{
	struct stat st;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return fail(w, errno, shown);
	if (!st.st_size)
		return 0;
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail(w, errno, shown);
	int e = 0;
	for (off_t done = 0; done < st.st_size && !e;) {
		ssize_t k = read(fd, w->buf, w->fr->p->chunk);
		if (k < 0)
			e = errno;
		else if (k == 0)
			e = EIO;
		done += k > 0 ? k : 0;
	}
	close(fd);
	return e ? fail(w, e, shown) : 0;
}

static int delete_one(struct meta_worker *w, int dfd, const char *name, const char *shown)
{
	if (unlinkat(dfd, name, 0) < 0)
		return fail(w, errno, shown);
	if (!w->fr->p->fsync)
		return 0;
	int e = sb_meta_fsync_parent(dfd, name);
	return e ? fail(w, -e, shown) : 0;
}

/* Create every file of the worker's directories, in number order. */
static int do_create(struct meta_worker *w, int random_first)
{
	const struct sb_meta_files *p = w->fr->p;
	for (unsigned d = w->id; d < p->ndirs; d += p->nthreads) {
		const uint64_t end = dir_first(p, (uint64_t)d + 1);
		for (uint64_t i = dir_first(p, d); i < end; i++) {
			/* past a stonewall the files are still made (the next
			 * tests need them), untimed */
			if (sb_meta_worker_stop(w))
				return -EINTR;
			const uint64_t t0 = sb_now_ns();
			int e = create_one(w, i, random_first);
			if (e)
				return e;
			sb_meta_op_done(w, t0);
		}
	}
	return 0;
}

/* Sequential stat or delete: each directory in readdir order; the time of
 * an operation includes its readdir, as in bonnie++. */
static int walk_dir(struct meta_worker *w, unsigned d, int del)
{
	char rel[16], shown[300];
	dir_rel(w->fr->p, d, rel, sizeof(rel));
	const int fd = openat(w->fr->p->dirfd, rel,
			      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);
	if (!dir) {
		const int err = errno;
		if (fd >= 0)
			close(fd);
		return fail(w, err, rel);
	}
	int e = 0;
	for (;;) {
		if (sb_meta_worker_stop(w)) {
			e = -EINTR;
			break;
		}
		if (w->walled && !del)
			break; /* a stat test ends at a stonewall; deletes go on */
		const uint64_t t0 = sb_now_ns();
		struct dirent *de = readdir(dir);
		if (!de)
			break;
		if (de->d_name[0] == '.' || !sb_meta_is_file_name(de->d_name))
			continue; /* ".", "..", the marker, and the subdirectories */
		if (w->fr->p->ndirs > 1)
			snprintf(shown, sizeof(shown), "%s/%s", rel, de->d_name);
		else
			snprintf(shown, sizeof(shown), "%s", de->d_name);
		e = del ? delete_one(w, dirfd(dir), de->d_name, shown)
			: stat_one(w, dirfd(dir), de->d_name, shown);
		if (e)
			break;
		sb_meta_op_done(w, t0);
	}
	closedir(dir);
	return e;
}

static int do_walk(struct meta_worker *w, int del)
{
	const struct sb_meta_files *p = w->fr->p;
	for (unsigned d = w->id; d < p->ndirs; d += p->nthreads) {
		int e = walk_dir(w, d, del);
		if (e || (w->walled && !del))
			return e;
		if (del && (e = sb_meta_remove_subdir(w, d)))
			return e;
	}
	return 0;
}

/* Random stat or delete: the shuffled order, this worker's files only. */
static int do_shuffled(struct meta_worker *w, int del)
{
	const struct sb_meta_files *p = w->fr->p;
	char rel[64];
	for (uint64_t k = 0; k < p->nfiles; k++) {
		const uint64_t i = w->fr->order[k];
		if (dir_of(p, i) % p->nthreads != w->id)
			continue;
		if (sb_meta_worker_stop(w))
			return -EINTR;
		if (w->walled && !del)
			return 0;
		file_rel(w, i, 1, rel, sizeof(rel));
		const uint64_t t0 = sb_now_ns();
		int e = del ? delete_one(w, p->dirfd, rel, rel) : stat_one(w, p->dirfd, rel, rel);
		if (e)
			return e;
		sb_meta_op_done(w, t0);
	}
	if (del)
		for (unsigned d = w->id; d < p->ndirs; d += p->nthreads) {
			int e = sb_meta_remove_subdir(w, d);
			if (e)
				return e;
		}
	return 0;
}

int sb_meta_files_op(struct meta_worker *w)
{
	switch (w->fr->test) {
	case SB_META_SEQ_CREATE: return do_create(w, 0);
	case SB_META_RAND_CREATE: return do_create(w, 1);
	case SB_META_SEQ_STAT: return do_walk(w, 0);
	case SB_META_SEQ_DELETE: return do_walk(w, 1);
	case SB_META_RAND_STAT: return do_shuffled(w, 0);
	case SB_META_RAND_DELETE: return do_shuffled(w, 1);
	default: return -EINVAL;
	}
}

void sb_meta_dir_rel(const struct sb_meta_files *p, unsigned d, char *buf, size_t len)
{
	dir_rel(p, d, buf, len);
}

void sb_meta_shown_path(const struct sb_meta_files *p, const char *rel, char *buf, size_t len)
{
	if (!strcmp(rel, "."))
		snprintf(buf, len, "%s", p->dir);
	else
		snprintf(buf, len, "%s/%s", p->dir, rel);
}
