/* needs: root */
/*
 * Files storbench creates: the size and the mark are right, filled files
 * hold random data, O_EXCL protects what exists, only marked files are
 * removed, a filesystem without xattrs takes no file, neither by its name
 * nor by its data (a verify block at its start: data is copied), and a
 * failed create (a full filesystem) leaves nothing behind.
 */
#include "tests/lib/sbtest.h"
#include "lib/target/target.h"
#include "lib/verify/block.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define MIB (1024ull * 1024)

static int exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

static uint64_t size_of(const char *path)
{
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	return (uint64_t)st.st_size;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void assert_text(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, text);
}

static void assert_marked(const char *path)
{
	char val[8];
	assert_int_equal(getxattr(path, SB_CREATED_XATTR, val, sizeof(val)), 1);
	assert_int_equal(val[0], '1');
	assert_int_equal(sb_file_is_ours(path), 1);
}

static void test_create_no_fill(void **state)
{
	const char *path = sbt_path("sparse.dat");
	(void)state;

	assert_int_equal(sb_file_create(path, 8 * MIB + 100, 0, 1), 0);
	assert_int_equal(size_of(path), 8 * MIB + 100);
	assert_marked(path);
	assert_int_equal(sb_file_remove_created(path), 0);
	assert_false(exists(path));

	assert_int_equal(sb_file_create(path, 0, 0, 1), 0);
	assert_int_equal(size_of(path), 0);
	assert_int_equal(sb_file_remove_created(path), 0);
}

static unsigned char *read_all(const char *path, size_t len)
{
	unsigned char *buf = malloc(len);
	const int fd = open(path, O_RDONLY);

	assert_non_null(buf);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, len, 0), (ssize_t)len);
	close(fd);
	return buf;
}

static void test_create_fill(void **state)
{
	const size_t len = 3 * MIB + 123;
	const char *a = sbt_path("a.dat"), *b = sbt_path("b.dat"), *c = sbt_path("c.dat");
	struct stat st;
	size_t zeros = 0;
	(void)state;

	assert_int_equal(sb_file_create(a, len, 1, 42), 0);
	assert_int_equal(sb_file_create(b, len, 1, 42), 0);
	assert_int_equal(sb_file_create(c, len, 1, 43), 0);
	assert_int_equal(size_of(a), len);
	assert_marked(a);
	assert_int_equal(stat(a, &st), 0);
	assert_true((uint64_t)st.st_blocks * 512 >= len); /* real blocks, not a hole */

	unsigned char *da = read_all(a, len), *db = read_all(b, len), *dc = read_all(c, len);
	for (size_t i = 0; i < len; i++)
		zeros += da[i] == 0;
	assert_true(zeros < len / 128);	  /* random bytes: about len / 256 */
	assert_memory_equal(da, db, len); /* same seed, same data */
	assert_memory_not_equal(da, dc, 4096);
	free(da);
	free(db);
	free(dc);
	assert_int_equal(sb_file_remove_created(a), 0);
	assert_int_equal(sb_file_remove_created(b), 0);
	assert_int_equal(sb_file_remove_created(c), 0);
}

static void test_exclusive(void **state)
{
	const char *path = sbt_path("precious.txt");
	char val[8];
	(void)state;

	write_text(path, "keep me\n");
	assert_int_equal(sb_file_create(path, MIB, 1, 1), -EEXIST);
	assert_int_equal(sb_file_create(path, MIB, 0, 1), -EEXIST);
	assert_text(path, "keep me\n");
	assert_int_equal(getxattr(path, SB_CREATED_XATTR, val, sizeof(val)), -1);
}

static void test_remove_refuses_foreign(void **state)
{
	const char *foreign = sbt_path("foreign.txt"), *ours = sbt_path("ours.dat");
	const char *link = sbt_path("link.dat"), *named = sbt_path(".storbench-1-0.tmp");
	(void)state;

	write_text(foreign, "not yours\n");
	assert_int_equal(sb_file_is_ours(foreign), 0);
	assert_int_equal(sb_file_remove_created(foreign), -EPERM);
	assert_text(foreign, "not yours\n");

	/* our name pattern counts only where there are no xattrs */
	write_text(named, "not yours either\n");
	assert_int_equal(sb_file_remove_created(named), -EPERM);
	assert_true(exists(named));

	/* a symlink to our file is not our file */
	assert_int_equal(sb_file_create(ours, 4096, 0, 1), 0);
	assert_int_equal(symlink(ours, link), 0);
	assert_int_equal(sb_file_remove_created(link), -EPERM);
	assert_true(exists(link) && exists(ours));

	assert_int_equal(sb_file_remove_created(sbt_tmpdir()), -EPERM);
	assert_int_equal(sb_file_remove_created(sbt_path("missing")), -ENOENT);
	assert_int_equal(sb_file_remove_created(ours), 0);
	assert_false(exists(ours));
}

