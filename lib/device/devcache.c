/* The device's volatile write cache through its own command (devcache.h). */
#include "lib/device/devcache.h"
#include "lib/device/ata.h"
#include "lib/device/mmc.h"
#include "lib/device/nvme.h"

#include <fcntl.h>
#include <unistd.h>

static const char *const HOW[] = {
	[SB_DEVCACHE_EMMC] = "eMMC EXT_CSD CACHE_CTRL (SWITCH, CMD6)",
	[SB_DEVCACHE_NVME] = "NVMe Set Features Volatile Write Cache (FID 06h)",
	[SB_DEVCACHE_ATA] = "ATA SET FEATURES write cache (EFh 02h/82h)",
};

#define NOT_MINE 1 /* the probe of one kind: no such device, try the next */

/* NVMe (Base Specification 2.0): Identify Controller VWC (byte 525 bit 0)
 * says whether there is a volatile write cache; Get Features FID 06h
 * (5.27.1.4) reads its state, dword 0 bit 0 WCE. */
static int nvme_state(int fd, const char *node, struct sb_devcache *out, struct sb_error *er)
{
	uint8_t raw[SB_NVME_ID_SIZE];
	struct sb_nvme_id id;
	char why[96];
	uint32_t v = 0;
	if (sb_nvme_nsid(fd) <= 0)
		return NOT_MINE;
	int st = sb_nvme_identify_ctrl_fd(fd, raw);
	if (!st) {
		sb_nvme_id_decode(raw, &id);
		if (!(id.vwc & 1))
			return sb_error_set(er, -ENOENT, SB_ERR_INPUT,
					    "'%s' reports no volatile write cache (NVMe Identify "
					    "Controller VWC bit 0 clear): there is nothing to switch",
					    node);
		st = sb_nvme_get_feature_fd(fd, SB_NVME_FEAT_VWC, &v);
	}
	if (st == -EACCES || st == -EPERM)
		return sb_error_set(er, st, SB_ERR_ENV,
				    "cannot send NVMe admin commands to '%s': %s (needs root: "
				    "CAP_SYS_ADMIN)",
				    node, strerror(-st));
	if (st < 0)
		return sb_error_set(er, st, SB_ERR_ENV,
				    "cannot read the volatile write cache of '%s': %s", node,
				    strerror(-st));
	if (st > 0)
		return sb_error_set(er, -EIO, SB_ERR_ENV,
				    "'%s' answered NVMe Identify / Get Features (Volatile Write "
				    "Cache) with %s",
				    node, sb_nvme_status_text(st, why, sizeof(why)));
	out->on = v & 1;
	out->kind = SB_DEVCACHE_NVME;
	return 0;
}

/* ATA (ACS-4): IDENTIFY DEVICE word 82 bit 5 write cache supported (words
 * 82-83 valid when word 83 bits 15:14 are 01b), word 85 bit 5 enabled
 * (valid when word 87 bits 15:14 are 01b). */
static int ata_state(int fd, const char *node, struct sb_devcache *out, struct sb_error *er)
{
	uint16_t id[SB_ATA_ID_WORDS];
	struct sb_ata_result r;
	char why[128];
	const int e = sb_ata_identify(fd, id, &r);
	if (e == -EOPNOTSUPP)
		return NOT_MINE;
	if (e == -EACCES || e == -EPERM)
		return sb_error_set(er, e, SB_ERR_ENV,
				    "cannot send ATA PASS-THROUGH to '%s': %s (needs root: "
				    "CAP_SYS_RAWIO)",
				    node, strerror(-e));
	if (e) {
		sb_ata_why(&r, e, why, sizeof(why));
		return sb_error_set(er, e, SB_ERR_ENV, "IDENTIFY DEVICE of '%s' failed: %s", node,
				    why);
	}
	if ((id[83] & 0xc000) != 0x4000 || !(id[82] & 0x20))
		return sb_error_set(er, -ENOENT, SB_ERR_INPUT,
				    "'%s' reports no volatile write cache (ATA IDENTIFY word 82 "
				    "bit 5 clear): there is nothing to switch",
				    node);
	if ((id[87] & 0xc000) != 0x4000)
		return sb_error_set(er, -EIO, SB_ERR_ENV,
				    "'%s' does not say whether its write cache is on (ATA IDENTIFY "
				    "word 87 does not mark word 85 valid)",
				    node);
	out->on = (id[85] & 0x20) != 0;
	out->kind = SB_DEVCACHE_ATA;
	return 0;
}

static int mmc_state(int fd, const char *node, struct sb_devcache *out, struct sb_error *er)
{
	uint8_t raw[SB_EXT_CSD_SIZE];
	struct sb_ext_csd e;
	const int err = sb_mmc_ext_csd_fd(fd, raw);
	if (err == -EMEDIUMTYPE)
		return sb_mmc_refuse(er, fd, node, "", "the cache switch",
				     "CACHE_CTRL in EXT_CSD, by SWITCH", NULL);
	if (err == -EACCES || err == -EPERM)
		return sb_error_set(er, err, SB_ERR_ENV,
				    "cannot read the EXT_CSD of '%s': %s (needs root: "
				    "CAP_SYS_RAWIO)",
				    node, strerror(-err));
	if (err == -ENOTTY || err == -ENOTSUP || err == -EINVAL)
		return NOT_MINE;
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
	out->kind = SB_DEVCACHE_EMMC;
	return 0;
}

