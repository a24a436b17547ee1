/* needs: none */
/*
 * A rank's directory (lib/target/rankdir.h), as mpirun leaves it when it
 * kills a run: a child process makes the directory and its files, noted in
 * the marker, and dies without cleaning up. A later open takes it over and
 * removes exactly the files listed; every other case is a refusal that
 * touches nothing: a live owner (lock held), a file the run did not list,
 * a symlink planted under a listed name (its target untouched), a marker
 * that does not parse or is cut short, no marker, files kept with --keep,
 * a symlink in place of the directory.
 */
#include "tests/lib/sbtest.h"
#include "lib/target/rankdir.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *path_in(const char *dir, const char *name)
{
	static char p[4][4400];
	static unsigned k;
	char *b = p[k++ % 4];
	snprintf(b, sizeof(p[0]), "%s/%s", dir, name);
	return b;
}

static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static int exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* A run that makes dir with files a and b (noted), then is killed: the
 * child dies without a word; its pid is reaped. With hold, it stays alive
 * until killed (its pid returned). */
static pid_t killed_run(const char *dir, int hold)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t c = fork();
	assert_true(c >= 0);
	if (!c) {
		struct sb_rankdir d;
		struct sb_error er;
		if (sb_rankdir_open(&d, dir, "run-old", "hostA", &er) || d.reuse)
			_exit(1);
		put(path_in(dir, "a"), "data a");
		sb_rankdir_note(&d, path_in(dir, "a"));
		put(path_in(dir, "b"), "data b, longer");
		sb_rankdir_note(&d, "b");
		sb_rankdir_note(&d, "/elsewhere/c"); /* not in the directory: ignored */
		(void)!write(p[1], "x", 1);
		if (hold)
			pause();
		_exit(0);
	}
	close(p[1]);
	char x;
	assert_int_equal(read(p[0], &x, 1), 1);
	close(p[0]);
	if (!hold) {
		int st;
		waitpid(c, &st, 0);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	return c;
}

static void refused(const char *dir, const char *words)
{
	struct sb_rankdir d;
	struct sb_error er;
	assert_int_equal(sb_rankdir_open(&d, dir, "run-new", "hostA", &er), -EEXIST);
	if (!strstr(er.msg, words))
		fail_msg("'%s' lacks '%s'", er.msg, words);
	assert_int_equal(sb_rankdir_close(&d, SB_RANKDIR_REMOVE), 0);
	assert_true(exists(dir));
}

static void test_new_and_removed(void **state)
{
	(void)state;
	const char *dir = sbt_path("fresh");
	struct sb_rankdir d;
	struct sb_error er;
	assert_int_equal(sb_rankdir_open(&d, dir, "run-1", "hostA", &er), 0);
	assert_false(d.reuse);
	put(path_in(dir, "f"), "x");
	assert_int_equal(sb_rankdir_note(&d, path_in(dir, "f")), 0);
	/* a file left: the marker stays with the directory */
	assert_int_equal(sb_rankdir_close(&d, SB_RANKDIR_REMOVE), -ENOTEMPTY);
	assert_true(exists(path_in(dir, SB_RANKDIR_MARKER)));
	/* that run's pid is this process, which runs: not taken over */
	refused(dir, "in use by run run-1");
	assert_int_equal(unlink(path_in(dir, "f")), 0);
	assert_int_equal(unlink(path_in(dir, SB_RANKDIR_MARKER)), 0);
	assert_int_equal(rmdir(dir), 0);
	/* and the normal end: nothing but the marker, both go */
	assert_int_equal(sb_rankdir_open(&d, dir, "run-2", "h", &er), 0);
	assert_int_equal(sb_rankdir_close(&d, SB_RANKDIR_REMOVE), 0);
	assert_false(exists(dir));
}

