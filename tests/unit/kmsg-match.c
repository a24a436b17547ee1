/* needs: root kmsg */
/*
 * Storage trouble in kernel messages: recorded lines from real systems are
 * caught, ordinary ones are not; each names the device it is about in the
 * kernel's own forms, and is the target's (its device, partitions,
 * filesystem, loop and dm devices over or under it, its controller), the
 * target's by naming none, or another device's; the target's stack is
 * read from sysfs trees laid out as the kernel lays them out (a SATA disk
 * with partitions and a dm device over one, an eMMC card, an NVMe
 * namespace); and as root, a line written into /dev/kmsg is read back
 * after the reader opened.
 */
#include "tests/lib/sbtest.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/device/kmsg.h"

static const char *const trouble[] = {
	"blk_update_request: I/O error, dev mmcblk0, sector 123456 op 0x1:(WRITE) flags 0x0",
	"Buffer I/O error on dev mmcblk0p2, logical block 4096, lost async page write",
	"mmc0: Timeout waiting for hardware interrupt.",
	"mmcblk0: error -110 sending status command, retrying",
	"mmcblk1: recovery failed!",
	"EXT4-fs error (device mmcblk0p2): ext4_find_entry:1455: inode #2: comm ls: reading directory lblock 0",
	"EXT4-fs (sda1): Remounting filesystem read-only",
	"XFS (sdb1): metadata I/O error in \"xfs_imap_to_bp+0x5c/0xa0\" at daddr 0x80 len 32 error 5",
	"nvme nvme0: I/O 17 QID 2 timeout, aborting",
	"nvme nvme0: resetting controller",
	"ata1.00: failed command: READ FPDMA QUEUED",
	"ata1.00: exception Emask 0x0 SAct 0x1 SErr 0x0 action 0x0",
	"sd 0:0:0:0: [sda] tag#0 Sense Key : Medium Error [current]",
	"F2FS-fs (mmcblk0p3): inconsistent node block",
};

static const char *const quiet[] = {
	"usb 1-1: new high-speed USB device number 2 using xhci_hcd",
	"EXT4-fs (sda1): mounted filesystem with ordered data mode. Quota mode: none.",
	"random: crng init done",
	"eth0: link up, 1000Mbps, full-duplex",
	"mmc0: new high speed SDHC card at address aaaa",
	"timer: lapic timeout is fine",
};

static void test_patterns(void **state)
{
	(void)state;
	for (size_t i = 0; i < SB_ARRAY_SIZE(trouble); i++)
		if (!sb_kmsg_storage_trouble(trouble[i]))
			fail_msg("missed: %s", trouble[i]);
	for (size_t i = 0; i < SB_ARRAY_SIZE(quiet); i++)
		if (sb_kmsg_storage_trouble(quiet[i]))
			fail_msg("false alarm (%s): %s", sb_kmsg_storage_trouble(quiet[i]),
				 quiet[i]);
	assert_string_equal(sb_kmsg_storage_trouble(trouble[0]), "io-error");
	assert_string_equal(sb_kmsg_storage_trouble(trouble[6]), "read-only");
}

/* Real line forms and the device names they carry, first the one a line
 * is told to be about. */
