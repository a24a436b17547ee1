/* needs: root loop */
/*
 * sb_target_probe on what a test can make or find without touching a real
 * disk: a temp file, directory and missing name, /dev/null, a dangling
 * symlink, /dev/zram0, and loop devices over temp files (root only), one of
 * them with a partition.
 */
#include "tests/lib/sbtest.h"
#include "lib/target/target.h"

#include <dirent.h>
#include <linux/blkpg.h>
#include <sys/ioctl.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MIB (1024ull * 1024)

static int read_sys(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	const int ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok ? 0 : -1;
}

static uint64_t read_sys_u64(const char *path)
{
	char buf[64];
	return read_sys(path, buf, sizeof(buf)) ? 0 : strtoull(buf, NULL, 10);
}

static void make_file(const char *path, uint64_t size)
{
	const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	close(fd);
}

/* What every file, directory or missing-name probe must say about the
 * filesystem; checked against statfs() and sysfs independently. */
static void check_fs(const struct sb_target_info *t, const char *dir)
{
	char real[PATH_MAX], sys[128], dev[32], want[32];
	struct statfs sfs;
	struct stat st;

	assert_non_null(realpath(dir, real));
	assert_true(t->fstype[0] != '\0');
	assert_true(t->mountpoint[0] == '/');
	assert_memory_equal(real, t->mountpoint, strlen(t->mountpoint));
	assert_true(t->fs_free > 0);
	assert_true(t->direct_ok == 0 || t->direct_ok == 1);
	assert_int_equal(statfs(dir, &sfs), 0);
	if (strcmp(t->fstype, "ext4") == 0)
		assert_int_equal(sfs.f_type, 0xEF53);
	if (strcmp(t->fstype, "tmpfs") == 0)
		assert_int_equal(sfs.f_type, 0x01021994);

	assert_int_equal(stat(dir, &st), 0);
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (access(sys, F_OK) != 0)
		return; /* no block device beneath (tmpfs, overlay, btrfs subvolume) */
	assert_true(t->devname[0] != '\0');
	assert_true(t->disk[0] != '\0');
	snprintf(sys, sizeof(sys), "/sys/class/block/%s/dev", t->devname);
	assert_int_equal(read_sys(sys, dev, sizeof(dev)), 0);
	snprintf(want, sizeof(want), "%u:%u", major(st.st_dev), minor(st.st_dev));
	assert_string_equal(dev, want);
	assert_true(t->capacity > 0);
	assert_true(t->logical_bs >= 512 && (t->logical_bs & (t->logical_bs - 1)) == 0);
	assert_true(t->physical_bs >= t->logical_bs);
	assert_true(t->rotational == 0 || t->rotational == 1);
}

static void test_file(void **state)
{
	struct sb_target_info t;
	const char *path = sbt_path("data");
	(void)state;

	make_file(path, 12345);
	assert_int_equal(sb_target_probe(path, &t), 0);
	assert_int_equal(t.kind, SB_TARGET_FILE);
	assert_string_equal(t.path, path);
	assert_int_equal(t.file_size, 12345);
	check_fs(&t, sbt_tmpdir());
}

static int probe_files_left(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strncmp(e->d_name, ".storbench-probe", 16) == 0;
	closedir(d);
	return n;
}

static void test_dir(void **state)
{
	struct sb_target_info t, f;
	(void)state;

	make_file(sbt_path("data"), 4096);
	assert_int_equal(sb_target_probe(sbt_tmpdir(), &t), 0);
	assert_int_equal(t.kind, SB_TARGET_DIR);
	check_fs(&t, sbt_tmpdir());
	assert_int_equal(probe_files_left(sbt_tmpdir()), 0);
	assert_int_equal(sb_target_probe(sbt_path("data"), &f), 0);
	assert_string_equal(t.fstype, f.fstype);
	assert_string_equal(t.devname, f.devname);
	assert_string_equal(t.mountpoint, f.mountpoint);
}

static void test_missing(void **state)
{
	struct sb_target_info t, d;
	const char *path = sbt_path("not-yet");
	(void)state;

	assert_int_equal(sb_target_probe(path, &t), 0);
	assert_int_equal(t.kind, SB_TARGET_NONE);
	assert_int_equal(t.file_size, 0);
	assert_int_not_equal(access(path, F_OK), 0);
	check_fs(&t, sbt_tmpdir());
	assert_int_equal(probe_files_left(sbt_tmpdir()), 0);
	assert_int_equal(sb_target_probe(sbt_tmpdir(), &d), 0);
	assert_string_equal(t.fstype, d.fstype);
	assert_string_equal(t.devname, d.devname);
}

static void test_missing_parent(void **state)
{
	struct sb_target_info t;
	(void)state;

	assert_int_equal(sb_target_probe(sbt_path("no/such/file"), &t), -ENOENT);
	make_file(sbt_path("plain"), 1);
	assert_int_equal(sb_target_probe(sbt_path("plain/file"), &t), -ENOTDIR);
}

