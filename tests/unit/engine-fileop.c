/* needs: none */
/* fio's file-operation engines (filestat, filedelete) and ftruncate and
 * falloc: filestat and filedelete work on JOB.N.F by name in their
 * directory, the request that starts a file in a loop does the operation
 * on its name, timed (start_ns stamped just before it, untimed 0); the
 * file's other requests do nothing and are counted untimed; files of
 * several sizes are told apart by their ends; a missing name is the
 * request's error; stat_type picks stat, lstat or statx; filedelete
 * unlinks only the files the run made (a name that now names another
 * file, a symlink, or a file not recorded is left, -ESTALE); ftruncate
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

/* a directory of n files named j.0.F, their inode numbers into ino */
static const char *files_dir(const char *name, unsigned n, uint64_t *ino)
{
	static char dir[4096];
	char path[4200];
	struct stat st;
	snprintf(dir, sizeof(dir), "%s", sbt_path(name));
	assert_int_equal(mkdir(dir, 0700), 0);
	for (unsigned f = 0; f < n; f++) {
		snprintf(path, sizeof(path), "%s/j.0.%u", dir, f);
		close(make_file(path));
		assert_int_equal(stat(path, &st), 0);
		if (ino)
			ino[f] = st.st_ino;
	}
	return dir;
}

static void by_name(struct sb_engine *e, const struct sb_engine_ops *ops, const char *dir,
		    unsigned n)
{
	assert_int_equal(sb_engine_init(e, ops, -1, 1, 0), 0);
	e->path = dir;
	e->mk_job = "j";
	e->mk_clone = 0;
	e->mk_nfiles = n;
	e->mk_span = 8192;
	e->path_fresh = 1;
}

static void filestat_once_per_file(void **state)
{
	const struct sb_engine_ops *ops = sb_engine_find("filestat");
	struct sb_engine e;
	int timed;

	(void)state;
	assert_non_null(ops);
	assert_int_equal(ops->flags, SB_ENGINE_SYNC | SB_ENGINE_FILEOP | SB_ENGINE_MKFILES);
	const char *dir = files_dir("stat", 3, NULL);
	for (unsigned t = SB_STAT_STAT; t <= SB_STAT_STATX; t++) {
		by_name(&e, ops, dir, 3);
		e.stat_type = t;
		for (int loop = 0; loop < 2; loop++) {
			/* each file's first request stats it, timed, once a loop */
			for (uint64_t off = 0; off < 3 * 8192; off += 4096) {
				assert_int_equal(at(&e, off, &timed), 4096);
				assert_int_equal(timed, off % 8192 == 0);
			}
			assert_int_equal(at(&e, 0, &timed), 4096);
			assert_false(timed);
			e.path_fresh = 1;
		}
		/* a sync request does nothing */
		struct sb_io io = request(0);
		io.ddir = SB_DDIR_SYNC;
		assert_int_equal(sb_engine_queue(&e, &io), SB_Q_DONE);
		assert_int_equal(io.res, 0);
		sb_engine_cleanup(&e);
	}
	/* a missing name (a fourth file): the request's error */
	by_name(&e, ops, dir, 4);
	assert_int_equal(at(&e, 3 * 8192, &timed), -ENOENT);
	sb_engine_cleanup(&e);
	/* files of several sizes (mk_end): a file's first request is where
	 * the one before it ends */
	const uint64_t end[3] = { 4096, 16384, 20480 };
	by_name(&e, ops, dir, 3);
	e.mk_end = end;
	for (uint64_t off = 0; off < 20480; off += 4096) {
		assert_int_equal(at(&e, off, &timed), 4096);
		assert_int_equal(timed, off == 0 || off == 4096 || off == 16384);
	}
	sb_engine_cleanup(&e);
}

static void filedelete_only_its_file(void **state)
{
	const struct sb_engine_ops *ops = sb_engine_find("filedelete");
	struct sb_engine e;
	struct stat st;
	uint64_t ino[2];
	char path[4200], other[4200];
	int timed;

	(void)state;
	assert_non_null(ops);
	const char *dir = files_dir("del", 2, ino);
	/* its own files: each unlinked, once */
	by_name(&e, ops, dir, 2);
	e.mk_ino = ino;
	for (uint64_t off = 0; off < 2 * 8192; off += 4096) {
		assert_int_equal(at(&e, off, &timed), 4096);
		assert_int_equal(timed, off % 8192 == 0);
	}
	for (unsigned f = 0; f < 2; f++) {
		snprintf(path, sizeof(path), "%s/j.0.%u", dir, f);
		assert_int_equal(lstat(path, &st), -1);
	}
	sb_engine_cleanup(&e);

	/* a name that now names another file, or a file not recorded: left */
	snprintf(path, sizeof(path), "%s/j.0.0", dir);
	close(make_file(path));
	assert_int_equal(stat(path, &st), 0);
	ino[0] = st.st_ino;
	snprintf(other, sizeof(other), "%s", sbt_path("planted"));
	close(make_file(other));
	assert_int_equal(rename(other, path), 0);
	by_name(&e, ops, dir, 1);
	e.mk_ino = ino;
	assert_int_equal(at(&e, 0, &timed), -ESTALE);
	assert_int_equal(lstat(path, &st), 0);
	sb_engine_cleanup(&e);
	by_name(&e, ops, dir, 1);
	assert_int_equal(at(&e, 0, &timed), -ESTALE);
	assert_int_equal(lstat(path, &st), 0);
	sb_engine_cleanup(&e);
	/* a symlink at the name: never followed, left */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink(other, path), 0);
	by_name(&e, ops, dir, 1);
	e.mk_ino = ino;
	assert_int_equal(at(&e, 0, &timed), -ESTALE);
	assert_int_equal(lstat(path, &st), 0);
	sb_engine_cleanup(&e);
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
