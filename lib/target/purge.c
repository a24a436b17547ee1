/*
 * Purge through the block layer: BLKSECDISCARD (the device must erase the
 * blocks, copies included) and BLKDISCARD (it may forget them), each over
 * the whole device. PTS names ATA SECURITY ERASE, SANITIZE, NVMe Format and
 * Sanitize as purge methods too (METHODS.md 3.1); they need their own
 * admin commands and are refused by name until they are built.
 */
#include "lib/target/purge.h"

#include <linux/fs.h>
#include <sys/ioctl.h>

static const char *const names[SB_PURGE_NMETHODS] = {
	[SB_PURGE_AUTO] = "auto",	  [SB_PURGE_NONE] = "none",
	[SB_PURGE_DISCARD] = "discard",	  [SB_PURGE_SECURE_DISCARD] = "secure-discard",
	[SB_PURGE_SANITIZE] = "sanitize", [SB_PURGE_FORMAT] = "format",
};

const char *sb_purge_name(enum sb_purge_method m)
{
	return (unsigned)m < SB_PURGE_NMETHODS ? names[m] : "?";
}

int sb_purge_by_name(const char *name)
{
	for (int i = 0; i < SB_PURGE_NMETHODS; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -EINVAL;
}

const char *sb_purge_supported(void)
{
	return "secure-discard, discard";
}

/* One ioctl over [0, size): 0 or -errno. */
static int range_ioctl(int fd, unsigned long req, uint64_t size)
{
	uint64_t range[2] = { 0, size };
	return ioctl(fd, req, range) < 0 ? -errno : 0;
}

static int refused(struct sb_error *er, const char *path, enum sb_purge_method m, int e)
{
	const int unsupported = e == -EOPNOTSUPP || e == -EINVAL || e == -ENOTTY;
	return sb_error_set(er, e, unsupported ? SB_ERR_INPUT : SB_ERR_ENV,
			    "--purge=%s: '%s' %s%s (nothing was written)", sb_purge_name(m), path,
			    unsupported ? "does not support " : "failed: ",
			    unsupported
				    ? (m == SB_PURGE_SECURE_DISCARD ? "secure discard" : "discard")
				    : strerror(-e));
}

int sb_purge(int fd, const char *path, enum sb_purge_method m, enum sb_purge_method *used,
	     struct sb_error *er)
{
	uint64_t size = 0;
	*used = SB_PURGE_NONE;
	if (m == SB_PURGE_NONE)
		return 0;
	if (m == SB_PURGE_SANITIZE || m == SB_PURGE_FORMAT)
		return sb_error_set(er, -ENOSYS, SB_ERR_INPUT,
				    "--purge=%s: not supported by this storbench yet (supported: "
				    "%s, or auto)",
				    sb_purge_name(m), sb_purge_supported());
	if (ioctl(fd, BLKGETSIZE64, &size) < 0)
		return sb_error_set(er, -errno, SB_ERR_ENV, "cannot purge '%s': %s", path,
				    strerror(errno));
	int e = -EOPNOTSUPP;
	if (m == SB_PURGE_AUTO || m == SB_PURGE_SECURE_DISCARD) {
		e = range_ioctl(fd, BLKSECDISCARD, size);
		if (!e) {
			*used = SB_PURGE_SECURE_DISCARD;
			return 0;
		}
		if (m == SB_PURGE_SECURE_DISCARD || (e != -EOPNOTSUPP && e != -EINVAL))
			return refused(er, path, SB_PURGE_SECURE_DISCARD, e);
	}
	e = range_ioctl(fd, BLKDISCARD, size);
	if (!e) {
		*used = SB_PURGE_DISCARD;
		return 0;
	}
	if (m == SB_PURGE_AUTO && (e == -EOPNOTSUPP || e == -EINVAL))
		return sb_error_set(er, e, SB_ERR_INPUT,
				    "--purge=auto: '%s' supports none of %s (nothing was "
				    "written; --purge=none runs without a purge, a deviation "
				    "from PTS)",
				    path, sb_purge_supported());
	return refused(er, path, SB_PURGE_DISCARD, e);
}
