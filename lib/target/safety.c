/*
 * Is a block device in use? Every device that shares data with it — the
 * whole disk, each partition, whatever holds any of them (dm, md, LVM), and
 * every loop device over any of them or under them (a loop device is
 * neither a partition nor a holder: losetup claims nothing) — recursively,
 * is collected as a dev_t and compared with the devices of every mount
 * (/proc/self/mountinfo, and the mount source for filesystems with
 * anonymous device numbers such as btrfs) and of every swap area. A loop
 * device over a file on a filesystem that lives on one of them uses it too,
 * mounted or not (a lazy unmount leaves the filesystem alive). Two loop
 * devices over one file (by device and inode: a second losetup of an
 * image, or of a hard link to it) are one storage, and a loop device over
 * an active swap file is that swap.
 */
#include "lib/target/safety.h"
#include "lib/target/hold.h"
#include "lib/target/target.h"
#include "lib/target/mountinfo.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAX_DEVS 512
#define MAX_FILES 64

/* A file under a loop device of the set, by device and inode: every
 * loop device over it shares the set's data. */
struct backfile {
	dev_t dev;
	ino_t ino;
	char path[PATH_MAX];
	char loop[32]; /* the first loop device of the set found over it */
};

struct devset {
	dev_t dev[MAX_DEVS];
	char name[MAX_DEVS][32];
	unsigned n;
	struct backfile file[MAX_FILES];
	unsigned nfiles;
	/* 1 + the index in file[] of the file through which the device
	 * joined, 0 when it joined otherwise, and the loop device over that
	 * file it joined with (itself, or its disk): for the message */
	unsigned via[MAX_DEVS], root[MAX_DEVS];
};

static int read_dev_file(const char *dir, dev_t *out)
{
	char path[PATH_MAX], buf[32];
	unsigned ma, mi;
	snprintf(path, sizeof(path), "%s/dev", dir);
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	int ok = fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &ma, &mi) == 2;
	fclose(f);
	if (!ok)
		return -EINVAL;
	*out = makedev(ma, mi);
	return 0;
}

/* The index of d in the set, s->n when it is not there. */
static unsigned index_of(const struct devset *s, dev_t d)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->dev[i] == d)
			return i;
	return s->n;
}

static int has(const struct devset *s, dev_t d)
{
	return index_of(s, d) < s->n;
}

static void add_dir(struct devset *s, const char *dir, int depth);

/* Everything in dir/holders (device-mapper, md, bcache...) and below. */
static void add_holders(struct devset *s, const char *dir, int depth)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/holders", dir);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char h[PATH_MAX];
		snprintf(h, sizeof(h), "/sys/class/block/%s", e->d_name);
		add_dir(s, h, depth + 1);
	}
	closedir(d);
}

/* A sysfs block directory: its dev_t, its holders, and its partitions. */
static void add_dir(struct devset *s, const char *dir, int depth)
{
	dev_t dv = 0;
	if (depth > 16 || s->n >= MAX_DEVS || read_dev_file(dir, &dv) < 0 || has(s, dv))
		return;
	s->dev[s->n] = dv;
	const char *base = strrchr(dir, '/');
	snprintf(s->name[s->n], sizeof(s->name[0]), "%s", base ? base + 1 : dir);
	s->n++;
	add_holders(s, dir, depth);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		char sub[PATH_MAX], part[PATH_MAX + 16];
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		snprintf(part, sizeof(part), "%s/partition", sub);
		if (access(part, F_OK) == 0)
			add_dir(s, sub, depth + 1);
	}
	closedir(d);
}

/* The whole disk's sysfs directory for dev. */
static int disk_dir(dev_t dev, char *out, size_t len)
{
	char link[PATH_MAX], real[PATH_MAX], part[PATH_MAX + 16];
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, real))
		return -errno;
	snprintf(part, sizeof(part), "%s/partition", real);
	if (access(part, F_OK) == 0) {
		char *slash = strrchr(real, '/');
		if (slash)
			*slash = 0;
	}
	snprintf(out, len, "%s", real);
	return 0;
}

static const char *name_of(const struct devset *s, dev_t d)
{
	const unsigned i = index_of(s, d);
	return i < s->n ? s->name[i] : "?";
}

/* What a loop device reads and writes: the device and inode of its backing
 * file, and for a block device its number (rdev). */
struct backing {
	dev_t dev, rdev;
	ino_t ino; /* of the backing file, 0 when not known */
	int is_blk;
	char path[PATH_MAX];
};