static const struct {
	const char *line;
	const char *names; /* space-separated, in order; "" none */
} forms[] = {
	{ "blk_update_request: I/O error, dev sdb, sector 2048 op 0x1:(WRITE) flags 0x800 phys_seg 1 prio class 0",
	  "sdb" },
	{ "I/O error, dev loop3, sector 0 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 0",
	  "loop3" },
	{ "print_req_error: I/O error, dev sdb, sector 2048", "sdb" },
	{ "print_req_error: critical medium error, dev nvme0n1, sector 1234", "nvme0n1" },
	{ "Buffer I/O error on dev mmcblk0p1, logical block 4096, lost async page write",
	  "mmcblk0p1" },
	{ "Buffer I/O error on device sdc1, logical block 0", "sdc1" },
	{ "EXT4-fs error (device sda1): ext4_find_entry:1455: inode #2: comm ls: reading directory lblock 0",
	  "sda1" },
	{ "EXT4-fs error (device loop0): ext4_lookup:1707: inode #131073: comm du: iget: bad extra_isize 65535",
	  "loop0" },
	{ "EXT4-fs (dm-0): Remounting filesystem read-only", "dm-0" },
	{ "EXT4-fs warning (device vda): ext4_end_bio:343: I/O error 10 writing to inode 12",
	  "vda" },
	{ "XFS (sdb1): metadata I/O error in \"xfs_imap_to_bp+0x5c/0xa0\" at daddr 0x80 len 32 error 5",
	  "sdb1" },
	{ "BTRFS error (device sdc): bdev /dev/sdc errs: wr 1, rd 0, flush 0, corrupt 0, gen 0",
	  "sdc" },
	{ "BTRFS error (device sdc state EA): level verify failed", "sdc" },
	{ "F2FS-fs (mmcblk0p2): inconsistent node block", "mmcblk0p2" },
	{ "FAT-fs (sdb1): Directory bread(block 12345) failed", "sdb1" },
	{ "exFAT-fs (sdb1): error, invalid access to FAT (entry 0x0000abcd)", "sdb1" },
	{ "JBD2: Detected IO errors while flushing file data on sda1-8", "sda1-8 sda1" },
	{ "Aborting journal on device dm-0-8.", "dm-0-8 dm-0" },
	{ "mmc0: Timeout waiting for hardware interrupt.", "mmc0" },
	{ "mmcblk0: error -110 sending status command, retrying", "mmcblk0" },
	{ "mmcblk1: recovery failed!", "mmcblk1" },
	{ "nvme0n1: I/O Cmd(0x2) @ LBA 12345, 8 blocks, I/O Error (sct 0x2 / sc 0x81)", "nvme0n1" },
	{ "nvme nvme0: I/O 17 QID 2 timeout, aborting", "nvme0" },
	{ "nvme nvme0: resetting controller", "nvme0" },
	{ "sd 0:0:0:0: [sda] tag#0 Sense Key : Medium Error [current]", "sda 0:0:0:0" },
	{ "sd 2:0:0:0: [sdc] Synchronize Cache(10) failed: Result: hostbyte=DID_ERROR",
	  "sdc 2:0:0:0" },
	{ "ata1.00: failed command: READ FPDMA QUEUED", "ata1" },
	{ "ata3: hard resetting link", "ata3" },
	{ "scsi host6: uas_eh_device_reset_handler start", "host6" },
	{ "md/raid1:md0: Disk failure on sdb1, disabling device.", "raid1 md0 sdb1" },
	{ "SQUASHFS error: Unable to read data cache entry [1234]", "" },
	{ "squashfs: SQUASHFS error: unable to read xattr id index table", "" },
	{ "device-mapper: multipath: Failing path 8:16.", "" },
	{ "storbench-test: blk_update_request: I/O error, dev loop99, sector 8", "loop99" },
};

static void test_names(void **state)
{
	(void)state;
	for (size_t i = 0; i < SB_ARRAY_SIZE(forms); i++) {
		char names[8][SB_KMSG_NAME_LEN], got[8 * (SB_KMSG_NAME_LEN + 1)] = "";
		const size_t n = sb_kmsg_names(forms[i].line, names, 8);
		size_t at = 0;
		for (size_t k = 0; k < n; k++) { /* the names, one space apart */
			const size_t len = strnlen(names[k], SB_KMSG_NAME_LEN);
			if (k)
				got[at++] = ' ';
			memcpy(got + at, names[k], len);
			at += len;
			got[at] = '\0';
		}
		if (strcmp(got, forms[i].names))
			fail_msg("'%s': names '%s', expected '%s'", forms[i].line, got,
				 forms[i].names);
	}
}

