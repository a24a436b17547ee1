/* needs: root */
/*
 * Scratch files: always new (a planted symlink or file under the name is
 * never opened, its target never touched), unguessable names with the
 * process id, 0600; removed only while the name still names our file (not
 * a symlink or a file renamed over it); a reopen reaches our file whatever
 * the name holds now.
 */
#include "tests/lib/sbtest.h"
#include "lib/target/scratch.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

static int exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

static void test_names(void **state)
{
	char a[4096], b[4096], want[64];
	struct stat st;
	(void)state;

	int fa = sb_scratch_create(sbt_tmpdir(), ".storbench-", ".tmp", O_RDWR, a, sizeof(a));
	int fb = sb_scratch_create(sbt_tmpdir(), ".storbench-", ".tmp", O_RDWR, b, sizeof(b));
	assert_true(fa >= 0 && fb >= 0);
	assert_string_not_equal(a, b);
	snprintf(want, sizeof(want), "/.storbench-%ld-", (long)getpid());
	const char *base = strrchr(a, '/');
	assert_non_null(base);
	assert_int_equal(strncmp(base, want, strlen(want)), 0);
	assert_int_equal(strlen(base), strlen(want) + 16 + 4); /* 64 random bits, ".tmp" */
	assert_int_equal(strncmp(a, sbt_tmpdir(), strlen(sbt_tmpdir())), 0);
	assert_int_equal(fstat(fa, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_true(fcntl(fa, F_GETFD) & FD_CLOEXEC);
	assert_int_equal(sb_scratch_same(a, fa), 1);
	assert_int_equal(sb_scratch_same(b, fa), 0);
	assert_int_equal(sb_scratch_remove(a, fa), 0);
	assert_int_equal(sb_scratch_remove(b, fb), 0);
	assert_false(exists(a) || exists(b));
	assert_int_equal(sb_scratch_remove(a, fa), -ENOENT);
	close(fa);
	close(fb);

	char small[16];
	assert_int_equal(sb_scratch_name(small, sizeof(small), sbt_tmpdir(), "x", ""),
			 -ENAMETOOLONG);
}

/* What is there is never opened: not a file, not a symlink to one, not a
 * dangling symlink (O_CREAT would make its target). */
static void test_never_opens_what_exists(void **state)
{
	const char *victim = sbt_path("victim.txt"), *link = sbt_path("planted");
	const char *dangling = sbt_path("dangling"), *made = sbt_path("made-by-link");
	(void)state;

	write_text(victim, "keep me\n");
	assert_int_equal(symlink(victim, link), 0);
	assert_int_equal(sb_scratch_create_path(link, O_RDWR), -EEXIST);
	assert_int_equal(sb_scratch_create_path(victim, O_RDWR), -EEXIST);
	assert_int_equal(symlink(made, dangling), 0);
	assert_int_equal(sb_scratch_create_path(dangling, O_RDWR), -EEXIST);
	assert_false(exists(made));
	assert_text(victim, "keep me\n");
}

/* Someone swaps the name for a symlink or another file after we made it:
 * removal leaves theirs, and the reopen still reaches ours. */
static void test_swapped_name(void **state)
{
	const char *victim = sbt_path("victim2.txt"), *other = sbt_path("other.txt");
	char path[4096], moved[4200];
	(void)state;

	write_text(victim, "keep me\n");
	const int fd = sb_scratch_create(sbt_tmpdir(), "s-", ".tmp", O_RDWR, path, sizeof(path));
	assert_true(fd >= 0);
	snprintf(moved, sizeof(moved), "%s.moved", path);
	assert_int_equal(rename(path, moved), 0);
	assert_int_equal(symlink(victim, path), 0);

	assert_int_equal(sb_scratch_same(path, fd), 0);
	assert_int_equal(sb_scratch_remove(path, fd), -ESTALE);
	assert_true(exists(path));
	const int w = sb_scratch_reopen(fd, O_WRONLY | O_TRUNC);
	assert_true(w >= 0);
	assert_int_equal(write(w, "ours\n", 5), 5);
	close(w);
	assert_text(victim, "keep me\n");
	assert_text(moved, "ours\n");

	/* a regular file renamed over the name is not ours either */
	assert_int_equal(unlink(path), 0);
	write_text(other, "theirs\n");
	assert_int_equal(rename(other, path), 0);
	assert_int_equal(sb_scratch_remove(path, fd), -ESTALE);
	assert_text(path, "theirs\n");

	/* back in place: removed */
	assert_int_equal(rename(moved, path), 0);
	assert_int_equal(sb_scratch_remove(path, fd), 0);
	assert_false(exists(path));
	close(fd);
}

/* A reopen is a description of its own: its own offset and access mode. */
static void test_reopen(void **state)
{
	char path[4096], buf[8] = "";
	(void)state;

	const int fd = sb_scratch_create(sbt_tmpdir(), "r-", "", O_RDWR, path, sizeof(path));
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "abcdef", 6), 6);
	const int r = sb_scratch_reopen(fd, O_RDONLY);
	assert_true(r >= 0);
	assert_true(fcntl(r, F_GETFD) & FD_CLOEXEC);
	assert_int_equal(read(r, buf, 3), 3);
	assert_string_equal(buf, "abc");
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 6);
	assert_int_equal(write(r, "x", 1), -1); /* read-only */
	/* and never gains write access: only the write gate gives it */
	assert_int_equal(sb_scratch_reopen(r, O_RDWR), -EBADF);
	assert_int_equal(sb_scratch_reopen(r, O_WRONLY | O_TRUNC), -EBADF);
	close(r);
	assert_int_equal(sb_scratch_reopen(-1, O_RDONLY), -EBADF);
	assert_int_equal(sb_scratch_remove(path, fd), 0);
	close(fd);
}

