/*
 * NVMe SMART / health log and Identify Controller: reading and decoding.
 * All multi-byte fields are little-endian, whatever the host.
 */
#include "lib/device/nvme.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<linux/nvme_ioctl.h>)
#include <linux/nvme_ioctl.h>
#define SB_HAVE_NVME_IOCTL 1
#endif
#endif

/* SMART / Health Information log (LID 02h) byte offsets */
enum {
	SMART_CRIT_WARNING = 0,
	SMART_TEMPERATURE = 1, /* 2 bytes, Kelvin */
	SMART_AVAIL_SPARE = 3,
	SMART_SPARE_THRESH = 4,
	SMART_PERCENT_USED = 5,
	SMART_ENDURANCE_WARN = 6,
	SMART_DATA_UNITS_READ = 32, /* from here, 16-byte counters */
	SMART_DATA_UNITS_WRITTEN = 48,
	SMART_HOST_READS = 64,
	SMART_HOST_WRITES = 80,
	SMART_BUSY_TIME = 96,
	SMART_POWER_CYCLES = 112,
	SMART_POWER_ON_HOURS = 128,
	SMART_UNSAFE_SHUTDOWNS = 144,
	SMART_MEDIA_ERRORS = 160,
	SMART_ERR_LOG_ENTRIES = 176,
	SMART_WARN_TEMP_TIME = 192, /* 4 bytes, minutes */
	SMART_CRIT_TEMP_TIME = 196,
	SMART_TEMP_SENSORS = 200, /* 8 x 2 bytes */
};

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* A 128-bit counter, saturated to 64 bits. */
static uint64_t le128(const uint8_t *p)
{
	return le64(p + 8) ? UINT64_MAX : le64(p);
}

