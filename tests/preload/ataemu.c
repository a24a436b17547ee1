/*
 * ataemu: an LD_PRELOAD library that makes one ordinary block device (a
 * loop device over a test's file, a zram device of the test's own) answer
 * SG_IO with ATA PASS-THROUGH (16) (T10 SAT-4) as an ATA drive would, from
 * a state file, so every process of a test sees the same drive.
 *
 * It emulates the command protocol, not the flash: IDENTIFY DEVICE (ECh)
 * returns the words the state holds; the Security feature set (ACS-3:
 * SET PASSWORD F1h, ERASE PREPARE F3h, ERASE UNIT F4h, DISABLE PASSWORD
 * F6h) runs as a state machine (a user password set enables security;
 * ERASE UNIT right after ERASE PREPARE with that password writes zeros over
 * the whole device through the real device and disables security; a wrong
 * password, a missing prepare, a frozen or locked drive: aborted); SANITIZE
 * DEVICE (B4h) BLOCK ERASE EXT and CRYPTO SCRAMBLE EXT with their keys
 * write zeros over the device, and SANITIZE STATUS EXT says "in progress"
 * once, then "completed"; SET FEATURES (EFh) 02h/82h switch the volatile
 * write cache (IDENTIFY word 85 bit 5) where word 82 bit 5 says there is
 * one (else aborted). Answers come as the ATA Status Return sense
 * descriptor (09h) when CK_COND is set or the command failed (status 51h,
 * error 04h ABRT), as libata gives them. The CDB is checked field by
 * field (PROTOCOL, T_DIR, BYTE_BLOCK, T_LENGTH, COUNT against the transfer
 * SG_IO asks for); anything else is ILLEGAL REQUEST. No timing, no
 * master password, no SECURITY UNLOCK, no power cycle.
 *
 * Environment:
 *   ATAEMU_DEV     the block device to dress up (/dev/loop3)
 *   ATAEMU_STATE   a directory: the state file "ata" is made on first use
 *   ATAEMU_CAPS    what the drive starts with, comma separated: security
 *                  (word 82 bit 1, word 128 bit 0), enhanced (word 128
 *                  bit 5), frozen, locked, expired, enabled (a password
 *                  storbench does not know: "secret"), sanitize (word 59
 *                  bit 12), block (bit 15), crypto (bit 13), wcache (a
 *                  volatile write cache: word 82 bit 5), wcache-on (and it
 *                  is on: word 85 bit 5), notata (every
 *                  ATA PASS-THROUGH is ILLEGAL REQUEST: a SCSI disk),
 *                  partition (access() finds /sys/dev/block/M:m/partition
 *                  of the device: a partition, whose SG_IO reaches the
 *                  whole drive)
 *   ATAEMU_REFUSE  commands answered with ABRT, comma separated: identify,
 *                  set-password, erase-prepare, erase-unit, disable,
 *                  sanitize, sanitize-status (the sanitize fails: status
 *                  ERR with reason 01h), set-features
 *   ATAEMU_LOG     a file: one line per command ("erase-unit enhanced",
 *                  "set-features 0x82")
 * Without ATAEMU_DEV and ATAEMU_STATE it changes nothing.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <scsi/sg.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct drive {
	uint16_t id[256];
	char password[33];
	int prepared;  /* the last command was ERASE PREPARE */
	int tries;     /* wrong passwords left before "expired" */
	int san_polls; /* status answers "in progress" this many times */
	int san_done;  /* a sanitize completed */
};

#define EMU_PREFIX "ATAEMU"
#include "emu.h"

/* ---- the state file ---- */

static void ident_string(uint16_t *w, int words, const char *s)
{
	/* ATA strings: two characters a word, the first in the high byte */
	for (int i = 0; i < words; i++) {
		const char a = *s ? *s++ : ' ', b = *s ? *s++ : ' ';
		w[i] = (uint16_t)((uint8_t)a << 8 | (uint8_t)b);
	}
}

