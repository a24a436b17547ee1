/*
 * Purge through the block layer: BLKSECDISCARD (the device must erase the
 * blocks, copies included) and BLKDISCARD (it may forget them), each over
 * the whole device; through an eMMC's own commands: ERASE of the whole
 * user area, then SANITIZE_START, which makes the card remove the erased
 * blocks physically (JESD84-B51 6.6.10); through an NVMe namespace's
 * admin commands, Sanitize and Format NVM (lib/device/nvme_purge.c); and
 * an ATA drive's SANITIZE or SECURITY ERASE UNIT (purge_ata.c): the purge
 * methods PTS names (METHODS.md 3.1).
 */
#include "lib/device/purge.h"
#include "lib/device/ata.h"
#include "lib/device/mmc.h"
#include "lib/device/nvme.h"
#include "lib/device/sysfs.h"

#include <linux/fs.h>
#include <sys/ioctl.h>

static const char *const names[SB_PURGE_NOUTCOMES] = {
	[SB_PURGE_AUTO] = "auto",
	[SB_PURGE_NONE] = "none",
	[SB_PURGE_DISCARD] = "discard",
	[SB_PURGE_SECURE_DISCARD] = "secure-discard",
	[SB_PURGE_SANITIZE] = "sanitize",
	[SB_PURGE_FORMAT] = "format",
	[SB_PURGE_SECURE_ERASE] = "secure-erase",
	[SB_PURGE_ATA_SANITIZE_BLOCK] = "sanitize (ATA block erase)",
	[SB_PURGE_ATA_SANITIZE_CRYPTO] = "sanitize (ATA crypto scramble)",
	[SB_PURGE_ATA_ERASE_ENHANCED] = "secure-erase (ATA enhanced)",
	[SB_PURGE_ATA_ERASE_NORMAL] = "secure-erase (ATA normal)",
};

const char *sb_purge_name(enum sb_purge_method m)
{
	return (unsigned)m < SB_PURGE_NOUTCOMES ? names[m] : "?";
}

/* The command a purge carried out other than NVMe's (nvme_purge.c names
 * its own, with its fields), for sb_purge_how's how. */
static const char *command(enum sb_purge_method used)
{
	switch (used) {
	case SB_PURGE_DISCARD: return "BLKDISCARD";
	case SB_PURGE_SECURE_DISCARD: return "BLKSECDISCARD";
	case SB_PURGE_SANITIZE: return "eMMC ERASE + SANITIZE_START";
	case SB_PURGE_ATA_SANITIZE_BLOCK: return "SANITIZE DEVICE BLOCK ERASE EXT";
	case SB_PURGE_ATA_SANITIZE_CRYPTO: return "SANITIZE DEVICE CRYPTO SCRAMBLE EXT";
	case SB_PURGE_ATA_ERASE_ENHANCED: return "SECURITY ERASE UNIT (enhanced)";
	case SB_PURGE_ATA_ERASE_NORMAL: return "SECURITY ERASE UNIT (normal)";
	default: return "none";
	}
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
	return "sanitize (NVMe, eMMC, ATA), format (NVMe), secure-erase (ATA), secure-discard, discard";
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

/* Whether fd is an eMMC that can sanitize: 1 (e filled), 0 no, or -errno
 * with er set when --purge=sanitize was asked of a device that cannot. */
static int mmc_can_sanitize(int fd, const char *path, enum sb_purge_method m, struct sb_ext_csd *e,
			    struct sb_error *er)
{
	uint8_t raw[SB_EXT_CSD_SIZE];
	char type[16];
	/* a partition of an eMMC: the card takes its commands on the whole
	 * disk's node only (the kernel answers EPERM), and ERASE and SANITIZE
	 * act on the whole user area, the partition's neighbours too */
	const int part = sb_sysfs_is_partition(fd) && !sb_mmc_card_type(fd, type, sizeof(type)) &&
			 type[0];
	if (part && m != SB_PURGE_SANITIZE)
		return 0;
	if (part) /* sb_purge_ata refused it first, for every kind of device */
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "--purge=sanitize: '%s' is a partition, and an eMMC sanitize "
				    "acts on the whole card: name the whole disk (nothing was sent)",
				    path);
	const int err = sb_mmc_ext_csd_fd(fd, raw);
	if (err && m != SB_PURGE_SANITIZE)
		return 0;
	if (err == -EMEDIUMTYPE)
		return sb_mmc_refuse(er, fd, path, "--purge=sanitize: ", "sanitize",
				     "ERASE, then SANITIZE_START in EXT_CSD",
				     "--purge=secure-discard or --purge=discard purge an SD card "
				     "through the block layer");
	if (err == -EACCES || err == -EPERM)
		return sb_error_set(er, err, SB_ERR_ENV,
				    "--purge=sanitize: cannot read the EXT_CSD of '%s': %s "
				    "(needs root: CAP_SYS_RAWIO; nothing was written)",
				    path, strerror(-err));
	if (err)
		return sb_error_set(
			er, -EOPNOTSUPP, SB_ERR_INPUT,
			"--purge=sanitize: '%s' is no eMMC (no EXT_CSD: %s), no NVMe "
			"namespace and no ATA drive (no IDENTIFY DEVICE through SG_IO); "
			"storbench sanitizes NVMe, eMMC and ATA only (nothing was written)",
			path, strerror(-err));
	sb_ext_csd_decode(raw, e);
	if ((e->sec_features & SB_EXT_CSD_SEC_SANITIZE) && e->sectors)
		return 1;
	if (m != SB_PURGE_SANITIZE)
		return 0;
	return sb_error_set(er, -EOPNOTSUPP, SB_ERR_INPUT,
			    "--purge=sanitize: '%s' does not support sanitize (%s; nothing was "
			    "written)",
			    path,
			    e->sectors ? "EXT_CSD SEC_FEATURE_SUPPORT bit 6 is clear"
				       : "a byte-addressed card (SEC_COUNT 0)");
}

