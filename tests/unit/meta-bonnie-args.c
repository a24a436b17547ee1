/* needs: none */
/*
 * bonnie++'s command line as storbench meta's options: the seed line,
 * sizes in MiB (-s 64 is 64 MiB, as bonnie++), getopt's grouping and
 * attached values, -r's default size, and refusals that name the option.
 */
#include "tests/lib/sbtest.h"
#include "lib/meta/meta.h"

static struct sb_bonnie_args a;
static char msg[512];

/* The meta arguments joined by spaces, or the error message. */
static const char *tr(int argc, char **argv)
{
	static char out[2048];
	msg[0] = '\0';
	int e = sb_bonnie_args(argc, argv, &a, msg, sizeof(msg));
	if (e)
		return e == 1 ? "HELP" : msg;
	size_t pos = 0;
	out[0] = '\0';
	for (int i = 0; i < a.n; i++)
		pos += (size_t)snprintf(out + pos, sizeof(out) - pos, "%s%s", i ? " " : "",
					a.argv[i]);
	assert_null(a.argv[a.n]);
	return out;
}

#define TR(...)                                            \
	({                                                 \
		char *v_[] = { "bonnie", __VA_ARGS__ };    \
		tr((int)(sizeof(v_) / sizeof(v_[0])), v_); \
	})

static void test_seed_line(void **state)
{
	(void)state;
	assert_string_equal(TR("-d", "/data/", "-s", "1024", "-m", "S3", "-u", "0:0"),
			    "--per-char=syscall --data=bonnie --size=1024M --name=S3 /data/");
	assert_string_equal(a.user, "0:0");
	assert_int_equal(a.reps, 1);
	assert_false(a.quiet);
	/* no -d: the current directory, as bonnie++ */
	assert_string_equal(TR("-s64"), "--per-char=syscall --data=bonnie --size=64M .");
}

static void test_sizes_and_fields(void **state)
{
	(void)state;
	assert_string_equal(TR("-s", "64:4k:100:3", "-d", "/t"),
			    "--per-char=syscall --data=bonnie --size=64M --chunk=4096 --seeks=100 "
			    "--seekers=3 /t");
	assert_string_equal(TR("-s", "2G"), "--per-char=syscall --data=bonnie --size=2048M .");
	assert_string_equal(TR("-n", "1:4096:16:8:1k"),
			    "--per-char=syscall --data=bonnie --files=1024 --file-size=16:4096 "
			    "--dirs=8 --file-chunk=1024 .");
	assert_string_equal(TR("-n", "0", "-s", "1"),
			    "--per-char=syscall --data=bonnie --files=0 --size=1M .");
	/* -r alone sets bonnie++'s default size, twice the RAM */
	assert_string_equal(TR("-r", "100"), "--per-char=syscall --data=bonnie --size=200M .");
	/* rounded up to the next GiB when over 512 MiB past one, as bonnie++ */
	assert_string_equal(TR("-r", "800"), "--per-char=syscall --data=bonnie --size=2048M .");
	assert_string_equal(TR("-r", "600"), "--per-char=syscall --data=bonnie --size=1200M .");
	assert_int_equal(sb_bonnie_size(12074), 24576);
	assert_string_equal(TR("-r", "100", "-s", "8"),
			    "--per-char=syscall --data=bonnie --size=8M .");
}

static void test_flags(void **state)
{
	(void)state;
	/* grouped flags, -f alone (no per-char tests) and attached */
	assert_string_equal(TR("-qbD", "-f", "-x", "3"),
			    "--per-char=syscall --data=bonnie --fsync --direct --char-size=0 "
			    "--quiet .");
	assert_true(a.quiet);
	assert_int_equal(a.reps, 3);
	assert_string_equal(TR("-f3", "-z", "42", "-c", "1", "--output=r.json"),
			    "--per-char=syscall --data=bonnie --char-size=3M --seed=42 "
			    "--output=r.json .");
	/* storbench's own flags under mpirun go through, for meta to check */
	assert_string_equal(TR("-s", "0", "--stonewall", "--per-rank-dir=0"),
			    "--per-char=syscall --data=bonnie --size=0M --stonewall "
			    "--per-rank-dir=0 .");
	assert_string_equal(TR("-h"), "HELP");
	assert_string_equal(TR("--help"), "HELP");
}

static void refused(const char *want, int argc, char **argv)
{
	const char *m = tr(argc, argv);
	if (!strstr(m, want))
		print_error("'%s' lacks '%s'\n", m, want);
	assert_non_null(strstr(m, want));
}

#define REFUSED(want, ...)                                            \
	do {                                                          \
		char *v_[] = { "bonnie", __VA_ARGS__ };               \
		refused(want, (int)(sizeof(v_) / sizeof(v_[0])), v_); \
	} while (0)

static void test_refusals(void **state)
{
	(void)state;
	REFUSED("-s: 'x'", "-s", "x");
	REFUSED("-s: '1000k:x'", "-s", "1000k:x");
	REFUSED("-s: chunk size '3000'", "-s", "64:3000");
	REFUSED("-n: max size -1", "-n", "1:-1");
	REFUSED("-n: sizes", "-n", "1:10:20");
	REFUSED("-c: storbench runs one copy", "-c", "2");
	REFUSED("-p: ", "-p", "3");
	REFUSED("-y: ", "-ys");
	REFUSED("-Z: ", "-Z", "/dev/urandom");
	REFUSED("-z: ", "-z", "0");
	REFUSED("-n: nothing to do", "-n", "0", "-s", "0");
	REFUSED("-k: not a bonnie++ option", "-k");
	REFUSED("-d: needs a value", "-d");
	REFUSED("-m: ", "-m", "a,b");
	REFUSED("-f: ", "-fx");
	REFUSED("'extra': not a bonnie++ option", "-s", "8", "extra");
	REFUSED("'--size=1'", "--size=1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_line),
		cmocka_unit_test(test_sizes_and_fields),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