/* A stack made by hand: the lines about it, about others, about none. */
static void test_attribute(void **state)
{
	(void)state;
	struct sb_kmsg_stack st;
	char dev[SB_KMSG_NAME_LEN];
	memset(&st, 0, sizeof(st));
	for (const char *const *n = (const char *const[]){ "sda", "sda1", "sda2", "ata1", "host0",
							   "0:0:0:0", NULL };
	     *n; n++)
		assert_int_equal(sb_kmsg_stack_add(&st, *n), 0);
	assert_int_equal(sb_kmsg_stack_add(&st, "sda"), 0); /* once */
	assert_int_equal(st.n, 6);
	assert_int_equal(sb_kmsg_attribute("EXT4-fs error (device sda1): x", &st, dev, sizeof(dev)),
			 SB_KMSG_OURS);
	assert_string_equal(dev, "sda1");
	assert_int_equal(sb_kmsg_attribute("ata1.00: failed command: WRITE DMA", &st, dev,
					   sizeof(dev)),
			 SB_KMSG_OURS);
	assert_int_equal(sb_kmsg_attribute("sd 0:0:0:0: [sda] tag#3 FAILED", &st, dev, sizeof(dev)),
			 SB_KMSG_OURS);
	/* the journal of a partition of ours */
	assert_int_equal(sb_kmsg_attribute("JBD2: Detected IO errors while flushing file data on "
					   "sda2-8",
					   &st, dev, sizeof(dev)),
			 SB_KMSG_OURS);
	assert_string_equal(dev, "sda2");
	/* another disk, another port, another user's loop image */
	assert_int_equal(sb_kmsg_attribute("blk_update_request: I/O error, dev sdb, sector 8", &st,
					   dev, sizeof(dev)),
			 SB_KMSG_OTHER);
	assert_string_equal(dev, "sdb");
	assert_int_equal(sb_kmsg_attribute("ata2.00: exception Emask 0x0", &st, dev, sizeof(dev)),
			 SB_KMSG_OTHER);
	assert_int_equal(sb_kmsg_attribute("EXT4-fs error (device loop0): ext4_lookup:1707: comm du",
					   &st, dev, sizeof(dev)),
			 SB_KMSG_OTHER);
	assert_string_equal(dev, "loop0");
	/* naming no device: may be ours */
	assert_int_equal(sb_kmsg_attribute("SQUASHFS error: Unable to read page", &st, dev,
					   sizeof(dev)),
			 SB_KMSG_UNNAMED);
	assert_string_equal(dev, "");
	/* a target on no block device (tmpfs): a named device is another's */
	struct sb_kmsg_stack none;
	assert_int_equal(sb_kmsg_stack_build(&none, sbt_tmpdir(), ""), 0);
	assert_int_equal(none.n, 0);
	assert_int_equal(sb_kmsg_attribute("I/O error, dev sda, sector 8", &none, dev, sizeof(dev)),
			 SB_KMSG_OTHER);
	assert_int_equal(sb_kmsg_attribute("mmc0: Timeout", &none, dev, sizeof(dev)),
			 SB_KMSG_OTHER);
}

/* ---- a sysfs tree laid out as the kernel lays it out ---- */

