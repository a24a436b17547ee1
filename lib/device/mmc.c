/*
 * EXT_CSD: reading it from an eMMC and decoding the fields storbench
 * reports. Each field is read only from the revision that defines it
 * (JESD84: 4.41 = rev 5, 4.5 = rev 6, 5.0 = rev 7, 5.1 = rev 8); older
 * devices leave those bytes reserved, and reserved bytes are not data.
 */
#include "lib/device/mmc.h"
#include "lib/device/sysfs.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<linux/mmc/ioctl.h>)
#include <linux/mmc/ioctl.h>
#define SB_HAVE_MMC_IOCTL 1
#endif
#endif

/* EXT_CSD byte offsets (JESD84-B51; the kernel's include/linux/mmc/mmc.h) */
enum {
	ECSD_CMDQ_MODE_EN = 15,
	ECSD_CACHE_CTRL = 33,
	ECSD_DATA_SECTOR_SIZE = 61,
	ECSD_PARTITION_SETTING_COMPLETED = 155,
	ECSD_BKOPS_EN = 163,
	ECSD_ERASE_GROUP_DEF = 175,
	ECSD_RPMB_SIZE_MULT = 168,
	ECSD_PARTITION_CONFIG = 179,
	ECSD_STROBE_SUPPORT = 184,
	ECSD_HS_TIMING = 185,
	ECSD_REV = 192,
	ECSD_DEVICE_TYPE = 196,
	ECSD_SEC_COUNT = 212, /* 4 bytes, little-endian */
	ECSD_REL_WR_SEC_C = 222,
	ECSD_ERASE_TIMEOUT_MULT = 223,
	ECSD_HC_ERASE_GRP_SIZE = 224,
	ECSD_BOOT_SIZE_MULT = 226,
	ECSD_SEC_FEATURE_SUPPORT = 231,
	ECSD_BKOPS_STATUS = 246,
	ECSD_CACHE_SIZE = 249,	     /* 4 bytes */
	ECSD_FIRMWARE_VERSION = 254, /* 8 bytes */
	ECSD_DEVICE_VERSION = 262,   /* 2 bytes */
	ECSD_OPTIMAL_TRIM_UNIT_SIZE = 264,
	ECSD_OPTIMAL_WRITE_SIZE = 265,
	ECSD_OPTIMAL_READ_SIZE = 266,
	ECSD_PRE_EOL_INFO = 267,
	ECSD_LIFE_TIME_EST_A = 268,
	ECSD_LIFE_TIME_EST_B = 269,
	ECSD_CMDQ_DEPTH = 307,
	ECSD_CMDQ_SUPPORT = 308,
	ECSD_SUPPORTED_MODES = 493,
	ECSD_BKOPS_SUPPORT = 502,
};

enum { REV_4_41 = 5, REV_4_5 = 6, REV_5_0 = 7, REV_5_1 = 8 };

#define KIB 1024ull

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void version_name(unsigned rev, char *out, size_t len)
{
	static const char *const names[] = { "4.0",  "4.1", "4.2", "4.3", "",
					     "4.41", "4.5", "5.0", "5.1" };
	snprintf(out, len, "%s", rev < SB_ARRAY_SIZE(names) ? names[rev] : "");
}

/* Firmware version: vendors put ASCII ("0400") or binary there; show
 * text when every byte up to the first NUL is printable, hex otherwise. */
static void fw_text(const uint8_t fw[8], char *out, size_t len)
{
	size_t n = 0;
	while (n < 8 && fw[n] && isprint(fw[n]))
		n++;
	int text = n > 0;
	for (size_t i = n; i < 8; i++)
		text = text && fw[i] == 0;
	if (text) {
		snprintf(out, len, "%.*s", (int)n, (const char *)fw);
		return;
	}
	size_t o = 0;
	for (size_t i = 0; i < 8 && o + 3 <= len; i++)
		o += (size_t)snprintf(out + o, len - o, "%02x", fw[i]);
}

static void decode_4_41(const uint8_t *raw, struct sb_ext_csd *e)
{
	e->bkops_supported = raw[ECSD_BKOPS_SUPPORT] & 1;
	e->bkops_manual = raw[ECSD_BKOPS_EN] & 1;
	e->bkops_status = raw[ECSD_BKOPS_STATUS] & 3;
	e->partitioning_done = raw[ECSD_PARTITION_SETTING_COMPLETED] & 1;
}

/* CACHE_SIZE counts kilobits (JESD84-B45 on: "cache size = CACHE_SIZE x
 * 1 Kb"); mmc-utils divides by 8 to print KiB. */
