/* Reading sysfs attributes: small text files, read whole and trimmed. */
#include "lib/device/sysfs.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

void sb_sysfs_trim(char *s)
{
	size_t len = strlen(s), skip = strspn(s, " \t\n");
	while (len > skip && strchr(" \t\n", s[len - 1]))
		len--;
	memmove(s, s + skip, len - skip);
	s[len - skip] = '\0';
}

int sb_sysfs_path(char *out, size_t size, const char *dir, const char *name)
{
	const size_t a = strlen(dir), b = strlen(name);
	if (a + 1 + b >= size)
		return -ENAMETOOLONG;
	memcpy(out, dir, a);
	out[a] = '/';
	memcpy(out + a + 1, name, b + 1);
	return 0;
}

int sb_sysfs_text(const char *dir, const char *attr, char *buf, size_t size)
{
	char path[PATH_MAX], tmp[4096];
	ssize_t n;

	if (sb_sysfs_path(path, sizeof(path), dir, attr))
		return -ENAMETOOLONG;
	const int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = read(fd, tmp, sizeof(tmp) - 1);
	while (n < 0 && errno == EINTR);
	const int err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	tmp[n] = '\0';
	sb_sysfs_trim(tmp);
	snprintf(buf, size, "%s", tmp);
	return 0;
}

int sb_sysfs_u64(const char *dir, const char *attr, uint64_t *v)
{
	char buf[64], *end;
	int err = sb_sysfs_text(dir, attr, buf, sizeof(buf));

	if (err)
		return err;
	errno = 0;
	const unsigned long long x = strtoull(buf, &end, 0);
	if (end == buf || errno || *end)
		return -EINVAL;
	*v = x;
	return 0;
}

int sb_sysfs_exists(const char *dir, const char *attr)
{
	char path[PATH_MAX];
	return sb_sysfs_path(path, sizeof(path), dir, attr) == 0 && access(path, F_OK) == 0;
}

void sb_sysfs_selected(const char *list, char *out, size_t size)
{
	const char *open = strchr(list, '['), *close = open ? strchr(open, ']') : NULL;

	if (open && close)
		snprintf(out, size, "%.*s", (int)(close - open - 1), open + 1);
	else if (!strchr(list, ' '))
		snprintf(out, size, "%s", list);
}

int sb_sysfs_is_partition(int fd)
{
	struct stat st;
	char dir[64];
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	return sb_sysfs_exists(dir, "partition");
}
