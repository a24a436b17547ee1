/*
 * Purge of an ATA drive by its own commands (METHODS.md 3.1: PTS names ATA
 * SECURITY ERASE and SANITIZE as purges), through ATA PASS-THROUGH (ata.c):
 *
 * - SANITIZE DEVICE (ACS-3 Sanitize feature set): BLOCK ERASE EXT, else
 *   CRYPTO SCRAMBLE EXT, each with its key in the LBA field; the command
 *   returns when the sanitize starts, SANITIZE STATUS EXT is polled until
 *   it says done (COUNT bit 15) or it fails (ERR). OVERWRITE EXT is not
 *   used: it rewrites every block with a pattern, which is no
 *   fresh-out-of-box state for a flash drive.
 * - The Security feature set (ACS-3): SECURITY SET PASSWORD (a user
 *   password, SB_ATA_PASSWORD), SECURITY ERASE PREPARE, SECURITY ERASE UNIT
 *   (enhanced where IDENTIFY word 128 bit 5 says the drive has it), after
 *   which the drive has no password and security is disabled again, which
 *   IDENTIFY must show. A failure after the password was set tries
 *   SECURITY DISABLE PASSWORD so the drive is not left to lock at its next
 *   power-up, and the message says in which state the drive is.
 *
 * A drive is refused before any command that could change it when
 * IDENTIFY says the command cannot work: security not supported, frozen,
 * locked, its password count expired, or a password already set (one
 * storbench does not know).
 */
#include "lib/device/ata.h"
#include "lib/device/sysfs.h"

#include <linux/fs.h>
#include <sys/ioctl.h>
#include <time.h>

/* The user password storbench sets for SECURITY ERASE UNIT (docs/pts.md:
 * a drive left with it set is unlocked with it). */
#define SB_ATA_PASSWORD "storbench"

enum {
	CMD_MS = 30000,		     /* any command but the erase itself */
	ERASE_FLOOR_MS = 600000,     /* 10 minutes at least for an erase */
	ERASE_UNKNOWN_MS = 43200000, /* 12 hours when the drive says nothing */
	ERASE_CAP_MS = 172800000,    /* 48 hours at most */
	POLL_MAX = 86400 * 2,	     /* sanitize status polls, 0.5 s apart: 24 hours */
};

/* The 512-byte block of the security commands: word 0 (bit 0: the user
 * password; bit 1: enhanced erase), words 1-16 the password. */
static void sec_block(uint8_t *b, int enhanced)
{
	memset(b, 0, 512);
	b[0] = enhanced ? 0x02 : 0x00;
	memcpy(b + 2, SB_ATA_PASSWORD, sizeof(SB_ATA_PASSWORD) - 1);
}

static int sec_cmd(int fd, uint8_t command, int enhanced, unsigned ms, struct sb_ata_result *r)
{
	uint8_t b[512];
	const struct sb_ata_tf tf = { .command = command,
				      .protocol = command == SB_ATA_SEC_ERASE_PREPARE
							  ? SB_ATA_NONDATA
							  : SB_ATA_PIO_OUT,
				      .count = command == SB_ATA_SEC_ERASE_PREPARE ? 0 : 1 };
	sec_block(b, enhanced);
	return sb_ata_cmd(fd, &tf, tf.count ? b : NULL, tf.count ? sizeof(b) : 0, ms, r);
}

static unsigned erase_ms(const struct sb_ata_id *d)
{
	const unsigned min = d->sec_enhanced ? d->enh_min : d->erase_min;
	const int longer = d->sec_enhanced ? d->enh_long : d->erase_long;
	if (!min || longer)
		return ERASE_UNKNOWN_MS;
	const uint64_t ms = (uint64_t)min * 60000 * 3 / 2 + 60000; /* half again, and a minute */
	return ms < ERASE_FLOOR_MS ? ERASE_FLOOR_MS
	       : ms > ERASE_CAP_MS ? ERASE_CAP_MS
				   : (unsigned)ms;
}

/* Why security erase cannot be sent, or NULL. */
static const char *sec_unusable(const struct sb_ata_id *d)
{
	if (!d->sec_supported)
		return "does not support the ATA Security feature set (IDENTIFY word 82 bit 1 or "
		       "word 128 bit 0 clear)";
	if (d->sec_locked)
		return "is locked (IDENTIFY word 128 bit 2: a password is set and the drive was "
		       "not unlocked)";
	if (d->sec_frozen)
		return "has its security frozen (IDENTIFY word 128 bit 3): the BIOS froze it; a "
		       "suspend/resume usually unfreezes";
	if (d->sec_expired)
		return "has its security password count expired (IDENTIFY word 128 bit 4: too "
		       "many wrong passwords; a power cycle resets it)";
	if (d->sec_enabled)
		return "already has security enabled with a password storbench does not know "
		       "(IDENTIFY word 128 bit 1); disable it first (hdparm --security-disable)";
	return NULL;
}