/* The whole user area erased (CMD35/36/38), then SANITIZE_START: the
 * erase unmaps every block, the sanitize removes the unmapped copies. */
static int mmc_sanitize(int fd, const char *path, const struct sb_ext_csd *e, struct sb_error *er)
{
	const uint32_t last = (uint32_t)(e->sectors - 1);
	int err = sb_mmc_erase_range(fd, e, 0, last, 0);
	if (err)
		return sb_error_set(er, err, SB_ERR_ENV,
				    "--purge=sanitize: '%s' refused ERASE (CMD35/36/38) of sectors "
				    "0-%u: %s (the sanitize was not started)",
				    path, (unsigned)last, strerror(-err));
	err = sb_mmc_switch(fd, SB_EXT_CSD_SANITIZE_START, 1, sb_mmc_sanitize_timeout_ms(e));
	if (err)
		return sb_error_set(er, err, SB_ERR_ENV,
				    "--purge=sanitize: '%s' refused SANITIZE_START (SWITCH of "
				    "EXT_CSD[165]): %s (the device was erased, not sanitized)",
				    path, strerror(-err));
	/* the kernel's cached pages of the device predate the erase */
	ioctl(fd, BLKFLSBUF, 0);
	return 0;
}

int sb_purge(int fd, const char *path, enum sb_purge_method m, enum sb_purge_method *used,
	     struct sb_error *er)
{
	return sb_purge_how(fd, path, m, used, NULL, 0, er);
}

int sb_purge_how(int fd, const char *path, enum sb_purge_method m, enum sb_purge_method *used,
		 char *how, size_t howlen, struct sb_error *er)
{
	uint64_t size = 0;
	char none[1];
	*used = SB_PURGE_NONE;
	if (!how || !howlen) {
		how = none;
		howlen = sizeof(none);
	}
	how[0] = '\0';
	if (m == SB_PURGE_NONE)
		return 0;
	const int nv = sb_nvme_purge(fd, path, m, used, how, howlen, er);
	if (nv <= 0)
		return nv;
	const int ata = sb_purge_ata(fd, path, m, used, er); /* 1: no ATA purge */
	if (ata == 0)
		snprintf(how, howlen, "%s", command(*used));
	if (ata <= 0)
		return ata;
	if (m == SB_PURGE_SANITIZE || m == SB_PURGE_AUTO) {
		struct sb_ext_csd e;
		const int can = mmc_can_sanitize(fd, path, m, &e, er);
		if (can < 0)
			return can;
		if (can) {
			const int err = mmc_sanitize(fd, path, &e, er);
			*used = err ? SB_PURGE_NONE : SB_PURGE_SANITIZE;
			if (!err)
				snprintf(how, howlen, "%s", command(SB_PURGE_SANITIZE));
			return err;
		}
	}
	if (ioctl(fd, BLKGETSIZE64, &size) < 0)
		return sb_error_set(er, -errno, SB_ERR_ENV, "cannot purge '%s': %s", path,
				    strerror(errno));
	int e = -EOPNOTSUPP;
	if (m == SB_PURGE_AUTO || m == SB_PURGE_SECURE_DISCARD) {
		e = range_ioctl(fd, BLKSECDISCARD, size);
		if (!e) {
			*used = SB_PURGE_SECURE_DISCARD;
			snprintf(how, howlen, "%s", command(*used));
			return 0;
		}
		if (m == SB_PURGE_SECURE_DISCARD || (e != -EOPNOTSUPP && e != -EINVAL))
			return refused(er, path, SB_PURGE_SECURE_DISCARD, e);
	}
	e = range_ioctl(fd, BLKDISCARD, size);
	if (!e) {
		*used = SB_PURGE_DISCARD;
		snprintf(how, howlen, "%s", command(*used));
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
