/*
 * Purge: put a whole block device back in a fresh-out-of-box-like state
 * before a test (SNIA PTS, METHODS.md 3.1), by asking the device to forget
 * what it holds. Destroys every byte of the device: callers hold consent
 * (--destroy-data) and the safety checks (sb_jobtarget_consent) first.
 */
#ifndef SB_PURGE_H
#define SB_PURGE_H

#include "lib/sb.h"

#define SB_PURGE_HOW_SIZE 64

enum sb_purge_method {
	SB_PURGE_AUTO,		 /* the strongest the device takes */
	SB_PURGE_NONE,		 /* no purge (a deviation from PTS) */
	SB_PURGE_DISCARD,	 /* BLKDISCARD over the whole device */
	SB_PURGE_SECURE_DISCARD, /* BLKSECDISCARD over the whole device */
	SB_PURGE_SANITIZE,	 /* NVMe Sanitize; eMMC erase + sanitize (ATA: not built yet) */
	SB_PURGE_FORMAT,	 /* NVMe Format NVM with user data erase */
	SB_PURGE_NMETHODS
};

/* "auto", "none", "discard", "secure-discard", "sanitize", "format". */
const char *sb_purge_name(enum sb_purge_method m);
/* The method of a name, or -EINVAL. */
int sb_purge_by_name(const char *name);
/* The methods this build can carry out, for messages: "discard,
 * secure-discard". */
const char *sb_purge_supported(void);

/* Purge the block device open for writing as fd (path for messages) with
 * method m. auto takes, on an NVMe namespace, Sanitize by block erase,
 * else by crypto erase, else Format NVM with user data erase (each only
 * where the device supports it and it reaches no other namespace); on an
 * eMMC that can (EXT_CSD readable: root), erase + sanitize; else it tries
 * secure-discard, then discard. sanitize: NVMe (block erase, else crypto
 * erase, else one overwrite pass) or eMMC; format: NVMe only. *used gets
 * the method carried out (none for SB_PURGE_NONE). A device that refuses
 * the method (-EOPNOTSUPP, -EINVAL from the kernel, an error answer to its
 * command, a sanitize that fails) is an error, never skipped: -errno with
 * er saying which device refused which command (NVMe: the status code). */
int sb_purge(int fd, const char *path, enum sb_purge_method m, enum sb_purge_method *used,
	     struct sb_error *er);
/* The same, and how (howlen bytes, SB_PURGE_HOW_SIZE will do; NULL: not
 * wanted) gets the exact command: "NVMe Sanitize block erase, SANACT 2",
 * "NVMe Format NVM user data erase, SES 1, LBA format 0", "eMMC ERASE +
 * SANITIZE_START", "BLKSECDISCARD", "BLKDISCARD"; "" when none. */
int sb_purge_how(int fd, const char *path, enum sb_purge_method m, enum sb_purge_method *used,
		 char *how, size_t howlen, struct sb_error *er);

#endif