/* A command failed after the password was set: SECURITY DISABLE PASSWORD,
 * then the message with the state the drive is left in. */
static int sec_failed(int fd, const char *path, const char *what, const char *why,
		      struct sb_error *er)
{
	struct sb_ata_result r;
	char dwhy[160];
	const int e = sec_cmd(fd, SB_ATA_SEC_DISABLE, 0, CMD_MS, &r);
	if (!e)
		return sb_error_set(er, -EIO, SB_ERR_ENV,
				    "--purge=secure-erase: '%s' %s: %s; SECURITY DISABLE PASSWORD "
				    "(F6h) then took storbench's password off: security is "
				    "disabled, the drive is usable, its data may be partly erased",
				    path, what, why);
	sb_ata_why(&r, e, dwhy, sizeof(dwhy));
	return sb_error_set(er, -EIO, SB_ERR_ENV,
			    "--purge=secure-erase: '%s' %s: %s; SECURITY DISABLE PASSWORD (F6h) "
			    "failed too (%s): the drive is left with security enabled and user "
			    "password '%s', and locks at its next power-up (hdparm --user-master "
			    "u --security-disable %s '%s' takes it off)",
			    path, what, why, dwhy, SB_ATA_PASSWORD, SB_ATA_PASSWORD, path);
}

static int secure_erase(int fd, const char *path, const struct sb_ata_id *d,
			enum sb_purge_method *used, struct sb_error *er)
{
	struct sb_ata_result r;
	char why[160];
	int e = sec_cmd(fd, SB_ATA_SEC_SET_PASSWORD, 0, CMD_MS, &r);
	if (e) {
		sb_ata_why(&r, e, why, sizeof(why));
		return sb_error_set(er, e, SB_ERR_ENV,
				    "--purge=secure-erase: '%s' refused SECURITY SET PASSWORD "
				    "(F1h): %s (nothing was written; no password was set)",
				    path, why);
	}
	e = sec_cmd(fd, SB_ATA_SEC_ERASE_PREPARE, 0, CMD_MS, &r);
	if (e) {
		sb_ata_why(&r, e, why, sizeof(why));
		return sec_failed(fd, path, "refused SECURITY ERASE PREPARE (F3h)", why, er);
	}
	e = sec_cmd(fd, SB_ATA_SEC_ERASE_UNIT, d->sec_enhanced, erase_ms(d), &r);
	if (e) {
		sb_ata_why(&r, e, why, sizeof(why));
		return sec_failed(fd, path,
				  d->sec_enhanced ? "refused SECURITY ERASE UNIT (F4h, enhanced)"
						  : "refused SECURITY ERASE UNIT (F4h, normal)",
				  why, er);
	}
	uint16_t id[SB_ATA_ID_WORDS];
	struct sb_ata_id after;
	e = sb_ata_identify(fd, id, &r);
	if (e) {
		sb_ata_why(&r, e, why, sizeof(why));
		return sb_error_set(er, e, SB_ERR_ENV,
				    "--purge=secure-erase: '%s' took SECURITY ERASE UNIT, then "
				    "refused IDENTIFY DEVICE: %s (the erase leaves security disabled; "
				    "storbench could not check that it did)",
				    path, why);
	}
	sb_ata_id_decode(id, &after);
	if (after.sec_enabled) {
		snprintf(why, sizeof(why), "word 128 is 0x%04x", after.w128);
		return sec_failed(fd, path, "still has security enabled after SECURITY ERASE UNIT",
				  why, er);
	}
	ioctl(fd, BLKFLSBUF, 0); /* the kernel's cached pages predate the erase */
	*used = d->sec_enhanced ? SB_PURGE_ATA_ERASE_ENHANCED : SB_PURGE_ATA_ERASE_NORMAL;
	return 0;
}