static void test_reused(void **state)
{
	(void)state;
	const char *dir = sbt_path("killed");
	killed_run(dir, 0);
	struct sb_rankdir d;
	struct sb_error er;
	assert_int_equal(sb_rankdir_open(&d, dir, "run-new", "hostA", &er), 0);
	assert_true(d.reuse);
	assert_string_equal(d.old_run, "run-old");
	assert_string_equal(d.old_host, "hostA");
	assert_int_equal(d.nfound, 2);
	assert_int_equal(d.found_bytes, 6 + 14);
	/* nothing removed before the claim */
	assert_true(exists(path_in(dir, "a")));
	assert_int_equal(sb_rankdir_claim(&d, &er), 0);
	assert_false(exists(path_in(dir, "a")));
	assert_false(exists(path_in(dir, "b")));
	/* the marker is this run's now */
	char buf[512] = "";
	int fd = open(path_in(dir, SB_RANKDIR_MARKER), O_RDONLY);
	assert_true(fd >= 0);
	assert_true(read(fd, buf, sizeof(buf) - 1) > 0);
	close(fd);
	assert_non_null(strstr(buf, "run run-new\n"));
	assert_null(strstr(buf, "file "));
	assert_int_equal(sb_rankdir_close(&d, SB_RANKDIR_REMOVE), 0);
	assert_false(exists(dir));
}

/* A run of another host, dead: its lock is free, so it is taken over. */
static void test_other_host(void **state)
{
	(void)state;
	const char *dir = sbt_path("otherhost");
	killed_run(dir, 0);
	struct sb_rankdir d;
	struct sb_error er;
	assert_int_equal(sb_rankdir_open(&d, dir, "run-new", "hostB", &er), 0);
	assert_true(d.reuse);
	assert_int_equal(sb_rankdir_claim(&d, &er), 0);
	assert_int_equal(sb_rankdir_close(&d, SB_RANKDIR_REMOVE), 0);
	assert_false(exists(dir));
}

static void test_live_owner(void **state)
{
	(void)state;
	const char *dir = sbt_path("live");
	pid_t c = killed_run(dir, 1);
	/* the lock says so, whatever host the marker names */
	struct sb_rankdir d;
	struct sb_error er;
	assert_int_equal(sb_rankdir_open(&d, dir, "run-new", "hostB", &er), -EEXIST);
	assert_non_null(strstr(er.msg, "in use"));
	sb_rankdir_close(&d, SB_RANKDIR_REMOVE);
	assert_true(exists(path_in(dir, "a")) && exists(path_in(dir, "b")));
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	/* dead: now it may be */
	assert_int_equal(sb_rankdir_open(&d, dir, "run-new", "hostA", &er), 0);
	assert_true(d.reuse);
	sb_rankdir_close(&d, SB_RANKDIR_LEAVE);
	assert_true(exists(path_in(dir, "a")));
}

static void test_foreign_file(void **state)
{
	(void)state;
	const char *dir = sbt_path("foreign");
	killed_run(dir, 0);
	put(path_in(dir, "notes.txt"), "mine");
	refused(dir, "'notes.txt', which run run-old did not make");
	assert_true(exists(path_in(dir, "notes.txt")));
	assert_true(exists(path_in(dir, "a")) && exists(path_in(dir, "b")));
	/* a directory too */
	assert_int_equal(unlink(path_in(dir, "notes.txt")), 0);
	assert_int_equal(mkdir(path_in(dir, "sub"), 0700), 0);
	refused(dir, "'sub'");
	/* and a directory under a listed name */
	assert_int_equal(rmdir(path_in(dir, "sub")), 0);
	assert_int_equal(unlink(path_in(dir, "b")), 0);
	assert_int_equal(mkdir(path_in(dir, "b"), 0700), 0);
	refused(dir, "not a regular file");
	assert_true(exists(path_in(dir, "a")) && exists(path_in(dir, "b")));
}

