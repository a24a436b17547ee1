/*
 * The devices a target stands on, as the kernel names them in its
 * messages (kmsg.h): read once from sysfs when a soak starts. A disk's
 * partitions come from its directory, what is under a device from its
 * slaves/ and a loop device's backing file, what is over it from its
 * holders/ and the loop devices over its node, its controllers from the
 * components of its path under /sys/devices.
 */
#include "lib/device/kmsg.h"
#include "lib/device/sysfs.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define DEPTH_MAX 8 /* loop over dm over md...: deeper is a loop in sysfs */

int sb_kmsg_stack_has(const struct sb_kmsg_stack *st, const char *name)
{
	for (unsigned i = 0; st && i < st->n; i++)
		if (!strcmp(st->name[i], name))
			return 1;
	return 0;
}

int sb_kmsg_stack_add(struct sb_kmsg_stack *st, const char *name)
{
	if (!name[0] || strlen(name) >= SB_KMSG_NAME_LEN || sb_kmsg_stack_has(st, name))
		return 0;
	if (st->n == SB_KMSG_STACK_MAX)
		return -ENOSPC;
	snprintf(st->name[st->n++], SB_KMSG_NAME_LEN, "%s", name);
	return 0;
}

struct walk {
	struct sb_kmsg_stack *st;
	const char *sys;
};

/* sys/class/block/NAME[/sub] */
static int block_path(const struct walk *w, char *buf, size_t len, const char *name,
		      const char *sub)
{
	const int n = snprintf(buf, len, "%s/class/block/%s%s%s", w->sys, name, sub ? "/" : "",
			       sub ? sub : "");
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* prefix followed by digits only ("ata1", "host0") */
static int numbered(const char *s, const char *prefix)
{
	const size_t n = strlen(prefix);
	return !strncmp(s, prefix, n) && s[n] && strspn(s + n, "0123456789") == strlen(s + n);
}

/* digits and separators only, with sep n times ("0:0:0:0": 3 ':') */
static int digits_with(const char *s, const char *seps, char sep, unsigned n)
{
	unsigned k = 0;
	if (s[0] < '0' || s[0] > '9' || strspn(s, seps) != strlen(s))
		return 0;
	for (; *s; s++)
		k += *s == sep;
	return n ? k == n : k > 0;
}

/* A component of a device's path under /sys/devices that the kernel's
 * messages name: a controller or host (ata1, host0, mmc0, nvme0,
 * virtio1), a SCSI address (0:0:0:0), a USB port (1-1, 2-1.4). */
static int controller(const char *c)
{
	static const char *const prefixes[] = { "ata", "host", "mmc", "nvme", "virtio" };
	for (size_t i = 0; i < SB_ARRAY_SIZE(prefixes); i++)
		if (numbered(c, prefixes[i]))
			return 1;
	return digits_with(c, "0123456789:", ':', 3) || digits_with(c, "0123456789-.", '-', 1);
}

/* The controllers of a device: the components of path's real path. */
static void controllers(struct walk *w, const char *path)
{
	char real[PATH_MAX];
	if (!realpath(path, real))
		return;
	char *save = NULL;
	for (char *c = strtok_r(real, "/", &save); c; c = strtok_r(NULL, "/", &save))
		if (controller(c))
			sb_kmsg_stack_add(w->st, c);
}

static int add_device(struct walk *w, const char *name, int depth, int over);

/* Every entry of sys/class/block/NAME/SUB (slaves, holders) added. */
static void each(struct walk *w, const char *name, const char *sub, int depth, int over)
{
	char path[PATH_MAX];
	if (block_path(w, path, sizeof(path), name, sub) < 0)
		return;
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			add_device(w, e->d_name, depth + 1, over);
	if (d)
		closedir(d);
}

/* The block device of dev_t d ("" none). */
static void name_of(const struct walk *w, dev_t d, char *out, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX];
	out[0] = 0;
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u", w->sys, major(d), minor(d));
	if (!realpath(path, real))
		return;
	const char *base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (strlen(base) < len)
		memcpy(out, base, strlen(base) + 1);
}

