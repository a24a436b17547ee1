/* needs: none */
/*
 * bonnie++'s file tests on a real directory: every test handles each of the
 * N files exactly once (with one thread and with several, over several
 * directories, with and without data), the latency histogram holds one
 * entry per file, and nothing is left but the run directory's marker. The
 * block and seek tests move the bytes they say and remove their file.
 */
#include "tests/lib/sbtest.h"
#include "lib/meta/meta.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void files_case(uint64_t n, unsigned dirs, unsigned threads, uint64_t lo, uint64_t hi)
{
	char run[4096];
	struct sb_meta_result res[SB_META_NTESTS];
	struct sb_meta_error err;
	memset(res, 0, sizeof(res));
	const int dfd = sb_meta_rundir_create(sbt_tmpdir(), run, sizeof(run));
	assert_true(dfd >= 0);
	struct sb_meta_files p = { run, n, dirs, threads, lo, hi, 8192, 0, 99, dfd };
	int e = sb_meta_files_run(&p, NULL, res, &err);
	if (e)
		print_error("%s: %s %s\n", sb_meta_test_name(err.test), strerror(err.err),
			    err.what);
	assert_int_equal(e, 0);
	for (int t = SB_META_SEQ_CREATE; t <= SB_META_RAND_DELETE; t++) {
		assert_true(res[t].ran);
		assert_int_equal(res[t].ops, n);
		assert_int_equal(res[t].lat.count, n);
		assert_false(res[t].interrupted);
		/* CPU time is taken inside the timed window: one thread
		 * cannot exceed 100 % (it did: 104-106 % on stat tests) */
		assert_true(res[t].cpu_ns <= res[t].elapsed_ns * threads);
	}
	for (int t = SB_META_PUTC; t <= SB_META_SEEKS; t++)
		assert_false(res[t].ran);
	assert_int_equal(entries(run), 1); /* the marker */
	assert_int_equal(sb_meta_rundir_remove_fd(dfd, run), 0);
	close(dfd);
}

static void test_one_thread(void **state)
{
	(void)state;
	files_case(500, 1, 1, 0, 0);
}

static void test_threads_dirs_data(void **state)
{
	(void)state;
	files_case(301, 4, 3, 0, 3000);
}

static void test_bad_params(void **state)
{
	(void)state;
	struct sb_meta_result res[SB_META_NTESTS];
	struct sb_meta_error err;
	const int dfd = open(sbt_tmpdir(), O_RDONLY | O_DIRECTORY);
	struct sb_meta_files p = {
		sbt_tmpdir(), 10, 1, 2, 0, 0, 8192, 0, 1, dfd
	}; /* threads > dirs */
	assert_int_equal(sb_meta_files_run(&p, NULL, res, &err), -EINVAL);
	p.nthreads = 1;
	p.dirfd = -1; /* no run directory */
	assert_int_equal(sb_meta_files_run(&p, NULL, res, &err), -EINVAL);
	close(dfd);
}

static void test_block_io(void **state)
{
	(void)state;
	char run[4096], path[4200];
	struct sb_meta_result res[SB_META_NTESTS];
	struct sb_meta_error err;
	int cache = 0;
	memset(res, 0, sizeof(res));
	const int dfd = sb_meta_rundir_create(sbt_tmpdir(), run, sizeof(run));
	assert_true(dfd >= 0);
	snprintf(path, sizeof(path), "%s/%s", run, SB_META_IO_FILE);
	struct sb_meta_io p = { path, 2u << 20, 1u << 20, 8192, 100, 3, 0, 0, 0, 0, 0, 5, dfd };
	assert_int_equal(sb_meta_io_run(&p, NULL, res, &cache, &err), 0);
	assert_int_equal(res[SB_META_PUTC].bytes, 1u << 20);
	assert_int_equal(res[SB_META_GETC].bytes, 1u << 20);
	assert_int_equal(res[SB_META_WRITE].bytes, 2u << 20);
	assert_int_equal(res[SB_META_REWRITE].bytes, 2u << 20);
	assert_int_equal(res[SB_META_READ].bytes, 2u << 20);
	assert_int_equal(res[SB_META_READ].ops, 256);
	assert_int_equal(res[SB_META_SEEKS].ops, 100);
	assert_int_equal(res[SB_META_SEEKS].lat.count, 100);
	assert_int_equal(entries(run), 1); /* the test file is gone */
	/* the per-character tests through 1-byte system calls, bonnie++'s data */
	memset(res, 0, sizeof(res));
	p.char_syscall = 1;
	p.bonnie_data = 1;
	p.char_size = 65536; /* a syscall per byte is slow */
	assert_int_equal(sb_meta_io_run(&p, NULL, res, &cache, &err), 0);
	assert_int_equal(res[SB_META_GETC].bytes, 65536);
	assert_int_equal(entries(run), 1);
	assert_int_equal(sb_meta_rundir_remove(run), 0);
	close(dfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_thread),
		cmocka_unit_test(test_threads_dirs_data),
		cmocka_unit_test(test_bad_params),
		cmocka_unit_test(test_block_io),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
