/*
 * devemu: an LD_PRELOAD library that makes one ordinary block device (a
 * loop device over a test's file, a zram device of the test's own) answer
 * as an eMMC: its sysfs entry leads to an MMC card, and MMC_IOC_CMD /
 * MMC_IOC_MULTI_CMD ioctls on it are answered from an emulated EXT_CSD
 * kept in a state file, so every process of a test sees the same device.
 *
 * It emulates the command protocol, not the flash: SEND_EXT_CSD (CMD8)
 * returns the state; SWITCH (CMD6, WRITE_BYTE) to CACHE_CTRL [33] changes
 * the cache state, to SANITIZE_START [165] "sanitizes" (nothing to do: the
 * emulated erase already wrote the erased value); ERASE_GROUP_START/END
 * (CMD35/36) and ERASE (CMD38) write the erased value (ERASED_MEM_CONT
 * [181]: 0x00 or 0xff) over the sectors through the real device. There is
 * no mapping table, no timing, no cache that holds data, no partitions
 * (boot, RPMB), no CMD13 status.
 *
 * Environment:
 *   DEVEMU_DEV     the block device to dress up (/dev/loop3)
 *   DEVEMU_STATE   a directory: ext_csd (512 bytes, made from DEVEMU_HEX on
 *                  first use with SEC_COUNT set to the device's size), the
 *                  sysfs tree tests/lib/devemu.sh built (sys/block/NAME)
 *   DEVEMU_HEX     the EXT_CSD to start from (tests/fixtures/ *.hex format)
 *   DEVEMU_REFUSE  commands the device answers with an error (EIO), comma
 *                  separated: cache (SWITCH to CACHE_CTRL), sanitize, erase
 *   DEVEMU_LOG     a file: one line per command received ("send_ext_csd",
 *                  "switch 33 0"; "erase FIRST LAST ARG" for a
 *                  CMD35/36/38 sequence, "erase_group_start N" and
 *                  "erase_group_end N" for one alone, "switch 165 1",
 *                  "opcode N" for another), with " timeout=MS" where the
 *                  command came with a cmd_timeout_ms (0: the kernel's
 *                  default, not shown)
 *
 * The card's type is its sysfs "type" in the fake tree (DEVEMU_STATE/sys/
 * block/NAME/device/type; tests/lib/devemu.sh: devemu_start_sd writes SD):
 * a card that is no eMMC ("SD", "SDIO") answers no eMMC command as a real
 * one does not (an SD card reads CMD8 as SEND_IF_COND and sends no data:
 * the host's "cmd error -110" after its timeout), here at once: ETIMEDOUT,
 * the line in the log "sd: CMDn arg 0xARG" all the same.
 * An eMMC command on a partition of the device is answered EPERM, as the
 * kernel does, and logged ("partition: MMC_IOC_CMD").
 * Without DEVEMU_DEV and DEVEMU_STATE it changes nothing.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/mmc/ioctl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

enum {
	CSD_SIZE = 512,
	CACHE_CTRL = 33,
	SANITIZE_START = 165,
	ERASED_MEM_CONT = 181,
	SEC_COUNT = 212,
	SEC_FEATURE_SUPPORT = 231,
	CACHE_SIZE = 249,
};

#define EMU_PREFIX "DEVEMU"
#define EMU_WRAP_PATHS
#include "emu.h"

static struct {
	uint32_t start, end;
} erase_group;

static const char *redirect(const char *path, char *buf, size_t len)
{
	return emu_sysfs(path, buf, len);
}

/* ---- the EXT_CSD state file ---- */

static void csd_path(char *out, size_t len)
{
	snprintf(out, len, "%s/ext_csd", emu.state);
}