/* Without /proc (a board's minimal root): a duplicate, O_DIRECT as asked,
 * and no O_SYNC that the file was not opened with. In a child of its own,
 * whose /proc goes (the sanitizers' leak check wants it at exit). */
static int without_proc(void)
{
	char path[4096], buf[8] = "";
	struct stat st;
	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    umount2("/proc", MNT_DETACH) != 0)
		return 77;
	const int fd = sb_scratch_create(sbt_tmpdir(), "p-", "", O_RDWR, path, sizeof(path));
	if (fd < 0 || write(fd, "abcdef", 6) != 6)
		return 1;
	const int r = sb_scratch_reopen(fd, O_RDONLY);
	if (r < 0 || read(r, buf, 3) != 3 || strcmp(buf, "abc")) /* from the start */
		return 2;
	close(r);
	if (sb_scratch_reopen(fd, O_RDWR | O_DSYNC) != -EOPNOTSUPP)
		return 3;
	const int t = sb_scratch_reopen(fd, O_RDWR | O_TRUNC);
	if (t < 0 || fstat(fd, &st) != 0 || st.st_size != 0)
		return 4;
	close(t);
	return sb_scratch_remove(path, fd) == 0 ? 0 : 5;
}

static void test_reopen_without_proc(void **state)
{
	int status;
	(void)state;
	if (!sbt_is_root())
		skip();
	const pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(without_proc());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(status), 0);
}

static int count_entries(const char *dir)
{
	int n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* A file made anew under its name (a sweep's cell, a soak's iteration):
 * swapped in, the old one gone, nothing else left; a name that names
 * something else by then is put back as it was. */
static void test_replace(void **state)
{
	char dir[2048], path[4096], user[4096];
	struct stat a, b;
	(void)state;
	snprintf(dir, sizeof(dir), "%s/replace", sbt_tmpdir());
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(path, sizeof(path), "%s/f", dir);
	const int old = sb_scratch_create_path(path, O_RDWR);
	assert_true(old >= 0);
	assert_int_equal(fstat(old, &a), 0);
	const int fd = sb_scratch_replace(path, old, O_RDWR, NULL, NULL);
	if (fd == -EOPNOTSUPP)
		skip(); /* this filesystem cannot swap names */
	assert_true(fd >= 0);
	assert_int_equal(sb_scratch_same(path, fd), 1);
	assert_int_equal(fstat(fd, &b), 0);
	assert_true(a.st_ino != b.st_ino);
	assert_int_equal(count_entries(dir), 1);
	/* a user's file renamed over ours meanwhile: put back, untouched */
	snprintf(user, sizeof(user), "%s/user", dir);
	write_text(user, "the user's\n");
	assert_int_equal(rename(user, path), 0);
	assert_int_equal(sb_scratch_replace(path, fd, O_RDWR, NULL, NULL), -ESTALE);
	assert_text(path, "the user's\n");
	assert_int_equal(count_entries(dir), 1);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_never_opens_what_exists),
		cmocka_unit_test(test_swapped_name),
		cmocka_unit_test(test_reopen),
		cmocka_unit_test(test_reopen_without_proc),
		cmocka_unit_test(test_replace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
