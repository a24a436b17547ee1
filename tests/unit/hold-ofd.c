/* needs: none */
/*
 * A run's hold on a file (lib/target/hold.h): to write excludes every
 * other hold, to read shares with readers; a refusal names the holder's
 * pid (another process: a child here); this process's own holds through
 * other descriptors are its own; a hold goes with its descriptor, not
 * with the close of another descriptor of the file (a POSIX lock would);
 * another program's whole-file lock keeps a writer off, not a reader.
 */
#include "tests/lib/sbtest.h"
#include "lib/target/hold.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static int open_file(int flags)
{
	const int fd = open(sbt_path("held"), flags | O_CREAT | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	return fd;
}

/* A child that holds the file (write or read, or with a POSIX lock over
 * all of it: posix) until killed; its pid. */
static pid_t holder(int excl, int posix)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	const pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		long who;
		const int fd = open(sbt_path("held"), O_RDWR);
		struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		const int e = posix ? fcntl(fd, F_SETLK, &l) : sb_hold(fd, excl, &who);
		if (write(p[1], &e, sizeof(e)) != sizeof(e))
			_exit(1);
		pause();
		_exit(0);
	}
	int e = -1;
	assert_int_equal(read(p[0], &e, sizeof(e)), (ssize_t)sizeof(e));
	close(p[0]);
	close(p[1]);
	assert_int_equal(e, 0);
	return pid;
}

static void done(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void test_write_excludes(void **state)
{
	long who;
	(void)state;
	const int fd = open_file(O_RDWR);
	const pid_t pid = holder(1, 0);
	assert_int_equal(sb_hold(fd, 1, &who), -EBUSY);
	assert_int_equal(who, (long)pid);
	assert_int_equal(sb_hold(fd, 0, &who), -EBUSY);
	assert_int_equal(who, (long)pid);
	assert_int_equal(sb_hold_held(fd, 0, &who), 1);
	assert_int_equal(who, (long)pid);
	assert_int_equal(sb_hold_path(sbt_path("held")), (long)pid);
	done(pid);
	/* gone with its holder */
	assert_int_equal(sb_hold_held(fd, 1, &who), 0);
	assert_int_equal(sb_hold(fd, 1, &who), 0);
	close(fd);
}

static void test_readers_share(void **state)
{
	long who;
	(void)state;
	const int fd = open_file(O_RDWR);
	const pid_t pid = holder(0, 0);
	assert_int_equal(sb_hold(fd, 0, &who), 0);
	assert_int_equal(sb_hold_held(fd, 0, &who), 0); /* no writer */
	assert_int_equal(sb_hold_held(fd, 1, &who), 1); /* a reader */
	assert_int_equal(who, (long)pid);
	/* a writer is refused, naming the other process's reader first */
	const int w = open_file(O_RDWR);
	assert_int_equal(sb_hold(w, 1, &who), -EBUSY);
	assert_int_equal(who, (long)pid);
	close(w);
	close(fd);
	done(pid);
}

static void test_own_process(void **state)
{
	long who;
	(void)state;
	const int fd = open_file(O_RDWR), again = open_file(O_RDWR);
	assert_int_equal(sb_hold(fd, 1, &who), 0);
	/* the jobs of one job file on one file: the run's own */
	assert_int_equal(sb_hold(again, 1, &who), 0);
	assert_int_equal(sb_hold_held(again, 1, &who), 0);
	close(again);
	close(fd);
}

static void test_survives_other_close(void **state)
{
	long who;
	(void)state;
	const int fd = open_file(O_RDWR);
	assert_int_equal(sb_hold(fd, 1, &who), 0);
	/* a reopen closed (the jobs', a probe's) lets nothing go */
	close(open_file(O_RDONLY));
	const pid_t pid = fork();
	if (pid == 0) {
		const int c = open(sbt_path("held"), O_RDWR);
		long w;
		const int e = sb_hold(c, 1, &w);
		_exit(e == -EBUSY && w == (long)getppid() ? 0 : 1);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	close(fd);
}

static void test_other_program(void **state)
{
	long who;
	(void)state;
	const int fd = open_file(O_RDWR);
	const pid_t pid = holder(1, 1);
	assert_int_equal(sb_hold(fd, 0, &who), 0); /* read: measured anyway */
	assert_int_equal(sb_hold(fd, 1, &who), -EBUSY);
	assert_int_equal(who, 0); /* not a storbench run: no pid to name */
	done(pid);
	close(fd);
}

static void test_refusal(void **state)
{
	struct sb_error er;
	(void)state;
	assert_int_equal(sb_hold_refusal(&er, "/x/f", 4242), -EBUSY);
	assert_int_equal(er.cls, SB_ERR_ENV);
	assert_string_equal(er.msg,
			    "cannot use '/x/f': another storbench run (pid 4242) is using it");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_excludes), cmocka_unit_test(test_readers_share),
		cmocka_unit_test(test_own_process),    cmocka_unit_test(test_survives_other_close),
		cmocka_unit_test(test_other_program),  cmocka_unit_test(test_refusal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
