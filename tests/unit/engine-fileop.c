/* needs: none */
/* fio's file-operation engines (filestat, filedelete): the request that
 * starts a file does the operation on its name, timed (start_ns stamped
 * just before it, untimed 0); the file's other requests do nothing and
 * are counted untimed; a missing name is the request's error; stat_type
 * picks stat, lstat or statx; filedelete unlinks only the file it was
 * given (a name that now names another file is left, -ESTALE). */
#include "tests/lib/sbtest.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static int make_file(const char *path)
{
	const int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "data", 4, 0), 4);
	return fd;
}

static struct sb_io request(uint32_t len)
{
	return (struct sb_io){ .len = len, .ddir = SB_DDIR_READ, .start_ns = 1, .issue_ns = 1 };
}

/* queue one request on e: its result and whether it was timed */
static int64_t one(struct sb_engine *e, uint32_t len, int *timed)
{
	struct sb_io io = request(len);
	const uint64_t before = sb_now_ns();
	assert_int_equal(sb_engine_queue(e, &io), SB_Q_DONE);
	*timed = !io.untimed;
	if (*timed && io.res >= 0)
		assert_true(io.start_ns >= before && io.issue_ns == io.start_ns);
	else if (!*timed)
		assert_int_equal(io.start_ns, 1);
	return io.res;
}

static void filestat_once_per_file(void **state)
{
	const struct sb_engine_ops *ops = sb_engine_find("filestat");
	const char *path = sbt_path("stat-me");
	struct sb_engine e;
	int timed;

	(void)state;
	assert_non_null(ops);
	assert_int_equal(ops->flags, SB_ENGINE_SYNC | SB_ENGINE_FILEOP);
	const int fd = make_file(path);
	for (unsigned t = SB_STAT_STAT; t <= SB_STAT_STATX; t++) {
		assert_int_equal(sb_engine_init(&e, ops, fd, 1, 0), 0);
		e.stat_type = t;
		e.path = path;
		e.path_fresh = 1;
		assert_int_equal(one(&e, 4096, &timed), 4096);
		assert_true(timed);
		assert_false(e.path_fresh);
		for (int i = 0; i < 3; i++) {
			assert_int_equal(one(&e, 4096, &timed), 4096);
			assert_false(timed);
		}
		/* a sync request does nothing */
		struct sb_io io = request(0);
		io.ddir = SB_DDIR_SYNC;
		assert_int_equal(sb_engine_queue(&e, &io), SB_Q_DONE);
		assert_int_equal(io.res, 0);
		sb_engine_cleanup(&e);
	}
	/* a missing name: the request's error */
	assert_int_equal(sb_engine_init(&e, ops, fd, 1, 0), 0);
	e.path = sbt_path("not-there");
	e.path_fresh = 1;
	assert_int_equal(one(&e, 4096, &timed), -ENOENT);
	sb_engine_cleanup(&e);
	close(fd);
}

static void filedelete_only_its_file(void **state)
{
	const struct sb_engine_ops *ops = sb_engine_find("filedelete");
	const char *path = sbt_path("delete-me"), *other = sbt_path("planted");
	struct sb_engine e;
	struct stat st;
	int timed;

	(void)state;
	assert_non_null(ops);
	/* its own file: unlinked, once */
	int fd = make_file(path);
	assert_int_equal(sb_engine_init(&e, ops, fd, 1, 0), 0);
	e.path = path;
	e.path_fresh = 1;
	assert_int_equal(one(&e, 4096, &timed), 4096);
	assert_true(timed);
	assert_int_equal(lstat(path, &st), -1);
	assert_int_equal(one(&e, 4096, &timed), 4096);
	assert_false(timed);
	sb_engine_cleanup(&e);
	close(fd);

	/* the name now names another file: left alone */
	fd = make_file(path);
	close(make_file(other));
	assert_int_equal(rename(other, path), 0);
	assert_int_equal(sb_engine_init(&e, ops, fd, 1, 0), 0);
	e.path = path;
	e.path_fresh = 1;
	assert_int_equal(one(&e, 4096, &timed), -ESTALE);
	assert_int_equal(lstat(path, &st), 0);
	sb_engine_cleanup(&e);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(filestat_once_per_file),
		cmocka_unit_test(filedelete_only_its_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
