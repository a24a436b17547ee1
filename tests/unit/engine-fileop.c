/* needs: none */
/* fio's file-operation engines (filestat, filedelete) and ftruncate and
 * falloc: the request that
 * starts a file does the operation on its name, timed (start_ns stamped
 * just before it, untimed 0); the file's other requests do nothing and
 * are counted untimed; a missing name is the request's error; stat_type
 * picks stat, lstat or statx; filedelete unlinks only the file it was
 * given (a name that now names another file is left, -ESTALE); ftruncate
 * cuts the file to a write's offset; falloc allocates a write's and a
 * read's range and punches a trim's; filecreate makes each file new by
 * name in its directory, its open the timed request, once a file a loop,
 * never through a symlink, and opens a name made before to read. */
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

/* queue io through the engine ops named: its result */
static int64_t queue_on(const char *name, int fd, int ddir, uint64_t off, uint32_t len)
{
	struct sb_engine e;
	struct sb_io io = { .offset = off, .len = len, .ddir = (uint8_t)ddir };
	assert_non_null(sb_engine_find(name));
	assert_int_equal(sb_engine_init(&e, sb_engine_find(name), fd, 1, 0), 0);
	assert_int_equal(sb_engine_queue(&e, &io), SB_Q_DONE);
	sb_engine_cleanup(&e);
	return io.res;
}

/* ftruncate: a write cuts (or grows) the file to its offset, a read is
 * -EINVAL, as fio's */
static void ftruncate_to_offset(void **state)
{
	const int fd = make_file(sbt_path("cut"));
	struct stat st;
	(void)state;
	assert_int_equal(queue_on("ftruncate", fd, SB_DDIR_WRITE, 65536, 4096), 4096);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 65536);
	assert_int_equal(queue_on("ftruncate", fd, SB_DDIR_WRITE, 8192, 4096), 4096);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 8192);
	assert_int_equal(queue_on("ftruncate", fd, SB_DDIR_READ, 0, 4096), -EINVAL);
	close(fd);
}

/* falloc: a write allocates its range (the file grows), a read allocates
 * keeping the size, a trim punches it out */
static void falloc_allocates_and_punches(void **state)
{
	const int fd = make_file(sbt_path("alloc"));
	struct stat st;
	(void)state;
	int64_t r = queue_on("falloc", fd, SB_DDIR_WRITE, 0, 1 << 20);
	if (r == -EOPNOTSUPP)
		sbt_skip("no fallocate on this filesystem");
	assert_int_equal(r, 1 << 20);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 1 << 20);
	assert_true(st.st_blocks >= (1 << 20) / 512);
	assert_int_equal(queue_on("falloc", fd, SB_DDIR_TRIM, 0, 1 << 20), 1 << 20);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 1 << 20);
	assert_true(st.st_blocks < (1 << 20) / 512);
	assert_int_equal(queue_on("falloc", fd, SB_DDIR_READ, 2 << 20, 1 << 20), 1 << 20);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 1 << 20);
	assert_true(st.st_blocks >= (1 << 20) / 512);
	close(fd);
}

/* queue a request at offset on e: its result, timed or not */
static int64_t at(struct sb_engine *e, uint64_t offset, int *timed)
{
	struct sb_io io = request(4096);
	io.offset = offset;
	io.ddir = SB_DDIR_WRITE;
	assert_int_equal(sb_engine_queue(e, &io), SB_Q_DONE);
	*timed = !io.untimed;
	return io.res;
}

static void filecreate_makes_each_file(void **state)
{
	const struct sb_engine_ops *ops = sb_engine_find("filecreate");
	char dir[4096], name[4200], other[4200];
	struct sb_engine e;
	struct stat st;
	int timed;

	(void)state;
	assert_non_null(ops);
	assert_true(ops->flags & SB_ENGINE_MKFILES);
	snprintf(dir, sizeof(dir), "%s", sbt_path("mk"));
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(sb_engine_init(&e, ops, -1, 1, 0), 0);
	e.path = dir;
	e.mk_job = "j";
	e.mk_clone = 1;
	e.mk_nfiles = 3;
	e.mk_span = 8192;
	e.path_fresh = 1;
	/* j.1.2 is a symlink planted before: never followed */
	snprintf(other, sizeof(other), "%s", sbt_path("victim"));
	close(make_file(other));
	snprintf(name, sizeof(name), "%s/j.1.2", dir);
	assert_int_equal(symlink(other, name), 0);
	for (int loop = 0; loop < 2; loop++) {
		for (uint64_t off = 0; off < 3 * 8192; off += 4096) {
			const int64_t r = at(&e, off, &timed);
			assert_int_equal(timed, off % 8192 == 0);
			assert_true(off == 16384 ? r == -ELOOP : r == 4096);
		}
		e.path_fresh = 1;
	}
	for (int f = 0; f < 2; f++) {
		snprintf(name, sizeof(name), "%s/j.1.%d", dir, f);
		assert_int_equal(stat(name, &st), 0);
		assert_true(S_ISREG(st.st_mode) && st.st_size == 0);
	}
	assert_int_equal(stat(other, &st), 0);
	assert_int_equal(st.st_size, 4); /* the symlink's target untouched */
	sb_engine_cleanup(&e);

	/* a job name with a '/' makes nothing elsewhere */
	assert_int_equal(sb_engine_init(&e, ops, -1, 1, 0), 0);
	e.path = dir;
	e.mk_job = "../j";
	e.mk_nfiles = 1;
	e.mk_span = 4096;
	assert_int_equal(at(&e, 0, &timed), -EINVAL);
	sb_engine_cleanup(&e);

	/* no nrfiles: the one file named, made new */
	assert_int_equal(sb_engine_init(&e, ops, -1, 1, 0), 0);
	snprintf(name, sizeof(name), "%s/one", dir);
	e.path = name;
	assert_int_equal(at(&e, 0, &timed), 4096);
	assert_true(timed);
	assert_int_equal(at(&e, 4096, &timed), 4096);
	assert_false(timed);
	sb_engine_cleanup(&e);
	assert_int_equal(stat(name, &st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(filestat_once_per_file),
		cmocka_unit_test(filedelete_only_its_file),
		cmocka_unit_test(ftruncate_to_offset),
		cmocka_unit_test(falloc_allocates_and_punches),
		cmocka_unit_test(filecreate_makes_each_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
