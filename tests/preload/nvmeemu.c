/*
 * nvmeemu: an LD_PRELOAD library that makes one ordinary block device (a
 * loop device over a test's file, a zram device of the test's own) answer
 * as an NVMe namespace: its sysfs entry leads to an NVMe controller
 * (nvmeemu0, whose node /dev/nvmeemu0 opens the same device), and the
 * ioctls NVME_IOCTL_ID and NVME_IOCTL_ADMIN_CMD on it are answered here.
 *
 * It emulates the admin commands a purge and a health read send, not the
 * flash: Identify Controller (CNS 01h), Namespace (00h), active namespace
 * list (02h); Format NVM (80h) and Sanitize (84h), which write zeros over
 * the whole device through the real device (Format only with Secure Erase
 * Settings 1 or 2: SES 0 leaves the data, as a device may); Get Log Page
 * (02h) of the SMART log (LID 02h, zeros but a temperature) and the
 * Sanitize Status log (LID 81h); Get Features (0Ah) and Set Features
 * (09h) of the Volatile Write Cache (FID 06h, CDW11 / dword 0 bit 0 WCE),
 * the state kept in NVMEEMU_STATE/vwc. Status codes as NVM Express 2.0 defines
 * them come back as the ioctl's positive return, as from the kernel. No
 * timing, no namespaces management, no protection information.
 *
 * Environment (numbers: C syntax, 0x.. hex):
 *   NVMEEMU_DEV       the block device to dress up (/dev/loop3)
 *   NVMEEMU_STATE     a directory: the sysfs tree tests/lib/nvmeemu.sh
 *                     built (sys/block/NAME), the sanitize state (sanitize)
 *   NVMEEMU_LOG       a file: one line per command ("id", "admin 0x80
 *                     nsid=0x1 cdw10=0x200"; Set Features adds " cdw11=0x0")
 *   NVMEEMU_NSID      the namespace id (1); NVMEEMU_NSLIST the controller's
 *                     active namespace ids, comma separated (NVMEEMU_NSID)
 *   NVMEEMU_OACS NVMEEMU_FNA NVMEEMU_SANICAP NVMEEMU_NN  Identify
 *                     Controller fields (0x2, 0, 0x3, 32)
 *   NVMEEMU_NLBAF NVMEEMU_FLBAS NVMEEMU_DPS  Identify Namespace fields (1,
 *                     0, 0); format i: 512 bytes (even i) or 4096 (odd),
 *                     8 metadata bytes when bit 1 of i is set
 *   NVMEEMU_VWC       Identify Controller VWC, byte 525 (0: no volatile
 *                     write cache; Get/Set Features FID 06h: Invalid Field)
 *   NVMEEMU_WCE       the cache's state before the first Set Features (1)
 *   NVMEEMU_REFUSE    commands answered with NVMEEMU_STATUS (0x2, Invalid
 *                     Field), comma separated: identify, format, sanitize, log,
 *                     setfeatures
 *   NVMEEMU_SANITIZE_FAIL  set: a sanitize ends failed (SSTAT 3), no erase
 *   NVMEEMU_POLLS     reads of the Sanitize Status log that say "in
 *                     progress" before the end (0)
 *   NVMEEMU_EST       the log's estimates, seconds (0xffffffff: none)
 *   NVMEEMU_NSZE      the namespace's size in LBAs (the device's)
 * Without NVMEEMU_DEV and NVMEEMU_STATE it changes nothing.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/nvme_ioctl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define CTRL_NODE "/dev/nvmeemu0"

enum {
	SC_INVALID_OPCODE = 0x001,
	SC_INVALID_FIELD = 0x002,
	SC_INVALID_NS = 0x00b,
	SC_SANITIZE_IN_PROGRESS = 0x01d,
	SC_INVALID_FORMAT = 0x10a,
	DNR = 0x4000, /* Do Not Retry, as a device sets it on these */
};

#define EMU_PREFIX "NVMEEMU"
#define EMU_WRAP_PATHS
#include "emu.h"

static unsigned long num(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return dflt;
	return strtoul(v, NULL, 0);
}

/* The sysfs entry of the device is the fake one; the controller's node
 * is the device itself. */
static const char *redirect(const char *path, char *buf, size_t len)
{
	if (emu.on && path && !strcmp(path, CTRL_NODE))
		return emu.dev;
	return emu_sysfs(path, buf, len);
}

/* ---- the sanitize state: "CURRENT FINAL POLLS_LEFT SCDW10" ---- */

struct san {
	unsigned cur, final, polls;
	uint32_t cdw10;
};

static void san_path(char *out, size_t len)
{
	snprintf(out, len, "%s/sanitize", emu.state);
}

static void san_load(struct san *s)
{
	char path[PATH_MAX];
	memset(s, 0, sizeof(*s));
	san_path(path, sizeof(path));
	FILE *f = REAL(fopen)(path, "r");
	if (!f)
		return;
	if (fscanf(f, "%u %u %u %x", &s->cur, &s->final, &s->polls, &s->cdw10) != 4)
		memset(s, 0, sizeof(*s));
	fclose(f);
}