/* The kernel's huge_encode_dev: major in bits 8-19, minor in 0-7 and 20-31. */
static dev_t decode_dev(uint64_t d)
{
	return makedev((unsigned)((d >> 8) & 0xfff),
		       (unsigned)((d & 0xff) | ((d >> 12) & 0xfff00)));
}

/* LOOP_GET_STATUS64 on /dev/NAME when that node is the device itself; the
 * numbers hold even when the backing file was renamed or deleted. */
static int backing_ioctl(const char *name, dev_t self, struct backing *b)
{
	char node[300];
	struct stat st;
	struct loop_info64 li;
	snprintf(node, sizeof(node), "/dev/%s", name);
	const int fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int e = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == self ? 0 : -ENODEV;
	if (!e && ioctl(fd, LOOP_GET_STATUS64, &li) < 0)
		e = -errno;
	close(fd);
	if (e)
		return e;
	b->dev = decode_dev(li.lo_device);
	b->rdev = decode_dev(li.lo_rdevice);
	b->ino = (ino_t)li.lo_inode;
	b->is_blk = b->rdev != 0;
	return 0;
}

/* The backing of loop device dir (a /sys/class/block entry): 0, or -ENXIO
 * when it has none (not set up), -errno when it cannot be told. */
static int loop_backing(const char *dir, const char *name, dev_t self, struct backing *b)
{
	char path[PATH_MAX + 32];
	struct stat st;
	memset(b, 0, sizeof(*b));
	snprintf(path, sizeof(path), "%s/loop/backing_file", dir);
	FILE *f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ENXIO : -errno;
	const int got = fgets(b->path, sizeof(b->path), f) != NULL;
	fclose(f);
	if (!got)
		return -ENXIO;
	b->path[strcspn(b->path, "\n")] = '\0';
	if (backing_ioctl(name, self, b) == 0)
		return 0;
	/* no /dev node of it here: the path, while it still names the file */
	if (stat(b->path, &st) < 0)
		return -errno;
	b->dev = st.st_dev;
	b->ino = st.st_ino;
	b->is_blk = S_ISBLK(st.st_mode);
	b->rdev = b->is_blk ? st.st_rdev : 0;
	return 0;
}

/* The whole family of the device with number dev: its disk, partitions,
 * holders; joined through the file via (1 + index, 0 none). */
static int disk_dir(dev_t dev, char *out, size_t len);
static void add_family(struct devset *s, dev_t dev, unsigned via)
{
	char disk[PATH_MAX];
	const unsigned first = s->n;
	if (!has(s, dev) && disk_dir(dev, disk, sizeof(disk)) == 0)
		add_dir(s, disk, 1);
	for (unsigned i = first; i < s->n; i++) {
		s->via[i] = via;
		s->root[i] = first;
	}
}

/* 1 + the index of the file (dev, ino) in the set, 0 when not there. */
static unsigned file_in(const struct devset *s, dev_t dev, ino_t ino)
{
	for (unsigned i = 0; i < s->nfiles; i++)
		if (s->file[i].dev == dev && s->file[i].ino == ino)
			return i + 1;
	return 0;
}

static void add_file(struct devset *s, const struct backing *b, const char *loop)
{
	if (s->nfiles >= MAX_FILES || file_in(s, b->dev, b->ino))
		return;
	struct backfile *f = &s->file[s->nfiles++];
	f->dev = b->dev;
	f->ino = b->ino;
	memcpy(f->path, b->path, sizeof(f->path));
	snprintf(f->loop, sizeof(f->loop), "%.31s", loop);
}

/* One loop device against the set: 1 with where filled when it is backed
 * by a file on a filesystem of the set (in use), else 0, the set grown by
 * what it shares with the set: the device under it, the loop over a
 * device of the set (and what holds it), the file under it and every loop
 * device over that file. */
static int join_loop(struct devset *s, const char *name, dev_t self, const struct backing *b,
		     char *where, size_t len)
{
	if (b->is_blk) {
		if (has(s, b->rdev) && !has(s, self))
			add_family(s, self, 0);
		else if (has(s, self) && !has(s, b->rdev))
			add_family(s, b->rdev, 0);
		return 0;
	}
	if (has(s, b->dev)) {
		snprintf(where, len, "/dev/%s is backed by %s, a file on /dev/%s", name, b->path,
			 name_of(s, b->dev));
		return 1;
	}
	if (!b->ino)
		return 0;
	if (has(s, self))
		add_file(s, b, name);
	const unsigned f = file_in(s, b->dev, b->ino);
	if (f && !has(s, self))
		add_family(s, self, f);
	return 0;
}

