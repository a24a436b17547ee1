/* needs: none */
/*
 * The run directory of storbench meta: created with its marker; removing
 * it takes only what storbench puts there (test files, 00000-style
 * subdirectories, the block I/O file) and keeps anything else, with the
 * mark; a directory of a dead process is reported as a leftover, one
 * without the marker is not ours. File names are recognised, and the
 * sequential ones sort in number order.
 */
#include "tests/lib/sbtest.h"
#include "lib/meta/meta.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void touch(const char *dir, const char *name)
{
	char p[4400];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
}

static int exists(const char *dir, const char *name)
{
	char p[4400];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return lstat(p, &st) == 0;
}

static void test_remove_only_ours(void **state)
{
	(void)state;
	char run[4096], sub[4200], name[SB_META_NAME_MAX];
	const int dfd = sb_meta_rundir_create(sbt_tmpdir(), run, sizeof(run));
	assert_true(dfd >= 0);
	close(dfd);
	assert_int_equal(sb_meta_rundir_is_ours(run), 1);
	assert_true(exists(run, SB_META_MARKER));
	sb_meta_file_name(1, 7, 0, name);
	touch(run, name);
	touch(run, SB_META_IO_FILE);
	snprintf(sub, sizeof(sub), "%s/00001", run);
	assert_int_equal(mkdir(sub, 0700), 0);
	sb_meta_file_name(1, 8, 1, name);
	touch(sub, name);
	touch(run, "notes.txt"); /* not ours */

	assert_int_equal(sb_meta_rundir_remove(run), -ENOTEMPTY);
	assert_true(exists(run, "notes.txt"));
	assert_true(exists(run, SB_META_MARKER)); /* still recognisable */
	assert_false(exists(run, SB_META_IO_FILE));
	assert_false(exists(run, "00001"));
	sb_meta_file_name(1, 7, 0, name);
	assert_false(exists(run, name));

	char p[4200];
	snprintf(p, sizeof(p), "%s/notes.txt", run);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(sb_meta_rundir_remove(run), 0);
	assert_int_equal(sb_meta_rundir_is_ours(run), -ENOENT);
}

static void test_not_ours(void **state)
{
	(void)state;
	char d[4096];
	/* the right name without the marker */
	snprintf(d, sizeof(d), "%s/.storbench-meta-1-0", sbt_tmpdir());
	assert_int_equal(mkdir(d, 0700), 0);
	assert_int_equal(sb_meta_rundir_is_ours(d), 0);
	assert_int_equal(sb_meta_rundir_remove(d), -EPERM);
	/* a marker in a directory with another name */
	snprintf(d, sizeof(d), "%s/mydata", sbt_tmpdir());
	assert_int_equal(mkdir(d, 0700), 0);
	touch(d, SB_META_MARKER);
	assert_int_equal(sb_meta_rundir_is_ours(d), 0);
	assert_int_equal(sb_meta_rundir_remove(d), -EPERM);
	assert_true(exists(d, SB_META_MARKER));
}

static int nleft;
static char left[4096];
static void on_left(void *ctx, const char *path)
{
	(void)ctx;
	nleft++;
	snprintf(left, sizeof(left), "%s", path);
}

static void test_leftovers(void **state)
{
	(void)state;
	char parent[4096], d[4200], mine[4096];
	snprintf(parent, sizeof(parent), "%s/left", sbt_tmpdir());
	assert_int_equal(mkdir(parent, 0700), 0);
	pid_t child = fork();
	assert_true(child >= 0);
	if (!child)
		_exit(0);
	waitpid(child, NULL, 0); /* its pid now names no process */
	snprintf(d, sizeof(d), "%s/.storbench-meta-%ld-0", parent, (long)child);
	assert_int_equal(mkdir(d, 0700), 0);
	touch(d, SB_META_MARKER);
	/* this process's own run directory is not a leftover */
	const int dfd = sb_meta_rundir_create(parent, mine, sizeof(mine));
	assert_true(dfd >= 0);
	close(dfd);
	nleft = 0;
	assert_int_equal(sb_meta_leftovers(parent, on_left, NULL), 1);
	assert_int_equal(nleft, 1);
	assert_string_equal(left, d);
	assert_int_equal(sb_meta_rundir_remove(mine), 0);
}

