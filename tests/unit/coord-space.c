/* needs: none */
/*
 * Space on a filesystem the ranks share (lib/coord/coord_space.c), without
 * the program or MPI: a rank's record names its path's filesystem (or its
 * parent's for a file to make); rank 0's verdict over every rank's records
 * refuses the first filesystem whose ranks on one host need more together
 * than it has free, naming them ("0, 2 and 3"), and lets pass a group that
 * fits, a rank alone, ranks on other hosts or filesystems, and ranks that
 * need nothing.
 */
#include "tests/lib/sbtest.h"
#include "lib/coord/coord.h"

#include <sys/stat.h>

static struct sb_coord_space rec(const char *host, uint64_t dev, uint64_t need, uint64_t avail)
{
	struct sb_coord_space s = { .dev = dev, .need = need, .avail = avail };
	snprintf(s.host, sizeof(s.host), "%s", host);
	snprintf(s.fs, sizeof(s.fs), "/mnt/%s", host);
	return s;
}

static void mine(void **state)
{
	struct sb_coord *c;
	struct sb_coord_space s;
	struct stat st;
	int argc = 0;
	char **argv = NULL;
	(void)state;
	assert_int_equal(sb_coord_init(&c, 0, &argc, &argv), 0);
	assert_int_equal(stat(sbt_tmpdir(), &st), 0);
	/* a file to make: its directory's filesystem */
	sb_coord_space_mine(c, &s, sbt_path("not-yet"), 100, 50, NULL);
	assert_int_equal(s.dev, (uint64_t)st.st_dev);
	assert_int_equal(s.need, 100);
	assert_int_equal(s.avail, 50);
	assert_string_equal(s.fs, sbt_path("not-yet"));
	assert_string_equal(s.host, sb_coord_host(c));
	sb_coord_space_mine(c, &s, sbt_tmpdir(), 1, 1, "/mnt");
	assert_int_equal(s.dev, (uint64_t)st.st_dev);
	assert_string_equal(s.fs, "/mnt");
	sb_coord_space_mine(c, &s, "/nonexistent-dir/x/y", 1, 1, "");
	assert_int_equal(s.dev, UINT64_MAX);
	sb_coord_finish(c);
}

static void verdict(void **state)
{
	char msg[1024] = "";
	(void)state;
	/* ranks 0, 2 and 3 on host a's filesystem 7 need 3 GiB of 2 GiB free */
	const struct sb_coord_space all[] = {
		rec("a", 7, 1ull << 30, 2ull << 30),
		rec("b", 7, 1ull << 30, 1ull << 30), /* another host */
		rec("a", 7, 1ull << 30, 3ull << 30), /* the least free counts */
		rec("a", 7, 1ull << 30, 2ull << 30),
		rec("a", 8, 5ull << 30, 1ull << 30), /* alone on its filesystem */
		rec("a", 7, 0, 0),		     /* needs nothing */
	};
	assert_int_equal(sb_coord_space_verdict(all, 6, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "not enough space on /mnt/a (host a) for the ranks that share "
				 "it: ranks 0, 2 and 3 need 3.00 GiB together, 2.00 GiB free (a "
				 "smaller --size, fewer ranks on that host, or a filesystem each)");
	/* the same without rank 3: 2 GiB fit */
	msg[0] = '\0';
	assert_int_equal(sb_coord_space_verdict(all, 3, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "");
	/* the first group that does not fit is the refused one; two ranks */
	const struct sb_coord_space two[] = {
		rec("a", 1, 10, 100),
		rec("b", 2, 60, 100),
		rec("b", 2, 60, 100),
	};
	assert_int_equal(sb_coord_space_verdict(two, 3, msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "ranks 1 and 2 need"));
	/* a filesystem that reports nothing free, or a path not there: no verdict */
	const struct sb_coord_space none[] = {
		rec("a", 1, 10, 0),
		rec("a", 1, 10, 0),
		rec("a", UINT64_MAX, 10, 5),
		rec("a", UINT64_MAX, 10, 5),
	};
	assert_int_equal(sb_coord_space_verdict(none, 4, msg, sizeof(msg)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mine),
		cmocka_unit_test(verdict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
