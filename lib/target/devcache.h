/*
 * The device's own volatile write cache, switched with the device's own
 * command: an eMMC's EXT_CSD CACHE_CTRL (CMD6 SWITCH, as mmc-utils' "cache
 * enable/disable"). Not the kernel's queue/write_cache attribute, which
 * changes only the kernel's view (docs/pts.md). NVMe Set Features (Volatile
 * Write Cache) and SCSI/ATA caching mode pages are not built.
 */
#ifndef SB_DEVCACHE_H
#define SB_DEVCACHE_H

#include "lib/sb.h"

/* The command that switches it, for results and messages. */
#define SB_DEVCACHE_HOW "eMMC EXT_CSD CACHE_CTRL (SWITCH, CMD6)"

struct sb_devcache {
	int on;		 /* 1 on, 0 off */
	uint64_t bytes;	 /* its size */
	const char *how; /* the command that switches it, for results and messages */
};

/* The cache of the eMMC whose whole-disk node is node. 0; -ENOTTY with er
 * when it is no eMMC (or no MMC ioctl reaches it), -ENOENT with er when it
 * reports no cache (CACHE_SIZE 0, or EXT_CSD older than 4.5), -EACCES/-EPERM
 * without privilege (CAP_SYS_RAWIO). */
int sb_devcache_get(const char *node, struct sb_devcache *out, struct sb_error *er);
/* Switch it on (1) or off (0); *was gets the state before (may be NULL).
 * Nothing is sent when it already is so. The state is read back after the
 * command: a device that takes the command and keeps its state is an error
 * too. 0 or -errno with er naming the device and the command. */
int sb_devcache_set(const char *node, int on, int *was, struct sb_error *er);
/* The switch alone, for a signal handler (async-signal-safe: open, ioctl,
 * close; no read-back, no message). 0 or -errno. */
int sb_devcache_switch_now(const char *node, int on);

#endif