/* A filesystem of our own in a private mount namespace, gone when the
 * process ends whatever happens; unmounted in teardown so that the temp
 * directory can be removed. */
static char mnt[512];

static void private_mount(const char *fstype, const char *opts)
{
	if (!sbt_is_root() || unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		skip();
	snprintf(mnt, sizeof(mnt), "%s", sbt_path(fstype));
	assert_int_equal(mkdir(mnt, 0755), 0);
	if (mount(fstype, mnt, fstype, 0, opts) != 0) {
		rmdir(mnt);
		mnt[0] = '\0';
		skip();
	}
}

static int unmount(void **state)
{
	(void)state;
	if (mnt[0]) {
		umount2(mnt, MNT_DETACH);
		rmdir(mnt);
		mnt[0] = '\0';
	}
	return 0;
}

static void test_no_xattrs(void **state)
{
	char user[600], ours[600], val[8], verify[600];
	(void)state;

	private_mount("ramfs", NULL);
	snprintf(user, sizeof(user), "%s/user.dat", mnt);
	snprintf(ours, sizeof(ours), "%s/.storbench-%d-0.tmp", mnt, (int)getpid());
	snprintf(verify, sizeof(verify), "%s/v.dat", mnt);
	write_text(user, "x");
	if (setxattr(user, SB_CREATED_XATTR, "1", 1, 0) == 0 || errno != EOPNOTSUPP)
		skip(); /* this ramfs has user xattrs after all */
	assert_int_equal(unlink(user), 0);

	/* our own name pattern proves nothing: a user's file may carry it */
	write_text(ours, "a user's file with our kind of name\n");
	assert_int_equal(sb_file_is_ours(ours), 0);
	assert_int_equal(sb_file_remove_created(ours), -EPERM);
	assert_text(ours, "a user's file with our kind of name\n");
	assert_int_equal(unlink(ours), 0);

	/* created and laid out by us, unmarked: not taken later either */
	assert_int_equal(sb_file_create(ours, MIB, 1, 7), 0);
	assert_int_equal(getxattr(ours, SB_CREATED_XATTR, val, sizeof(val)), -1);
	assert_int_equal(sb_file_is_ours(ours), 0);
	assert_int_equal(sb_file_remove_created(ours), -EPERM);
	assert_true(exists(ours));

	/* nor is a verify block at the start proof: any copy holds it */
	struct sb_verify_fmt fmt;
	static unsigned char blk[4096];
	assert_int_equal(sb_verify_fmt_init(&fmt, 5, 1, sizeof(blk)), 0);
	sb_verify_fill(&fmt, blk, sizeof(blk), 0, 1);
	const int fd = open(verify, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, blk, sizeof(blk)), (ssize_t)sizeof(blk));
	close(fd);
	assert_int_equal(sb_file_is_ours(verify), 0);
	assert_int_equal(sb_file_remove_created(verify), -EPERM);
	assert_true(exists(verify));
}

static void test_full_fs_leaves_nothing(void **state)
{
	char path[600];
	(void)state;

	private_mount("tmpfs", "size=1m");
	snprintf(path, sizeof(path), "%s/.storbench-%d-1.tmp", mnt, (int)getpid());
	assert_int_equal(sb_file_create(path, 4 * MIB, 1, 1), -ENOSPC);
	assert_false(exists(path));
	assert_int_equal(sb_file_create(path, 4 * MIB, 0, 1), -ENOSPC);
	assert_false(exists(path));
	assert_int_equal(sb_file_create(path, 64 * 1024, 1, 1), 0);
	assert_int_equal(sb_file_remove_created(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_no_fill),
		cmocka_unit_test(test_create_fill),
		cmocka_unit_test(test_exclusive),
		cmocka_unit_test(test_remove_refuses_foreign),
		cmocka_unit_test_teardown(test_no_xattrs, unmount),
		cmocka_unit_test_teardown(test_full_fs_leaves_nothing, unmount),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
