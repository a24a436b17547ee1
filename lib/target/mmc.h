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
	unsigned rev;		   /* EXT_CSD_REV [192] */
	char version[8];	   /* the eMMC version it stands for: "5.1", "" unknown */
	uint64_t sectors;	   /* SEC_COUNT [215:212], 512-byte sectors */
	unsigned life_a, life_b;   /* DEVICE_LIFE_TIME_EST_TYP_A/B [268]/[269]: 0..11 */
	unsigned pre_eol;	   /* PRE_EOL_INFO [267]: 0 undefined, 1..3 */
	uint64_t cache_bytes;	   /* CACHE_SIZE [252:249], 0 when the device has none */
	int cache_on;		   /* CACHE_CTRL [33] bit 0 */
	int bkops_supported;	   /* BKOPS_SUPPORT [502] bit 0 */
	int bkops_manual;	   /* BKOPS_EN [163] bit 0: host-triggered enabled */
	int bkops_auto;		   /* BKOPS_EN [163] bit 1: device-initiated (5.1) */
	unsigned bkops_status;	   /* BKOPS_STATUS [246]: 0 none .. 3 critical */
	unsigned part_config;	   /* PARTITION_CONFIG [179], raw */
	int partitioning_done;	   /* PARTITION_SETTING_COMPLETED [155] */
	unsigned hs_timing;	   /* HS_TIMING [185] low nibble: 0 legacy .. 3 HS400 */
	int enhanced_strobe;	   /* STROBE_SUPPORT [184] */
	unsigned device_type;	   /* DEVICE_TYPE [196], speed modes supported */
	uint64_t boot_size;	   /* BOOT_SIZE_MULT [226] x 128 KiB, each boot area */
	uint64_t rpmb_size;	   /* RPMB_SIZE_MULT [168] x 128 KiB */
	uint64_t erase_group;	   /* HC_ERASE_GRP_SIZE [224] x 512 KiB */
	unsigned rel_wr_sectors;   /* REL_WR_SEC_C [222] */
	unsigned sec_features;	   /* SEC_FEATURE_SUPPORT [231], raw */
	int cmdq_supported;	   /* CMDQ_SUPPORT [308] bit 0 */
	unsigned cmdq_depth;	   /* CMDQ_DEPTH [307] + 1 */
	int cmdq_on;		   /* CMDQ_MODE_EN [15] bit 0 */
	int ffu_supported;	   /* SUPPORTED_MODES [493] bit 0 */
	unsigned data_sector_size; /* DATA_SECTOR_SIZE [61]: 512 or 4096 */
	uint32_t optimal_read, optimal_write, optimal_trim; /* bytes, [266] [265] [264] */
	uint8_t fw_version[8];				    /* FIRMWARE_VERSION [261:254] */
	char fw_text[20];	 /* the same, as text when printable, else hex */
	unsigned device_version; /* DEVICE_VERSION [263:262] */
};

/* Decode raw (SB_EXT_CSD_SIZE bytes). Fields a revision does not define are
 * left 0. Returns 0, or -EINVAL on NULL. */
int sb_ext_csd_decode(const uint8_t *raw, struct sb_ext_csd *out);

/* Read EXT_CSD of the eMMC whose whole-disk node is devnode ("/dev/mmcblk0").
 * 0, -EACCES/-EPERM without privilege, -ENOTTY when the device is no eMMC,
 * other -errno. */
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
 * on a high-capacity card), ERASE (CMD38) with arg (0: erase), in one
 * MMC_IOC_MULTI_CMD. 0 or -errno. */
int sb_mmc_erase(int fd, uint32_t first, uint32_t last, uint32_t arg);

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