/* The run directory's name is swapped for a symlink to another directory
 * while the tests run: they go on in the directory made, through its
 * descriptor; nothing appears in, or goes from, the other; the symlink is
 * not removed. */
static void test_swapped_name(void **state)
{
	(void)state;
	char run[4096], moved[4200], victim[4200], name[SB_META_NAME_MAX];
	struct sb_meta_result res[SB_META_NTESTS];
	struct sb_meta_error err;
	struct stat st;
	memset(res, 0, sizeof(res));
	const int dfd = sb_meta_rundir_create(sbt_tmpdir(), run, sizeof(run));
	assert_true(dfd >= 0);
	assert_int_equal(fstat(dfd, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	snprintf(moved, sizeof(moved), "%s.moved", run);
	snprintf(victim, sizeof(victim), "%s/victim", sbt_tmpdir());
	assert_int_equal(mkdir(victim, 0700), 0);
	sb_meta_file_name(3, 0, 0, name); /* a name the tests will use */
	touch(victim, name);
	touch(victim, SB_META_IO_FILE);
	assert_int_equal(rename(run, moved), 0);
	assert_int_equal(symlink(victim, run), 0);

	struct sb_meta_files p = { run, 50, 2, 1, 0, 100, 8192, 0, 3, dfd };
	assert_int_equal(sb_meta_files_run(&p, NULL, res, &err), 0);
	struct sb_meta_io io = { run, 1u << 20, 0, 8192, 10, 1, 0, 0, 0, 0, 0, 5, dfd };
	int cache;
	assert_int_equal(sb_meta_io_run(&io, NULL, res, &cache, &err), 0);
	assert_true(exists(victim, name) && exists(victim, SB_META_IO_FILE));
	assert_false(exists(victim, "00000"));
	assert_true(exists(moved, SB_META_MARKER));

	assert_int_equal(sb_meta_rundir_remove_fd(dfd, run), -ESTALE);
	struct stat lst;
	assert_int_equal(lstat(run, &lst), 0);
	assert_true(S_ISLNK(lst.st_mode));
	assert_true(exists(victim, name) && exists(victim, SB_META_IO_FILE));
	assert_true(exists(moved, SB_META_MARKER)); /* still marked */
	assert_int_equal(unlink(run), 0);
	assert_int_equal(rename(moved, run), 0);
	assert_int_equal(sb_meta_rundir_remove_fd(dfd, run), 0);
	assert_false(exists(sbt_tmpdir(), strrchr(run, '/') + 1));
	close(dfd);
}

static void test_names(void **state)
{
	(void)state;
	char a[SB_META_NAME_MAX], b[SB_META_NAME_MAX];
	for (uint64_t i = 0; i < 2000; i++) {
		sb_meta_file_name(42, i, 0, a);
		sb_meta_file_name(42, i + 1, 0, b);
		assert_true(sb_meta_is_file_name(a));
		assert_true(strcmp(a, b) < 0); /* sequential names sort in number order */
		sb_meta_file_name(42, i, 1, b);
		assert_true(sb_meta_is_file_name(b));
		assert_int_equal(strlen(b) >= 10 && strlen(b) <= 22, 1);
	}
	assert_false(sb_meta_is_file_name("short"));
	assert_false(sb_meta_is_file_name(".storbench-meta"));
	assert_false(sb_meta_is_file_name("0000000001-x"));
	assert_false(sb_meta_is_file_name("00000000010000000000000")); /* 23 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remove_only_ours),
		cmocka_unit_test(test_not_ours),
		cmocka_unit_test(test_leftovers),
		cmocka_unit_test(test_swapped_name),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
