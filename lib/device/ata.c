/*
 * ATA PASS-THROUGH (16) over SG_IO (T10 SAT-4, "ATA PASS-THROUGH (16)
 * command"). The CDB:
 *
 *   0  0x85
 *   1  MULTIPLE_COUNT (7:5) | PROTOCOL (4:1) | EXTEND (0)
 *   2  OFF_LINE (7:6) | CK_COND (5) | T_TYPE (4) | T_DIR (3) | BYTE_BLOCK (2)
 *      | T_LENGTH (1:0)
 *   3  FEATURES (15:8)   4  FEATURES (7:0)
 *   5  COUNT (15:8)      6  COUNT (7:0)
 *   7  LBA (31:24)       8  LBA (7:0)
 *   9  LBA (39:32)      10  LBA (15:8)
 *  11  LBA (47:40)      12  LBA (23:16)
 *  13  DEVICE           14  COMMAND         15  CONTROL
 *
 * Data moves in 512-byte blocks (T_TYPE 0, BYTE_BLOCK 1) counted by the
 * COUNT field (T_LENGTH 2). CK_COND 1 asks for the ATA registers back even
 * when the command succeeds, in the ATA Status Return sense data
 * descriptor (type 09h, descriptor-format sense, response code 72h); a
 * command that ends with ERR gets them back either way. Translators that
 * keep fixed-format sense (70h) put ERROR, STATUS, DEVICE and COUNT (7:0)
 * in the INFORMATION field and LBA (23:0) in COMMAND-SPECIFIC
 * INFORMATION, which is read too (SAT-4 "Fixed format sense data").
 */
#include "lib/device/ata.h"

#include <scsi/sg.h>
#include <sys/ioctl.h>

enum {
	ATA_PT16 = 0x85,
	SENSE_LEN = 64,
	ST_ERR = 0x01, /* ATA status: ERR */
	ST_DF = 0x20,  /* device fault */
	SCSI_CHECK_CONDITION = 0x02,
	KEY_RECOVERED = 0x01,
	KEY_ILLEGAL = 0x05,
	DRIVER_SENSE = 0x08,
};

static void cdb_fill(uint8_t *c, const struct sb_ata_tf *tf, size_t len, int in)
{
	memset(c, 0, 16);
	c[0] = ATA_PT16;
	c[1] = (uint8_t)(tf->protocol << 1 | (tf->extend ? 1 : 0));
	if (len)
		c[2] = (uint8_t)((in ? 0x08 : 0) | 0x04 | 0x02); /* T_DIR, BYTE_BLOCK, T_LENGTH 2 */
	else
		c[2] = 0x20; /* CK_COND: the registers back (SANITIZE STATUS reads them) */
	c[3] = (uint8_t)(tf->feature >> 8);
	c[4] = (uint8_t)tf->feature;
	c[5] = (uint8_t)(tf->count >> 8);
	c[6] = (uint8_t)tf->count;
	c[7] = (uint8_t)(tf->lba >> 24);
	c[8] = (uint8_t)tf->lba;
	c[9] = (uint8_t)(tf->lba >> 32);
	c[10] = (uint8_t)(tf->lba >> 8);
	c[11] = (uint8_t)(tf->lba >> 40);
	c[12] = (uint8_t)(tf->lba >> 16);
	c[13] = tf->device;
	c[14] = tf->command;
}

/* The ATA Status Return descriptor (09h, 14 bytes) in descriptor-format
 * sense, or the same registers from fixed-format sense. */
static void sense_parse(const uint8_t *s, size_t n, struct sb_ata_result *r)
{
	if (n < 8)
		return;
	const uint8_t code = s[0] & 0x7f;
	if (code == 0x72 || code == 0x73) {
		r->key = s[1] & 0x0f;
		r->asc = s[2];
		r->ascq = s[3];
		const size_t end = 8 + (size_t)s[7] < n ? 8 + (size_t)s[7] : n;
		for (size_t i = 8; i + 2 <= end; i += 2 + (size_t)s[i + 1]) {
			const uint8_t *d = s + i;
			if (d[0] != 0x09 || d[1] < 12 || i + 14 > end)
				continue;
			r->ata = 1;
			r->error = d[3];
			r->count = (uint16_t)(d[4] << 8 | d[5]);
			r->lba = (uint64_t)d[7] | (uint64_t)d[9] << 8 | (uint64_t)d[11] << 16 |
				 (uint64_t)d[6] << 24 | (uint64_t)d[8] << 32 |
				 (uint64_t)d[10] << 40;
			r->device = d[12];
			r->status = d[13];
			return;
		}
		return;
	}
	if ((code == 0x70 || code == 0x71) && n >= 14) {
		r->key = s[2] & 0x0f;
		r->asc = s[12];
		r->ascq = s[13];
		/* ASC/ASCQ 00/1Dh: ATA PASS-THROUGH information available; an
		 * error answer comes with ABORTED COMMAND and its registers */
		if ((r->asc == 0x00 && r->ascq == 0x1d) || r->key == 0x0b) {
			r->ata = 1;
			r->error = s[3];
			r->status = s[4];
			r->device = s[5];
			r->count = s[6];
			r->lba = (uint64_t)s[9] | (uint64_t)s[10] << 8 | (uint64_t)s[11] << 16;
		}
	}
}

