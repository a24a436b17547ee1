/* The device's volatile write cache through its own command (devcache.h). */
#include "lib/target/devcache.h"
#include "lib/target/mmc.h"

#include <fcntl.h>
#include <unistd.h>

static int read_state(int fd, const char *node, struct sb_devcache *out, struct sb_error *er)
{
	uint8_t raw[SB_EXT_CSD_SIZE];
	struct sb_ext_csd e;
	const int err = sb_mmc_ext_csd_fd(fd, raw);
	if (err == -EACCES || err == -EPERM)
		return sb_error_set(er, err, SB_ERR_ENV,
				    "cannot read the EXT_CSD of '%s': %s (needs root: "
				    "CAP_SYS_RAWIO)",
				    node, strerror(-err));
	if (err == -ENOTTY || err == -ENOTSUP || err == -EINVAL)
		return sb_error_set(er, -ENOTTY, SB_ERR_INPUT,
				    "'%s' is no eMMC (no EXT_CSD): storbench switches the cache "
				    "of an eMMC only",
				    node);
	if (err)
		return sb_error_set(er, err, SB_ERR_ENV, "cannot read the EXT_CSD of '%s': %s",
				    node, strerror(-err));
	sb_ext_csd_decode(raw, &e);
	if (!e.cache_bytes)
		return sb_error_set(er, -ENOENT, SB_ERR_INPUT,
				    "'%s' reports no cache (EXT_CSD CACHE_SIZE 0%s): there is "
				    "nothing to switch",
				    node, e.rev < 6 ? ", or an eMMC older than 4.5" : "");
	out->on = e.cache_on;
	out->bytes = e.cache_bytes;
	out->how = SB_DEVCACHE_HOW;
	return 0;
}

int sb_devcache_get(const char *node, struct sb_devcache *out, struct sb_error *er)
{
	if (!node || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	const int fd = open(node, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sb_error_set(er, -errno, SB_ERR_ENV, "cannot open '%s': %s", node,
				    strerror(errno));
	const int err = read_state(fd, node, out, er);
	close(fd);
	return err;
}

static int switch_cache(int fd, const char *node, int on, int *was, struct sb_error *er)
{
	struct sb_devcache c;
	int err = read_state(fd, node, &c, er);
	if (err)
		return err;
	if (was)
		*was = c.on;
	if (c.on == on)
		return 0;
	/* what the kernel holds for the device reaches it before the switch */
	fsync(fd);
	err = sb_mmc_switch(fd, SB_EXT_CSD_CACHE_CTRL, (unsigned)on, 0);
	if (err)
		return sb_error_set(er, err, SB_ERR_ENV,
				    "'%s' refused SWITCH of CACHE_CTRL (EXT_CSD[33]) to %d: %s "
				    "(the cache stays %s)",
				    node, on, strerror(-err), c.on ? "on" : "off");
	if ((err = read_state(fd, node, &c, er)))
		return err;
	if (c.on != on)
		return sb_error_set(er, -EIO, SB_ERR_ENV,
				    "'%s' took SWITCH of CACHE_CTRL (EXT_CSD[33]) to %d, but its "
				    "cache still reads %s",
				    node, on, c.on ? "on" : "off");
	return 0;
}

int sb_devcache_set(const char *node, int on, int *was, struct sb_error *er)
{
	if (!node || (on != 0 && on != 1))
		return -EINVAL;
	const int fd = open(node, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sb_error_set(er, -errno, SB_ERR_ENV, "cannot open '%s': %s", node,
				    strerror(errno));
	const int err = switch_cache(fd, node, on, was, er);
	close(fd);
	return err;
}

int sb_devcache_switch_now(const char *node, int on)
{
	const int fd = open(node, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	const int err = sb_mmc_switch(fd, SB_EXT_CSD_CACHE_CTRL, on ? 1u : 0u, 0);
	close(fd);
	return err;
}
