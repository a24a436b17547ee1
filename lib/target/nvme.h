/*
 * NVMe: the SMART / Health Information log page (Get Log Page, LID 02h,
 * 512 bytes) and Identify Controller (CNS 01h, 4096 bytes), read through
 * the admin passthrough ioctl NVME_IOCTL_ADMIN_CMD on the controller's
 * character device (/dev/nvme0), and pure decoders of both. Layouts are the
 * NVM Express base specification's, as in the kernel's struct
 * nvme_smart_log and struct nvme_id_ctrl.
 */
#ifndef SB_NVME_H
#define SB_NVME_H

#include "lib/sb.h"

#define SB_NVME_LOG_SIZE 512
#define SB_NVME_ID_SIZE 4096

/* Critical warning bits (byte 0). */
enum {
	SB_NVME_WARN_SPARE = 1 << 0,	     /* available spare below threshold */
	SB_NVME_WARN_TEMPERATURE = 1 << 1,   /* temperature beyond a threshold */
	SB_NVME_WARN_RELIABILITY = 1 << 2,   /* degraded by media or internal errors */
	SB_NVME_WARN_READ_ONLY = 1 << 3,     /* media placed in read-only mode */
	SB_NVME_WARN_BACKUP = 1 << 4,	     /* volatile memory backup failed */
	SB_NVME_WARN_PMR_READ_ONLY = 1 << 5, /* persistent memory region read-only */
};

/* The 128-bit counters are held as 64 bits; a value that does not fit
 * (beyond any device's life) reads as UINT64_MAX. */
struct sb_nvme_smart {
	unsigned critical_warning; /* bits above */
	unsigned temperature_k;	   /* composite temperature, Kelvin; 0 not reported */
	int temperature_c;
	unsigned avail_spare;	    /* percent */
	unsigned spare_thresh;	    /* percent */
	unsigned percent_used;	    /* of rated endurance; may exceed 100 */
	unsigned endurance_warning; /* endurance group critical warning summary */
	uint64_t data_units_read;   /* units of 1000 x 512 bytes */
	uint64_t data_units_written;
	uint64_t host_reads, host_writes; /* commands */
	uint64_t busy_minutes;		  /* controller busy time */
	uint64_t power_cycles;
	uint64_t power_on_hours;
	uint64_t unsafe_shutdowns;
	uint64_t media_errors; /* media and data integrity errors */
	uint64_t error_log_entries;
	uint32_t warning_temp_minutes, critical_temp_minutes;
	unsigned sensor_k[8]; /* temperature sensors 1-8, 0 not implemented */
};

/* Decode a SMART log page. 0, or -EINVAL on NULL. */
int sb_nvme_smart_decode(const uint8_t *log, struct sb_nvme_smart *out);
/* Data units to bytes (x 512000), saturating. */
uint64_t sb_nvme_units_bytes(uint64_t units);
/* Names of the set critical warning bits, comma separated ("none" for 0).
 * Returns buf. */
char *sb_nvme_warning_text(unsigned bits, char *buf, size_t len);

struct sb_nvme_id {
	uint16_t vid;	  /* PCI vendor id */
	char serial[21];  /* SN, bytes 4-23, trailing spaces removed */
	char model[41];	  /* MN, bytes 24-63 */
	char firmware[9]; /* FR, bytes 64-71 */
	uint8_t vwc;	  /* volatile write cache present (byte 525 bit 0) */
};
int sb_nvme_id_decode(const uint8_t *id, struct sb_nvme_id *out);

/* Admin commands on the controller node ctrl ("/dev/nvme0"). 0,
 * -EACCES/-EPERM without privilege, -ENOTTY when it is no NVMe controller,
 * -EIO when the controller answered with an error status, other -errno. */
int sb_nvme_read_smart(const char *ctrl, uint8_t out[SB_NVME_LOG_SIZE]);
int sb_nvme_identify_ctrl(const char *ctrl, uint8_t out[SB_NVME_ID_SIZE]);

#endif
