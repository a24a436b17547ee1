/* needs: none */
/*
 * Files read whole and paths made absolute (lib/base/fileread.c): a file is
 * read to its last byte, NUL-terminated, across the growth of the buffer;
 * one longer than the limit is -EFBIG and one exactly at it is read; a
 * missing file is -ENOENT; a directory cannot be read (-EIO); a path
 * whose last name does not exist yet keeps it under its resolved
 * directory, one whose directory is missing is -ENOENT.
 */
#include "tests/lib/sbtest.h"
#include "lib/base/fileread.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

static void put(const char *path, size_t n)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	for (size_t i = 0; i < n; i++)
		fputc('a' + (int)(i % 26), f);
	fclose(f);
}

static void test_whole(void **state)
{
	(void)state;
	const char *p = sbt_path("big");
	char *t;
	size_t len;
	put(p, 300000); /* past the first buffers */
	assert_int_equal(sb_read_file(p, 0, &t, &len), 0);
	assert_int_equal(len, 300000);
	assert_int_equal(t[len], 0);
	assert_int_equal(t[299999], 'a' + 299999 % 26);
	free(t);
	assert_int_equal(sb_read_file(p, 300000, &t, &len), 0);
	assert_int_equal(len, 300000);
	free(t);
	assert_int_equal(sb_read_file(p, 299999, &t, &len), -EFBIG);
	assert_null(t);
	put(p, 0);
	assert_int_equal(sb_read_file(p, 10, &t, &len), 0);
	assert_int_equal(len, 0);
	assert_string_equal(t, "");
	free(t);
}

static void test_refused(void **state)
{
	(void)state;
	char *t;
	size_t len;
	assert_int_equal(sb_read_file(sbt_path("missing"), 0, &t, &len), -ENOENT);
	assert_null(t);
	assert_int_equal(sb_read_file(sbt_tmpdir(), 0, &t, &len), -EIO);
	assert_null(t);
}

static void test_absolute(void **state)
{
	(void)state;
	char real[PATH_MAX], want[PATH_MAX + 16], out[PATH_MAX + 16];
	assert_non_null(realpath(sbt_tmpdir(), real));
	assert_int_equal(chdir(sbt_tmpdir()), 0);
	put("here", 1);
	snprintf(want, sizeof(want), "%s/here", real);
	assert_int_equal(sb_path_absolute("here", out, sizeof(out)), 0);
	assert_string_equal(out, want);
	snprintf(want, sizeof(want), "%s/new.json", real);
	assert_int_equal(sb_path_absolute("./new.json", out, sizeof(out)), 0);
	assert_string_equal(out, want);
	assert_int_equal(sb_path_absolute("nodir/x", out, sizeof(out)), -ENOENT);
	assert_int_equal(sb_path_absolute("here/x", out, sizeof(out)), -ENOTDIR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_absolute),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
