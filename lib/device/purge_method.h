/*
 * The purge methods: what the purges of one kind of device (nvme_purge.c,
 * purge_ata.c) are asked for and report, apart from sb_purge
 * (lib/device/purge.h), which calls them: their headers include this one,
 * not purge.h.
 */
#ifndef SB_PURGE_METHOD_H
#define SB_PURGE_METHOD_H

#include "lib/sb.h"

#define SB_PURGE_HOW_SIZE 64

enum sb_purge_method {
	SB_PURGE_AUTO,		 /* the strongest the device takes */
	SB_PURGE_NONE,		 /* no purge (a deviation from PTS) */
	SB_PURGE_DISCARD,	 /* BLKDISCARD over the whole device */
	SB_PURGE_SECURE_DISCARD, /* BLKSECDISCARD over the whole device */
	SB_PURGE_SANITIZE,	 /* NVMe Sanitize; eMMC erase + sanitize; ATA SANITIZE */
	SB_PURGE_FORMAT,	 /* NVMe Format NVM with user data erase */
	SB_PURGE_SECURE_ERASE,	 /* ATA SECURITY ERASE UNIT */
	SB_PURGE_NMETHODS,
	/* what was done, where a method has kinds (*used of sb_purge only) */
	SB_PURGE_ATA_SANITIZE_BLOCK = SB_PURGE_NMETHODS, /* sanitize: BLOCK ERASE EXT */
	SB_PURGE_ATA_SANITIZE_CRYPTO,			 /* sanitize: CRYPTO SCRAMBLE EXT */
	SB_PURGE_ATA_ERASE_ENHANCED,			 /* secure-erase, enhanced */
	SB_PURGE_ATA_ERASE_NORMAL,			 /* secure-erase, normal */
	SB_PURGE_NOUTCOMES
};

#endif
