/*
 * The device's own volatile write cache, switched with the device's own
 * command: an NVMe controller's Volatile Write Cache feature (Get/Set
 * Features, FID 06h; NVM Express Base Specification 2.0, 5.27.1.4), an ATA
 * drive's write cache (SET FEATURES EFh, subcommands 02h enable / 82h
 * disable; ACS-4 7.45; IDENTIFY words 82/85 bit 5), an eMMC's EXT_CSD
 * CACHE_CTRL (CMD6 SWITCH, as mmc-utils' "cache enable/disable"). Tried in
 * that order on the whole-disk node. Not the kernel's queue/write_cache
 * attribute, which changes only the kernel's view (docs/pts.md). SCSI
 * caching mode pages are not built.
 */
#ifndef SB_DEVCACHE_H
#define SB_DEVCACHE_H

#include "lib/sb.h"

enum sb_devcache_kind { SB_DEVCACHE_EMMC = 1, SB_DEVCACHE_NVME, SB_DEVCACHE_ATA };

struct sb_devcache {
	int on;		/* 1 on, 0 off */
	uint64_t bytes; /* its size (eMMC); 0 where the device does not say */
	enum sb_devcache_kind kind;
	const char *how; /* the command that switches it (from the kind), for results and
			  * messages: "NVMe Set Features Volatile Write Cache (FID 06h)" */
};

/* The cache of the device whose whole-disk node is node. 0; -ENOTTY with
 * er when it is no NVMe, ATA drive or eMMC (no command of theirs reaches
 * it), -ENOENT with er when it reports no volatile write cache,
 * -EACCES/-EPERM without privilege (root). */
int sb_devcache_get(const char *node, struct sb_devcache *out, struct sb_error *er);
/* Switch it on (1) or off (0); *before gets the state before (may be
 * NULL). Nothing is sent when it already is so. The state is read back
 * after the command: a device that takes the command and keeps its state
 * is an error too. An NVMe's feature is the controller's: it applies to
 * all its namespaces; it is not saved (SV 0), so a controller reset
 * returns it to its default. 0 or -errno with er naming the device and
 * the command. */
int sb_devcache_set(const char *node, int on, struct sb_devcache *before, struct sb_error *er);
/* The switch alone, of a device of kind (sb_devcache_get found), for a
 * signal handler (async-signal-safe: open, ioctl, close; no read-back, no
 * message). 0 or -errno. */
int sb_devcache_switch_now(const char *node, enum sb_devcache_kind kind, int on);

#endif