static int sanitize(int fd, const char *path, const struct sb_ata_id *d, enum sb_purge_method *used,
		    struct sb_error *er)
{
	const int block = d->san_block;
	const char *name = block ? "SANITIZE DEVICE BLOCK ERASE EXT (B4h/0012h)"
				 : "SANITIZE DEVICE CRYPTO SCRAMBLE EXT (B4h/0011h)";
	struct sb_ata_tf tf = { .command = SB_ATA_SANITIZE,
				.device = 0x40,
				.protocol = SB_ATA_NONDATA,
				.extend = 1,
				.feature = block ? SB_ATA_SANITIZE_BLOCK : SB_ATA_SANITIZE_CRYPTO,
				.lba = block ? SB_ATA_KEY_BLOCK : SB_ATA_KEY_CRYPTO };
	struct sb_ata_result r;
	char why[160];
	int e = sb_ata_cmd(fd, &tf, NULL, 0, CMD_MS, &r);
	if (e) {
		sb_ata_why(&r, e, why, sizeof(why));
		return sb_error_set(er, e, SB_ERR_ENV,
				    "--purge=sanitize: '%s' refused %s: %s (the sanitize did not "
				    "start)",
				    path, name, why);
	}
	tf.feature = SB_ATA_SANITIZE_STATUS;
	tf.lba = 0;
	for (unsigned poll = 0; poll < POLL_MAX; poll++) {
		e = sb_ata_cmd(fd, &tf, NULL, 0, CMD_MS, &r);
		if (e) {
			sb_ata_why(&r, e, why, sizeof(why));
			return sb_error_set(er, e, SB_ERR_ENV,
					    "--purge=sanitize: '%s': SANITIZE STATUS EXT after %s "
					    "says the sanitize failed: %s, reason 0x%02x (the drive "
					    "stays in its sanitize-failed state until a sanitize "
					    "completes)",
					    path, name, why, (unsigned)(r.lba & 0xff));
		}
		if (r.count & 0x8000) { /* SANITIZE OPERATION COMPLETED WITHOUT ERROR */
			ioctl(fd, BLKFLSBUF, 0);
			*used = block ? SB_PURGE_ATA_SANITIZE_BLOCK : SB_PURGE_ATA_SANITIZE_CRYPTO;
			return 0;
		}
		if (!(r.count & 0x4000)) /* neither done nor SANITIZE IN PROGRESS */
			return sb_error_set(er, -EIO, SB_ERR_ENV,
					    "--purge=sanitize: '%s': SANITIZE STATUS EXT after %s "
					    "says neither done nor in progress (count 0x%04x)",
					    path, name, r.count);
		const struct timespec nap = { 0, 500000000 };
		nanosleep(&nap, NULL);
	}
	return sb_error_set(er, -ETIMEDOUT, SB_ERR_ENV,
			    "--purge=sanitize: '%s': %s still in progress after 24 hours", path,
			    name);
}

/* The method's name for messages (purge.c's table is not called from
 * here: purge.c calls this file). */
static const char *method(enum sb_purge_method m)
{
	return m == SB_PURGE_SANITIZE	    ? "sanitize"
	       : m == SB_PURGE_SECURE_ERASE ? "secure-erase"
					    : "auto";
}

int sb_purge_ata(int fd, const char *path, enum sb_purge_method m, enum sb_purge_method *used,
		 struct sb_error *er)
{
	if (m != SB_PURGE_AUTO && m != SB_PURGE_SANITIZE && m != SB_PURGE_SECURE_ERASE)
		return 1;
	/* SG_IO on a partition's node reaches the whole drive (the kernel
	 * lets CAP_SYS_RAWIO through): an ATA purge of it would erase its
	 * neighbours */
	if (sb_sysfs_is_partition(fd) && m == SB_PURGE_AUTO)
		return 1;
	if (sb_sysfs_is_partition(fd))
		return sb_error_set(er, -EINVAL, SB_ERR_INPUT,
				    "--purge=%s: '%s' is a partition, and a sanitize or a secure "
				    "erase acts on the whole drive: name the whole disk (nothing "
				    "was sent)",
				    method(m), path);
	uint16_t id[SB_ATA_ID_WORDS];
	struct sb_ata_result r;
	char why[160];
	const int e = sb_ata_identify(fd, id, &r);
	if ((e == -EPERM || e == -EACCES) && m != SB_PURGE_AUTO)
		return sb_error_set(er, e, SB_ERR_ENV,
				    "--purge=%s: cannot send ATA IDENTIFY DEVICE to '%s': %s "
				    "(needs root: CAP_SYS_RAWIO; nothing was written)",
				    method(m), path, strerror(-e));
	if (e && m != SB_PURGE_SECURE_ERASE)
		return 1;
	if (e) {
		sb_ata_why(&r, e, why, sizeof(why));
		return sb_error_set(er, -EOPNOTSUPP, SB_ERR_INPUT,
				    "--purge=secure-erase: '%s' is no ATA drive (IDENTIFY DEVICE "
				    "through SG_IO: %s); storbench secure-erases ATA drives only "
				    "(nothing was written)",
				    path, why);
	}
	struct sb_ata_id d;
	sb_ata_id_decode(id, &d);
	if (m != SB_PURGE_SECURE_ERASE && (d.san_block || d.san_crypto))
		return sanitize(fd, path, &d, used, er);
	if (m == SB_PURGE_SANITIZE)
		return sb_error_set(er, -EOPNOTSUPP, SB_ERR_INPUT,
				    "--purge=sanitize: '%s' is an ATA drive without SANITIZE BLOCK "
				    "ERASE or CRYPTO SCRAMBLE (IDENTIFY word 59 is 0x%04x; nothing "
				    "was written)",
				    path, d.w59);
	const char *no = sec_unusable(&d);
	if (no && m == SB_PURGE_AUTO)
		return 1;
	if (no)
		return sb_error_set(er, -EOPNOTSUPP, SB_ERR_INPUT,
				    "--purge=secure-erase: '%s' %s (nothing was sent)", path, no);
	return secure_erase(fd, path, &d, used, er);
}