static void file(const char *sys, const char *rel, const char *text)
{
	char path[PATH_MAX], dir[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", sys, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = 0;
	sbt_mkdirs(dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void link_(const char *sys, const char *rel, const char *to)
{
	char path[PATH_MAX], dir[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", sys, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = 0;
	sbt_mkdirs(dir);
	assert_int_equal(symlink(to, path), 0);
}

/* A disk at DEVS/.../block/NAME with its class link and its device link
 * (dev: "major:minor"); partitions are directories with a partition
 * file. */
static void disk(const char *sys, const char *at, const char *name, const char *dev,
		 const char *device_link)
{
	char rel[PATH_MAX], to[PATH_MAX];
	snprintf(rel, sizeof(rel), "%s/block/%s/dev", at, name);
	file(sys, rel, dev);
	snprintf(rel, sizeof(rel), "class/block/%s", name);
	snprintf(to, sizeof(to), "../../%s/block/%s", at, name);
	link_(sys, rel, to);
	if (device_link) {
		snprintf(rel, sizeof(rel), "%s/block/%s/device", at, name);
		link_(sys, rel, device_link);
	}
	snprintf(rel, sizeof(rel), "%s/block/%s/holders/.keep", at, name);
	file(sys, rel, "");
	snprintf(rel, sizeof(rel), "%s/block/%s/slaves/.keep", at, name);
	file(sys, rel, "");
}

static void partition(const char *sys, const char *at, const char *disk_, const char *name)
{
	char rel[PATH_MAX], to[PATH_MAX];
	snprintf(rel, sizeof(rel), "%s/block/%s/%s/partition", at, disk_, name);
	file(sys, rel, "1");
	snprintf(rel, sizeof(rel), "%s/block/%s/%s/holders/.keep", at, disk_, name);
	file(sys, rel, "");
	snprintf(rel, sizeof(rel), "class/block/%s", name);
	snprintf(to, sizeof(to), "../../%s/block/%s/%s", at, disk_, name);
	link_(sys, rel, to);
}

static int has(const struct sb_kmsg_stack *st, const char *name)
{
	return sb_kmsg_stack_has(st, name);
}

static void test_stack_sysfs(void **state)
{
	(void)state;
	char sys[PATH_MAX];
	struct sb_kmsg_stack st;
	snprintf(sys, sizeof(sys), "%s/sys", sbt_tmpdir());
	/* a SATA disk sda (sda1, sda2; dm-0 over sda2), another sdb */
	const char *ata1 = "devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0";
	const char *ata2 = "devices/pci0000:00/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0";
	disk(sys, ata1, "sda", "8:0", "../../../0:0:0:0");
	partition(sys, ata1, "sda", "sda1");
	partition(sys, ata1, "sda", "sda2");
	disk(sys, ata2, "sdb", "8:16", "../../../1:0:0:0");
	disk(sys, "devices/virtual", "dm-0", "253:0", NULL);
	char rel[PATH_MAX];
	snprintf(rel, sizeof(rel), "%s/block/sda/sda2/holders/dm-0", ata1);
	link_(sys, rel, "../../../../../../../../../virtual/block/dm-0");
	link_(sys, "devices/virtual/block/dm-0/slaves/sda2",
	      "../../../../pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda/sda2");
	/* an eMMC card on mmc0, an NVMe namespace on nvme0 */
	const char *mmc = "devices/platform/fe310000.mmc/mmc_host/mmc0/mmc0:0001";
	disk(sys, mmc, "mmcblk0", "179:0", "../../../mmc0:0001");
	partition(sys, mmc, "mmcblk0", "mmcblk0p1");
	disk(sys, "devices/pci0000:00/0000:00:04.0/nvme/nvme0", "nvme0n1", "259:0", "../..");

	/* a partition: its disk, the disk's other partitions, the port,
	 * host and address it hangs on; not the other disk, not dm-0 over
	 * its sibling */
	assert_int_equal(sb_kmsg_stack_build(&st, sys, "sda1"), 0);
	for (const char *const *n = (const char *const[]){ "sda1", "sda", "sda2", "ata1", "host0",
							   "0:0:0:0", NULL };
	     *n; n++)
		if (!has(&st, *n))
			fail_msg("sda1's stack lacks %s", *n);
	assert_false(has(&st, "sdb"));
	assert_false(has(&st, "ata2"));
	assert_false(has(&st, "dm-0"));
	/* the partition dm-0 stands on: dm-0 over it counts */
	assert_int_equal(sb_kmsg_stack_build(&st, sys, "sda2"), 0);
	assert_true(has(&st, "dm-0"));
	/* dm-0: what is under it, down to the port */
	assert_int_equal(sb_kmsg_stack_build(&st, sys, "dm-0"), 0);
	for (const char *const *n =
		     (const char *const[]){ "dm-0", "sda2", "sda", "sda1", "ata1", NULL };
	     *n; n++)
		if (!has(&st, *n))
			fail_msg("dm-0's stack lacks %s", *n);
	assert_false(has(&st, "sdb"));
	/* the card and its host; the namespace and its controller */
	assert_int_equal(sb_kmsg_stack_build(&st, sys, "mmcblk0p1"), 0);
	assert_true(has(&st, "mmcblk0") && has(&st, "mmc0"));
	assert_false(has(&st, "mmc1"));
	char dev[SB_KMSG_NAME_LEN];
	assert_int_equal(sb_kmsg_attribute("mmc0: Timeout waiting for hardware interrupt.", &st,
					   dev, sizeof(dev)),
			 SB_KMSG_OURS);
	assert_int_equal(sb_kmsg_attribute("mmc1: error -110 whilst initialising SD card", &st, dev,
					   sizeof(dev)),
			 SB_KMSG_OTHER);
	assert_int_equal(sb_kmsg_stack_build(&st, sys, "nvme0n1"), 0);
	assert_true(has(&st, "nvme0"));
	assert_int_equal(sb_kmsg_attribute("nvme nvme0: I/O 17 QID 2 timeout, aborting", &st, dev,
					   sizeof(dev)),
			 SB_KMSG_OURS);
	assert_int_equal(sb_kmsg_attribute("nvme nvme1: I/O 17 QID 2 timeout, aborting", &st, dev,
					   sizeof(dev)),
			 SB_KMSG_OTHER);
}

static void test_live(void **state)
{
	(void)state;
	struct sb_kmsg k;
	char line[1024];
	uint64_t t;
	int found = 0;
	if (!sbt_is_root() || sb_kmsg_open(&k) < 0) {
		print_message("skipping the live part: /dev/kmsg not readable\n");
		return;
	}
	/* older lines are not returned: the reader starts at the end */
	int fd = open("/dev/kmsg", O_WRONLY);
	assert_true(fd >= 0);
	/* a device no machine has: every soak running now tells it apart */
	const char msg[] = "storbench-test: blk_update_request: I/O error, dev sbtest0, sector 8\n";
	assert_int_equal(write(fd, msg, sizeof(msg) - 1), (ssize_t)sizeof(msg) - 1);
	close(fd);
	int r;
	while ((r = sb_kmsg_read(&k, line, sizeof(line), &t)) == 1)
		if (strstr(line, "storbench-test") && sb_kmsg_storage_trouble(line))
			found = 1;
	assert_int_equal(r, 0);
	sb_kmsg_close(&k);
	assert_true(found);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patterns),  cmocka_unit_test(test_names),
		cmocka_unit_test(test_attribute), cmocka_unit_test(test_stack_sysfs),
		cmocka_unit_test(test_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
