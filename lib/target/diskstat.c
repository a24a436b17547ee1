/*
 * Disk statistics from /sys/class/block/NAME/stat: 11 fields up to Linux
 * 4.18, 15 with the discard counters (4.18), 17 with flushes (5.5). See
 * Documentation/block/stat.rst.
 */
#include "lib/target/target.h"

#include <fcntl.h>
#include <inttypes.h>
#include <unistd.h>

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
	char path[128], buf[512];
	ssize_t n;

	if (!devname[0] || strchr(devname, '/') || strcmp(devname, ".") == 0 ||
	    strcmp(devname, "..") == 0)
		return -EINVAL;
	if (snprintf(path, sizeof(path), "/sys/class/block/%s/stat", devname) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	const int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	const int err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	return sb_diskstat_parse(buf, out);
}
