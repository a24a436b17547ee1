/* needs: root loop */
/*
 * Disk statistics: the three layouts of the stat file (11, 15, 17 fields)
 * parse into the right members, bad input is refused, and a direct read of
 * known size from a loop device over a temp file shows in its counters.
 */
#include "tests/lib/sbtest.h"
#include "lib/device/diskstat.h"

#include <fcntl.h>
#include <unistd.h>

#define MIB (1024ull * 1024)

static void check_common(const struct sb_diskstat *d)
{
	assert_int_equal(d->ios[0], 1);
	assert_int_equal(d->merges[0], 2);
	assert_int_equal(d->sectors[0], 3);
	assert_int_equal(d->ticks[0], 4);
	assert_int_equal(d->ios[1], 5);
	assert_int_equal(d->merges[1], 6);
	assert_int_equal(d->sectors[1], 7);
	assert_int_equal(d->ticks[1], 8);
	assert_int_equal(d->io_ticks, 10);
	assert_int_equal(d->in_queue, 11);
}

static void test_parse_layouts(void **state)
{
	struct sb_diskstat d;
	(void)state;

	memset(&d, 0xff, sizeof(d));
	assert_int_equal(sb_diskstat_parse("    1 2 3 4 5 6 7 8 9 10 11\n", &d), 0);
	check_common(&d);
	assert_int_equal(d.discard_ios, 0);
	assert_int_equal(d.discard_sectors, 0);

	memset(&d, 0xff, sizeof(d));
	assert_int_equal(sb_diskstat_parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n", &d), 0);
	check_common(&d);
	assert_int_equal(d.discard_ios, 12);
	assert_int_equal(d.discard_sectors, 14);

	assert_int_equal(sb_diskstat_parse("1\t2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n", &d), 0);
	check_common(&d);
	assert_int_equal(d.discard_ios, 12);
	assert_int_equal(d.discard_sectors, 14);

	assert_int_equal(sb_diskstat_parse("18446744073709551615 0 0 0 0 0 0 0 0 0 0", &d), 0);
	assert_true(d.ios[0] == UINT64_MAX);
}

static void test_parse_bad(void **state)
{
	struct sb_diskstat d;
	(void)state;

	assert_int_equal(sb_diskstat_parse("", &d), -EINVAL);
	assert_int_equal(sb_diskstat_parse("1 2 3 4 5 6 7 8 9 10\n", &d), -EINVAL);
	assert_int_equal(sb_diskstat_parse("1 2 3 x 5 6 7 8 9 10 11\n", &d), -EINVAL);
	assert_int_equal(sb_diskstat_parse("99999999999999999999 2 3 4 5 6 7 8 9 10 11", &d),
			 -EINVAL);
}

static void test_read_bad_names(void **state)
{
	struct sb_diskstat d;
	(void)state;

	assert_int_equal(sb_diskstat_read("", &d), -EINVAL);
	assert_int_equal(sb_diskstat_read("..", &d), -EINVAL);
	assert_int_equal(sb_diskstat_read("../../vda", &d), -EINVAL);
	assert_int_equal(sb_diskstat_read("no-such-disk", &d), -ENOENT);
}

static void test_read_zram(void **state)
{
	struct sb_diskstat d;
	(void)state;

	if (access("/sys/class/block/zram0/stat", F_OK) != 0)
		skip();
	assert_int_equal(sb_diskstat_read("zram0", &d), 0);
}

/* A loop device over a temp file; detached in teardown. */
static char loopdev[64];

static int loop_attach(const char *file)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "losetup -f --show '%s' 2>/dev/null", file);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(loopdev, sizeof(loopdev), p))
		loopdev[0] = '\0';
	if (pclose(p) != 0)
		loopdev[0] = '\0';
	loopdev[strcspn(loopdev, "\n")] = '\0';
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

static void test_loop_read_counted(void **state)
{
	const size_t len = 4 * MIB;
	const char *file = sbt_path("loop.img");
	struct sb_diskstat before, after;
	void *buf = NULL;
	(void)state;

	if (!sbt_is_root())
		skip();
	const int ffd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(ffd >= 0);
	assert_int_equal(ftruncate(ffd, 16 * MIB), 0);
	close(ffd);
	if (loop_attach(file))
		skip();
	const char *name = loopdev + strlen("/dev/");

	assert_int_equal(posix_memalign(&buf, 4096, len), 0);
	const int fd = open(loopdev, O_RDONLY | O_DIRECT);
	assert_true(fd >= 0);
	assert_int_equal(sb_diskstat_read(name, &before), 0);
	assert_int_equal(pread(fd, buf, len, 0), (ssize_t)len);
	assert_int_equal(sb_diskstat_read(name, &after), 0);
	close(fd);
	free(buf);

	assert_true(after.sectors[0] - before.sectors[0] >= len / 512);
	assert_true(after.ios[0] > before.ios[0]);
	assert_int_equal(after.sectors[1], before.sectors[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_layouts),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_read_bad_names),
		cmocka_unit_test(test_read_zram),
		cmocka_unit_test_teardown(test_loop_read_counted, loop_detach),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