static void decode_4_5(const uint8_t *raw, struct sb_ext_csd *e)
{
	e->cache_bytes = (uint64_t)le32(raw + ECSD_CACHE_SIZE) * 1024 / 8;
	e->cache_on = e->cache_bytes ? raw[ECSD_CACHE_CTRL] & 1 : 0;
	e->data_sector_size = raw[ECSD_DATA_SECTOR_SIZE] == 1 ? 4096 : 512;
}

/* Optimal sizes: read and write in 4 KiB units, trim as 4 KiB << (n - 1). */
static void decode_5_0(const uint8_t *raw, struct sb_ext_csd *e)
{
	e->pre_eol = raw[ECSD_PRE_EOL_INFO];
	e->life_a = raw[ECSD_LIFE_TIME_EST_A];
	e->life_b = raw[ECSD_LIFE_TIME_EST_B];
	memcpy(e->fw_version, raw + ECSD_FIRMWARE_VERSION, sizeof(e->fw_version));
	fw_text(e->fw_version, e->fw_text, sizeof(e->fw_text));
	e->device_version = raw[ECSD_DEVICE_VERSION] | (unsigned)raw[ECSD_DEVICE_VERSION + 1] << 8;
	e->ffu_supported = raw[ECSD_SUPPORTED_MODES] & 1;
	e->optimal_read = raw[ECSD_OPTIMAL_READ_SIZE] * 4 * (uint32_t)KIB;
	e->optimal_write = raw[ECSD_OPTIMAL_WRITE_SIZE] * 4 * (uint32_t)KIB;
	const unsigned t = raw[ECSD_OPTIMAL_TRIM_UNIT_SIZE];
	e->optimal_trim = t >= 1 && t <= 20 ? (uint32_t)(4 * KIB) << (t - 1) : 0;
}

static void decode_5_1(const uint8_t *raw, struct sb_ext_csd *e)
{
	e->bkops_auto = (raw[ECSD_BKOPS_EN] >> 1) & 1;
	e->enhanced_strobe = raw[ECSD_STROBE_SUPPORT] & 1;
	e->cmdq_supported = raw[ECSD_CMDQ_SUPPORT] & 1;
	e->cmdq_depth = e->cmdq_supported ? (raw[ECSD_CMDQ_DEPTH] & 0x1f) + 1u : 0;
	e->cmdq_on = raw[ECSD_CMDQ_MODE_EN] & 1;
}

