/*
 * Device identity, geometry and health beyond sb_target_probe: who made the
 * disk, how it is attached, how the kernel queues and discards on it, and
 * (for eMMC/SD and NVMe) how worn it is. Everything readable from sysfs is
 * read without privilege; EXT_CSD and the NVMe SMART log need root, and
 * their absence is recorded, not an error.
 */
#ifndef SB_DEVINFO_H
#define SB_DEVINFO_H

#include "lib/sb.h"
#include "lib/device/mmc.h"
#include "lib/device/nvme.h"

struct sb_json;
struct sb_jv;

/* An eMMC or SD card, from the card's sysfs directory (all text as the
 * kernel writes it; "" when the attribute is absent). */
struct sb_mmc_card {
	char type[8];		/* "MMC", "SD", "SDIO" */
	char name[24];		/* product name (CID) */
	unsigned manfid, oemid; /* manufacturer and OEM/application id (CID) */
	char date[16];		/* "MM/YYYY" (CID) */
	char cid[40], csd[40];	/* raw registers, hex */
	char serial[24], prv[16], hwrev[16], fwrev[24];
	uint64_t erase_size; /* bytes */
	uint64_t preferred_erase_size;
	char life_time[24];   /* raw "0x01 0x02" (eMMC 5.0+, kernel 4.10+) */
	char pre_eol_info[8]; /* raw "0x01" */
};

struct sb_devinfo {
	char disk[64];	     /* whole disk described, e.g. "mmcblk0" */
	char part[64];	     /* the partition named, "" when the whole disk */
	uint64_t part_start; /* bytes from the start of the disk */
	char node[96];	     /* the whole disk's device node, "" when none found */
	char transport[24];  /* "nvme", "sata", "usb", "mmc", "sd", "virtio", "loop", ... */
	char vendor[64], model[128], serial[128], firmware[64];
	uint64_t capacity; /* bytes, whole disk */
	uint32_t logical_bs, physical_bs;
	uint32_t minimum_io, optimal_io; /* bytes; optimal 0 when not reported */
	uint64_t max_io;		 /* bytes per request (max_sectors_kb) */
	int rotational;			 /* 1, 0, -1 unknown */
	int removable, read_only;	 /* 1, 0, -1 unknown */
	char scheduler[32];
	unsigned nr_requests;
	char write_cache[32];			   /* "write back", "write through" */
	uint64_t discard_granularity, discard_max; /* bytes; 0: no discard */
	char zoned[24];				   /* "none", "host-aware", "host-managed" */
	char nvme_ctrl[32];			   /* controller, e.g. "nvme0" */
	struct sb_nvme_fw_slot nvme_fw;		   /* its firmware slots (active 0: not read) */
	char backing_file[256];			   /* loop devices */
	char slaves[256];			   /* dm/md: the devices beneath, comma separated */
	int is_mmc;
	struct sb_mmc_card mmc;
};

/* Describe disk (a kernel name, e.g. "sda"; a partition "sda1" is resolved
 * to its disk) from the sysfs block class at sys_block (NULL:
 * "/sys/class/block"; tests pass a tree of their own). 0 or -errno
 * (-ENOENT: no such block device). */
int sb_devinfo_read(const char *sys_block, const char *name, struct sb_devinfo *out);
/* The same for devname in /sys/class/block, and the node to open: node
 * (the device the caller named: NULL for none) when devname is the whole
 * disk, else /dev/DISK when that is the same device; an NVMe controller's
 * identity asked of it when sysfs did not tell, and its firmware slots
 * (root; a controller that refuses the log page leaves them unread). For a probed target:
 * sb_devinfo_probe (lib/target/target_device.h). */
int sb_devinfo_describe(const char *devname, const char *node, struct sb_devinfo *out);

/* Health: what wear and failure counters the device offers. */
enum sb_health_kind {
	SB_HEALTH_NONE = 0, /* the device reports nothing we read */
	SB_HEALTH_MMC = 1,
	SB_HEALTH_NVME = 2,
};

struct sb_health {
	enum sb_health_kind kind;
	time_t when;
	/* eMMC: life time estimates and pre-EOL state, from EXT_CSD when it
	 * could be read, else from sysfs (life_source "ext_csd" / "sysfs"). */
	int have_life;
	const char *life_source;
	unsigned life_a, life_b, pre_eol;
	int ext_csd_err; /* 0 read; -EACCES/-EPERM needs root; other -errno */
	struct sb_ext_csd ext;
	/* NVMe */
	int smart_err; /* 0 read; -EACCES/-EPERM needs root; other -errno */
	struct sb_nvme_smart smart;
};

/* Capture health now (long-running commands call this before and after a
 * run). Never fails for want of privilege: what could not be read carries
 * its error. 0, or -EINVAL. */
int sb_health_read(const struct sb_devinfo *d, struct sb_health *out);
/* 1 when err means "run as root to read this". */
int sb_health_needs_root(int err);

/* JSON (lib/device/devinfo_json.c): an object under key (NULL in an
 * array). The pair writes {"before": ..., "after": ..., "change": ...}. */
void sb_devinfo_json(struct sb_json *j, const char *key, const struct sb_devinfo *d);
void sb_health_json(struct sb_json *j, const char *key, const struct sb_health *h);
void sb_health_pair_json(struct sb_json *j, const char *key, const struct sb_health *before,
			 const struct sb_health *after);

/* A health object read back (lib/device/health_read.c): what a report
 * shows of what sb_health_json wrote, each figure as written. */
enum sb_health_field {
	/* NVMe SMART */
	SB_HF_PERCENT_USED,
	SB_HF_AVAIL_SPARE,
	SB_HF_DATA_WRITTEN, /* bytes */
	SB_HF_DATA_READ,
	SB_HF_MEDIA_ERRORS,
	SB_HF_ERR_LOG_ENTRIES,
	SB_HF_UNSAFE_SHUTDOWNS,
	SB_HF_CRITICAL_WARNINGS, /* the names of the bits set; as a change: the new bits */
	SB_HF_TEMPERATURE_C,
	SB_HF_POWER_ON_HOURS,
	/* eMMC: the writer's words for its life time estimates, its firmware */
	SB_HF_LIFE_A,
	SB_HF_LIFE_B,
	SB_HF_PRE_EOL,
	SB_HF_FIRMWARE,
	SB_HF_N
};
enum sb_hv_has { SB_HV_ABSENT = 0, SB_HV_NULL, SB_HV_NUM, SB_HV_STR, SB_HV_LIST };
struct sb_health_val {
	enum sb_hv_has has;
	double num;
	const char *str;
	const struct sb_jv *list; /* SB_HV_LIST: an array of strings (checked) */
};
struct sb_health_doc {
	const char *kind; /* "nvme", "emmc", "none"; NULL: not written */
	struct sb_health_val f[SB_HF_N];
};
/* The pair's: before, after (present 0: not written) and what changed
 * (c[f], of the fields the writer says a change of). */
struct sb_health_pair_doc {
	int have_before, have_after;
	struct sb_health_doc before, after;
	struct sb_health_val c[SB_HF_N];
};
/* Reads a health object v (NULL: none, all absent) or a pair into out,
 * whose strings point into the tree; where names it in messages
 * ("storbench.soak.health"). 0, or -EINVAL with err naming the key path. */
int sb_health_doc_read(const struct sb_jv *v, const char *where, struct sb_health_doc *out,
		       struct sb_error *err);
int sb_health_pair_read(const struct sb_jv *v, const char *where, struct sb_health_pair_doc *out,
			struct sb_error *err);

#endif