static void test_symlink_planted(void **state)
{
	(void)state;
	const char *dir = sbt_path("planted");
	const char *victim = sbt_path("victim");
	killed_run(dir, 0);
	put(victim, "precious");
	assert_int_equal(unlink(path_in(dir, "a")), 0);
	assert_int_equal(symlink(victim, path_in(dir, "a")), 0);
	refused(dir, "a symbolic link");
	struct stat st;
	assert_int_equal(lstat(path_in(dir, "a"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_true(exists(path_in(dir, "b")));
	assert_int_equal(stat(victim, &st), 0);
	assert_int_equal(st.st_size, 8);
	/* a hard link to a file elsewhere under a listed name: refused too */
	assert_int_equal(unlink(path_in(dir, "a")), 0);
	assert_int_equal(link(victim, path_in(dir, "a")), 0);
	refused(dir, "other names");
	assert_int_equal(stat(victim, &st), 0);
	assert_int_equal(st.st_nlink, 2);
	/* the marker itself a symlink */
	const char *other = sbt_path("othermark");
	assert_int_equal(rename(path_in(dir, SB_RANKDIR_MARKER), other), 0);
	assert_int_equal(symlink(other, path_in(dir, SB_RANKDIR_MARKER)), 0);
	refused(dir, "no mark of a storbench run");
	/* the directory a symlink to one of ours */
	const char *ln = sbt_path("dirlink");
	assert_int_equal(symlink(dir, ln), 0);
	refused(ln, "not a directory");
}

static void test_bad_markers(void **state)
{
	(void)state;
	static const struct {
		const char *text, *words;
	} cases[] = {
		{ "", "does not read" },
		{ "storbench per-rank directory 2\n", "line 1" },
		{ "storbench per-rank directory 1\nrun r\nhost h\npid 1\nstart 1\ncreated 1\nfile "
		  "a\nfile b\nfile c", /* cut short */
		  "does not read" },
		{ "storbench per-rank directory 1\nrun r\nhost h\npid 1\nstart 1\ncreated 1\nfile "
		  "../x\n",
		  "line 7" },
		{ "storbench per-rank directory 1\nrun r\nhost h\npid 1\nstart 1\ncreated 1\nfile "
		  "a\nfile b\nnonsense here\n",
		  "line 9" },
		{ "storbench per-rank directory 1\nrun r\nhost h\nstart 1\ncreated 1\nfile a\n",
		  "does not read" }, /* no pid */
		{ "storbench per-rank directory 1\nrun r\nhost h\npid 1x\nstart 1\ncreated 1\n",
		  "line 4" },
		{ "storbench per-rank directory 1\nrun r\nhost h\npid 999999999\nstart 1\ncreated "
		  "1\nfile a\nfile b\nkept\n",
		  "kept (--keep)" },
	};
	const char *dir = sbt_path("bad");
	killed_run(dir, 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		put(path_in(dir, SB_RANKDIR_MARKER), cases[i].text);
		refused(dir, cases[i].words);
		assert_true(exists(path_in(dir, "a")) && exists(path_in(dir, "b")));
	}
	/* no marker at all */
	assert_int_equal(unlink(path_in(dir, SB_RANKDIR_MARKER)), 0);
	refused(dir, "no mark");
	assert_true(exists(path_in(dir, "a")) && exists(path_in(dir, "b")));
}

/* A run that kept its files marks the directory so, and it is refused. */
static void test_kept(void **state)
{
	(void)state;
	const char *dir = sbt_path("kept");
	struct sb_rankdir d;
	struct sb_error er;
	pid_t c = fork();
	assert_true(c >= 0);
	if (!c) {
		if (sb_rankdir_open(&d, dir, "run-k", "hostA", &er))
			_exit(1);
		put(path_in(dir, "a"), "x");
		sb_rankdir_note(&d, "a");
		_exit(sb_rankdir_close(&d, SB_RANKDIR_KEEP) ? 1 : 0);
	}
	int st;
	waitpid(c, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	refused(dir, "kept (--keep)");
	assert_true(exists(path_in(dir, "a")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_and_removed), cmocka_unit_test(test_reused),
		cmocka_unit_test(test_other_host),	cmocka_unit_test(test_live_owner),
		cmocka_unit_test(test_foreign_file),	cmocka_unit_test(test_symlink_planted),
		cmocka_unit_test(test_bad_markers),	cmocka_unit_test(test_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