/* The state of a device of kind, or (kind 0) of whichever kind answers:
 * NVMe, then ATA, then eMMC. */
static int read_state(int fd, const char *node, enum sb_devcache_kind kind, struct sb_devcache *out,
		      struct sb_error *er)
{
	int err = NOT_MINE;
	memset(out, 0, sizeof(*out));
	if (!kind || kind == SB_DEVCACHE_NVME)
		err = nvme_state(fd, node, out, er);
	if (err == NOT_MINE && (!kind || kind == SB_DEVCACHE_ATA))
		err = ata_state(fd, node, out, er);
	if (err == NOT_MINE && (!kind || kind == SB_DEVCACHE_EMMC))
		err = mmc_state(fd, node, out, er);
	if (err == NOT_MINE)
		return sb_error_set(er, -ENOTTY, SB_ERR_INPUT,
				    "'%s' is no eMMC, NVMe or ATA device (none of their commands "
				    "reaches it): storbench switches the cache of an eMMC, NVMe or "
				    "ATA device only",
				    node);
	if (!err)
		out->how = HOW[out->kind];
	return err;
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
	const int err = read_state(fd, node, 0, out, er);
	close(fd);
	return err;
}

/* The command alone: 0, -errno, or (NVMe) a positive status; *why says
 * what the device answered where it refused. */
static int send_switch(int fd, enum sb_devcache_kind kind, int on, char *why, size_t len)
{
	if (kind == SB_DEVCACHE_NVME) {
		/* Set Features FID 06h, CDW11 bit 0 WCE (5.27.1.4). The feature is
		 * the controller's: every namespace of it follows. */
		const int st = sb_nvme_set_feature_fd(fd, SB_NVME_FEAT_VWC, on ? 1u : 0u);
		if (why && st > 0)
			sb_nvme_status_text(st, why, len);
		return st;
	}
	if (kind == SB_DEVCACHE_ATA) {
		/* SET FEATURES (ACS-4 7.45): 02h enable, 82h disable the volatile
		 * write cache. libata revalidates the drive after it, so the
		 * kernel's view follows too (as for hdparm -W). */
		const struct sb_ata_tf tf = { .command = SB_ATA_SET_FEATURES,
					      .protocol = SB_ATA_NONDATA,
					      .feature = on ? 0x02 : 0x82 };
		struct sb_ata_result r;
		const int e = sb_ata_cmd(fd, &tf, NULL, 0, 30000, &r);
		if (why && e)
			sb_ata_why(&r, e, why, len);
		return e;
	}
	const int e = sb_mmc_switch(fd, SB_EXT_CSD_CACHE_CTRL, on ? 1u : 0u, 0);
	if (why && e)
		snprintf(why, len, "%s", strerror(-e));
	return e;
}

static void command_text(enum sb_devcache_kind kind, int on, char *buf, size_t len)
{
	if (kind == SB_DEVCACHE_ATA)
		snprintf(buf, len, "ATA SET FEATURES %s write cache (EFh %02Xh)",
			 on ? "enable" : "disable", on ? 0x02 : 0x82);
	else if (kind == SB_DEVCACHE_NVME)
		snprintf(buf, len, "NVMe Set Features Volatile Write Cache (FID 06h) WCE=%d", on);
	else
		snprintf(buf, len, "SWITCH of CACHE_CTRL (EXT_CSD[33]) to %d", on);
}

static int switch_cache(int fd, const char *node, int on, struct sb_devcache *before,
			struct sb_error *er)
{
	struct sb_devcache c;
	char cmd[96], why[128] = "";
	int err = read_state(fd, node, 0, &c, er);
	if (err)
		return err;
	if (before)
		*before = c;
	if (c.on == on)
		return 0;
	/* what the kernel holds for the device reaches it before the switch */
	fsync(fd);
	command_text(c.kind, on, cmd, sizeof(cmd));
	err = send_switch(fd, c.kind, on, why, sizeof(why));
	if (err)
		return sb_error_set(er, err < 0 ? err : -EIO, SB_ERR_ENV,
				    "'%s' refused %s: %s (the cache stays %s)", node, cmd, why,
				    c.on ? "on" : "off");
	const enum sb_devcache_kind kind = c.kind;
	if ((err = read_state(fd, node, kind, &c, er)))
		return err;
	if (c.on != on)
		return sb_error_set(er, -EIO, SB_ERR_ENV,
				    "'%s' took %s, but its cache still reads %s", node, cmd,
				    c.on ? "on" : "off");
	return 0;
}

int sb_devcache_set(const char *node, int on, struct sb_devcache *before, struct sb_error *er)
{
	if (!node || (on != 0 && on != 1))
		return -EINVAL;
	const int fd = open(node, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sb_error_set(er, -errno, SB_ERR_ENV, "cannot open '%s': %s", node,
				    strerror(errno));
	const int err = switch_cache(fd, node, on, before, er);
	close(fd);
	return err;
}

int sb_devcache_switch_now(const char *node, enum sb_devcache_kind kind, int on)
{
	const int fd = open(node, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	const int err = send_switch(fd, kind, on, NULL, 0);
	close(fd);
	return err < 0 ? err : err > 0 ? -EIO : 0;
}
