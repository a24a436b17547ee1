/*
 * ATA commands through SG_IO: the SCSI ATA PASS-THROUGH (16) command of
 * T10 SAT-4, which libata (and SAT bridges) translate into the ATA command
 * the CDB carries, and the ATA registers the device answered with, read
 * back from the ATA Status Return sense descriptor. IDENTIFY DEVICE and
 * the fields of it that say which purge a drive takes (T13 ACS-3/ACS-4:
 * Security and Sanitize feature sets). Needs CAP_SYS_RAWIO (root): the
 * block layer lets no unprivileged user send ATA PASS-THROUGH.
 * Internal to lib/device (purge_ata.c, devcache.c); nothing here is
 * exported.
 */
#ifndef SB_ATA_H
#define SB_ATA_H

#include "lib/sb.h"
#include "lib/device/purge_method.h"

#define SB_ATA_ID_WORDS 256

/* ACS-3 command codes */
enum {
	SB_ATA_IDENTIFY = 0xec,
	SB_ATA_SET_FEATURES = 0xef,	 /* feature 02h: write cache on, 82h: off (devcache.c) */
	SB_ATA_SANITIZE = 0xb4,		 /* SANITIZE DEVICE; the feature picks the command */
	SB_ATA_SEC_SET_PASSWORD = 0xf1,	 /* SECURITY SET PASSWORD */
	SB_ATA_SEC_ERASE_PREPARE = 0xf3, /* SECURITY ERASE PREPARE */
	SB_ATA_SEC_ERASE_UNIT = 0xf4,	 /* SECURITY ERASE UNIT */
	SB_ATA_SEC_DISABLE = 0xf6,	 /* SECURITY DISABLE PASSWORD */
};

/* SANITIZE DEVICE features (ACS-3 "SANITIZE DEVICE") and the keys the LBA field must
 * carry so that no stray command sanitizes a drive */
enum {
	SB_ATA_SANITIZE_STATUS = 0x0000,
	SB_ATA_SANITIZE_CRYPTO = 0x0011,
	SB_ATA_SANITIZE_BLOCK = 0x0012,
	SB_ATA_SANITIZE_OVERWRITE = 0x0014,
};
#define SB_ATA_KEY_CRYPTO 0x43727970u /* "Cryp" */
#define SB_ATA_KEY_BLOCK 0x426b4572u  /* "BkEr" */

/* SAT-4 PROTOCOL field values used here */
enum { SB_ATA_NONDATA = 3, SB_ATA_PIO_IN = 4, SB_ATA_PIO_OUT = 5 };

/* One command's input registers (48-bit names of ACS-3). */
struct sb_ata_tf {
	uint8_t command, device, protocol;
	int extend; /* a 48-bit (EXT) command */
	uint16_t feature, count;
	uint64_t lba;
};

/* The outcome: status and error registers when the device answered
 * (ata = 1: from the sense data), else the SCSI sense the translator
 * gave (key/asc/ascq) or a transport error (host/driver status). */
struct sb_ata_result {
	int ata;
	uint8_t status, error, device;
	uint16_t count;
	uint64_t lba;
	uint8_t key, asc, ascq;
	unsigned host_status, driver_status;
};

/* Send tf with len bytes of data (PIO in or out; 0: none), waiting at
 * most timeout_ms. 0: the device completed it (r filled when it returned
 * registers); -EIO: it answered with ERR or DF in its status (r->ata, and
 * r->error says why) or the transport failed (r->host_status,
 * r->driver_status); -EOPNOTSUPP: no ATA behind fd (SG_IO not taken, or
 * the SCSI layer refused ATA PASS-THROUGH: ILLEGAL REQUEST); -EPERM /
 * -EACCES without privilege; other -errno. */
int sb_ata_cmd(int fd, const struct sb_ata_tf *tf, void *data, size_t len, unsigned timeout_ms,
	       struct sb_ata_result *r);

/* IDENTIFY DEVICE (512 bytes, host-endian words): sb_ata_cmd's returns. */
int sb_ata_identify(int fd, uint16_t id[SB_ATA_ID_WORDS], struct sb_ata_result *r);

/* What IDENTIFY DEVICE says about purging (ACS-3 table "IDENTIFY DEVICE data"). */
struct sb_ata_id {
	unsigned w59, w82, w128;       /* raw words */
	int sec_supported;	       /* word 82 bit 1 and word 128 bit 0 */
	int sec_enabled, sec_locked;   /* word 128 bits 1, 2 */
	int sec_frozen, sec_expired;   /* word 128 bits 3, 4 */
	int sec_enhanced;	       /* word 128 bit 5: enhanced erase */
	unsigned erase_min, enh_min;   /* words 89/90 in minutes: 0 not given */
	int erase_long, enh_long;      /* words 89/90 say "longer than they can count" */
	int sanitize;		       /* word 59 bit 12 */
	int san_crypto, san_overwrite; /* word 59 bits 13, 14 */
	int san_block;		       /* word 59 bit 15 */
};
void sb_ata_id_decode(const uint16_t id[SB_ATA_ID_WORDS], struct sb_ata_id *out);

/* Describe a failed command's answer for a message: "ATA status 0x51,
 * error 0x04 (aborted)", or the sense, or the transport error. */
void sb_ata_why(const struct sb_ata_result *r, int err, char *buf, size_t len);

/* The ATA part of sb_purge (purge_ata.c): 1 when fd is no ATA drive (or,
 * for auto, one with no ATA purge it can do now) and the caller goes on
 * with the block layer's methods; 0 done (*used set); -errno with er set. */
int sb_purge_ata(int fd, const char *path, enum sb_purge_method m, enum sb_purge_method *used,
		 struct sb_error *er);

#endif
