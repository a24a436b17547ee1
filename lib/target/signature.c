/*
 * Signatures of data on a block device: partition tables, filesystems, LVM,
 * RAID, LUKS, swap. libblkid when built with it (it knows every format);
 * otherwise a small probe for the common ones, which also backs up blkid.
 */
#include "lib/target/safety.h"

#include <fcntl.h>
#include <unistd.h>

#ifdef HAVE_BLKID
#include <blkid/blkid.h>
#endif

#define HEAD (68 * 1024)

struct magic {
	const char *what;
	uint32_t off;
	const char *bytes;
	uint32_t len;
};

/* Fixed-offset magics in the first 68 KiB. */
static const struct magic magics[] = {
	{ "GPT partition table", 512, "EFI PART", 8 },
	{ "GPT partition table", 4096, "EFI PART", 8 },
	{ "ext2/3/4 filesystem", 0x438, "\x53\xef", 2 },
	{ "xfs filesystem", 0, "XFSB", 4 },
	{ "btrfs filesystem", 65536 + 64, "_BHRfS_M", 8 },
	{ "exfat filesystem", 3, "EXFAT   ", 8 },
	{ "ntfs filesystem", 3, "NTFS    ", 8 },
	{ "f2fs filesystem", 1024, "\x10\x20\xf5\xf2", 4 },
	{ "LUKS encrypted volume", 0, "LUKS\xba\xbe", 6 },
	{ "LUKS2 encrypted volume", 0, "SKUL\xba\xbe", 6 },
	{ "md RAID member (1.1)", 0, "\xfc\x4e\x2b\xa9", 4 },
	{ "md RAID member (1.2)", 4096, "\xfc\x4e\x2b\xa9", 4 },
	{ "swap space", 4096 - 10, "SWAPSPACE2", 10 },
	{ "swap space", 4096 - 10, "SWAP-SPACE", 10 },
	{ "swap space", 8192 - 10, "SWAPSPACE2", 10 },
	{ "swap space", 16384 - 10, "SWAPSPACE2", 10 },
	{ "swap space", 65536 - 10, "SWAPSPACE2", 10 },
	{ "iso9660 filesystem", 32769, "CD001", 5 },
};

static int match(const unsigned char *b, size_t n, uint32_t off, const char *m, uint32_t len)
{
	return off + len <= n && memcmp(b + off, m, len) == 0;
}

static int mbr_like(const unsigned char *b, size_t n)
{
	if (n < 512 || b[510] != 0x55 || b[511] != 0xaa)
		return 0;
	/* a FAT boot sector also ends in 55 aa: it names itself */
	return 1;
}

int sb_signature_scan(const unsigned char *b, size_t n, char *what, size_t len)
{
	for (size_t i = 0; i < SB_ARRAY_SIZE(magics); i++) {
		const struct magic *m = &magics[i];
		if (match(b, n, m->off, m->bytes, m->len)) {
			snprintf(what, len, "%s", m->what);
			return 1;
		}
	}
	for (uint32_t s = 0; s < 4; s++) /* LVM2 label in one of the first 4 sectors */
		if (match(b, n, s * 512, "LABELONE", 8) &&
		    match(b, n, s * 512 + 24, "LVM2 001", 8)) {
			snprintf(what, len, "LVM2 physical volume");
			return 1;
		}
	if (mbr_like(b, n)) {
		if (match(b, n, 54, "FAT", 3) || match(b, n, 82, "FAT", 3))
			snprintf(what, len, "vfat filesystem");
		else
			snprintf(what, len, "MBR partition table");
		return 1;
	}
	return 0;
}

int sb_fd_signature(int fd, char *what, size_t len)
{
	unsigned char *b = malloc(HEAD);
	if (!b)
		return -ENOMEM;
	ssize_t n = pread(fd, b, HEAD, 0);
	int r = n < 0 ? -errno : sb_signature_scan(b, (size_t)n, what, len);
	free(b);
	return r;
}

#ifdef HAVE_BLKID
static int blkid_probe_path(const char *path, char *what, size_t len)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return -errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	int r = blkid_do_safeprobe(pr), found = 0;
	const char *type = NULL, *usage = NULL;
	if (r == 0 && blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0) {
		snprintf(what, len, "%s partition table", type);
		found = 1;
	} else if (r == 0 && blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
		blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		snprintf(what, len, "%s %s", type,
			 usage && !strcmp(usage, "filesystem") ? "filesystem" : "signature");
		found = 1;
	} else if (r == -2) {
		snprintf(what, len, "several (ambiguous) signatures");
		found = 1;
	}
	blkid_free_probe(pr);
	return found;
}
#endif

int sb_dev_signature(const char *path, char *what, size_t whatlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int r = 0;
#ifdef HAVE_BLKID
	r = blkid_probe_path(path, what, whatlen);
#endif
	if (r <= 0)
		r = sb_fd_signature(fd, what, whatlen);
	close(fd);
	return r;
}
