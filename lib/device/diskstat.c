/*
 * Disk statistics from /sys/class/block/NAME/stat: 11 fields up to Linux
 * 4.18, 15 with the discard counters (4.18), 17 with flushes (5.5). See
 * Documentation/block/stat.rst.
 */
#include "lib/device/diskstat.h"
#include "lib/device/sysfs.h"

#include <inttypes.h>

int sb_diskstat_parse(const char *text, struct sb_diskstat *out)
{
	uint64_t v[17];
	int n = 0;

	for (const char *p = text; n < 17; n++) {
		char *end;
		p += strspn(p, " \t\n");
		if (*p < '0' || *p > '9')
			break;
		errno = 0;
		v[n] = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		p = end;
	}
	if (n < 11)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	for (int d = 0; d < 2; d++) {
		out->ios[d] = v[4 * d];
		out->merges[d] = v[4 * d + 1];
		out->sectors[d] = v[4 * d + 2];
		out->ticks[d] = v[4 * d + 3];
	}
	/* v[8] is the number in flight, a gauge we do not keep */
	out->io_ticks = v[9];
	out->in_queue = v[10];
	if (n >= 15) {
		out->discard_ios = v[11];
		out->discard_sectors = v[13];
	}
	return 0;
}

int sb_diskstat_read(const char *devname, struct sb_diskstat *out)
{
	char dir[128], buf[512];

	if (!devname[0] || strchr(devname, '/') || strcmp(devname, ".") == 0 ||
	    strcmp(devname, "..") == 0)
		return -EINVAL;
	if (snprintf(dir, sizeof(dir), SB_SYS_BLOCK "/%s", devname) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	const int err = sb_sysfs_text(dir, "stat", buf, sizeof(buf));
	return err ? err : sb_diskstat_parse(buf, out);
}
