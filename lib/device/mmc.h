/*
 * eMMC: the EXT_CSD register (512 bytes), read with the MMC_IOC_CMD ioctl
 * (SEND_EXT_CSD, CMD8; needs CAP_SYS_RAWIO), and a pure decoder of the
 * fields that matter when qualifying a device: life time estimates,
 * pre-EOL state, cache, background operations, partitions, timing.
 * Byte offsets are those of JEDEC JESD84-B51 as named in the Linux kernel's
 * include/linux/mmc/mmc.h; the notes in mmc.c say where storbench reads a
 * field differently from a tool.
 */
#ifndef SB_MMC_H
#define SB_MMC_H

#include "lib/sb.h"

#define SB_EXT_CSD_SIZE 512

struct sb_ext_csd {
	unsigned rev;		     /* EXT_CSD_REV [192] */
	char version[8];	     /* the eMMC version it stands for: "5.1", "" unknown */
	uint64_t sectors;	     /* SEC_COUNT [215:212], 512-byte sectors */
	unsigned life_a, life_b;     /* DEVICE_LIFE_TIME_EST_TYP_A/B [268]/[269]: 0..11 */
	unsigned pre_eol;	     /* PRE_EOL_INFO [267]: 0 undefined, 1..3 */
	uint64_t cache_bytes;	     /* CACHE_SIZE [252:249], 0 when the device has none */
	int cache_on;		     /* CACHE_CTRL [33] bit 0 */
	int bkops_supported;	     /* BKOPS_SUPPORT [502] bit 0 */
	int bkops_manual;	     /* BKOPS_EN [163] bit 0: host-triggered enabled */
	int bkops_auto;		     /* BKOPS_EN [163] bit 1: device-initiated (5.1) */
	unsigned bkops_status;	     /* BKOPS_STATUS [246]: 0 none .. 3 critical */
	unsigned part_config;	     /* PARTITION_CONFIG [179], raw */
	int partitioning_done;	     /* PARTITION_SETTING_COMPLETED [155] */
	unsigned hs_timing;	     /* HS_TIMING [185] low nibble: 0 legacy .. 3 HS400 */
	int enhanced_strobe;	     /* STROBE_SUPPORT [184] */
	unsigned device_type;	     /* DEVICE_TYPE [196], speed modes supported */
	uint64_t boot_size;	     /* BOOT_SIZE_MULT [226] x 128 KiB, each boot area */
	uint64_t rpmb_size;	     /* RPMB_SIZE_MULT [168] x 128 KiB */
	uint64_t erase_group;	     /* HC_ERASE_GRP_SIZE [224] x 512 KiB */
	unsigned erase_timeout_mult; /* ERASE_TIMEOUT_MULT [223]: x 300 ms per group */
	int erase_group_def;	     /* ERASE_GROUP_DEF [175] bit 0: high-capacity group on */
	unsigned rel_wr_sectors;     /* REL_WR_SEC_C [222] */
	unsigned sec_features;	     /* SEC_FEATURE_SUPPORT [231], raw */
	int cmdq_supported;	     /* CMDQ_SUPPORT [308] bit 0 */
	unsigned cmdq_depth;	     /* CMDQ_DEPTH [307] + 1 */
	int cmdq_on;		     /* CMDQ_MODE_EN [15] bit 0 */
	int ffu_supported;	     /* SUPPORTED_MODES [493] bit 0 */
	unsigned data_sector_size;   /* DATA_SECTOR_SIZE [61]: 512 or 4096 */
	uint32_t optimal_read, optimal_write, optimal_trim; /* bytes, [266] [265] [264] */
	uint8_t fw_version[8];				    /* FIRMWARE_VERSION [261:254] */
	char fw_text[20];	 /* the same, as text when printable, else hex */
	unsigned device_version; /* DEVICE_VERSION [263:262] */
};

/* Decode raw (SB_EXT_CSD_SIZE bytes). Fields a revision does not define are
 * left 0. Returns 0, or -EINVAL on NULL. */
int sb_ext_csd_decode(const uint8_t *raw, struct sb_ext_csd *out);

/* Which card the block device fd (a disk or a partition) is, by the MMC
 * core's sysfs "type" of its card, as health.c tells an SD card: type gets
 * "MMC", "SD", "SDIO", "SDcombo" (or "" when sysfs does not say). 0 for an
 * eMMC and where sysfs cannot tell (not mounted), -EMEDIUMTYPE for a card
 * of another type, -ENOTTY when fd is no block device or on no MMC bus
 * (a loop, an NVMe, a SATA disk). */
int sb_mmc_card_type(int fd, char *type, size_t len);
/* "an SD card", "an SDIO card (no storage)", ... for a message. */
const char *sb_mmc_card_name(const char *type);
/* The refusal of an eMMC command asked of the card under fd, which is no
 * eMMC (sb_mmc_card_type -EMEDIUMTYPE): er says "PRE'NODE' is an SD card:
 * WHAT is an eMMC command (CMD), which SD cards do not have (nothing was
 * sent to it; INSTEAD)" (INSTEAD may be NULL), class input.
 * Returns -EMEDIUMTYPE. */
int sb_mmc_refuse(struct sb_error *er, int fd, const char *node, const char *pre, const char *what,
		  const char *cmd, const char *instead);

/* Every command below is sent only after sb_mmc_card_type said eMMC (or
 * could not tell): to another card they return -EMEDIUMTYPE, to a device
 * on no MMC bus -ENOTTY, and send nothing. */

