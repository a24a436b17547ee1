/* needs: root loop */
/*
 * Device identity and geometry from sysfs on real devices, read only:
 * zram0, a loop device over a temp file (root), and the sysfs of the
 * virtio disk vda (its node is never opened); mount options against the
 * target probe; health capture where there is nothing to capture.
 * (Devices this machine lacks: devinfo-fake-sysfs.c.)
 */
#include "tests/lib/sbtest.h"
#include "lib/target/mountinfo.h"
#include "lib/target/target_device.h"

#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#define MIB (1024ull * 1024)

static uint64_t sys_u64(const char *path)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strtoull(buf, NULL, 10);
}

static void test_zram(void **state)
{
	struct sb_target_info t;
	struct sb_devinfo d;
	struct sb_health h;
	(void)state;

	const uint64_t size = sys_u64("/sys/block/zram0/disksize");
	if (access("/sys/block/zram0", F_OK) != 0 || !size)
		skip();
	assert_int_equal(sb_devinfo_read(NULL, "zram0", &d), 0);
	assert_string_equal(d.transport, "zram");
	assert_string_equal(d.disk, "zram0");
	assert_int_equal(d.capacity, size);
	assert_int_equal(d.logical_bs, sys_u64("/sys/block/zram0/queue/logical_block_size"));
	assert_int_equal(d.rotational, 0);
	assert_string_equal(d.model, "");
	assert_int_equal(sb_health_read(&d, &h), 0);
	assert_int_equal(h.kind, SB_HEALTH_NONE);
	if (access("/dev/zram0", F_OK) != 0)
		return;
	assert_int_equal(sb_target_probe("/dev/zram0", &t), 0);
	assert_int_equal(sb_devinfo_probe(&t, &d), 0);
	assert_string_equal(d.node, "/dev/zram0");
}

static char loopdev[64];

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
	char cmd[PATH_MAX + 64], real[PATH_MAX];
	const char *file = sbt_path("loop.img");
	struct sb_target_info t;
	struct sb_devinfo d;
	(void)state;

	if (!sbt_is_root())
		skip();
	const int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 16 * MIB), 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "losetup -f --show '%s' 2>/dev/null", file);
	FILE *p = popen(cmd, "r");
	if (!p || !fgets(loopdev, sizeof(loopdev), p))
		loopdev[0] = '\0';
	if (p && pclose(p) != 0)
		loopdev[0] = '\0';
	loopdev[strcspn(loopdev, "\n")] = '\0';
	if (!loopdev[0])
		skip();
	assert_int_equal(sb_target_probe(loopdev, &t), 0);
	assert_int_equal(sb_devinfo_probe(&t, &d), 0);
	assert_string_equal(d.transport, "loop");
	assert_string_equal(d.disk, loopdev + strlen("/dev/"));
	assert_string_equal(d.node, loopdev);
	assert_int_equal(d.capacity, 16 * MIB);
	assert_non_null(realpath(file, real));
	assert_string_equal(d.backing_file, real);
}

/* The virtio disk: sysfs only, its node is never opened. */
static void test_vda_sysfs(void **state)
{
	char serial[128] = "";
	struct sb_devinfo d;
	(void)state;

	if (access("/sys/class/block/vda", F_OK) != 0)
		skip();
	assert_int_equal(sb_devinfo_read(NULL, "vda", &d), 0);
	assert_string_equal(d.transport, "virtio");
	assert_int_equal(d.capacity, sys_u64("/sys/class/block/vda/size") * 512);
	assert_int_equal(d.physical_bs, sys_u64("/sys/class/block/vda/queue/physical_block_size"));
	assert_int_equal(d.nr_requests, sys_u64("/sys/class/block/vda/queue/nr_requests"));
	assert_int_equal(d.discard_max, sys_u64("/sys/class/block/vda/queue/discard_max_bytes"));
	FILE *f = fopen("/sys/class/block/vda/serial", "r");
	if (f) {
		if (!fgets(serial, sizeof(serial), f))
			serial[0] = '\0';
		fclose(f);
		serial[strcspn(serial, " \n")] = '\0';
	}
	assert_string_equal(d.serial, serial);
	assert_int_equal(d.is_mmc, 0);
}

static void test_mount_info(void **state)
{
	struct sb_target_info t;
	struct sb_mount m;
	(void)state;

	assert_int_equal(sb_target_probe(sbt_tmpdir(), &t), 0);
	assert_int_equal(sb_mount_info(t.mountpoint, &m), 0);
	assert_string_equal(m.fstype, t.fstype);
	assert_true(!strncmp(m.options, "rw", 2) || !strncmp(m.options, "ro", 2));
	assert_null(strstr(m.options, ",,"));
	assert_int_equal(sb_mount_info("/no/such/mount/point", &m), -ENOENT);
}

/* Nothing to capture on zram or tmpfs: kind NONE, and no error. */
static void test_capture(void **state)
{
	struct sb_target_info t;
	struct sb_health h;
	(void)state;

	assert_int_equal(sb_target_probe(sbt_tmpdir(), &t), 0);
	assert_int_equal(sb_health_capture(&t, &h), 0);
	assert_true(h.when > 0);
	if (access("/dev/shm", F_OK) == 0 && sb_target_probe("/dev/shm", &t) == 0 &&
	    !t.devname[0]) {
		assert_int_equal(sb_health_capture(&t, &h), 0);
		assert_int_equal(h.kind, SB_HEALTH_NONE);
	}
	if (sb_target_probe("/dev/zram0", &t) == 0 && t.kind == SB_TARGET_BLOCK) {
		assert_int_equal(sb_health_capture(&t, &h), 0);
		assert_int_equal(h.kind, SB_HEALTH_NONE);
	}
	assert_int_equal(sb_health_capture(NULL, &h), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zram),	  cmocka_unit_test_teardown(test_loop, loop_detach),
		cmocka_unit_test(test_vda_sysfs), cmocka_unit_test(test_mount_info),
		cmocka_unit_test(test_capture),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
