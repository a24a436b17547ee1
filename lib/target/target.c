/*
 * sb_target_probe: what a path is and what stores it, from stat(), sysfs
 * and /proc/self/mountinfo. Nothing is changed, except that the O_DIRECT
 * probe of a directory creates a file and unlinks it at once.
 */
#include "lib/target/target.h"
#include "lib/target/mountinfo.h"
#include "lib/device/sysfs.h"

#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static int copy_str(char *dst, size_t size, const char *src)
{
	const size_t len = strlen(src);
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(dst, src, len + 1);
	return 0;
}

/* Kernel names of device maj:min and of its whole disk. The
 * /sys/dev/block link ends in ".../block/sda" or, for a partition,
 * ".../block/sda/sda1". */
static int kernel_name(unsigned maj, unsigned min, struct sb_target_info *t)
{
	char link[64], dest[PATH_MAX], attr[96];
	struct stat st;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", maj, min);
	const ssize_t n = readlink(link, dest, sizeof(dest) - 1);
	if (n < 0)
		return -errno;
	dest[n] = '\0';
	char *base = strrchr(dest, '/');
	base = base ? base + 1 : dest;
	if (copy_str(t->devname, sizeof(t->devname), base))
		return -ENAMETOOLONG;
	snprintf(attr, sizeof(attr), "%s/partition", link);
	if (stat(attr, &st) == 0 && base > dest) {
		base[-1] = '\0';
		char *parent = strrchr(dest, '/');
		base = parent ? parent + 1 : dest;
	}
	if (copy_str(t->disk, sizeof(t->disk), base)) {
		t->devname[0] = '\0';
		return -ENAMETOOLONG;
	}
	t->dev_major = maj;
	t->dev_minor = min;
	return 0;
}

/* Size of devname; queue and device attributes of the whole disk.
 * Returns whether the block sizes were found. */
static int describe_disk(struct sb_target_info *t)
{
	char dev[PATH_MAX], disk[PATH_MAX], buf[256];
	uint64_t v;
	int have_bs = 0;

	snprintf(dev, sizeof(dev), SB_SYS_BLOCK "/%s", t->devname);
	snprintf(disk, sizeof(disk), SB_SYS_BLOCK "/%s", t->disk);
	if (sb_sysfs_u64(dev, "size", &v) == 0)
		t->capacity = v * 512;
	if (sb_sysfs_u64(disk, "queue/logical_block_size", &v) == 0 && v) {
		t->logical_bs = (uint32_t)v;
		have_bs = 1;
	}
	if (sb_sysfs_u64(disk, "queue/physical_block_size", &v) == 0 && v)
		t->physical_bs = (uint32_t)v;
	if (sb_sysfs_u64(disk, "queue/rotational", &v) == 0)
		t->rotational = v != 0;
	if (sb_sysfs_text(disk, "queue/scheduler", buf, sizeof(buf)) == 0)
		sb_sysfs_selected(buf, t->scheduler, sizeof(t->scheduler));
	sb_sysfs_text(disk, "queue/write_cache", t->write_cache, sizeof(t->write_cache));
	sb_sysfs_text(disk, "device/model", t->model, sizeof(t->model));
	return have_bs;
}

/* Opens the device read-only to test O_DIRECT and to ask what sysfs did not
 * tell (no /sys mounted, say). */
static void probe_block_fd(const char *path, struct sb_target_info *t, int have_bs)
{
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	uint64_t bytes;
	int lbs, pbs;

	if (fd >= 0) {
		t->direct_ok = 1;
	} else if (errno == EINVAL) {
		t->direct_ok = 0;
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0)
		return;
	if (!t->capacity && ioctl(fd, BLKGETSIZE64, &bytes) == 0)
		t->capacity = bytes;
	if (!have_bs && ioctl(fd, BLKSSZGET, &lbs) == 0 && lbs > 0)
		t->logical_bs = (uint32_t)lbs;
	if (!have_bs && ioctl(fd, BLKPBSZGET, &pbs) == 0 && pbs > 0)
		t->physical_bs = (uint32_t)pbs;
	close(fd);
}

static int is_path_prefix(const char *path, const char *dir)
{
	const size_t len = strlen(dir);
	return strncmp(path, dir, len) == 0 &&
	       (path[len] == '/' || path[len] == '\0' || (len == 1 && dir[0] == '/'));
}

/* The mount holding real: the longest mount point that is a prefix of it,
 * the last one listed when mounts are stacked. Fills fstype, mountpoint and
 * source (the mounted device or whatever the filesystem calls it). */