/* Read EXT_CSD of the eMMC whose whole-disk node is devnode ("/dev/mmcblk0").
 * 0, -EACCES/-EPERM without privilege, -ENOTTY when the device is no eMMC,
 * -EMEDIUMTYPE when it is an SD card (nothing sent), other -errno. */
int sb_mmc_read_ext_csd(const char *devnode, uint8_t out[SB_EXT_CSD_SIZE]);
/* The same on an open whole-disk node. */
int sb_mmc_ext_csd_fd(int fd, uint8_t out[SB_EXT_CSD_SIZE]);

/* EXT_CSD bytes the commands below write (JESD84-B51). */
enum {
	SB_EXT_CSD_CACHE_CTRL = 33,	 /* bit 0: cache on */
	SB_EXT_CSD_SANITIZE_START = 165, /* write 1: sanitize the unmapped blocks */
	SB_EXT_CSD_SEC_SANITIZE = 0x40,	 /* SEC_FEATURE_SUPPORT [231] bit 6 */
};
/* CMD6 SWITCH, WRITE_BYTE: EXT_CSD[index] = value (timeout_ms 0: the
 * kernel's default). 0, or -errno (-EIO: the card answered an error). */
int sb_mmc_switch(int fd, unsigned index, unsigned value, unsigned timeout_ms);
/* ERASE_GROUP_START (CMD35) first, ERASE_GROUP_END (CMD36) last (sectors
 * on a high-capacity card), ERASE (CMD38) with arg (0: erase) and a busy
 * timeout of timeout_ms (0: the kernel's default), in one
 * MMC_IOC_MULTI_CMD. 0 or -errno. */
int sb_mmc_erase(int fd, uint32_t first, uint32_t last, uint32_t arg, unsigned timeout_ms);

/* The longest busy timeout storbench gives one ERASE: a range that would
 * take longer by the card's figures is erased in chunks (10 min). */
#define SB_MMC_ERASE_CAP_MS 600000u
/* The unit ERASE's timeout counts in (JESD84-B51 7.4.62, 7.4.63): with
 * ERASE_GROUP_DEF [175] bit 0 set and HC_ERASE_GRP_SIZE [224] and
 * ERASE_TIMEOUT_MULT [223] given, the high-capacity erase group
 * (HC_ERASE_GRP_SIZE x 1024 sectors) and 300 ms x ERASE_TIMEOUT_MULT per
 * group. Otherwise the card erases in its legacy groups, with the CSD's
 * write timeout per group; the CSD is not readable through MMC_IOC_CMD
 * while the card is selected, so storbench takes 64 MiB units (131072
 * sectors) of SB_MMC_ERASE_CAP_MS each: a bound, not the card's figure. */
void sb_mmc_erase_unit(const struct sb_ext_csd *e, uint32_t *sectors, unsigned *ms);
/* The ERASE commands sectors [first, last] goes out as: chunks of whole
 * units (sb_mmc_erase_unit, counted from sector 0), each within
 * SB_MMC_ERASE_CAP_MS, with the timeout of the units it spans. Calls
 * fn(first, last, timeout_ms, ctx) for each in order and stops at the
 * first non-zero return, which it returns; 0 after the last. */
int sb_mmc_erase_chunks(const struct sb_ext_csd *e, uint32_t first, uint32_t last,
			int (*fn)(uint32_t first, uint32_t last, unsigned timeout_ms, void *ctx),
			void *ctx);
/* sb_mmc_erase over [first, last] in those chunks. 0 or the first -errno. */
int sb_mmc_erase_range(int fd, const struct sb_ext_csd *e, uint32_t first, uint32_t last,
		       uint32_t arg);
/* SANITIZE_START's busy timeout. EXT_CSD gives none; a sanitize removes at
 * most every erase group physically, so the bound is the whole user
 * area's ERASE timeout by the figures above, at least the kernel's own
 * 240 s (MMC_SANITIZE_TIMEOUT_MS, drivers/mmc/core/mmc_ops.c; mmc-utils
 * likewise takes a large fixed one), at most SB_MMC_SANITIZE_MAX_MS (24 h:
 * a card busy longer is taken as hung). */
#define SB_MMC_SANITIZE_MIN_MS 240000u
#define SB_MMC_SANITIZE_MAX_MS 86400000u
unsigned sb_mmc_sanitize_timeout_ms(const struct sb_ext_csd *e);

/* "0-10%" .. "90-100%" used, "exceeded" (beyond the rated life),
 * "not defined" (0), "reserved" (> 11). */
const char *sb_mmc_life_text(unsigned code);
/* "not defined", "normal", "warning" (80% of reserved blocks used),
 * "urgent" (90%), "reserved". */
const char *sb_mmc_pre_eol_text(unsigned code);
/* Speed mode of HS_TIMING: "legacy", "high speed", "HS200", "HS400". */
const char *sb_mmc_timing_text(unsigned hs_timing);
/* Boot partition enabled by PARTITION_CONFIG: "none", "boot0", "boot1",
 * "user", "reserved". */
const char *sb_mmc_boot_text(unsigned part_config);

/* The sysfs attributes life_time ("0x01 0x02") and pre_eol_info ("0x01").
 * 0 or -EINVAL. */
int sb_mmc_parse_life_time(const char *text, unsigned *a, unsigned *b);
int sb_mmc_parse_hex(const char *text, unsigned *v);

#endif
