/* /dev/kmsg reading and the storage-trouble patterns. */
#include "lib/target/kmsg.h"

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
