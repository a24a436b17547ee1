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
#include "lib/device/purge_method.h"

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

/* The Firmware Slot Information log page (LID 03h, 512 bytes; NVM Express
 * Base Specification 2.0, 5.16.1.4): byte 0 the Active Firmware Info (AFI:
 * bits 2:0 the slot running, bits 6:4 the slot the next reset activates),
 * bytes 8-63 the revision in slots 1 to 7 (FRS1-FRS7, 8 bytes of ASCII
 * each; all zero: an empty slot). */
#define SB_NVME_FW_SLOT_LOG 0x03
#define SB_NVME_FW_SLOTS 7
struct sb_nvme_fw_slot {
	unsigned active; /* 1-7; 0: the controller told none (AFI 0 is not a slot) */
	unsigned next;	 /* 1-7 the slot the next reset activates; 0: the active one stays */
	char rev[SB_NVME_FW_SLOTS][9]; /* slot i + 1's revision, "" empty */
};
/* Decode a Firmware Slot Information page. 0, or -EINVAL on NULL. */
int sb_nvme_fw_slot_decode(const uint8_t *log, struct sb_nvme_fw_slot *out);

/* Admin commands on the controller node ctrl ("/dev/nvme0"). 0,
 * -EACCES/-EPERM without privilege, -ENOTTY when it is no NVMe controller,
 * -EIO when the controller answered with an error status, other -errno. */
int sb_nvme_read_smart(const char *ctrl, uint8_t out[SB_NVME_LOG_SIZE]);
/* Get Log Page of the Firmware Slot Information (LID 03h). */
int sb_nvme_read_fw_slot(const char *ctrl, uint8_t out[SB_NVME_LOG_SIZE]);
int sb_nvme_identify_ctrl(const char *ctrl, uint8_t out[SB_NVME_ID_SIZE]);

/* ---- purge: Format NVM and Sanitize through a namespace's block device ----
 * The functions below take an fd of the namespace's block node
 * (/dev/nvme0n1), where the kernel takes NVME_IOCTL_ID and admin commands
 * for the namespace's controller. Each returns 0, -errno (the ioctl failed:
 * -ENOTTY/-EINVAL no NVMe, -EACCES/-EPERM no CAP_SYS_ADMIN), or a positive
 * NVMe status: the completion's Status Field as the kernel hands it on
 * (bits 7:0 Status Code, 10:8 Status Code Type, 13 More, 14 Do Not Retry). */

#define SB_NVME_SANITIZE_LOG_SIZE 512

/* What a purge needs from Identify Controller (CNS 01h) and Identify
 * Namespace (CNS 00h); NVM Express Base Specification 2.0, 5.17.2.1 and
 * the NVM Command Set Specification 1.0, 4.1.5.1. */
struct sb_nvme_caps {
	uint32_t nsid;	   /* the namespace (NVME_IOCTL_ID) */
	uint64_t nsze;	   /* namespace bytes 7:0, its size in LBAs */
	uint16_t oacs;	   /* bytes 257:256; bit 1 Format NVM supported */
	uint8_t fna;	   /* byte 524; bit 0 format, bit 1 secure erase reach every namespace,
			    * bit 2 cryptographic erase supported */
	uint32_t sanicap;  /* bytes 331:328; bit 0 crypto erase, 1 block erase, 2 overwrite */
	uint32_t nn;	   /* bytes 519:516, most namespaces the controller can have */
	uint8_t flbas;	   /* namespace byte 26, raw */
	uint8_t nlbaf;	   /* namespace byte 25: LBA formats - 1 */
	uint8_t dps;	   /* namespace byte 29: bits 2:0 PI type, bit 3 PI first bytes */
	unsigned lbaf;	   /* the LBA format in use: FLBAS bits 3:0, and 6:5 above 16 formats */
	uint32_t lba_size; /* bytes per LBA of that format (2^LBADS), 0 when out of range */
	uint16_t ms;	   /* metadata bytes per LBA of that format */
};
enum {
	SB_NVME_OACS_FORMAT = 1 << 1,
	SB_NVME_FNA_FORMAT_ALL = 1 << 0,
	SB_NVME_FNA_ERASE_ALL = 1 << 1,
	SB_NVME_FNA_CRYPTO = 1 << 2,
	SB_NVME_SANICAP_CRYPTO = 1 << 0,
	SB_NVME_SANICAP_BLOCK = 1 << 1,
	SB_NVME_SANICAP_OVERWRITE = 1 << 2,
};
/* Sanitize Action (SANACT, CDW10 bits 2:0; 2.0, 5.24). */
enum { SB_NVME_SANACT_BLOCK = 2, SB_NVME_SANACT_OVERWRITE = 3, SB_NVME_SANACT_CRYPTO = 4 };
/* Sanitize Status log, SSTAT bits 2:0 (2.0, 5.16.1.25). */
enum {
	SB_NVME_SSTAT_NEVER = 0,
	SB_NVME_SSTAT_DONE = 1,
	SB_NVME_SSTAT_RUNNING = 2,
	SB_NVME_SSTAT_FAILED = 3,
	SB_NVME_SSTAT_DONE_NO_DEALLOC = 4,
};
struct sb_nvme_sanitize_status {
	unsigned progress; /* SPROG: fraction done x 65536 */
	unsigned state;	   /* SSTAT bits 2:0, above */
	uint32_t cdw10;	   /* SCDW10: the command that started the most recent sanitize */
	uint32_t est_s[5]; /* estimated seconds by SANACT (3 overwrite, 2 block, 4 crypto);
			    * UINT32_MAX: no estimate */
};