static void san_save(const struct san *s)
{
	char path[PATH_MAX];
	san_path(path, sizeof(path));
	FILE *f = REAL(fopen)(path, "w");
	if (!f)
		return;
	fprintf(f, "%u %u %u %x\n", s->cur, s->final, s->polls, (unsigned)s->cdw10);
	fclose(f);
}

/* ---- data ---- */

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t dev_bytes(void)
{
	uint64_t bytes = 0;
	const int fd = NEXT(open)(emu.dev, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		NEXT(ioctl)(fd, BLKGETSIZE64, &bytes);
		close(fd);
	}
	return bytes;
}

static unsigned lbads(unsigned i)
{
	return i % 2 ? 12 : 9;
}

static void id_string(uint8_t *p, size_t n, const char *s)
{
	memset(p, ' ', n);
	memcpy(p, s, strlen(s) < n ? strlen(s) : n);
}

static void identify_ctrl(uint8_t *d)
{
	put16(d, 0x1b4b); /* VID */
	id_string(d + 4, 20, "EMU0001");
	id_string(d + 24, 40, "storbench nvmeemu");
	id_string(d + 64, 8, "1.0");
	put16(d + 256, (unsigned)num("NVMEEMU_OACS", 0x2));
	put32(d + 328, (uint32_t)num("NVMEEMU_SANICAP", 0x3));
	put32(d + 516, (uint32_t)num("NVMEEMU_NN", 32));
	d[524] = (uint8_t)num("NVMEEMU_FNA", 0);
	d[525] = (uint8_t)num("NVMEEMU_VWC", 0);
}

static void identify_ns(uint8_t *d)
{
	const unsigned nlbaf = (unsigned)num("NVMEEMU_NLBAF", 1) & 63;
	const unsigned flbas = (unsigned)num("NVMEEMU_FLBAS", 0);
	const unsigned cur = (flbas & 15) | (nlbaf >= 16 ? ((flbas >> 5) & 3) << 4 : 0);
	const uint64_t lbas = num("NVMEEMU_NSZE", dev_bytes() >> lbads(cur));
	put64(d, lbas);	     /* NSZE */
	put64(d + 8, lbas);  /* NCAP */
	put64(d + 16, lbas); /* NUSE */
	d[25] = (uint8_t)nlbaf;
	d[26] = (uint8_t)flbas;
	d[29] = (uint8_t)num("NVMEEMU_DPS", 0);
	for (unsigned i = 0; i <= nlbaf; i++)
		put32(d + 128 + 4 * i, (i & 2 ? 8u : 0u) | lbads(i) << 16);
}

static void active_ns(uint8_t *d)
{
	char list[256];
	snprintf(list, sizeof(list), "%s",
		 getenv("NVMEEMU_NSLIST") ? getenv("NVMEEMU_NSLIST") : "");
	if (!list[0])
		snprintf(list, sizeof(list), "%lu", num("NVMEEMU_NSID", 1));
	unsigned n = 0;
	for (char *p = strtok(list, ","); p && n < 1024; p = strtok(NULL, ","))
		put32(d + 4 * n++, (uint32_t)strtoul(p, NULL, 0));
}

