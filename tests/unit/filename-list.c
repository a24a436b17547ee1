/* needs: none */
/* fio's filename= list (a:b:c): names split at ':', '\:' a colon inside
 * a name, an empty name or too many refused, and a list too long for
 * the job's buffer. */
#include "tests/lib/sbtest.h"
#include "lib/job/job.h"

#include <errno.h>
#include <string.h>

static void test_split(void **state)
{
	char out[64], msg[128];
	(void)state;
	assert_int_equal(sb_job_filename_list("one", out, sizeof(out), msg, sizeof(msg)), 1);
	assert_string_equal(out, "one");
	assert_int_equal(sb_job_filename_list("a:b/c:/d", out, sizeof(out), msg, sizeof(msg)), 3);
	assert_string_equal(sb_job_filename_at(out, 0), "a");
	assert_string_equal(sb_job_filename_at(out, 1), "b/c");
	assert_string_equal(sb_job_filename_at(out, 2), "/d");
}

static void test_escape(void **state)
{
	char out[64], msg[128];
	(void)state;
	/* a /dev/disk/by-path name has colons: written \: */
	assert_int_equal(sb_job_filename_list("pci-0000\\:00\\:1f.2:x", out, sizeof(out), msg,
					      sizeof(msg)),
			 2);
	assert_string_equal(sb_job_filename_at(out, 0), "pci-0000:00:1f.2");
	assert_string_equal(sb_job_filename_at(out, 1), "x");
	/* a backslash before anything else stays */
	assert_int_equal(sb_job_filename_list("a\\b", out, sizeof(out), msg, sizeof(msg)), 1);
	assert_string_equal(out, "a\\b");
}

static void test_empty(void **state)
{
	static const char *const bad[] = { "", ":", "a:", ":a", "a::b" };
	static const char *const which[] = { "name 1", "name 1", "name 2", "name 1", "name 2" };
	char out[64], msg[128];
	(void)state;
	for (size_t i = 0; i < SB_ARRAY_SIZE(bad); i++) {
		msg[0] = 0;
		assert_int_equal(sb_job_filename_list(bad[i], out, sizeof(out), msg, sizeof(msg)),
				 -EINVAL);
		if (!strstr(msg, which[i]) || !strstr(msg, "empty"))
			fail_msg("'%s': %s", bad[i], msg);
	}
}

static void test_too_many(void **state)
{
	static char v[3 * (SB_JOB_MAX_NRFILES + 1)], out[4096];
	char msg[128];
	size_t n = 0;
	(void)state;
	for (unsigned i = 0; i < SB_JOB_MAX_NRFILES; i++) {
		v[n++] = 'f';
		v[n++] = ':';
	}
	v[n - 1] = 0; /* SB_JOB_MAX_NRFILES names: taken */
	assert_int_equal(sb_job_filename_list(v, out, sizeof(out), msg, sizeof(msg)),
			 SB_JOB_MAX_NRFILES);
	v[n - 1] = ':';
	v[n++] = 'g';
	v[n] = 0; /* one more */
	assert_int_equal(sb_job_filename_list(v, out, sizeof(out), msg, sizeof(msg)), -E2BIG);
	assert_non_null(strstr(msg, "more than"));
	/* names longer than the buffer */
	assert_int_equal(sb_job_filename_list("abcdefgh:ijklmnop", out, 12, msg, sizeof(msg)),
			 -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_too_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
