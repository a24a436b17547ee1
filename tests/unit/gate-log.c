/* needs: none */
/*
 * Logs written under a name the user gave (lib/target/gate.c,
 * sb_gate_log): a shared log (fio's per_job_logs=0) is appended to by
 * every clone, the one that made it too, so lines written in turn are
 * all kept in their order; a log made by storbench is written again from
 * empty when not shared; a fifo is refused, nothing opened.
 */
#include "tests/lib/sbtest.h"
#include "lib/target/gate.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static void put(int fd, const char *s)
{
	assert_int_equal(write(fd, s, strlen(s)), (ssize_t)strlen(s));
}

static void content(const char *path, const char *want)
{
	char buf[64] = { 0 };
	const int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_true(read(fd, buf, sizeof(buf) - 1) >= 0);
	close(fd);
	assert_string_equal(buf, want);
}

static void test_shared_appends(void **state)
{
	(void)state;
	struct sb_error er = { 0 };
	const char *p = sbt_path("shared_bw.log");
	const int maker = sb_gate_log(p, 0, 1, 0, &er);
	assert_true(maker >= 0);
	put(maker, "a\n");
	const int other = sb_gate_log(p, 0, 1, 0, &er);
	assert_true(other >= 0);
	put(other, "b\n");
	put(maker, "c\n"); /* at the end, not over the other clone's line */
	close(maker);
	close(other);
	content(p, "a\nb\nc\n");
}

static void test_own_rewritten(void **state)
{
	(void)state;
	struct sb_error er = { 0 };
	const char *p = sbt_path("job_bw.1.log");
	int fd = sb_gate_log(p, 0, 0, 0, &er);
	assert_true(fd >= 0);
	put(fd, "first run\n");
	close(fd);
	fd = sb_gate_log(p, 0, 0, 0, &er);
	assert_true(fd >= 0);
	put(fd, "again\n");
	close(fd);
	content(p, "again\n");
}

static void test_fifo_refused(void **state)
{
	(void)state;
	struct sb_error er = { 0 };
	const char *p = sbt_path("fifo.log");
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(sb_gate_log(p, 1, 0, 0, &er), -EINVAL);
	assert_non_null(strstr(er.msg, "a log is written to a regular file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_appends),
		cmocka_unit_test(test_own_rewritten),
		cmocka_unit_test(test_fifo_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