static void test_other(void **state)
{
	struct sb_target_info t;
	(void)state;

	assert_int_equal(sb_target_probe("/dev/null", &t), 0);
	assert_int_equal(t.kind, SB_TARGET_OTHER);
	assert_int_equal(symlink(sbt_path("nowhere"), sbt_path("dangling")), 0);
	assert_int_equal(sb_target_probe(sbt_path("dangling"), &t), 0);
	assert_int_equal(t.kind, SB_TARGET_OTHER);
}

static void test_zram(void **state)
{
	struct sb_target_info t;
	uint64_t disksize;
	(void)state;

	if (access("/dev/zram0", F_OK) != 0)
		skip();
	disksize = read_sys_u64("/sys/block/zram0/disksize");
	if (disksize == 0 && sbt_is_root()) {
		FILE *f = fopen("/sys/block/zram0/disksize", "w");
		if (f) {
			fputs("1G\n", f);
			fclose(f);
		}
		disksize = read_sys_u64("/sys/block/zram0/disksize");
	}
	if (disksize == 0)
		skip(); /* not initialised and we may not */

	assert_int_equal(sb_target_probe("/dev/zram0", &t), 0);
	assert_int_equal(t.kind, SB_TARGET_BLOCK);
	assert_string_equal(t.devname, "zram0");
	assert_string_equal(t.disk, "zram0");
	assert_int_equal(t.capacity, disksize);
	assert_int_equal(t.file_size, disksize);
	assert_int_equal(t.logical_bs, read_sys_u64("/sys/block/zram0/queue/logical_block_size"));
	assert_int_equal(t.rotational, 0);
	assert_string_equal(t.fstype, "");
	/* tested only where we may open it */
	assert_int_equal(t.direct_ok, access("/dev/zram0", R_OK) == 0 ? 1 : -1);
}

/* Loop devices over temp files: state is the device path, detached in
 * teardown even when the test failed. */
static char loopdev[64];

static int loop_attach(const char *file, int partscan)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "losetup %s-f --show '%s' 2>/dev/null", partscan ? "-P " : "",
		 file);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(loopdev, sizeof(loopdev), p))
		loopdev[0] = '\0';
	const int rc = pclose(p);
	loopdev[strcspn(loopdev, "\n")] = '\0';
	if (rc != 0)
		loopdev[0] = '\0';
	return loopdev[0] ? 0 : -1;
}

static int loop_detach(void **state)
{
	char cmd[128];
	(void)state;

	if (loopdev[0]) {
		snprintf(cmd, sizeof(cmd), "losetup -d '%s'", loopdev);
		if (system(cmd) != 0)
			fprintf(stderr, "warning: could not detach %s\n", loopdev);
		loopdev[0] = '\0';
	}
	return 0;
}

static void test_loop(void **state)
{
	struct sb_target_info t;
	const char *file = sbt_path("loop.img");
	(void)state;

	if (!sbt_is_root())
		skip();
	make_file(file, 16 * MIB);
	if (loop_attach(file, 0))
		skip();
	assert_int_equal(sb_target_probe(loopdev, &t), 0);
	assert_int_equal(t.kind, SB_TARGET_BLOCK);
	assert_string_equal(t.devname, loopdev + strlen("/dev/"));
	assert_string_equal(t.disk, t.devname);
	assert_int_equal(t.capacity, 16 * MIB);
	assert_int_equal(t.file_size, 16 * MIB);
	assert_int_equal(t.logical_bs, 512);
	assert_int_equal(t.direct_ok, 1);
}

/* One partition, 4 MiB from sector 2048, added with BLKPG: no partition
 * table parser needed in the kernel, nothing written to the device. */
static int add_partition(const char *dev)
{
	struct blkpg_partition part = {
		.start = 2048 * 512ll,
		.length = 4 * MIB,
		.pno = 1,
	};
	struct blkpg_ioctl_arg arg = {
		.op = BLKPG_ADD_PARTITION,
		.datalen = sizeof(part),
		.data = &part,
	};
	const int fd = open(dev, O_RDONLY);
	if (fd < 0)
		return -1;
	const int rc = ioctl(fd, BLKPG, &arg);
	close(fd);
	return rc;
}

static void test_loop_partition(void **state)
{
	struct sb_target_info t;
	const char *file = sbt_path("parts.img");
	char part[80];
	(void)state;

	if (!sbt_is_root())
		skip();
	make_file(file, 16 * MIB);
	if (loop_attach(file, 1))
		skip();
	if (add_partition(loopdev))
		skip();
	snprintf(part, sizeof(part), "%sp1", loopdev);
	for (int i = 0; i < 100 && access(part, F_OK) != 0; i++)
		usleep(20000);
	if (access(part, F_OK) != 0)
		skip(); /* no device node for the partition (no devtmpfs) */

	assert_int_equal(sb_target_probe(part, &t), 0);
	assert_int_equal(t.kind, SB_TARGET_BLOCK);
	assert_string_equal(t.devname, part + strlen("/dev/"));
	assert_string_equal(t.disk, loopdev + strlen("/dev/"));
	assert_int_equal(t.capacity, 4 * MIB);
	assert_int_equal(t.logical_bs, 512);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_dir),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_missing_parent),
		cmocka_unit_test(test_other),
		cmocka_unit_test(test_zram),
		cmocka_unit_test_teardown(test_loop, loop_detach),
		cmocka_unit_test_teardown(test_loop_partition, loop_detach),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