static void fresh(struct drive *d)
{
	memset(d, 0, sizeof(*d));
	d->tries = 5;
	ident_string(d->id + 10, 10, "ATAEMU0001");
	ident_string(d->id + 23, 4, "1.0");
	ident_string(d->id + 27, 20, "storbench ATA emulator");
	d->id[83] = 0x4000 | 0x0400; /* valid, 48-bit */
	d->id[82] = 0x4000;	     /* bits 14: set as drives do */
	d->id[87] = 0x4000;	     /* words 85-87 valid */
	d->id[89] = 0x0003;	     /* normal erase: 6 minutes */
	d->id[90] = 0x8002;	     /* enhanced: 4 minutes (extended format) */
	if (listed("ATAEMU_CAPS", "security")) {
		d->id[82] |= 0x0002;
		d->id[128] |= 0x0001;
	}
	if (listed("ATAEMU_CAPS", "enhanced"))
		d->id[128] |= 0x0020;
	if (listed("ATAEMU_CAPS", "frozen"))
		d->id[128] |= 0x0008;
	if (listed("ATAEMU_CAPS", "locked"))
		d->id[128] |= 0x0006;
	if (listed("ATAEMU_CAPS", "expired"))
		d->id[128] |= 0x0010;
	if (listed("ATAEMU_CAPS", "enabled") || listed("ATAEMU_CAPS", "locked")) {
		d->id[128] |= 0x0002;
		snprintf(d->password, sizeof(d->password), "secret");
	}
	if (listed("ATAEMU_CAPS", "wcache"))
		d->id[82] |= 0x0020;
	if (listed("ATAEMU_CAPS", "wcache-on"))
		d->id[85] |= 0x0020;
	if (listed("ATAEMU_CAPS", "sanitize"))
		d->id[59] |= 0x1000;
	if (listed("ATAEMU_CAPS", "crypto"))
		d->id[59] |= 0x2000;
	if (listed("ATAEMU_CAPS", "block"))
		d->id[59] |= 0x8000;
}

static void state_path(char *out, size_t len)
{
	snprintf(out, len, "%s/ata", emu.state);
}