/* Loop devices join the set until it grows no more (a loop over a loop
 * over a shared file is found in a later round). 1 with where filled when
 * one is backed by a file on a filesystem of the set, else 0. */
static int add_loops(struct devset *s, char *where, size_t len)
{
	unsigned before = 0, files = 0;
	for (unsigned round = 0; (before != s->n || files != s->nfiles) && round < 16; round++) {
		before = s->n;
		files = s->nfiles;
		DIR *d = opendir("/sys/class/block");
		if (!d)
			return 0;
		struct dirent *e;
		int found = 0;
		while (!found && (e = readdir(d))) {
			char dir[300];
			struct backing b;
			dev_t self;
			if (strncmp(e->d_name, "loop", 4))
				continue;
			snprintf(dir, sizeof(dir), "/sys/class/block/%s", e->d_name);
			if (read_dev_file(dir, &self) < 0 ||
			    loop_backing(dir, e->d_name, self, &b) < 0)
				continue;
			found = join_loop(s, e->d_name, self, &b, where, len);
		}
		closedir(d);
		if (found)
			return 1;
	}
	return 0;
}

/* "; /dev/loop1 is over the same file as /dev/loop2 (/x.img)" when
 * device i joined through a shared file, "" otherwise. */
static void why_joined(const struct devset *s, unsigned i, char *out, size_t len)
{
	out[0] = '\0';
	if (i < s->n && s->via[i]) {
		const struct backfile *f = &s->file[s->via[i] - 1];
		snprintf(out, len, "; /dev/%s is over the same file as /dev/%s (%s)",
			 s->name[s->root[i]], f->loop, f->path);
	}
}

