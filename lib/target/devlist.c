/*
 * A path under /dev that does not exist names a device that is not there
 * (a card not inserted, a typo): never a file to create, which would land
 * on devtmpfs, in RAM. What is there instead: the block devices of
 * /sys/class/block, with their sizes.
 */
#include "lib/target/target.h"
#include "lib/device/sysfs.h"
#include "lib/base/units.h"

#include <dirent.h>
#include <libgen.h>
#include <limits.h>

int sb_target_in_ram(const struct sb_target_info *t)
{
	return !t->devname[0] && (!strcmp(t->fstype, "tmpfs") || !strcmp(t->fstype, "ramfs") ||
				  !strcmp(t->fstype, "devtmpfs"));
}

int sb_target_ram_warning(const struct sb_target_info *t, char *buf, size_t len)
{
	if (!sb_target_in_ram(t))
		return 0;
	snprintf(buf, len,
		 "the target is in RAM (%s on %s): the figures are the memory's, not a storage "
		 "device's",
		 t->fstype, t->mountpoint[0] ? t->mountpoint : "?");
	return 1;
}

static int under_dev(const char *path, const struct sb_target_info *t)
{
	char copy[PATH_MAX], real[PATH_MAX];
	if (t->kind != SB_TARGET_NONE)
		return 0;
	if (!strcmp(t->fstype, "devtmpfs"))
		return 1;
	/* /dev on a tmpfs (a container): its own directory still names devices */
	if (snprintf(copy, sizeof(copy), "%s", path) >= (int)sizeof(copy))
		return 0;
	return realpath(dirname(copy), real) && !strcmp(real, "/dev");
}

int sb_target_missing_device(const char *path, const struct sb_target_info *t, struct sb_error *er)
{
	char devs[2048];
	/* a regular file on devtmpfs stands where a device was (left by a
	 * program that wrote to a device that was not there) */
	const int file = t->kind == SB_TARGET_FILE && !strcmp(t->fstype, "devtmpfs");
	const int dir = t->kind == SB_TARGET_DIR && !strcmp(t->fstype, "devtmpfs");
	if (!file && !dir && !under_dev(path, t))
		return 0;
	sb_block_devices(devs, sizeof(devs));
	if (dir) /* /dev, /dev/disk/by-id: a device was meant */
		return sb_error_set(er, -EISDIR, SB_ERR_INPUT,
				    "cannot use '%s': it is a directory of device nodes (devtmpfs, "
				    "in RAM), not storage: name a device; block devices here: %s",
				    path, devs[0] ? devs : "none");
	/* not there now: the machine's state (a card not inserted, a disk not
	 * attached), as a busy device is, so the environment's exit code */
	return sb_error_set(er, -ENODEV, SB_ERR_ENV,
			    "cannot use '%s': no such device (%s); block devices here: %s", path,
			    file ? "it is a regular file in /dev, in RAM, where a device was "
				   "expected: remove it if a program left it"
				 : "a missing path under /dev is a device that is not there, "
				   "never a file to create",
			    devs[0] ? devs : "none");
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sb_block_devices(char *buf, size_t len)
{
	char *names[256];
	size_t n = 0, at = 0;
	buf[0] = '\0';
	DIR *d = opendir(SB_SYS_BLOCK);
	if (!d)
		return;
	struct dirent *e;
	while (n < SB_ARRAY_SIZE(names) && (e = readdir(d)))
		if (e->d_name[0] != '.' && (names[n] = strdup(e->d_name)))
			n++;
	closedir(d);
	qsort(names, n, sizeof(names[0]), by_name);
	for (size_t i = 0; i < n; i++) {
		char dir[PATH_MAX], size[32];
		uint64_t sectors = 0;
		snprintf(dir, sizeof(dir), SB_SYS_BLOCK "/%s", names[i]);
		/* an unused loop device or an empty card reader holds nothing */
		if (sb_sysfs_u64(dir, "size", &sectors) == 0 && sectors) {
			const int w = snprintf(buf + at, len - at, "%s%s (%s)", at ? ", " : "",
					       names[i],
					       sb_fmt_size(sectors * 512, size, sizeof(size)));
			if (w < 0 || (size_t)w >= len - at) {
				buf[at] = '\0';
				break;
			}
			at += (size_t)w;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
}