/* Both Identify data structures (4096 bytes each) decoded into caps.
 * 0, or -EINVAL on NULL. */
int sb_nvme_caps_decode(const uint8_t *ctrl, const uint8_t *ns, uint32_t nsid,
			struct sb_nvme_caps *out);
/* Format NVM CDW10 (2.0, 5.23, Figure 312): the LBA format, metadata
 * setting and protection information of caps (so the format keeps the
 * sector size and metadata), Secure Erase Settings ses (1: user data erase,
 * 2: cryptographic erase). */
uint32_t sb_nvme_format_cdw10(const struct sb_nvme_caps *caps, unsigned ses);
/* Sanitize CDW10 for action (SANACT): AUSE set (a failed sanitize can be
 * left with Exit Failure Mode), one overwrite pass, deallocate after. */
uint32_t sb_nvme_sanitize_cdw10(unsigned sanact);
int sb_nvme_sanitize_decode(const uint8_t *log, struct sb_nvme_sanitize_status *out);
/* "Invalid Field in Command (status 0x002)" for an NVMe status. Returns buf. */
char *sb_nvme_status_text(int status, char *buf, size_t len);

/* The namespace id of fd (> 0), or -errno when fd is no NVMe namespace. */
int sb_nvme_nsid(int fd);
int sb_nvme_identify_ctrl_fd(int fd, uint8_t out[SB_NVME_ID_SIZE]);
int sb_nvme_identify_ns_fd(int fd, uint32_t nsid, uint8_t out[SB_NVME_ID_SIZE]);
/* Identify CNS 02h: the active namespace ids of the controller, ascending,
 * up to 1024 of them, 0-terminated. */
int sb_nvme_active_ns_fd(int fd, uint8_t out[SB_NVME_ID_SIZE]);
int sb_nvme_format_fd(int fd, uint32_t nsid, uint32_t cdw10, uint32_t timeout_ms);
int sb_nvme_sanitize_fd(int fd, uint32_t cdw10);
int sb_nvme_sanitize_log_fd(int fd, uint8_t out[SB_NVME_SANITIZE_LOG_SIZE]);
/* Get Features (current value, into *value) and Set Features (not saved)
 * of feature fid, NSID 0 (devcache.c: Volatile Write Cache, FID 06h). */
#define SB_NVME_FEAT_VWC 0x06
int sb_nvme_get_feature_fd(int fd, uint32_t fid, uint32_t *value);
int sb_nvme_set_feature_fd(int fd, uint32_t fid, uint32_t cdw11);

/* Purge the NVMe namespace open as fd (lib/device/nvme_purge.c): format
 * (Format NVM, user data erase), sanitize (block erase, else crypto erase,
 * else overwrite) or auto (sanitize by block or crypto erase, else format).
 * 0: done, *used and how ("NVMe Sanitize block erase, SANACT 2") set;
 * 1: nothing done: fd is no NVMe namespace, or auto found no NVMe purge
 * the device offers (the caller goes on with discards); -errno with er
 * set: refused (a device that cannot, an error status, a sanitize that
 * failed). */
int sb_nvme_purge(int fd, const char *path, enum sb_purge_method m, enum sb_purge_method *used,
		  char *how, size_t howlen, struct sb_error *er);

#endif
