/* needs: root */
/*
 * Output files (lib/base/outfile.c) are whole or absent: a committed file
 * holds everything written and no temporary is left; an aborted or failed
 * one leaves the old file untouched and no temporary; a full filesystem is
 * ENOSPC; a planted symlink at the final name is replaced, not followed;
 * /dev/null is written in place, never renamed over.
 */
#include "tests/lib/sbtest.h"
#include "lib/base/outfile.h"

#include <dirent.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static char *slurp(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Entries of dir whose name starts with prefix. */
static int count_prefixed(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

static void test_commit_replaces(void **state)
{
	(void)state;
	const char *p = sbt_path("out.json");
	struct sb_outfile o;
	FILE *f = fopen(p, "w");
	fputs("old", f);
	fclose(f);

	assert_int_equal(sb_outfile_open(&o, p), 0);
	assert_non_null(o.f);
	fputs("{\"new\": 1}\n", o.f);
	assert_string_equal(slurp(p), "old"); /* not visible before the commit */
	assert_int_equal(sb_outfile_commit(&o), 0);
	assert_string_equal(slurp(p), "{\"new\": 1}\n");
	assert_int_equal(count_prefixed(sbt_tmpdir(), "out.json.tmp"), 0);
}

static void test_abort_keeps_old(void **state)
{
	(void)state;
	const char *p = sbt_path("keep.txt");
	struct sb_outfile o;
	FILE *f = fopen(p, "w");
	fputs("old", f);
	fclose(f);

	assert_int_equal(sb_outfile_open(&o, p), 0);
	fputs("half a docu", o.f);
	sb_outfile_abort(&o);
	assert_string_equal(slurp(p), "old");
	assert_int_equal(count_prefixed(sbt_tmpdir(), "keep.txt.tmp"), 0);
}

static void test_symlink_not_followed(void **state)
{
	(void)state;
	const char *victim = sbt_path("victim");
	const char *link = sbt_path("link.json");
	struct sb_outfile o;
	FILE *f = fopen(victim, "w");
	fputs("precious", f);
	fclose(f);
	assert_int_equal(symlink(victim, link), 0);

	assert_int_equal(sb_outfile_open(&o, link), 0);
	fputs("result", o.f);
	assert_int_equal(sb_outfile_commit(&o), 0);
	assert_string_equal(slurp(victim), "precious");
	struct stat st;
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_string_equal(slurp(link), "result");
}

static void test_dev_null_in_place(void **state)
{
	(void)state;
	struct sb_outfile o;
	struct stat before, after;
	assert_int_equal(stat("/dev/null", &before), 0);
	assert_int_equal(sb_outfile_open(&o, "/dev/null"), 0);
	assert_string_equal(o.tmp, "");
	fputs("nothing", o.f);
	assert_int_equal(sb_outfile_commit(&o), 0);
	assert_int_equal(stat("/dev/null", &after), 0);
	assert_true(S_ISCHR(after.st_mode));
	assert_int_equal(before.st_rdev, after.st_rdev);
	assert_int_equal(before.st_ino, after.st_ino);
}

static void test_bad_paths(void **state)
{
	(void)state;
	struct sb_outfile o;
	assert_int_equal(sb_outfile_open(&o, sbt_path("no-such-dir/x.json")), -ENOENT);
	assert_int_equal(sb_outfile_open(&o, sbt_tmpdir()), -EISDIR);
	assert_int_equal(sb_outfile_open(&o, ""), -ENOENT);
}

/* A full filesystem: ENOSPC (not EIO), the old file intact, no temporary. */
static void test_full_fs(void **state)
{
	(void)state;
	char mnt[512], p[600];
	if (!sbt_is_root() || unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		skip();
	snprintf(mnt, sizeof(mnt), "%s", sbt_path("tiny"));
	assert_int_equal(mkdir(mnt, 0755), 0);
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=64k") != 0)
		skip();
	snprintf(p, sizeof(p), "%s/r.json", mnt);
	FILE *f = fopen(p, "w");
	fputs("old", f);
	fclose(f);

	struct sb_outfile o;
	assert_int_equal(sb_outfile_open(&o, p), 0);
	static char block[4096];
	memset(block, 'x', sizeof(block));
	for (int i = 0; i < 64; i++)
		fwrite(block, 1, sizeof(block), o.f);
	assert_int_equal(sb_outfile_commit(&o), -ENOSPC);
	assert_string_equal(slurp(p), "old");
	assert_int_equal(count_prefixed(mnt, "r.json.tmp"), 0);
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commit_replaces),
		cmocka_unit_test(test_abort_keeps_old),
		cmocka_unit_test(test_symlink_not_followed),
		cmocka_unit_test(test_dev_null_in_place),
		cmocka_unit_test(test_bad_paths),
		cmocka_unit_test(test_full_fs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