static int find_mount(const char *real, struct sb_target_info *t, char *source, size_t size)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0, best = 0;
	int found = 0;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		/* id parent maj:min root mountpoint options [optional...] - fstype source superopts */
		char *save, *field[5], *tok, *fstype = NULL, *src = NULL;
		int n = 0;

		for (tok = strtok_r(line, " \n", &save); tok && n < 5;
		     tok = strtok_r(NULL, " \n", &save))
			field[n++] = tok;
		while (tok && strcmp(tok, "-") != 0)
			tok = strtok_r(NULL, " \n", &save);
		if (n < 5 || !tok || !(fstype = strtok_r(NULL, " \n", &save)) ||
		    !(src = strtok_r(NULL, " \n", &save)))
			continue;
		sb_mountinfo_unescape(field[4]);
		sb_mountinfo_unescape(src);
		const size_t len = strlen(field[4]);
		if (!is_path_prefix(real, field[4]) || (found && len < best))
			continue;
		found = 1;
		best = len;
		snprintf(t->mountpoint, sizeof(t->mountpoint), "%s", field[4]);
		snprintf(t->fstype, sizeof(t->fstype), "%s", fstype);
		snprintf(source, size, "%s", src);
	}
	free(line);
	fclose(f);
	return found ? 0 : -ENOENT;
}

static enum sb_target_kind kind_of(mode_t mode)
{
	if (S_ISREG(mode))
		return SB_TARGET_FILE;
	if (S_ISDIR(mode))
		return SB_TARGET_DIR;
	if (S_ISBLK(mode))
		return SB_TARGET_BLOCK;
	return SB_TARGET_OTHER;
}

static int parent_dir(const char *path, char *dir, size_t size)
{
	char copy[PATH_MAX];

	if (copy_str(copy, sizeof(copy), path))
		return -ENAMETOOLONG;
	return copy_str(dir, size, dirname(copy));
}

/* 1 when O_DIRECT opens work in dir, 0 when the filesystem refuses them
 * (EINVAL), -1 when we could not tell (no write permission, ...). */
static int direct_probe_dir(const char *dir)
{
	char name[PATH_MAX];

	if (snprintf(name, sizeof(name), "%s/.storbench-probe-%ld", dir, (long)getpid()) >=
	    (int)sizeof(name))
		return -1;
	const int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		close(fd);
		unlink(name);
		return 1;
	}
	if (errno != EINVAL)
		return -1;
	/* Older kernels create the file before refusing O_DIRECT; O_EXCL
	 * means no one else's file had that name. */
	unlink(name);
	return 0;
}

static int direct_probe_file(const char *path)
{
	const int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno == EINVAL ? 0 : -1;
}

/* The block device beneath a file or directory: st_dev, or for
 * filesystems with anonymous device numbers (btrfs) the mounted device. */
static void find_fs_device(dev_t dev, const char *source, struct sb_target_info *t)
{
	struct stat st;

	t->dev_major = major(dev);
	t->dev_minor = minor(dev);
	if (kernel_name(major(dev), minor(dev), t) == 0)
		return;
	if (strncmp(source, "/dev/", 5) == 0 && stat(source, &st) == 0 && S_ISBLK(st.st_mode))
		kernel_name(major(st.st_rdev), minor(st.st_rdev), t);
}

/* Filesystem, device and O_DIRECT support for a file, directory or the
 * parent directory (dir) of a missing file. */
static int describe_fs(const char *path, const char *dir, const struct stat *st,
		       struct sb_target_info *t)
{
	char real[PATH_MAX], source[PATH_MAX] = "";
	struct statvfs vfs;

	if (!realpath(dir, real))
		return -errno;
	find_mount(real, t, source, sizeof(source));
	if (statvfs(real, &vfs) == 0)
		t->fs_free = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	find_fs_device(st->st_dev, source, t);
	if (t->devname[0])
		describe_disk(t);
	if (t->kind == SB_TARGET_FILE)
		t->direct_ok = direct_probe_file(path);
	else
		t->direct_ok = direct_probe_dir(real);
	return 0;
}

static void init_info(struct sb_target_info *t)
{
	memset(t, 0, sizeof(*t));
	t->logical_bs = 512;
	t->physical_bs = 512;
	t->rotational = -1;
	t->direct_ok = -1;
}

int sb_target_probe(const char *path, struct sb_target_info *out)
{
	char dir[PATH_MAX];
	struct stat st;
	int have_bs;

	init_info(out);
	if (copy_str(out->path, sizeof(out->path), path))
		return -ENAMETOOLONG;
	if (stat(path, &st) == 0) {
		out->kind = kind_of(st.st_mode);
	} else {
		if (errno != ENOENT)
			return -errno;
		/* A dangling symlink: creating through it would fail. */
		if (lstat(path, &st) == 0) {
			out->kind = SB_TARGET_OTHER;
			return 0;
		}
		const int err = parent_dir(path, dir, sizeof(dir));
		if (err)
			return err;
		if (stat(dir, &st) != 0)
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
		out->kind = SB_TARGET_NONE;
	}

	switch (out->kind) {
	case SB_TARGET_FILE:
		out->file_size = (uint64_t)st.st_size;
		return describe_fs(path, path, &st, out);
	case SB_TARGET_DIR: return describe_fs(path, path, &st, out);
	case SB_TARGET_NONE: return describe_fs(path, dir, &st, out);
	case SB_TARGET_BLOCK:
		out->dev_major = major(st.st_rdev);
		out->dev_minor = minor(st.st_rdev);
		have_bs = kernel_name(out->dev_major, out->dev_minor, out) == 0 &&
			  describe_disk(out);
		probe_block_fd(path, out, have_bs);
		out->file_size = out->capacity;
		return 0;
	case SB_TARGET_OTHER: return 0;
	}
	return 0;
}