static int save(const struct drive *d)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	state_path(path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
	const int fd = NEXT(open)(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	const int ok = write(fd, d, sizeof(*d)) == (ssize_t)sizeof(*d);
	close(fd);
	return ok && rename(tmp, path) == 0 ? 0 : -1;
}

static int load(struct drive *d)
{
	char path[PATH_MAX];
	state_path(path, sizeof(path));
	const int fd = NEXT(open)(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fresh(d);
		return save(d);
	}
	const ssize_t n = read(fd, d, sizeof(*d));
	close(fd);
	return n == (ssize_t)sizeof(*d) ? 0 : -1;
}

/* Zeros over the whole device, through the real device. */
static int wipe(void)
{
	static uint8_t buf[1 << 20];
	uint64_t size = 0;
	const int fd = NEXT(open)(emu.dev, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int err = NEXT(ioctl)(fd, BLKGETSIZE64, &size) < 0;
	for (uint64_t off = 0; off < size && !err; off += sizeof(buf)) {
		const size_t n = (size_t)(size - off < sizeof(buf) ? size - off : sizeof(buf));
		err = pwrite(fd, buf, n, (off_t)off) != (ssize_t)n;
	}
	err = err || fdatasync(fd) < 0;
	close(fd);
	return err ? -1 : 0;
}

/* ---- answers ---- */

struct answer {
	int ata; /* registers back in a descriptor */
	uint8_t status, error;
	uint16_t count;
	uint64_t lba;
	uint8_t key, asc, ascq;
};

static void reply(sg_io_hdr_t *h, const struct answer *a, int ck_cond)
{
	uint8_t s[22];
	memset(s, 0, sizeof(s));
	h->host_status = 0;
	h->driver_status = 0;
	h->status = 0;
	h->masked_status = 0;
	h->sb_len_wr = 0;
	h->resid = 0;
	h->info = 0;
	if (a->ata ? !(a->status & 0x21) && !ck_cond : !a->key)
		return; /* GOOD, no sense */
	s[0] = 0x72;
	s[1] = a->key;
	s[2] = a->asc;
	s[3] = a->ascq;
	size_t n = 8;
	if (a->ata) {
		uint8_t *d = s + 8;
		s[7] = 14;
		d[0] = 0x09;
		d[1] = 12;
		d[2] = 1; /* EXTEND */
		d[3] = a->error;
		d[4] = (uint8_t)(a->count >> 8);
		d[5] = (uint8_t)a->count;
		d[6] = (uint8_t)(a->lba >> 24);
		d[7] = (uint8_t)a->lba;
		d[8] = (uint8_t)(a->lba >> 32);
		d[9] = (uint8_t)(a->lba >> 8);
		d[10] = (uint8_t)(a->lba >> 40);
		d[11] = (uint8_t)(a->lba >> 16);
		d[12] = 0x40;
		d[13] = a->status;
		n = 22;
	}
	if (h->sbp && h->mx_sb_len) {
		const size_t k = n < h->mx_sb_len ? n : h->mx_sb_len;
		memcpy(h->sbp, s, k);
		h->sb_len_wr = (unsigned char)k;
	}
	h->status = 0x02; /* CHECK CONDITION */
	h->masked_status = 0x01;
	h->driver_status = 0x08; /* DRIVER_SENSE */
	h->info = 1;		 /* SG_INFO_CHECK */
}

static const struct answer OK = { .ata = 1, .status = 0x50, .key = 0x01, .ascq = 0x1d };
static const struct answer ABORT = { .ata = 1, .status = 0x51, .error = 0x04, .key = 0x0b };
static const struct answer ILLEGAL = { .key = 0x05, .asc = 0x24 }; /* invalid field in CDB */

/* The 512 bytes of a security command's data: word 0, the password. */
static void sec_data(const uint8_t *b, int *word0, char *pw)
{
	*word0 = b[0] | b[1] << 8;
	memcpy(pw, b + 2, 32);
	pw[32] = '\0';
}

static struct answer security(struct drive *d, uint8_t cmd, const uint8_t *data)
{
	uint16_t *w128 = &d->id[128];
	const int prepared = d->prepared;
	int word0 = 0;
	char pw[33] = "";
	d->prepared = 0;
	if (data)
		sec_data(data, &word0, pw);
	if (cmd == 0xf1)
		say("set-password %s '%s'", word0 & 1 ? "master" : "user", pw);
	else if (cmd == 0xf3)
		say("erase-prepare");
	else if (cmd == 0xf4)
		say("erase-unit %s '%s'", word0 & 2 ? "enhanced" : "normal", pw);
	else
		say("disable-password '%s'", pw);
	if (!(*w128 & 0x0001))
		return ABORT;
	switch (cmd) {
	case 0xf1:
		if (refused("set-password") || (*w128 & 0x000c))
			return ABORT;
		if (!(word0 & 1)) {
			memcpy(d->password, pw, sizeof(d->password));
			*w128 |= 0x0002;
		}
		return OK;
	case 0xf3:
		if (refused("erase-prepare") || (*w128 & 0x0008))
			return ABORT;
		d->prepared = 1;
		return OK;
	case 0xf4:
		if (refused("erase-unit") || !prepared || !(*w128 & 0x0002) ||
		    ((word0 & 2) && !(*w128 & 0x0020)))
			return ABORT;
		if (strcmp(pw, d->password)) {
			if (--d->tries <= 0)
				*w128 |= 0x0010;
			return ABORT;
		}
		if (wipe() < 0)
			return ABORT;
		*w128 &= (uint16_t)~0x0006;
		memset(d->password, 0, sizeof(d->password));
		return OK;
	case 0xf6:
		if (refused("disable") || (*w128 & 0x000c) ||
		    strcmp(pw, d->password))
			return ABORT;
		*w128 &= (uint16_t)~0x0002;
		memset(d->password, 0, sizeof(d->password));
		return OK;
	}
	return ABORT;
}

static struct answer sanitize(struct drive *d, uint16_t feature, uint64_t lba, int extend)
{
	const uint16_t w59 = d->id[59];
	d->prepared = 0;
	if (feature == 0x0000) {
		say("sanitize-status");
		struct answer a = OK;
		if (refused("sanitize-status")) {
			a = ABORT;
			a.lba = 0x01; /* sanitize command unsuccessful */
			return a;
		}
		if (d->san_polls > 0) {
			d->san_polls--;
			a.count = 0x4000; /* in progress */
			a.lba = 0x8000;	  /* half done */
		} else if (d->san_done) {
			a.count = 0x8000; /* completed without error */
		}
		return a;
	}
	const int block = feature == 0x0012 && lba == 0x426b4572u && (w59 & 0x8000);
	const int crypto = feature == 0x0011 && lba == 0x43727970u && (w59 & 0x2000);
	say("sanitize 0x%04x 0x%llx", (unsigned)feature, (unsigned long long)lba);
	if (!extend || !(w59 & 0x1000) || (!block && !crypto) ||
	    refused("sanitize") || (d->id[128] & 0x0004))
		return ABORT;
	if (wipe() < 0)
		return ABORT;
	d->san_polls = 1;
	d->san_done = 1;
	return OK;
}

/* SET FEATURES: 02h enable, 82h disable the volatile write cache */
static struct answer set_features(struct drive *d, uint16_t feature)
{
	const unsigned sub = feature & 0xff;
	d->prepared = 0;
	say("set-features 0x%02x", sub);
	if ((sub != 0x02 && sub != 0x82) || !(d->id[82] & 0x0020) ||
	    refused("set-features"))
		return ABORT;
	if (sub == 0x02)
		d->id[85] |= 0x0020;
	else
		d->id[85] &= (uint16_t)~0x0020;
	return OK;
}

static int pass_through(sg_io_hdr_t *h)
{
	const uint8_t *c = h->cmdp;
	struct drive d;
	if (h->interface_id != 'S' || !c)
		return errno = EINVAL, -1;
	if (listed("ATAEMU_CAPS", "notata") || h->cmd_len != 16 || c[0] != 0x85) {
		say("not-ata 0x%02x", c[0]);
		reply(h, &(struct answer){ .key = 0x05, .asc = 0x20 }, 0); /* invalid opcode */
		return 0;
	}
	const unsigned protocol = (c[1] >> 1) & 0xf, extend = c[1] & 1, ck_cond = (c[2] >> 5) & 1;
	const unsigned t_dir = (c[2] >> 3) & 1, byte_block = (c[2] >> 2) & 1, t_length = c[2] & 3;
	const uint16_t feature = (uint16_t)(c[3] << 8 | c[4]), count = (uint16_t)(c[5] << 8 | c[6]);
	const uint64_t lba = (uint64_t)c[8] | (uint64_t)c[10] << 8 | (uint64_t)c[12] << 16 |
			     (uint64_t)c[7] << 24 | (uint64_t)c[9] << 32 | (uint64_t)c[11] << 40;
	const uint8_t cmd = c[14];
	const int data_in = cmd == 0xec, data_out = cmd == 0xf1 || cmd == 0xf4 || cmd == 0xf6;
	const int want = data_in ? 4 : data_out ? 5 : 3;
	const int dir_ok = data_in    ? h->dxfer_direction == SG_DXFER_FROM_DEV && t_dir == 1
			   : data_out ? h->dxfer_direction == SG_DXFER_TO_DEV && t_dir == 0
				      : h->dxfer_direction == SG_DXFER_NONE && t_length == 0;
	const int len_ok = want == 3 || (byte_block == 1 && t_length == 2 && count == 1 &&
					 h->dxfer_len == 512 && h->dxferp);
	if ((int)protocol != want || !dir_ok || !len_ok) {
		say("bad-cdb 0x%02x protocol %u byte2 0x%02x count %u len %u", cmd, protocol, c[2],
		    (unsigned)count, h->dxfer_len);
		reply(h, &ILLEGAL, 0);
		return 0;
	}
	if (load(&d) < 0)
		return errno = EIO, -1;
	struct answer a = ABORT;
	if (cmd == 0xec) {
		say("identify");
		d.prepared = 0;
		if (!refused("identify")) {
			uint8_t *out = h->dxferp;
			for (int i = 0; i < 256; i++) {
				out[2 * i] = (uint8_t)d.id[i];
				out[2 * i + 1] = (uint8_t)(d.id[i] >> 8);
			}
			a = OK;
		}
	} else if (cmd == 0xef) {
		a = set_features(&d, feature);
	} else if (cmd == 0xb4) {
		a = sanitize(&d, feature, lba, (int)extend);
	} else if (cmd == 0xf1 || cmd == 0xf3 || cmd == 0xf4 || cmd == 0xf6) {
		a = security(&d, cmd, data_out ? h->dxferp : NULL);
	} else {
		say("command 0x%02x", cmd);
		d.prepared = 0;
	}
	if (save(&d) < 0)
		return errno = EIO, -1;
	reply(h, &a, (int)ck_cond);
	return 0;
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	if (req == SG_IO && is_ours(fd))
		return pass_through(arg);
	return NEXT(ioctl)(fd, req, arg);
}

int access(const char *path, int mode)
{
	char part[64];
	if (emu.on && listed("ATAEMU_CAPS", "partition")) {
		snprintf(part, sizeof(part), "/sys/dev/block/%u:%u/partition", major(emu.rdev),
			 minor(emu.rdev));
		if (!strcmp(path, part))
			return 0;
	}
	return REAL(access)(path, mode);
}