int sb_nvme_smart_decode(const uint8_t *log, struct sb_nvme_smart *out)
{
	if (!log || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->critical_warning = log[SMART_CRIT_WARNING];
	out->temperature_k = le16(log + SMART_TEMPERATURE);
	out->temperature_c = (int)out->temperature_k - 273;
	out->avail_spare = log[SMART_AVAIL_SPARE];
	out->spare_thresh = log[SMART_SPARE_THRESH];
	out->percent_used = log[SMART_PERCENT_USED];
	out->endurance_warning = log[SMART_ENDURANCE_WARN];
	out->data_units_read = le128(log + SMART_DATA_UNITS_READ);
	out->data_units_written = le128(log + SMART_DATA_UNITS_WRITTEN);
	out->host_reads = le128(log + SMART_HOST_READS);
	out->host_writes = le128(log + SMART_HOST_WRITES);
	out->busy_minutes = le128(log + SMART_BUSY_TIME);
	out->power_cycles = le128(log + SMART_POWER_CYCLES);
	out->power_on_hours = le128(log + SMART_POWER_ON_HOURS);
	out->unsafe_shutdowns = le128(log + SMART_UNSAFE_SHUTDOWNS);
	out->media_errors = le128(log + SMART_MEDIA_ERRORS);
	out->error_log_entries = le128(log + SMART_ERR_LOG_ENTRIES);
	out->warning_temp_minutes = le32(log + SMART_WARN_TEMP_TIME);
	out->critical_temp_minutes = le32(log + SMART_CRIT_TEMP_TIME);
	for (int i = 0; i < 8; i++)
		out->sensor_k[i] = le16(log + SMART_TEMP_SENSORS + 2 * i);
	return 0;
}

uint64_t sb_nvme_units_bytes(uint64_t units)
{
	return units > UINT64_MAX / 512000 ? UINT64_MAX : units * 512000;
}

char *sb_nvme_warning_text(unsigned bits, char *buf, size_t len)
{
	static const char *const names[] = {
		"available spare below threshold",
		"temperature beyond threshold",
		"reliability degraded",
		"media read-only",
		"volatile memory backup failed",
		"persistent memory region read-only",
	};
	size_t o = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (!bits) {
		snprintf(buf, len, "none");
		return buf;
	}
	for (unsigned i = 0; i < 8; i++) {
		if (!(bits & (1u << i)))
			continue;
		char other[16];
		snprintf(other, sizeof(other), "bit %u", i);
		const char *n = i < SB_ARRAY_SIZE(names) ? names[i] : other;
		int w = snprintf(buf + o, len - o, "%s%s", o ? ", " : "", n);
		if (w < 0 || (size_t)w >= len - o)
			break; /* cut, still terminated */
		o += (size_t)w;
	}
	return buf;
}

/* An Identify string field: space padded ASCII; trailing spaces go, and
 * anything unprintable becomes '?'. */
static void id_string(const uint8_t *p, size_t n, char *out)
{
	size_t len = n;
	while (len && (p[len - 1] == ' ' || p[len - 1] == '\0'))
		len--;
	for (size_t i = 0; i < len; i++)
		out[i] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
	out[len] = '\0';
}

int sb_nvme_id_decode(const uint8_t *id, struct sb_nvme_id *out)
{
	if (!id || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->vid = le16(id);
	id_string(id + 4, 20, out->serial);
	id_string(id + 24, 40, out->model);
	id_string(id + 64, 8, out->firmware);
	out->vwc = id[525] & 1;
	return 0;
}

enum { FW_AFI = 0, FW_FRS1 = 8 }; /* Firmware Slot Information (2.0, Figure 210) */

int sb_nvme_fw_slot_decode(const uint8_t *log, struct sb_nvme_fw_slot *out)
{
	if (!log || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->active = log[FW_AFI] & 7u;
	out->next = (log[FW_AFI] >> 4) & 7u;
	for (int i = 0; i < SB_NVME_FW_SLOTS; i++)
		id_string(log + FW_FRS1 + 8 * i, 8, out->rev[i]);
	return 0;
}

/* Identify Controller (2.0, Figure 275) and Identify Namespace (NVM
 * Command Set 1.0, Figure 97) byte offsets */
enum {
	IDC_OACS = 256,	   /* 2 bytes */
	IDC_SANICAP = 328, /* 4 bytes */
	IDC_NN = 516,	   /* 4 bytes */
	IDC_FNA = 524,
	IDNS_NLBAF = 25, /* zero-based */
	IDNS_FLBAS = 26,
	IDNS_DPS = 29,
	IDNS_LBAF = 128,    /* 4 bytes each: MS 15:0, LBADS 23:16, RP 25:24 */
	IDNS_LBAF_MAX = 64, /* 2.0: up to 64 formats */
};

int sb_nvme_caps_decode(const uint8_t *ctrl, const uint8_t *ns, uint32_t nsid,
			struct sb_nvme_caps *out)
{
	if (!ctrl || !ns || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->nsid = nsid;
	out->oacs = le16(ctrl + IDC_OACS);
	out->sanicap = le32(ctrl + IDC_SANICAP);
	out->nn = le32(ctrl + IDC_NN);
	out->fna = ctrl[IDC_FNA];
	out->nsze = le64(ns);
	out->nlbaf = ns[IDNS_NLBAF];
	out->flbas = ns[IDNS_FLBAS];
	out->dps = ns[IDNS_DPS];
	/* FLBAS bits 6:5 are the format index's upper bits only where there
	 * are more than 16 formats; reserved (0) below */
	out->lbaf = (out->flbas & 0x0fu) | (out->nlbaf >= 16 ? ((out->flbas >> 5) & 3u) << 4 : 0);
	if (out->lbaf < IDNS_LBAF_MAX) {
		const uint8_t *f = ns + IDNS_LBAF + 4 * out->lbaf;
		out->ms = le16(f);
		out->lba_size = f[2] >= 9 && f[2] < 32 ? 1u << f[2] : 0;
	}
	return 0;
}

/* Format NVM CDW10: LBAF bits 3:0, MSET bit 4 (FLBAS bit 4: metadata at
 * the end of each LBA), PI bits 7:5 and PIL bit 8 (DPS bits 2:0 and 3),
 * SES bits 11:9, LBAFU bits 13:12 (the format index's bits 5:4, 2.0). */
uint32_t sb_nvme_format_cdw10(const struct sb_nvme_caps *c, unsigned ses)
{
	return (c->lbaf & 0x0fu) | ((c->flbas >> 4) & 1u) << 4 | (c->dps & 7u) << 5 |
	       ((c->dps >> 3) & 1u) << 8 | (ses & 7u) << 9 | ((c->lbaf >> 4) & 3u) << 12;
}

/* Sanitize CDW10 (2.0, Figure 372): SANACT bits 2:0, AUSE bit 3, OWPASS
 * bits 7:4 (0 would mean 16 passes), OIPBP bit 8 and NDAS bit 9 clear. */
uint32_t sb_nvme_sanitize_cdw10(unsigned sanact)
{
	return (sanact & 7u) | 1u << 3 | (sanact == SB_NVME_SANACT_OVERWRITE ? 1u << 4 : 0);
}

/* Sanitize Status log (LID 81h; 2.0, Figure 287): SPROG bytes 1:0, SSTAT
 * 3:2, SCDW10 7:4, then the estimates: overwrite 11:8, block erase 15:12,
 * crypto erase 19:16. */
int sb_nvme_sanitize_decode(const uint8_t *log, struct sb_nvme_sanitize_status *out)
{
	if (!log || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->progress = le16(log);
	out->state = le16(log + 2) & 7u;
	out->cdw10 = le32(log + 4);
	for (unsigned i = 0; i < SB_ARRAY_SIZE(out->est_s); i++)
		out->est_s[i] = UINT32_MAX;
	out->est_s[SB_NVME_SANACT_OVERWRITE] = le32(log + 8);
	out->est_s[SB_NVME_SANACT_BLOCK] = le32(log + 12);
	out->est_s[SB_NVME_SANACT_CRYPTO] = le32(log + 16);
	return 0;
}

/* The status codes a purge meets (2.0, 4.1.3: generic, type 0;
 * command specific, type 1; media and data integrity, type 2). */
char *sb_nvme_status_text(int status, char *buf, size_t len)
{
	static const struct {
		unsigned code;
		const char *name;
	} names[] = {
		{ 0x001, "Invalid Command Opcode" },
		{ 0x002, "Invalid Field in Command" },
		{ 0x006, "Internal Error" },
		{ 0x00b, "Invalid Namespace or Format" },
		{ 0x00c, "Command Sequence Error" },
		{ 0x015, "Operation Denied" },
		{ 0x01c, "Sanitize Failed" },
		{ 0x01d, "Sanitize In Progress" },
		{ 0x020, "Namespace is Write Protected" },
		{ 0x023, "Command Prohibited by Command and Feature Lockdown" },
		{ 0x082, "Namespace Not Ready" },
		{ 0x084, "Format In Progress" },
		{ 0x10a, "Invalid Format" },
		{ 0x286, "Access Denied" },
	};
	const unsigned code = (unsigned)status & 0x7ffu;
	const char *name = NULL;
	for (size_t i = 0; i < SB_ARRAY_SIZE(names) && !name; i++)
		if (names[i].code == code)
			name = names[i].name;
	if (name)
		snprintf(buf, len, "%s (status 0x%03x)", name, code);
	else
		snprintf(buf, len, "status 0x%03x (type %u, code 0x%02x)", code, code >> 8,
			 code & 0xffu);
	return buf;
}

#ifdef SB_HAVE_NVME_IOCTL
enum {
	NVME_ADMIN_GET_LOG_PAGE = 0x02,
	NVME_ADMIN_IDENTIFY = 0x06,
	NVME_ADMIN_SET_FEATURES = 0x09,
	NVME_ADMIN_GET_FEATURES = 0x0a,
	NVME_ADMIN_FORMAT_NVM = 0x80,
	NVME_ADMIN_SANITIZE = 0x84,
};

static int admin(const char *ctrl, struct nvme_admin_cmd *cmd)
{
	if (!ctrl)
		return -EINVAL;
	const int fd = open(ctrl, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	const int rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, cmd);
	const int err = rc < 0 ? -errno : rc > 0 ? -EIO : 0; /* > 0: NVMe status */
	close(fd);
	return err;
}

/* Get Log Page: CDW10 holds the log id (bits 7:0) and the number of dwords
 * minus one (NUMDL, bits 31:16); NSID all-ones asks for the controller. */
static int get_log(const char *ctrl, uint32_t lid, uint8_t out[SB_NVME_LOG_SIZE])
{
	struct nvme_admin_cmd cmd;
	if (!out)
		return -EINVAL;
	memset(&cmd, 0, sizeof(cmd));
	memset(out, 0, SB_NVME_LOG_SIZE);
	cmd.opcode = NVME_ADMIN_GET_LOG_PAGE;
	cmd.nsid = 0xffffffffu;
	cmd.addr = (uint64_t)(uintptr_t)out;
	cmd.data_len = SB_NVME_LOG_SIZE;
	cmd.cdw10 = lid | (uint32_t)(SB_NVME_LOG_SIZE / 4 - 1) << 16;
	return admin(ctrl, &cmd);
}

int sb_nvme_read_smart(const char *ctrl, uint8_t out[SB_NVME_LOG_SIZE])
{
	return get_log(ctrl, 0x02, out);
}

int sb_nvme_read_fw_slot(const char *ctrl, uint8_t out[SB_NVME_LOG_SIZE])
{
	return get_log(ctrl, SB_NVME_FW_SLOT_LOG, out);
}

int sb_nvme_identify_ctrl(const char *ctrl, uint8_t out[SB_NVME_ID_SIZE])
{
	struct nvme_admin_cmd cmd;
	if (!out)
		return -EINVAL;
	memset(&cmd, 0, sizeof(cmd));
	memset(out, 0, SB_NVME_ID_SIZE);
	cmd.opcode = NVME_ADMIN_IDENTIFY;
	cmd.addr = (uint64_t)(uintptr_t)out;
	cmd.data_len = SB_NVME_ID_SIZE;
	cmd.cdw10 = 0x01; /* CNS 01h: the controller */
	return admin(ctrl, &cmd);
}

/* ---- on a namespace's block node ---- */

/* The kernel's answer: < 0 with errno, > 0 the NVMe status. */
static int admin_fd(int fd, struct nvme_admin_cmd *cmd)
{
	const int rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, cmd);
	return rc < 0 ? -errno : rc;
}

int sb_nvme_nsid(int fd)
{
	const int rc = ioctl(fd, NVME_IOCTL_ID);
	return rc < 0 ? -errno : rc > 0 ? rc : -ENOTTY;
}

static int identify_fd(int fd, uint32_t nsid, uint32_t cns, uint8_t out[SB_NVME_ID_SIZE])
{
	struct nvme_admin_cmd cmd;
	memset(&cmd, 0, sizeof(cmd));
	memset(out, 0, SB_NVME_ID_SIZE);
	cmd.opcode = NVME_ADMIN_IDENTIFY;
	cmd.nsid = nsid;
	cmd.addr = (uint64_t)(uintptr_t)out;
	cmd.data_len = SB_NVME_ID_SIZE;
	cmd.cdw10 = cns; /* CNS bits 7:0, CNTID 31:16 (0) */
	return admin_fd(fd, &cmd);
}

int sb_nvme_identify_ctrl_fd(int fd, uint8_t out[SB_NVME_ID_SIZE])
{
	return identify_fd(fd, 0, 0x01, out);
}

int sb_nvme_identify_ns_fd(int fd, uint32_t nsid, uint8_t out[SB_NVME_ID_SIZE])
{
	return identify_fd(fd, nsid, 0x00, out);
}

/* NSID 0: the active ids above 0, that is all of them. */
int sb_nvme_active_ns_fd(int fd, uint8_t out[SB_NVME_ID_SIZE])
{
	return identify_fd(fd, 0, 0x02, out);
}

/* Format NVM (2.0, 5.23): no data; the scope is nsid's namespace, or
 * every namespace where FNA says so (the caller checks). */
int sb_nvme_format_fd(int fd, uint32_t nsid, uint32_t cdw10, uint32_t timeout_ms)
{
	struct nvme_admin_cmd cmd;
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = NVME_ADMIN_FORMAT_NVM;
	cmd.nsid = nsid;
	cmd.cdw10 = cdw10;
	cmd.timeout_ms = timeout_ms;
	return admin_fd(fd, &cmd);
}

/* Sanitize (2.0, 5.24): the NVM subsystem's, NSID unused (0); the command
 * completes once the operation has started, the log tells its end.
 * CDW11 is the overwrite pattern: 0. */
int sb_nvme_sanitize_fd(int fd, uint32_t cdw10)
{
	struct nvme_admin_cmd cmd;
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = NVME_ADMIN_SANITIZE;
	cmd.cdw10 = cdw10;
	cmd.timeout_ms = 120000;
	return admin_fd(fd, &cmd);
}

/* Get Log Page LID 81h, 512 bytes: NUMDL (dwords - 1) in CDW10 31:16;
 * the log is the controller's: NSID FFFFFFFFh. */
int sb_nvme_sanitize_log_fd(int fd, uint8_t out[SB_NVME_SANITIZE_LOG_SIZE])
{
	struct nvme_admin_cmd cmd;
	memset(&cmd, 0, sizeof(cmd));
	memset(out, 0, SB_NVME_SANITIZE_LOG_SIZE);
	cmd.opcode = NVME_ADMIN_GET_LOG_PAGE;
	cmd.nsid = 0xffffffffu;
	cmd.addr = (uint64_t)(uintptr_t)out;
	cmd.data_len = SB_NVME_SANITIZE_LOG_SIZE;
	cmd.cdw10 = 0x81u | (uint32_t)(SB_NVME_SANITIZE_LOG_SIZE / 4 - 1) << 16;
	return admin_fd(fd, &cmd);
}

/* Get Features (2.0, 5.15): CDW10 FID bits 7:0, SEL bits 10:8 (0: the
 * current value); the value comes back in completion dword 0. A feature
 * that is not namespace specific (as Volatile Write Cache) takes NSID 0. */
int sb_nvme_get_feature_fd(int fd, uint32_t fid, uint32_t *value)
{
	struct nvme_admin_cmd cmd;
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = NVME_ADMIN_GET_FEATURES;
	cmd.cdw10 = fid & 0xff;
	const int rc = admin_fd(fd, &cmd);
	if (!rc && value)
		*value = cmd.result;
	return rc;
}

/* Set Features (2.0, 5.27): CDW10 FID bits 7:0, SV bit 31 clear (the
 * value is not saved across a reset); CDW11 the value. */
int sb_nvme_set_feature_fd(int fd, uint32_t fid, uint32_t cdw11)
{
	struct nvme_admin_cmd cmd;
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = NVME_ADMIN_SET_FEATURES;
	cmd.cdw10 = fid & 0xff;
	cmd.cdw11 = cdw11;
	return admin_fd(fd, &cmd);
}
#else
int sb_nvme_get_feature_fd(int fd, uint32_t fid, uint32_t *value)
{
	(void)fd;
	(void)fid;
	(void)value;
	return -ENOTTY;
}

int sb_nvme_set_feature_fd(int fd, uint32_t fid, uint32_t cdw11)
{
	(void)fd;
	(void)fid;
	(void)cdw11;
	return -ENOTTY;
}

int sb_nvme_read_smart(const char *ctrl, uint8_t out[SB_NVME_LOG_SIZE])
{
	(void)ctrl;
	(void)out;
	return -ENOTSUP;
}

int sb_nvme_read_fw_slot(const char *ctrl, uint8_t out[SB_NVME_LOG_SIZE])
{
	(void)ctrl;
	(void)out;
	return -ENOTSUP;
}

int sb_nvme_identify_ctrl(const char *ctrl, uint8_t out[SB_NVME_ID_SIZE])
{
	(void)ctrl;
	(void)out;
	return -ENOTSUP;
}
int sb_nvme_nsid(int fd)
{
	(void)fd;
	return -ENOTTY;
}

int sb_nvme_identify_ctrl_fd(int fd, uint8_t out[SB_NVME_ID_SIZE])
{
	(void)fd;
	(void)out;
	return -ENOTTY;
}

int sb_nvme_identify_ns_fd(int fd, uint32_t nsid, uint8_t out[SB_NVME_ID_SIZE])
{
	(void)fd;
	(void)nsid;
	(void)out;
	return -ENOTTY;
}

int sb_nvme_active_ns_fd(int fd, uint8_t out[SB_NVME_ID_SIZE])
{
	(void)fd;
	(void)out;
	return -ENOTTY;
}

int sb_nvme_format_fd(int fd, uint32_t nsid, uint32_t cdw10, uint32_t timeout_ms)
{
	(void)fd;
	(void)nsid;
	(void)cdw10;
	(void)timeout_ms;
	return -ENOTTY;
}

int sb_nvme_sanitize_fd(int fd, uint32_t cdw10)
{
	(void)fd;
	(void)cdw10;
	return -ENOTTY;
}

int sb_nvme_sanitize_log_fd(int fd, uint8_t out[SB_NVME_SANITIZE_LOG_SIZE])
{
	(void)fd;
	(void)out;
	return -ENOTTY;
}
#endif