int sb_ext_csd_decode(const uint8_t *raw, struct sb_ext_csd *out)
{
	if (!raw || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	struct sb_ext_csd *e = out;
	e->rev = raw[ECSD_REV];
	version_name(e->rev, e->version, sizeof(e->version));
	e->sectors = le32(raw + ECSD_SEC_COUNT);
	e->part_config = raw[ECSD_PARTITION_CONFIG];
	e->hs_timing = raw[ECSD_HS_TIMING] & 0x0f;
	e->device_type = raw[ECSD_DEVICE_TYPE];
	e->boot_size = raw[ECSD_BOOT_SIZE_MULT] * 128 * KIB;
	e->rpmb_size = raw[ECSD_RPMB_SIZE_MULT] * 128 * KIB;
	e->erase_group = raw[ECSD_HC_ERASE_GRP_SIZE] * 512 * KIB;
	e->rel_wr_sectors = raw[ECSD_REL_WR_SEC_C];
	e->erase_timeout_mult = raw[ECSD_ERASE_TIMEOUT_MULT];
	e->erase_group_def = raw[ECSD_ERASE_GROUP_DEF] & 1;
	e->sec_features = raw[ECSD_SEC_FEATURE_SUPPORT];
	if (e->rev >= REV_4_41)
		decode_4_41(raw, e);
	if (e->rev >= REV_4_5)
		decode_4_5(raw, e);
	if (e->rev >= REV_5_0)
		decode_5_0(raw, e);
	if (e->rev >= REV_5_1)
		decode_5_1(raw, e);
	return 0;
}

const char *sb_mmc_life_text(unsigned code)
{
	static const char *const used[] = { "not defined", "0-10%",  "10-20%",	"20-30%",
					    "30-40%",	   "40-50%", "50-60%",	"60-70%",
					    "70-80%",	   "80-90%", "90-100%", "exceeded" };
	return code < SB_ARRAY_SIZE(used) ? used[code] : "reserved";
}

const char *sb_mmc_pre_eol_text(unsigned code)
{
	static const char *const names[] = { "not defined", "normal", "warning", "urgent" };
	return code < SB_ARRAY_SIZE(names) ? names[code] : "reserved";
}

const char *sb_mmc_timing_text(unsigned hs_timing)
{
	static const char *const names[] = { "legacy", "high speed", "HS200", "HS400" };
	return hs_timing < SB_ARRAY_SIZE(names) ? names[hs_timing] : "reserved";
}

/* BOOT_PARTITION_ENABLE, bits 5:3 of PARTITION_CONFIG. JEDEC calls the two
 * boot areas partition 1 and 2; Linux names them mmcblkNboot0 and boot1. */
const char *sb_mmc_boot_text(unsigned part_config)
{
	switch ((part_config >> 3) & 7) {
	case 0: return "none";
	case 1: return "boot0";
	case 2: return "boot1";
	case 7: return "user";
	default: return "reserved";
	}
}

int sb_mmc_parse_hex(const char *text, unsigned *v)
{
	char *end;
	if (!text || !v)
		return -EINVAL;
	errno = 0;
	const unsigned long x = strtoul(text, &end, 16);
	if (end == text || errno || x > 0xffffffffu)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	*v = (unsigned)x;
	return 0;
}

int sb_mmc_parse_life_time(const char *text, unsigned *a, unsigned *b)
{
	unsigned x, y;
	char extra;
	if (!text || !a || !b || sscanf(text, "%x %x %c", &x, &y, &extra) != 2)
		return -EINVAL;
	*a = x;
	*b = y;
	return 0;
}

/* ---- ERASE and SANITIZE timeouts ---- */

#define LEGACY_UNIT_SECTORS 131072u /* 64 MiB */

void sb_mmc_erase_unit(const struct sb_ext_csd *e, uint32_t *sectors, unsigned *ms)
{
	const uint64_t grp = e->erase_group / 512;
	if (e->erase_group_def && grp && grp <= UINT32_MAX && e->erase_timeout_mult) {
		*sectors = (uint32_t)grp;
		*ms = 300u * e->erase_timeout_mult; /* at most 76.5 s: within the cap */
	} else {
		*sectors = LEGACY_UNIT_SECTORS;
		*ms = SB_MMC_ERASE_CAP_MS;
	}
}

int sb_mmc_erase_chunks(const struct sb_ext_csd *e, uint32_t first, uint32_t last,
			int (*fn)(uint32_t first, uint32_t last, unsigned timeout_ms, void *ctx),
			void *ctx)
{
	uint32_t unit;
	unsigned ms;
	if (first > last)
		return -EINVAL;
	sb_mmc_erase_unit(e, &unit, &ms);
	const uint64_t per_chunk = SB_MMC_ERASE_CAP_MS / ms; /* units, >= 1 */
	uint64_t at = first;
	while (at <= last) {
		/* up to the end of the unit per_chunk units on, within [at, last] */
		const uint64_t u0 = at / unit;
		const uint64_t end = SB_MIN((u0 + per_chunk) * unit - 1, (uint64_t)last);
		const uint64_t units = end / unit - u0 + 1;
		const int r = fn((uint32_t)at, (uint32_t)end, (unsigned)(units * ms), ctx);
		if (r)
			return r;
		at = end + 1;
	}
	return 0;
}

unsigned sb_mmc_sanitize_timeout_ms(const struct sb_ext_csd *e)
{
	uint32_t unit;
	unsigned ms;
	sb_mmc_erase_unit(e, &unit, &ms);
	const uint64_t units = e->sectors ? (e->sectors - 1) / unit + 1 : 1;
	const uint64_t t = units * ms; /* < 2^32 x 2^20: no overflow */
	return (unsigned)SB_MIN(SB_MAX(t, (uint64_t)SB_MMC_SANITIZE_MIN_MS),
				(uint64_t)SB_MMC_SANITIZE_MAX_MS);
}

struct erase_ctx {
	int fd;
	uint32_t arg;
};

static int erase_one(uint32_t first, uint32_t last, unsigned timeout_ms, void *ctx)
{
	const struct erase_ctx *c = ctx;
	return sb_mmc_erase(c->fd, first, last, c->arg, timeout_ms);
}

int sb_mmc_erase_range(int fd, const struct sb_ext_csd *e, uint32_t first, uint32_t last,
		       uint32_t arg)
{
	struct erase_ctx c = { fd, arg };
	return sb_mmc_erase_chunks(e, first, last, erase_one, &c);
}

/* ---- which card: eMMC commands reach an eMMC only ---- */

/* The whole disk of the block device fd as the block class names it,
 * "/sys/class/block/mmcblk0" (a partition's parent), where devinfo.c
 * reads it too. 0, -ENOTTY when fd is no block device, other -errno when
 * sysfs does not say (not mounted). */
static int disk_dir(int fd, char *out, size_t len)
{
	char link[64], dest[PATH_MAX];
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTTY;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	const ssize_t n = readlink(link, dest, sizeof(dest) - 1);
	if (n < 0)
		return -errno;
	dest[n] = '\0';
	char *base = strrchr(dest, '/');
	base = base ? base + 1 : dest;
	if (sb_sysfs_exists(link, "partition") && base > dest) {
		base[-1] = '\0';
		const char *parent = strrchr(dest, '/');
		base = parent ? (char *)parent + 1 : dest;
	}
	return snprintf(out, len, SB_SYS_BLOCK "/%s", base) < (int)len ? 0 : -ENAMETOOLONG;
}

int sb_mmc_card_type(int fd, char *type, size_t len)
{
	char dir[PATH_MAX], link[PATH_MAX], card[PATH_MAX], sub[PATH_MAX];
	if (!type || !len)
		return -EINVAL;
	type[0] = '\0';
	const int e = disk_dir(fd, dir, sizeof(dir));
	if (e == -ENOTTY)
		return -ENOTTY;
	if (e || sb_sysfs_path(link, sizeof(link), dir, "device"))
		return 0; /* sysfs cannot tell: the command decides */
	if (!realpath(link, card))
		return errno == ENOENT ? -ENOTTY : 0; /* no bus device: loop, dm, zram */
	if (sb_sysfs_path(link, sizeof(link), card, "subsystem"))
		return 0;
	const ssize_t n = readlink(link, sub, sizeof(sub) - 1);
	if (n < 0)
		return 0;
	sub[n] = '\0';
	const char *bus = strrchr(sub, '/');
	if (strcmp(bus ? bus + 1 : sub, "mmc"))
		return -ENOTTY;
	if (sb_sysfs_text(card, "type", type, len))
		return 0;
	return strcmp(type, "MMC") ? -EMEDIUMTYPE : 0;
}

static const struct card_name {
	const char *type, *one, *all;
} card_names[] = {
	{ "SD", "an SD card", "SD cards" },
	{ "SDIO", "an SDIO card (no storage)", "SDIO cards" },
	{ "SDcombo", "an SD combo card (SD memory and SDIO)", "SD cards" },
	{ "MMC", "an eMMC", "eMMCs" },
};

static const struct card_name *card_name(const char *type)
{
	static const struct card_name other = { "", "a card that is no eMMC", "they" };
	for (size_t i = 0; i < SB_ARRAY_SIZE(card_names); i++)
		if (type && !strcmp(type, card_names[i].type))
			return &card_names[i];
	return &other;
}

const char *sb_mmc_card_name(const char *type)
{
	return card_name(type)->one;
}

int sb_mmc_refuse(struct sb_error *er, int fd, const char *node, const char *pre, const char *what,
		  const char *cmd, const char *instead)
{
	char type[16] = "";
	sb_mmc_card_type(fd, type, sizeof(type));
	const struct card_name *n = card_name(type);
	return sb_error_set(er, -EMEDIUMTYPE, SB_ERR_INPUT,
			    "%s'%s' is %s: %s is an eMMC command (%s), which %s do not have "
			    "(nothing was sent to it%s%s)",
			    pre, node, n->one, what, cmd, n->all, instead ? "; " : "",
			    instead ? instead : "");
}

#ifdef SB_HAVE_MMC_IOCTL
/* Response flags of CMD8 as the kernel's mmc core defines them (not in the
 * uapi header): an R1 response (present, CRC, opcode), a data transfer
 * command (ADTC), and the SPI-mode R1 status byte. */
#define MMC_RSP_PRESENT_ (1u << 0)
#define MMC_RSP_CRC_ (1u << 2)
#define MMC_RSP_OPCODE_ (1u << 4)
#define MMC_CMD_ADTC_ (1u << 5)
#define MMC_RSP_SPI_S1_ (1u << 7)
#define MMC_SEND_EXT_CSD_ 8

#define MMC_RSP_BUSY_ (1u << 3)
#define MMC_RSP_SPI_BUSY_ (1u << 10)
#define MMC_SWITCH_ 6
#define MMC_ERASE_GROUP_START_ 35
#define MMC_ERASE_GROUP_END_ 36
#define MMC_ERASE_ 38
/* R1 and R1b (with busy) responses of a command without data (AC). */
#define R1_ (MMC_RSP_SPI_S1_ | MMC_RSP_PRESENT_ | MMC_RSP_CRC_ | MMC_RSP_OPCODE_)
#define R1B_ (R1_ | MMC_RSP_BUSY_ | MMC_RSP_SPI_BUSY_)

/* Before every command below: only to an eMMC. An SD card reads CMD8 as
 * SEND_IF_COND and sends no data (the host waits out its data timeout,
 * -ETIMEDOUT after 60 s or so), CMD6 as SWITCH_FUNC, CMD35/36 as
 * reserved: none of them may reach it. */
static int emmc_only(int fd)
{
	char type[16];
	const int e = sb_mmc_card_type(fd, type, sizeof(type));
	return e == -EMEDIUMTYPE || e == -ENOTTY ? e : 0;
}

static int mmc_ioctl(int fd, unsigned long req, void *arg)
{
	const int e = emmc_only(fd);
	if (e)
		return e;
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

int sb_mmc_ext_csd_fd(int fd, uint8_t out[SB_EXT_CSD_SIZE])
{
	struct mmc_ioc_cmd cmd;

	if (fd < 0 || !out)
		return -EINVAL;
	memset(&cmd, 0, sizeof(cmd));
	memset(out, 0, SB_EXT_CSD_SIZE);
	cmd.opcode = MMC_SEND_EXT_CSD_;
	cmd.flags = R1_ | MMC_CMD_ADTC_;
	cmd.blksz = SB_EXT_CSD_SIZE;
	cmd.blocks = 1;
	cmd.data_ptr = (uint64_t)(uintptr_t)out;
	return mmc_ioctl(fd, MMC_IOC_CMD, &cmd);
}

int sb_mmc_read_ext_csd(const char *devnode, uint8_t out[SB_EXT_CSD_SIZE])
{
	if (!devnode || !out)
		return -EINVAL;
	const int fd = open(devnode, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	const int err = sb_mmc_ext_csd_fd(fd, out);
	close(fd);
	return err;
}

/* As mmc-utils' write_extcsd_value: WRITE_BYTE access (3), the byte's
 * index and value, the normal command set (1). */
int sb_mmc_switch(int fd, unsigned index, unsigned value, unsigned timeout_ms)
{
	struct mmc_ioc_cmd cmd;

	if (fd < 0 || index > 511 || value > 255)
		return -EINVAL;
	memset(&cmd, 0, sizeof(cmd));
	cmd.write_flag = 1;
	cmd.opcode = MMC_SWITCH_;
	cmd.arg = 3u << 24 | index << 16 | value << 8 | 1u;
	cmd.flags = R1B_;
	cmd.cmd_timeout_ms = timeout_ms;
	return mmc_ioctl(fd, MMC_IOC_CMD, &cmd);
}

/* One MMC_IOC_MULTI_CMD, as mmc-utils' erase: the three commands reach the
 * card together, nothing else between them. */
int sb_mmc_erase(int fd, uint32_t first, uint32_t last, uint32_t arg, unsigned timeout_ms)
{
	struct {
		struct mmc_ioc_multi_cmd m;
		struct mmc_ioc_cmd c[3];
	} x;
	static const unsigned ops[3] = { MMC_ERASE_GROUP_START_, MMC_ERASE_GROUP_END_, MMC_ERASE_ };

	if (fd < 0 || first > last)
		return -EINVAL;
	memset(&x, 0, sizeof(x));
	x.m.num_of_cmds = 3;
	for (int i = 0; i < 3; i++) {
		x.c[i].opcode = ops[i];
		x.c[i].flags = i < 2 ? R1_ : R1B_;
		x.c[i].write_flag = 1;
	}
	x.c[0].arg = first;
	x.c[1].arg = last;
	x.c[2].arg = arg;
	x.c[2].cmd_timeout_ms = timeout_ms;
	return mmc_ioctl(fd, MMC_IOC_MULTI_CMD, &x);
}
#else
int sb_mmc_read_ext_csd(const char *devnode, uint8_t out[SB_EXT_CSD_SIZE])
{
	(void)devnode;
	(void)out;
	return -ENOTSUP;
}

int sb_mmc_ext_csd_fd(int fd, uint8_t out[SB_EXT_CSD_SIZE])
{
	(void)fd;
	(void)out;
	return -ENOTSUP;
}

int sb_mmc_switch(int fd, unsigned index, unsigned value, unsigned timeout_ms)
{
	(void)fd;
	(void)index;
	(void)value;
	(void)timeout_ms;
	return -ENOTSUP;
}

int sb_mmc_erase(int fd, uint32_t first, uint32_t last, uint32_t arg, unsigned timeout_ms)
{
	(void)timeout_ms;
	(void)fd;
	(void)first;
	(void)last;
	(void)arg;
	return -ENOTSUP;
}
#endif