/* Zeros over the whole device, through the real device. */
static int erase(void)
{
	static uint8_t buf[1 << 20];
	const uint64_t end = dev_bytes();
	const int fd = NEXT(open)(emu.dev, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int err = 0;
	for (uint64_t off = 0; off < end && !err;) {
		const size_t n = (size_t)(end - off < sizeof(buf) ? end - off : sizeof(buf));
		err = pwrite(fd, buf, n, (off_t)off) != (ssize_t)n;
		off += n;
	}
	err = err || fdatasync(fd) < 0;
	close(fd);
	return err ? -1 : 0;
}

static int status(int sc)
{
	return sc | DNR;
}

static int refusal(void)
{
	return (int)num("NVMEEMU_STATUS", SC_INVALID_FIELD);
}

/* ---- commands ---- */

static int identify(struct nvme_admin_cmd *c, uint32_t nsid)
{
	if (refused("identify"))
		return refusal();
	if (c->data_len != 4096 || !c->addr)
		return status(SC_INVALID_FIELD);
	uint8_t *d = (uint8_t *)(uintptr_t)c->addr;
	memset(d, 0, 4096);
	switch (c->cdw10 & 0xff) {
	case 0x00:
		if (c->nsid != nsid)
			return status(SC_INVALID_NS);
		identify_ns(d);
		return 0;
	case 0x01: identify_ctrl(d); return 0;
	case 0x02: active_ns(d); return 0;
	default: return status(SC_INVALID_FIELD);
	}
}

static int get_log(struct nvme_admin_cmd *c)
{
	const unsigned lid = c->cdw10 & 0xff, numdl = c->cdw10 >> 16;
	if (refused("log"))
		return refusal();
	if (!c->addr || c->data_len != (numdl + 1) * 4 || c->data_len < 512)
		return status(SC_INVALID_FIELD);
	uint8_t *d = (uint8_t *)(uintptr_t)c->addr;
	memset(d, 0, c->data_len);
	if (lid == 0x02) {
		put16(d + 1, 300); /* 300 K */
		d[3] = 100;	   /* available spare */
		d[4] = 10;
		return 0;
	}
	if (lid != 0x81)
		return status(SC_INVALID_FIELD);
	struct san s;
	san_load(&s);
	put16(d, s.cur == 2 ? 0x8000 : 0xffff); /* SPROG: half way, or done */
	put16(d + 2, s.cur);
	put32(d + 4, s.cdw10);
	const uint32_t est = (uint32_t)num("NVMEEMU_EST", 0xffffffffu);
	for (int i = 8; i < 36; i += 4)
		put32(d + i, est);
	if (s.cur == 2 && (s.polls == 0 || --s.polls == 0))
		s.cur = s.final;
	san_save(&s);
	return 0;
}

static int format(struct nvme_admin_cmd *c, uint32_t nsid)
{
	const unsigned nlbaf = (unsigned)num("NVMEEMU_NLBAF", 1) & 63;
	const unsigned lbaf = (c->cdw10 & 15) | ((c->cdw10 >> 12) & 3) << 4;
	const unsigned ses = (c->cdw10 >> 9) & 7;
	if (!(num("NVMEEMU_OACS", 0x2) & 0x2))
		return status(SC_INVALID_OPCODE);
	if (refused("format"))
		return refusal();
	if (c->nsid != nsid && c->nsid != 0xffffffffu)
		return status(SC_INVALID_NS);
	if (lbaf > nlbaf)
		return status(SC_INVALID_FORMAT);
	if (ses > 2 || (ses == 2 && !(num("NVMEEMU_FNA", 0) & 4)))
		return status(SC_INVALID_FIELD);
	return ses && erase() ? status(0x006) : 0;
}

static int sanitize(struct nvme_admin_cmd *c)
{
	const uint32_t cap = (uint32_t)num("NVMEEMU_SANICAP", 0x3);
	const unsigned act = c->cdw10 & 7;
	if (!(cap & 7))
		return status(SC_INVALID_OPCODE);
	if (refused("sanitize"))
		return refusal();
	const int ok = (act == 2 && (cap & 2)) || (act == 3 && (cap & 4)) ||
		       (act == 4 && (cap & 1));
	if (!ok)
		return status(SC_INVALID_FIELD);
	struct san s = { .cdw10 = c->cdw10 };
	s.final = getenv("NVMEEMU_SANITIZE_FAIL") ? 3 : 1;
	s.polls = (unsigned)num("NVMEEMU_POLLS", 0);
	s.cur = s.polls ? 2 : s.final;
	if (s.final == 1 && erase())
		s.final = s.cur = 3;
	san_save(&s);
	return 0;
}

/* Volatile Write Cache (FID 06h): WCE in NVMEEMU_STATE/vwc */
static unsigned wce_load(void)
{
	char path[PATH_MAX];
	unsigned v = (unsigned)num("NVMEEMU_WCE", 1);
	snprintf(path, sizeof(path), "%s/vwc", emu.state);
	FILE *f = REAL(fopen)(path, "r");
	if (f) {
		if (fscanf(f, "%u", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v & 1;
}

static int features(struct nvme_admin_cmd *c)
{
	if ((c->cdw10 & 0xff) != 0x06 || !(num("NVMEEMU_VWC", 0) & 1))
		return status(SC_INVALID_FIELD);
	if (c->opcode == 0x0a) {
		c->result = wce_load();
		return 0;
	}
	if (refused("setfeatures"))
		return refusal();
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/vwc", emu.state);
	FILE *f = REAL(fopen)(path, "w");
	if (!f)
		return status(0x006); /* internal error */
	fprintf(f, "%u\n", c->cdw11 & 1);
	fclose(f);
	return 0;
}

static int admin(struct nvme_admin_cmd *c)
{
	const uint32_t nsid = (uint32_t)num("NVMEEMU_NSID", 1);
	if (c->opcode == 0x09)
		say("admin 0x%02x nsid=0x%x cdw10=0x%x cdw11=0x%x", c->opcode, (unsigned)c->nsid,
		    (unsigned)c->cdw10, (unsigned)c->cdw11);
	else
		say("admin 0x%02x nsid=0x%x cdw10=0x%x", c->opcode, (unsigned)c->nsid,
		    (unsigned)c->cdw10);
	struct san s;
	san_load(&s);
	if (s.cur == 2 && c->opcode != 0x02 && c->opcode != 0x06)
		return status(SC_SANITIZE_IN_PROGRESS);
	switch (c->opcode) {
	case 0x02: return get_log(c);
	case 0x06: return identify(c, nsid);
	case 0x09:
	case 0x0a: return features(c);
	case 0x80: return format(c, nsid);
	case 0x84: return sanitize(c);
	default: return status(SC_INVALID_OPCODE);
	}
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	if ((req == NVME_IOCTL_ID || req == NVME_IOCTL_ADMIN_CMD) && is_ours(fd)) {
		if (req == NVME_IOCTL_ID) {
			say("id");
			return (int)num("NVMEEMU_NSID", 1);
		}
		return admin(arg);
	}
	return NEXT(ioctl)(fd, req, arg);
}
