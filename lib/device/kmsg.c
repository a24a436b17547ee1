/* /dev/kmsg reading and the storage-trouble patterns. */
#include "lib/device/kmsg.h"

#include <fcntl.h>
#include <unistd.h>

int sb_kmsg_open(struct sb_kmsg *k)
{
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0)
		return -errno;
	if (lseek(k->fd, 0, SEEK_END) < 0) {
		int e = -errno;
		close(k->fd);
		k->fd = -1;
		return e;
	}
	return 0;
}

void sb_kmsg_close(struct sb_kmsg *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

int sb_kmsg_read(struct sb_kmsg *k, char *line, size_t len, uint64_t *time_us)
{
	char rec[8192];
	for (;;) {
		ssize_t n = read(k->fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue; /* overwritten before we read it */
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n < 0)
			return errno == EINTR ? 0 : -errno;
		rec[n] = 0;
		/* "prio,seq,usec,flags[,...];message\n continuation lines" */
		unsigned long long usec = 0;
		char *semi = strchr(rec, ';');
		if (!semi || sscanf(rec, "%*u,%*u,%llu", &usec) != 1)
			continue;
		char *msg = semi + 1, *nl = strchr(msg, '\n');
		if (nl)
			*nl = 0;
		snprintf(line, len, "%s", msg);
		if (time_us)
			*time_us = usec;
		return 1;
	}
}

struct pattern {
	const char *needle;
	const char *category;
};

/* Substrings, matched case-sensitively as the kernel prints them. */
static const struct pattern patterns[] = {
	{ "I/O error", "io-error" }, /* "blk_update_request: I/O error", "Buffer I/O error" */
	{ "blk_update_request", "io-error" },
	{ "critical medium error", "io-error" },
	{ "critical target error", "io-error" },
	{ "timed out", "timeout" }, /* "mmc0: Timeout...", "nvme nvme0: I/O 12 QID 3 timeout" */
	{ "Timeout", "timeout" },
	{ "timeout", "timeout" },
	{ "CRC", "crc" },
	{ "EXT4-fs error", "filesystem" },
	{ "EXT4-fs warning", "filesystem" },
	{ "XFS (", "filesystem" },
	{ "F2FS-fs", "filesystem" },
	{ "BTRFS error", "filesystem" },
	{ "FAT-fs", "filesystem" },
	{ "Remounting filesystem read-only", "read-only" },
	{ "remounting filesystem read-only", "read-only" },
	{ "resetting controller", "reset" },
	{ "controller is down", "reset" },
	{ "failed command", "ata" },
	{ "exception Emask", "ata" },
	{ "hard resetting link", "ata" },
	{ "Sense Key", "scsi" },
	{ "card removed", "removed" },
	{ "recovery failed", "error" },
	{ "error -", "error" }, /* "mmcblk0: error -110 sending status command" */
};

/* Only lines that name a storage subsystem count for the generic words. */
static int storage_line(const char *l)
{
	static const char *const subsys[] = { "mmc", "nvme", "ata",	    "sd ",   "blk",
					      "I/O", "EXT4", "XFS",	    "F2FS",  "BTRFS",
					      "FAT", "scsi", "usb-storage", "loop",  "zram",
					      "dm-", "md",   "Buffer",	    "sector" };
	for (size_t i = 0; i < SB_ARRAY_SIZE(subsys); i++)
		if (strstr(l, subsys[i]))
			return 1;
	return 0;
}

const char *sb_kmsg_storage_trouble(const char *line)
{
	if (!line || !storage_line(line))
		return NULL;
	for (size_t i = 0; i < SB_ARRAY_SIZE(patterns); i++)
		if (strstr(line, patterns[i].needle))
			return patterns[i].category;
	return NULL;
}

/* ---- which device a line is about ---- */

static int all_digits(const char *s, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* "0:0:0:0": a SCSI device's address (host:channel:target:lun) */
static int scsi_address(const char *s, size_t n)
{
	unsigned parts = 0;
	for (size_t at = 0; at <= n;) {
		const char *c = memchr(s + at, ':', n - at);
		const size_t k = c ? (size_t)(c - (s + at)) : n - at;
		if (!all_digits(s + at, k))
			return 0;
		parts++;
		at += k + 1;
		if (!c)
			break;
	}
	return parts == 4;
}

/* "1-1", "2-1.4": a USB device's port */
static int usb_port(const char *s, size_t n)
{
	const char *dash = memchr(s, '-', n);
	if (!dash || !all_digits(s, (size_t)(dash - s)))
		return 0;
	for (const char *p = dash + 1; p < s + n;) {
		const char *dot = memchr(p, '.', (size_t)(s + n - p));
		const size_t k = dot ? (size_t)(dot - p) : (size_t)(s + n - p);
		if (!all_digits(p, k))
			return 0;
		p += k + (dot != NULL);
		if (dot && p == s + n)
			return 0;
	}
	return 1;
}

/* A kernel name of a device or controller: lowercase first, then letters,
 * digits, '_', '-', '.', '!'; with a digit in it (sda1, mmc0, nvme0n1,
 * dm-0, loop3), unless it is a whole disk of the lettered kinds (sda, vdb,
 * hdc, xvda). */
static int devname_like(const char *s, size_t n)
{
	int digit = 0;
	if (!n || n >= SB_KMSG_NAME_LEN || s[0] < 'a' || s[0] > 'z')
		return 0;
	for (size_t i = 0; i < n; i++) {
		const char c = s[i];
		if (c >= '0' && c <= '9')
			digit = 1;
		else if (!((c >= 'a' && c <= 'z') || c == '_' || c == '-' || c == '.' || c == '!'))
			return 0;
	}
	if (digit)
		return 1;
	static const char *const lettered[] = { "sd", "vd", "hd", "xvd" };
	for (size_t i = 0; i < SB_ARRAY_SIZE(lettered); i++) {
		const size_t p = strlen(lettered[i]);
		if (n > p && n <= p + 3 && !strncmp(s, lettered[i], p))
			return 1;
	}
	return 0;
}

struct names {
	char (*v)[SB_KMSG_NAME_LEN];
	size_t n, max;
};

static void put(struct names *nm, const char *s, size_t n)
{
	if (nm->n == nm->max || !n || n >= SB_KMSG_NAME_LEN)
		return;
	for (size_t i = 0; i < nm->n; i++)
		if (strlen(nm->v[i]) == n && !memcmp(nm->v[i], s, n))
			return;
	memcpy(nm->v[nm->n], s, n);
	nm->v[nm->n++][n] = 0;
}

/* One name as the kernel writes it, tidied: "ata1.00" is port ata1's
 * device 0; "sda1-8" is the journal of sda1 (inode 8): both are kept. */
static void name(struct names *nm, const char *s, size_t n)
{
	while (n && (s[n - 1] == '.' || s[n - 1] == ',' || s[n - 1] == ':'))
		n--;
	if (scsi_address(s, n) || usb_port(s, n)) {
		put(nm, s, n);
		return;
	}
	if (!devname_like(s, n))
		return;
	const char *dot = memchr(s, '.', n);
	if (n > 3 && !strncmp(s, "ata", 3) && dot && all_digits(s + 3, (size_t)(dot - s - 3))) {
		put(nm, s, (size_t)(dot - s));
		return;
	}
	put(nm, s, n);
	const char *dash = memrchr(s, '-', n);
	if (dash && dash > s && dash[-1] >= '0' && dash[-1] <= '9' &&
	    all_digits(dash + 1, (size_t)(s + n - dash - 1)))
		put(nm, s, (size_t)(dash - s));
}

/* A word of the line: its start and length (up to a space, a comma, a
 * bracket or a parenthesis). */
static size_t word(const char *s)
{
	return strcspn(s, " \t,()[]\"'=");
}

/* A word made of parts ("md/raid1:md0", "mmc0:aaaa"): each part, unless
 * the whole is a SCSI address or a USB device's interface. */
static void parts(struct names *nm, const char *s, size_t n)
{
	while (n && s[n - 1] == ':')
		n--;
	if (scsi_address(s, n)) {
		put(nm, s, n);
		return;
	}
	for (size_t at = 0; at < n;) {
		const size_t k = strcspn(s + at, ":/");
		name(nm, s + at, SB_MIN(k, n - at));
		at += k + 1;
	}
}

/* Every "KEY NAME" of the line ("dev sdb", "device sda1", "on sdb1"),
 * KEY a word of its own. */
static void after(struct names *nm, const char *line, const char *key)
{
	const size_t kl = strlen(key);
	for (const char *p = strstr(line, key); p; p = strstr(p + 1, key)) {
		if (p > line && p[-1] != ' ' && p[-1] != '(' && p[-1] != ',')
			continue;
		const char *w = p + kl;
		name(nm, w, word(w));
	}
}

/* Every "(NAME)" and "[NAME]" holding one word. */
static void enclosed(struct names *nm, const char *line, char open, char close)
{
	for (const char *p = strchr(line, open); p; p = strchr(p + 1, open)) {
		const size_t n = word(p + 1);
		if (p[1 + n] == close)
			name(nm, p + 1, n);
	}
}

size_t sb_kmsg_names(const char *line, char (*names)[SB_KMSG_NAME_LEN], size_t max)
{
	struct names nm = { names, 0, max };
	if (!line)
		return 0;
	/* the explicit forms first */
	after(&nm, line, "dev ");
	after(&nm, line, "device ");
	after(&nm, line, "/dev/");
	enclosed(&nm, line, '(', ')');
	enclosed(&nm, line, '[', ']');
	/* "mmc0: ...", "ata1.00: ...", "md/raid1:md0: ..." */
	const size_t w1 = strcspn(line, " ");
	if (w1 && line[w1 - 1] == ':')
		parts(&nm, line, w1);
	/* "nvme nvme0: ...", "sd 0:0:0:0: ...", "XFS (sdb1): ..." */
	else if (line[w1] == ' ') {
		const char *s = line + w1 + 1;
		const size_t w2 = strcspn(s, " ");
		if (w2 > 1 && s[w2 - 1] == ':' && s[0] != '(')
			parts(&nm, s, w2);
	}
	after(&nm, line, "on ");
	return nm.n;
}

enum sb_kmsg_about sb_kmsg_attribute(const char *line, const struct sb_kmsg_stack *st, char *dev,
				     size_t len)
{
	char names[8][SB_KMSG_NAME_LEN];
	const size_t n = sb_kmsg_names(line, names, SB_ARRAY_SIZE(names));
	snprintf(dev, len, "%s", n ? names[0] : "");
	if (!n)
		return SB_KMSG_UNNAMED;
	for (size_t i = 0; st && i < n; i++)
		if (sb_kmsg_stack_has(st, names[i])) {
			snprintf(dev, len, "%s", names[i]);
			return SB_KMSG_OURS;
		}
	return SB_KMSG_OTHER;
}