static int check_mounts(const struct devset *s, char *where, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	char line[8192];
	int found = 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned ma, mi;
		char mnt[4096], src[4096];
		char *sep = strstr(line, " - ");
		if (sscanf(line, "%*s %*s %u:%u %*s %4095s", &ma, &mi, mnt) != 3 || !sep ||
		    sscanf(sep + 3, "%*s %4095s", src) != 1)
			continue;
		dev_t d = makedev(ma, mi);
		struct stat st;
		sb_mountinfo_unescape(src);
		if (!has(s, d) && src[0] == '/' && stat(src, &st) == 0 && S_ISBLK(st.st_mode))
			d = st.st_rdev; /* btrfs and others report an anonymous dev */
		if (has(s, d)) {
			char why[600];
			sb_mountinfo_unescape(mnt);
			why_joined(s, index_of(s, d), why, sizeof(why));
			snprintf(where, len, "/dev/%s is mounted on %s%s", name_of(s, d), mnt, why);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* Every active swap area of /proc/swaps, stat'ed, to match until it says
 * 1: 1 then, 0 when none did, -errno when the list cannot be read. */
static int each_swap(int (*match)(const char *name, const struct stat *st, void *ctx), void *ctx)
{
	FILE *f = fopen("/proc/swaps", "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	char line[4096], name[4096];
	int found = 0;
	while (!found && fgets(line, sizeof(line), f)) {
		struct stat st;
		if (sscanf(line, "%4095s", name) != 1 || name[0] != '/')
			continue;
		sb_mountinfo_unescape(name);
		found = stat(name, &st) == 0 && match(name, &st, ctx);
	}
	fclose(f);
	return found;
}

struct swap_in_set {
	const struct devset *s;
	char *where;
	size_t len;
};

/* A swap area on a device of the set, or a swap file a loop device of the
 * set is over (the loop device would write the swap under the kernel). */
static int swap_in_set(const char *name, const struct stat *st, void *ctx)
{
	const struct swap_in_set *c = ctx;
	const dev_t d = S_ISBLK(st->st_mode) ? st->st_rdev : st->st_dev;
	const unsigned f = S_ISREG(st->st_mode) ? file_in(c->s, st->st_dev, st->st_ino) : 0;
	char why[600];
	if (f) {
		const struct backfile *b = &c->s->file[f - 1];
		snprintf(c->where, c->len, "/dev/%s is over %s, an active swap file", b->loop,
			 name);
		return 1;
	}
	if (!has(c->s, d))
		return 0;
	why_joined(c->s, index_of(c->s, d), why, sizeof(why));
	snprintf(c->where, c->len, "/dev/%s is used as swap (%s)%s", name_of(c->s, d), name, why);
	return 1;
}

static int check_swaps(const struct devset *s, char *where, size_t len)
{
	struct swap_in_set c = { s, where, len };
	return each_swap(swap_in_set, &c);
}

/* Claimed by the kernel: a device of the set that an exclusive open finds
 * busy is held by a filesystem (mounted, or lazily unmounted and still
 * alive, which no mount table lists), a RAID or device-mapper array, a
 * swap area, or another program's exclusive open. Only devices with a
 * /dev node of their own are asked (O_NONBLOCK: no media check). */
static int check_claims(const struct devset *s, char *where, size_t len)
{
	for (unsigned i = 0; i < s->n; i++) {
		char node[64], why[600];
		struct stat st;
		snprintf(node, sizeof(node), "/dev/%s", s->name[i]);
		if (stat(node, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != s->dev[i])
			continue;
		const int fd = open(node, O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			continue;
		}
		if (errno != EBUSY)
			continue;
		why_joined(s, i, why, sizeof(why));
		const long who = sb_hold_path(node); /* a storbench run names itself */
		if (who > 0) {
			snprintf(where, len, "another storbench run (pid %ld) is using it (%s)%s", who,
				 node, why);
			return 1;
		}
		snprintf(where, len,
			 "%s is held by the kernel or another program (a filesystem, mounted or "
			 "lazily unmounted, a RAID or device-mapper array, swap)%s",
			 node, why);
		return 1;
	}
	return 0;
}

/* 1 when a loop device reads and writes the regular file st names, with
 * name filled; the numbers come from LOOP_GET_STATUS64 (they hold when the
 * file was renamed), else from stat of the backing path. */
static int backs_loop(const struct stat *me, char *name, size_t len)
{
	DIR *d = opendir("/sys/class/block");
	if (!d)
		return 0;
	struct dirent *e;
	int found = 0;
	while (!found && (e = readdir(d))) {
		char dir[300];
		struct backing b;
		struct stat st;
		dev_t self;
		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(dir, sizeof(dir), "/sys/class/block/%s", e->d_name);
		if (read_dev_file(dir, &self) < 0 || loop_backing(dir, e->d_name, self, &b) < 0 ||
		    b.is_blk)
			continue;
		if (b.ino)
			found = b.dev == me->st_dev && b.ino == me->st_ino;
		else
			found = stat(b.path, &st) == 0 && st.st_dev == me->st_dev &&
				st.st_ino == me->st_ino;
		if (found)
			snprintf(name, len, "/dev/%s", e->d_name);
	}
	closedir(d);
	return found;
}

static int same_file(const char *name, const struct stat *st, void *ctx)
{
	const struct stat *me = ctx;
	(void)name;
	return st->st_dev == me->st_dev && st->st_ino == me->st_ino;
}

int sb_file_in_use(int fd, char *why, size_t len)
{
	struct stat me;
	if (fstat(fd, &me) < 0)
		return -errno;
	if (!S_ISREG(me.st_mode))
		return 0;
	char loop[300];
	if (backs_loop(&me, loop, sizeof(loop))) {
		snprintf(why, len, "the backing file of %s (detach it first: losetup -d %s)", loop,
			 loop);
		return 1;
	}
	const int found = each_swap(same_file, &me);
	if (found == 1)
		snprintf(why, len, "an active swap file (swapoff it first)");
	return found;
}

int sb_dev_in_use(dev_t dev, char *where, size_t wherelen)
{
	struct devset *s = calloc(1, sizeof(*s));
	char disk[PATH_MAX];
	if (!s)
		return -ENOMEM;
	int r = disk_dir(dev, disk, sizeof(disk));
	if (r == 0) {
		add_dir(s, disk, 0);
		if (!has(s, dev) && s->n < MAX_DEVS) {
			s->dev[s->n] = dev;
			snprintf(s->name[s->n++], sizeof(s->name[0]), "%u:%u", major(dev),
				 minor(dev));
		}
		r = add_loops(s, where, wherelen);
		if (r == 0)
			r = check_mounts(s, where, wherelen);
		if (r == 0)
			r = check_swaps(s, where, wherelen);
		if (r == 0)
			r = check_claims(s, where, wherelen);
	}
	free(s);
	return r;
}
