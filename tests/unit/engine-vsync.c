/* needs: none */
/* vsync merges as fio's: requests that each start where the last ended
 * (same file, same direction) go as one pwritev or preadv at commit, one
 * system call (the process's syscw and syscr in /proc/self/io), each
 * request completed on its own with its length; one that does not follow
 * starts a vector of its own. */
#include "tests/lib/sbtest.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* the process's count of read (r) or write system calls */
static unsigned long long syscalls(int r)
{
	char line[128];
	unsigned long long v = 0, n;
	FILE *f = fopen("/proc/self/io", "r");
	if (!f)
		sbt_skip("no /proc/self/io");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, r ? "syscr: %llu" : "syscw: %llu", &n) == 1)
			v = n;
	fclose(f);
	return v;
}

static void merges_adjacent(void **state)
{
	const struct sb_engine_ops *ops = sb_engine_find("vsync");
	static char buf[6][4096];
	struct sb_io ios[6];
	struct sb_engine e;
	const uint64_t off[6] = { 0, 4096, 8192, 12288, 40960, 45056 };
	(void)state;
	assert_non_null(ops);
	const int fd = open(sbt_path("v"), O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(sb_engine_init(&e, ops, fd, 6, 0), 0);
	assert_false(e.sync);
	for (int d = SB_DDIR_WRITE; d >= SB_DDIR_READ; d--) {
		/* reading /proc/self/io is itself a read or two: counted out */
		const unsigned long long cal = syscalls(d == SB_DDIR_READ);
		const unsigned long long before = syscalls(d == SB_DDIR_READ);
		const unsigned long long own = before - cal;
		for (unsigned i = 0; i < 6; i++) {
			memset(buf[i], d == SB_DDIR_WRITE ? 'a' + (int)i : 0, sizeof(buf[i]));
			ios[i] = (struct sb_io){ .buf = buf[i],
						 .offset = off[i],
						 .len = 4096,
						 .ddir = (uint8_t)d,
						 .index = i };
			assert_int_equal(sb_engine_queue(&e, &ios[i]), SB_Q_QUEUED);
		}
		assert_int_equal(e.ops->commit(&e), 0);
		/* two vectors: 0..3 and 4..5 */
		assert_int_equal(syscalls(d == SB_DDIR_READ) - before - own, 2);
		assert_int_equal(e.ops->getevents(&e, 6, 6), 6);
		for (unsigned i = 0; i < 6; i++) {
			assert_int_equal(e.ops->event(&e, i)->res, 4096);
			assert_int_equal(buf[i][4095], 'a' + (int)i);
		}
	}
	sb_engine_cleanup(&e);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(merges_adjacent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