int sb_ata_cmd(int fd, const struct sb_ata_tf *tf, void *data, size_t len, unsigned timeout_ms,
	       struct sb_ata_result *r)
{
	uint8_t cdb[16], sense[SENSE_LEN];
	const int in = tf->protocol == SB_ATA_PIO_IN;
	memset(r, 0, sizeof(*r));
	memset(sense, 0, sizeof(sense));
	cdb_fill(cdb, tf, len, in);
	sg_io_hdr_t h;
	memset(&h, 0, sizeof(h));
	h.interface_id = 'S';
	h.cmd_len = sizeof(cdb);
	h.cmdp = cdb;
	h.mx_sb_len = sizeof(sense);
	h.sbp = sense;
	h.dxfer_direction = !len ? SG_DXFER_NONE : in ? SG_DXFER_FROM_DEV : SG_DXFER_TO_DEV;
	h.dxfer_len = (unsigned)len;
	h.dxferp = data;
	h.timeout = timeout_ms;
	if (ioctl(fd, SG_IO, &h) < 0)
		return errno == ENOTTY || errno == EINVAL ? -EOPNOTSUPP : -errno;
	sense_parse(sense, h.sb_len_wr, r);
	r->host_status = h.host_status;
	r->driver_status = h.driver_status & ~DRIVER_SENSE;
	if (r->ata)
		return r->status & (ST_ERR | ST_DF) ? -EIO : 0;
	if (h.host_status || r->driver_status)
		return -EIO;
	if (h.sb_len_wr && r->key == KEY_ILLEGAL)
		return -EOPNOTSUPP;
	if (h.sb_len_wr && r->key != 0 && r->key != KEY_RECOVERED)
		return -EIO;
	return h.status == SCSI_CHECK_CONDITION && !h.sb_len_wr ? -EIO : 0;
}

int sb_ata_identify(int fd, uint16_t id[SB_ATA_ID_WORDS], struct sb_ata_result *r)
{
	uint8_t raw[512];
	const struct sb_ata_tf tf = { .command = SB_ATA_IDENTIFY,
				      .protocol = SB_ATA_PIO_IN,
				      .count = 1 };
	memset(raw, 0, sizeof(raw));
	const int e = sb_ata_cmd(fd, &tf, raw, sizeof(raw), 10000, r);
	if (e)
		return e;
	/* the data is little-endian words (ACS-3) */
	for (int i = 0; i < SB_ATA_ID_WORDS; i++)
		id[i] = (uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
	/* a blank answer is no drive: a translator that passed nothing on */
	for (int i = 0; i < SB_ATA_ID_WORDS; i++)
		if (id[i])
			return 0;
	return -EOPNOTSUPP;
}

/* Words 89/90: bit 15 set, bits 14:0 count 2-minute units (32767: longer);
 * clear, bits 7:0 do (255: longer than 508 minutes); 0: not given. */
static void erase_time(unsigned w, unsigned *min, int *longer)
{
	const unsigned v = w & 0x8000 ? w & 0x7fff : w & 0xff;
	*longer = w & 0x8000 ? v == 0x7fff : v == 0xff;
	*min = v * 2;
}

void sb_ata_id_decode(const uint16_t id[SB_ATA_ID_WORDS], struct sb_ata_id *o)
{
	memset(o, 0, sizeof(*o));
	o->w59 = id[59];
	o->w82 = id[82];
	o->w128 = id[128];
	/* word 82 is valid unless 0000h or FFFFh */
	const int w82_ok = o->w82 != 0 && o->w82 != 0xffff;
	o->sec_supported = w82_ok && (o->w82 & 0x0002) && (o->w128 & 0x0001);
	o->sec_enabled = !!(o->w128 & 0x0002);
	o->sec_locked = !!(o->w128 & 0x0004);
	o->sec_frozen = !!(o->w128 & 0x0008);
	o->sec_expired = !!(o->w128 & 0x0010);
	o->sec_enhanced = !!(o->w128 & 0x0020);
	erase_time(id[89], &o->erase_min, &o->erase_long);
	erase_time(id[90], &o->enh_min, &o->enh_long);
	o->sanitize = !!(o->w59 & 0x1000);
	o->san_crypto = o->sanitize && (o->w59 & 0x2000);
	o->san_overwrite = o->sanitize && (o->w59 & 0x4000);
	o->san_block = o->sanitize && (o->w59 & 0x8000);
}

void sb_ata_why(const struct sb_ata_result *r, int err, char *buf, size_t len)
{
	if (r->ata) {
		const uint8_t e = r->error;
		snprintf(buf, len, "ATA status 0x%02x, error 0x%02x%s", r->status, e,
			 e & 0x04   ? " (ABRT: the device aborted the command)"
			 : e & 0x10 ? " (IDNF)"
			 : e & 0x40 ? " (UNC)"
				    : "");
	} else if (r->host_status || r->driver_status) {
		snprintf(buf, len, "transport error (SG_IO host status 0x%x, driver status 0x%x)",
			 r->host_status, r->driver_status);
	} else if (r->key) {
		snprintf(buf, len, "SCSI sense key 0x%x, ASC/ASCQ 0x%02x/0x%02x", r->key, r->asc,
			 r->ascq);
	} else {
		snprintf(buf, len, "%s", strerror(err < 0 ? -err : err));
	}
}