/* A loop device: what its backing file is on (a device node: that
 * device; a file: its filesystem's device). */
static void loop_backing(struct walk *w, const char *name, int depth)
{
	char path[PATH_MAX], file[PATH_MAX], dev[SB_KMSG_NAME_LEN];
	struct stat st;
	if (block_path(w, path, sizeof(path), name, "loop") < 0 ||
	    sb_sysfs_text(path, "backing_file", file, sizeof(file)) < 0 || stat(file, &st) < 0)
		return;
	name_of(w, S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev, dev, sizeof(dev));
	if (dev[0])
		add_device(w, dev, depth + 1, 0);
}

/* Loop devices whose backing file is the node of device name itself. */
static void loops_over(struct walk *w, const char *name, int depth)
{
	char path[PATH_MAX], devt[32], file[PATH_MAX];
	struct stat st;
	unsigned ma, mi;
	if (block_path(w, path, sizeof(path), name, NULL) < 0 ||
	    sb_sysfs_text(path, "dev", devt, sizeof(devt)) < 0 ||
	    sscanf(devt, "%u:%u", &ma, &mi) != 2)
		return;
	snprintf(path, sizeof(path), "%s/class/block", w->sys);
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char lp[PATH_MAX];
		if (strncmp(e->d_name, "loop", 4) ||
		    block_path(w, lp, sizeof(lp), e->d_name, "loop") < 0 ||
		    sb_sysfs_text(lp, "backing_file", file, sizeof(file)) < 0)
			continue;
		if (stat(file, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == makedev(ma, mi))
			add_device(w, e->d_name, depth + 1, 1);
	}
	if (d)
		closedir(d);
}

/* A disk's partitions: the entries of its directory that are partitions. */
static void partitions(struct walk *w, const char *disk)
{
	char path[PATH_MAX], sub[PATH_MAX];
	if (block_path(w, path, sizeof(path), disk, NULL) < 0)
		return;
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || strncmp(e->d_name, disk, strlen(disk)))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s/partition", path, e->d_name) <
			    (int)sizeof(sub) &&
		    exists(sub))
			sb_kmsg_stack_add(w->st, e->d_name);
	}
	if (d)
		closedir(d);
}

/* name, its disk and partitions, what is under it, and (over: the device
 * the target is, and what holds it) what is over it. */
static int add_device(struct walk *w, const char *name, int depth, int over)
{
	char path[PATH_MAX], real[PATH_MAX];
	if (depth > DEPTH_MAX || sb_kmsg_stack_has(w->st, name))
		return 0;
	int e = sb_kmsg_stack_add(w->st, name);
	if (e || block_path(w, path, sizeof(path), name, NULL) < 0 || !exists(path))
		return e;
	/* a partition: its disk, the directory it sits in */
	char part[PATH_MAX + 16];
	snprintf(part, sizeof(part), "%s/partition", path);
	if (exists(part) && realpath(path, real)) {
		char *slash = strrchr(real, '/');
		if (slash) {
			*slash = 0;
			slash = strrchr(real, '/');
			if (slash)
				add_device(w, slash + 1, depth + 1, 0);
		}
	} else {
		partitions(w, name);
	}
	each(w, name, "slaves", depth, 0);
	if (!strncmp(name, "loop", 4))
		loop_backing(w, name, depth);
	if (over) {
		each(w, name, "holders", depth, 1);
		loops_over(w, name, depth);
	}
	/* a device of hardware: the controllers on its path (a loop or dm
	 * device's path has none) */
	snprintf(part, sizeof(part), "%s/device", path);
	if (exists(part)) {
		controllers(w, path);
		controllers(w, part);
	}
	return 0;
}

int sb_kmsg_stack_build(struct sb_kmsg_stack *st, const char *sys, const char *devname)
{
	struct walk w = { st, sys && *sys ? sys : "/sys" };
	memset(st, 0, sizeof(*st));
	if (!devname || !*devname)
		return 0;
	return add_device(&w, devname, 0, 1);
}
