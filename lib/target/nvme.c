/*
 * NVMe SMART / health log and Identify Controller: reading and decoding.
 * All multi-byte fields are little-endian, whatever the host.
 */
#include "lib/target/nvme.h"

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

#ifdef SB_HAVE_NVME_IOCTL
enum { NVME_ADMIN_GET_LOG_PAGE = 0x02, NVME_ADMIN_IDENTIFY = 0x06 };

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
int sb_nvme_read_smart(const char *ctrl, uint8_t out[SB_NVME_LOG_SIZE])
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
	cmd.cdw10 = 0x02u | (uint32_t)(SB_NVME_LOG_SIZE / 4 - 1) << 16;
	return admin(ctrl, &cmd);
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
#else
int sb_nvme_read_smart(const char *ctrl, uint8_t out[SB_NVME_LOG_SIZE])
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
#endif
