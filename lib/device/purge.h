/*
 * Purge: put a whole block device back in a fresh-out-of-box-like state
 * before a test (SNIA PTS, METHODS.md 3.1), by asking the device to forget
 * what it holds. Destroys every byte of the device: callers hold consent
 * (--destroy-data) and the safety checks (sb_jobtarget_consent) first.
 */
#ifndef SB_PURGE_H
#define SB_PURGE_H

#include "lib/sb.h"
#include "lib/device/purge_method.h"

/* "auto", "none", "discard", "secure-discard", "sanitize", "format",
 * "secure-erase"; what was done: "sanitize (ATA block erase)",
 * "sanitize (ATA crypto scramble)", "secure-erase (ATA enhanced)",
 * "secure-erase (ATA normal)". */
const char *sb_purge_name(enum sb_purge_method m);
/* The method of a name (a method, not a kind of one), or -EINVAL. */
int sb_purge_by_name(const char *name);
/* The methods this build can carry out, for messages: "discard,
 * secure-discard". */
const char *sb_purge_supported(void);

/* Purge the block device open for writing as fd (path for messages) with
 * method m. auto takes, on an NVMe namespace, Sanitize by block erase,
 * else by crypto erase, else Format NVM with user data erase (each only
 * where the device supports it and it reaches no other namespace); on an
 * ATA drive (IDENTIFY answered through SG_IO: root) sanitize (block erase,
 * else crypto scramble), else secure-erase (enhanced, else normal) when
 * the drive's security allows it; on an eMMC that can (EXT_CSD readable:
 * root), erase + sanitize; else it tries secure-discard, then discard.
 * sanitize: NVMe (block erase, else crypto erase, else one overwrite
 * pass), ATA or eMMC; format: NVMe only; secure-erase: ATA only. *used
 * gets what was carried out (none for SB_PURGE_NONE; an SB_PURGE_ATA_*
 * kind for an ATA drive). A device that refuses the method (-EOPNOTSUPP,
 * -EINVAL from the kernel, an error answer to its command, a sanitize that
 * fails) is an error, never skipped: -errno with er saying which device
 * refused which command (NVMe: the status code; ATA: the error register). */
int sb_purge(int fd, const char *path, enum sb_purge_method m, enum sb_purge_method *used,
	     struct sb_error *er);
/* The same, and how (howlen bytes, SB_PURGE_HOW_SIZE will do; NULL: not
 * wanted) gets the exact command: "NVMe Sanitize block erase, SANACT 2",
 * "NVMe Format NVM user data erase, SES 1, LBA format 0", "eMMC ERASE +
 * SANITIZE_START", "BLKSECDISCARD", "BLKDISCARD"; "" when none. */
int sb_purge_how(int fd, const char *path, enum sb_purge_method m, enum sb_purge_method *used,
		 char *how, size_t howlen, struct sb_error *er);

#endif