static int load_hex(uint8_t *csd)
{
	const char *hex = getenv("DEVEMU_HEX");
	char line[512];
	FILE *f = hex ? REAL(fopen)(hex, "r") : NULL;
	if (!f)
		return -ENOENT;
	memset(csd, 0, CSD_SIZE);
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		const unsigned long off = strtoul(p, &end, 10);
		if (end == p || *end != ':')
			continue;
		p = end + 1;
		for (unsigned long i = off; i < CSD_SIZE; i++) {
			const unsigned long b = strtoul(p, &end, 16);
			if (end == p || b > 255)
				break;
			csd[i] = (uint8_t)b;
			p = end;
		}
	}
	fclose(f);
	return 0;
}

static int csd_save(const uint8_t *csd)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	csd_path(path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
	const int fd = NEXT(open)(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	const int ok = write(fd, csd, CSD_SIZE) == CSD_SIZE;
	close(fd);
	if (!ok || rename(tmp, path) < 0)
		return -EIO;
	return 0;
}

static int csd_load(uint8_t *csd)
{
	char path[PATH_MAX];
	csd_path(path, sizeof(path));
	const int fd = NEXT(open)(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		const ssize_t n = read(fd, csd, CSD_SIZE);
		close(fd);
		return n == CSD_SIZE ? 0 : -EIO;
	}
	if (load_hex(csd))
		return -EIO;
	/* the capacity is the real device's */
	uint64_t bytes = 0;
	const int dfd = NEXT(open)(emu.dev, O_RDONLY | O_CLOEXEC);
	if (dfd < 0)
		return -EIO;
	NEXT(ioctl)(dfd, BLKGETSIZE64, &bytes);
	close(dfd);
	const uint32_t sectors = (uint32_t)(bytes / 512);
	for (int i = 0; i < 4; i++)
		csd[SEC_COUNT + i] = (uint8_t)(sectors >> (8 * i));
	return csd_save(csd);
}

/* ---- commands ---- */

static int fail(int e)
{
	errno = e;
	return -1;
}

/* The erased value over [first, last] sectors, through the real device. */
static int erase(const uint8_t *csd, uint32_t first, uint32_t last)
{
	const uint32_t sectors = (uint32_t)csd[SEC_COUNT] | (uint32_t)csd[SEC_COUNT + 1] << 8 |
				 (uint32_t)csd[SEC_COUNT + 2] << 16 |
				 (uint32_t)csd[SEC_COUNT + 3] << 24;
	if (first > last || last >= sectors)
		return fail(EINVAL); /* the card's ERASE_PARAM / OUT_OF_RANGE */
	static uint8_t buf[1 << 20];
	memset(buf, csd[ERASED_MEM_CONT] ? 0xff : 0x00, sizeof(buf));
	const int fd = NEXT(open)(emu.dev, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(EIO);
	uint64_t off = (uint64_t)first * 512, end = ((uint64_t)last + 1) * 512;
	int err = 0;
	while (off < end && !err) {
		const size_t n = (size_t)(end - off < sizeof(buf) ? end - off : sizeof(buf));
		err = pwrite(fd, buf, n, (off_t)off) != (ssize_t)n;
		off += n;
	}
	err = err || fdatasync(fd) < 0;
	close(fd);
	return err ? fail(EIO) : 0;
}

/* " timeout=MS" where the command carried one */
static const char *timeout_of(const struct mmc_ioc_cmd *c, char *buf, size_t len)
{
	buf[0] = '\0';
	if (c->cmd_timeout_ms)
		snprintf(buf, len, " timeout=%u", c->cmd_timeout_ms);
	return buf;
}

static int do_switch(uint8_t *csd, const struct mmc_ioc_cmd *c)
{
	const uint32_t arg = c->arg;
	const unsigned access = (arg >> 24) & 3, index = (arg >> 16) & 0xff,
		       value = (arg >> 8) & 0xff;
	char to[32];
	say("switch %u %u%s", index, value, timeout_of(c, to, sizeof(to)));
	if (access != 3) /* only WRITE_BYTE is emulated */
		return fail(EIO);
	if (index == CACHE_CTRL) {
		const int has_cache = csd[CACHE_SIZE] | csd[CACHE_SIZE + 1] | csd[CACHE_SIZE + 2] |
				      csd[CACHE_SIZE + 3];
		if (!has_cache || refused("cache") || value > 1)
			return fail(EIO); /* SWITCH_ERROR */
		csd[CACHE_CTRL] = (uint8_t)value;
		return csd_save(csd) ? fail(EIO) : 0;
	}
	if (index == SANITIZE_START) {
		if (!(csd[SEC_FEATURE_SUPPORT] & 0x40) || refused("sanitize") || value != 1)
			return fail(EIO);
		return 0;
	}
	return fail(EIO);
}

/* The card's sysfs type as the test wrote it: "MMC", "SD", ... */
static void card_type(char *out, size_t len)
{
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/device/type", emu.sys_fake);
	FILE *f = REAL(fopen)(path, "r");
	out[0] = '\0';
	if (f && fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = '\0';
	if (f)
		fclose(f);
}

/* alone: the command came by itself, not in a CMD35/36/38 sequence */
static int one(struct mmc_ioc_cmd *c, int alone)
{
	uint8_t csd[CSD_SIZE];
	char to[32], type[16];
	card_type(type, sizeof(type));
	if (strcmp(type, "MMC")) {
		say("sd: CMD%u arg 0x%x", c->opcode, c->arg);
		return fail(ETIMEDOUT);
	}
	if (csd_load(csd))
		return fail(EIO);
	switch (c->opcode) {
	case 8: /* SEND_EXT_CSD */
		say("send_ext_csd");
		if (c->blksz != CSD_SIZE || c->blocks != 1 || !c->data_ptr)
			return fail(EINVAL);
		memcpy((void *)(uintptr_t)c->data_ptr, csd, CSD_SIZE);
		return 0;
	case 6: return do_switch(csd, c);
	case 35:
		if (alone)
			say("erase_group_start %u", c->arg);
		erase_group.start = c->arg;
		return 0;
	case 36:
		if (alone)
			say("erase_group_end %u", c->arg);
		erase_group.end = c->arg;
		return 0;
	case 38:
		say("erase %u %u 0x%x%s", erase_group.start, erase_group.end, c->arg,
		    timeout_of(c, to, sizeof(to)));
		if (refused("erase") || (c->arg != 0 && c->arg != 0x80000000u))
			return fail(EIO);
		return erase(csd, erase_group.start, erase_group.end);
	default: say("opcode %u", c->opcode); return fail(EIO);
	}
}

/* Whether fd is a partition of the emulated device: its sysfs entry
 * ".../NAME/NAMEpN" lies under the device's. */
static int is_our_partition(int fd)
{
	struct stat st;
	char link[64], dest[PATH_MAX];
	if (!emu.on || fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev == emu.rdev)
		return 0;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	const ssize_t n = REAL(readlink)(link, dest, sizeof(dest) - 1);
	if (n < 0)
		return 0;
	dest[n] = '\0';
	char *slash = strrchr(dest, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	const char *parent = strrchr(dest, '/'), *base = strrchr(emu.dev, '/');
	return parent && base && !strcmp(parent + 1, base + 1);
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	if ((req == MMC_IOC_CMD || req == MMC_IOC_MULTI_CMD) && is_our_partition(fd)) {
		/* the kernel takes eMMC commands on the whole disk only */
		say("partition: %s", req == MMC_IOC_CMD ? "MMC_IOC_CMD" : "MMC_IOC_MULTI_CMD");
		errno = EPERM;
		return -1;
	}
	if ((req == MMC_IOC_CMD || req == MMC_IOC_MULTI_CMD) && is_ours(fd)) {
		if (req == MMC_IOC_CMD)
			return one(arg, 1);
		struct mmc_ioc_multi_cmd *m = arg;
		const int seq = m->num_of_cmds == 3 && m->cmds[0].opcode == 35 &&
				m->cmds[1].opcode == 36 && m->cmds[2].opcode == 38;
		for (uint64_t i = 0; i < m->num_of_cmds; i++)
			if (one(&m->cmds[i], !seq) < 0)
				return -1;
		return 0;
	}
	return NEXT(ioctl)(fd, req, arg);
}
