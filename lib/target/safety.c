/*
 * Is a block device in use? Every device that shares data with it — the
 * whole disk, each partition, and whatever holds any of them (dm, md, LVM),
 * recursively — is collected as a dev_t and compared with the devices of
 * every mount (/proc/self/mountinfo, and the mount source for filesystems
 * with anonymous device numbers such as btrfs) and of every swap area.
 */
#include "lib/target/safety.h"
#include "lib/target/target.h"

#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAX_DEVS 512

struct devset {
	dev_t dev[MAX_DEVS];
	char name[MAX_DEVS][32];
	unsigned n;
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

static int has(const struct devset *s, dev_t d)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->dev[i] == d)
			return 1;
	return 0;
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
	for (unsigned i = 0; i < s->n; i++)
		if (s->dev[i] == d)
			return s->name[i];
	return "?";
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
			sb_mountinfo_unescape(mnt);
			snprintf(where, len, "/dev/%s is mounted on %s", name_of(s, d), mnt);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static int check_swaps(const struct devset *s, char *where, size_t len)
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
		if (stat(name, &st) < 0)
			continue;
		dev_t d = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
		if (has(s, d)) {
			snprintf(where, len, "/dev/%s is used as swap (%s)", name_of(s, d), name);
			found = 1;
		}
	}
	fclose(f);
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
			snprintf(s->name[s->n++], sizeof(s->name[0]), "%u:%u", major(dev), minor(dev));
		}
		r = check_mounts(s, where, wherelen);
		if (r == 0)
			r = check_swaps(s, where, wherelen);
	}
	free(s);
	return r;
}
