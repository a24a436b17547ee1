/* needs: none */
/*
 * Storage trouble in kernel messages: recorded lines from real systems are
 * caught, ordinary ones are not; and as root, a line written into
 * /dev/kmsg is read back after the reader opened.
 */
#include "tests/lib/sbtest.h"

#include <fcntl.h>
#include <unistd.h>

#include "lib/target/kmsg.h"

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
	const char msg[] = "storbench-test: blk_update_request: I/O error, dev loop99, sector 8\n";
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
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
