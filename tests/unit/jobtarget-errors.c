/* needs: none */
/*
 * A job's target (lib/target/jobtarget.h) says why it refuses and what kind
 * of error that is (the program's exit code hangs on it): bad input, the
 * environment, a stop. What it created is removed on a stop and at
 * cleanup (unless kept), and the hooks hear of every such file; what it
 * did not create is never removed.
 */
#include "tests/lib/sbtest.h"
#include "lib/target/jobtarget.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1024ull * 1024)

struct heard {
	int stops;   /* what stop answers */
	int on, off; /* track calls */
	int warnings;
};

static int stop(void *ctx)
{
	return ((struct heard *)ctx)->stops;
}

static void track(void *ctx, const char *path, int fd, int on)
{
	struct heard *h = ctx;
	(void)path;
	assert_true(fd >= 0);
	if (on)
		h->on++;
	else
		h->off++;
}

static void warn(void *ctx, const char *msg)
{
	(void)msg;
	((struct heard *)ctx)->warnings++;
}

static void target_init(struct sb_jobtarget *t, struct heard *h)
{
	memset(t, 0, sizeof(*t));
	memset(h, 0, sizeof(*h));
	t->hooks = (struct sb_jt_hooks){ stop, track, warn, h };
}

static void job_init(struct sb_job_opts *job, int rw, uint64_t size)
{
	sb_job_opts_default(job);
	job->rw = rw;
	job->size = size;
	job->direct = 0;
}

static unsigned entries(const char *dir)
{
	unsigned n = 0;
	DIR *d = opendir(dir);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static const char *fresh_dir(const char *name)
{
	const char *p = sbt_path(name);
	assert_int_equal(mkdir(p, 0700), 0);
	return p;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_missing_directory(void **state)
{
	struct sb_jobtarget t;
	struct sb_error er;
	struct heard h;
	char want[4352];
	(void)state;
	target_init(&t, &h);
	const char *p = sbt_path("no/such/file");
	assert_int_equal(sb_jobtarget_probe(&t, p, &er), -ENOENT);
	assert_int_equal(er.err, -ENOENT);
	assert_int_equal(er.cls, SB_ERR_ENV); /* the target cannot be used: exit 3 */
	snprintf(want, sizeof(want), "cannot use '%s': its directory does not exist", p);
	assert_string_equal(er.msg, want);
}

/* A file storbench did not make is written only with consent, never
 * through a symlink, and stays at cleanup. */
static void test_not_ours(void **state)
{
	struct sb_jobtarget t;
	struct sb_job_opts job;
	struct sb_error er;
	struct heard h;
	(void)state;
	const char *p = sbt_path("theirs");
	const char *l = sbt_path("link");
	write_text(p, "somebody's data\n");
	assert_int_equal(symlink(p, l), 0);

	target_init(&t, &h);
	job_init(&job, SB_RW_WRITE, 0);
	assert_int_equal(sb_jobtarget_prepare(&t, p, &job, 0, 0, &er), -EPERM);
	assert_int_equal(er.cls, SB_ERR_INPUT);
	assert_non_null(strstr(er.msg, "storbench did not create it"));
	sb_jobtarget_cleanup(&t, 0);
	assert_int_equal(access(p, F_OK), 0);

	target_init(&t, &h);
	t.destroy_data = 1;
	assert_int_equal(sb_jobtarget_prepare(&t, l, &job, 0, 0, &er), -ELOOP);
	assert_int_equal(er.cls, SB_ERR_INPUT);
	assert_non_null(strstr(er.msg, "it is a symbolic link"));
	sb_jobtarget_cleanup(&t, 0);

	/* a request larger than the file: named as --bs, not started */
	target_init(&t, &h);
	t.destroy_data = 1;
	assert_int_equal(sb_jobtarget_prepare(&t, p, &job, 0, 0, &er), -EINVAL);
	assert_int_equal(er.cls, SB_ERR_INPUT);
	assert_non_null(strstr(er.msg, "--bs: a request (4.00 KiB) is larger than the region"));
	sb_jobtarget_cleanup(&t, 0);

	/* with consent the file named is held and reopened, never removed */
	job.bs = 8;
	target_init(&t, &h);
	t.destroy_data = 1;
	assert_int_equal(sb_jobtarget_prepare(&t, p, &job, 0, 0, &er), 0);
	assert_int_equal(t.npaths, 1);
	assert_int_equal(t.region_size, strlen("somebody's data\n"));
	const int fd = sb_jobtarget_open(&t, 0, O_RDONLY);
	assert_true(fd >= 0);
	close(fd);
	sb_jobtarget_cleanup(&t, 0);
	assert_int_equal(access(p, F_OK), 0);
	assert_int_equal(h.on + h.off + h.warnings, 0);
}

/* A target prepared for a job that reads cannot be written: not through
 * what it holds, not through its name. One marked written (a
 * precondition) passes the write gate whatever the job does. */
static void test_read_is_not_write(void **state)
{
	struct sb_jobtarget t;
	struct sb_job_opts job;
	struct sb_error er;
	struct heard h;
	(void)state;
	const char *p = sbt_path("read-only");
	const char *l = sbt_path("read-link");
	write_text(p, "somebody's data\n");
	assert_int_equal(symlink(p, l), 0);

	target_init(&t, &h);
	t.destroy_data = 1;
	job_init(&job, SB_RW_READ, 0);
	job.bs = 8; /* within the file's 16 bytes */
	assert_int_equal(sb_jobtarget_prepare(&t, l, &job, 0, 0, &er), 0);
	assert_int_equal(sb_jobtarget_open(&t, 0, O_RDWR), -EBADF);
	assert_int_equal(sb_jobtarget_open(&t, 0, O_WRONLY), -EBADF);
	const int fd = sb_jobtarget_open(&t, 0, O_RDONLY);
	assert_true(fd >= 0);
	close(fd);
	sb_jobtarget_cleanup(&t, 0);

	target_init(&t, &h);
	t.destroy_data = 1;
	t.writes = 1;
	assert_int_equal(sb_jobtarget_prepare(&t, l, &job, 0, 0, &er), -ELOOP);
	assert_non_null(strstr(er.msg, "it is a symbolic link"));
	sb_jobtarget_cleanup(&t, 0);

	target_init(&t, &h);
	t.writes = 1;
	assert_int_equal(sb_jobtarget_prepare(&t, p, &job, 0, 0, &er), -EPERM);
	assert_non_null(strstr(er.msg, "storbench did not create it"));
	sb_jobtarget_cleanup(&t, 0);
}

/* Checked before anything is made: the number of files, the space. */
static void test_checked_first(void **state)
{
	struct sb_jobtarget t;
	struct sb_job_opts job;
	struct sb_error er;
	struct heard h;
	(void)state;
	const char *d = fresh_dir("checked");

	target_init(&t, &h);
	job_init(&job, SB_RW_READ, MIB);
	job.numjobs = SB_JT_MAX_FILES + 1;
	assert_int_equal(sb_jobtarget_prepare(&t, d, &job, 1, 0, &er), -EINVAL);
	assert_int_equal(er.cls, SB_ERR_INPUT);
	assert_string_equal(er.msg, "--numjobs: at most 256 jobs for a directory target");
	sb_jobtarget_cleanup(&t, 0);

	/* where the free space is known (it is not everywhere) */
	target_init(&t, &h);
	job_init(&job, SB_RW_READ, UINT64_MAX / 4);
	assert_int_equal(sb_jobtarget_probe(&t, d, &er), 0);
	if (t.info.fs_free) {
		assert_int_equal(sb_jobtarget_prepare(&t, d, &job, 1, 0, &er), -ENOSPC);
		assert_int_equal(er.cls, SB_ERR_ENV);
		assert_non_null(strstr(er.msg, "not enough space for the test file:"));
	}
	sb_jobtarget_cleanup(&t, 0);

	/* a percentage is of something that exists */
	target_init(&t, &h);
	job_init(&job, SB_RW_READ, 0);
	job.size_pct = 50;
	assert_int_equal(sb_jobtarget_prepare(&t, d, &job, 1, 0, &er), -EINVAL);
	assert_string_equal(er.msg, "--size: 50% is a share of an existing file or device, not "
				    "of a directory: give a size");
	sb_jobtarget_cleanup(&t, 0);
	assert_int_equal(entries(d), 0);
	assert_int_equal(h.on, 0);

	/* offset= on a new file: refused on the command line ... */
	target_init(&t, &h);
	job_init(&job, SB_RW_READ, MIB);
	job.offset = 4096;
	assert_int_equal(sb_jobtarget_prepare(&t, d, &job, 1, 0, &er), -EINVAL);
	assert_string_equal(er.msg, "--offset: applies to an existing file or a device, not "
				    "to a directory");
	sb_jobtarget_cleanup(&t, 0);
	assert_int_equal(entries(d), 0);
	assert_int_equal(h.on, 0);

	/* ... and in a job file, as fio, the file is made offset + size long */
	target_init(&t, &h);
	job_init(&job, SB_RW_READ, MIB);
	job.offset = 4096;
	job.fio_new_file = 1;
	assert_int_equal(sb_jobtarget_prepare(&t, d, &job, 1, 0, &er), 0);
	assert_int_equal(t.region_offset, 4096);
	assert_int_equal(t.region_size, MIB);
	struct stat st;
	assert_int_equal(stat(t.paths[0], &st), 0);
	assert_int_equal(st.st_size, 4096 + MIB);
	sb_jobtarget_cleanup(&t, 0);
	assert_int_equal(entries(d), 0);
	assert_int_equal(h.on, 1); /* made, tracked, and removed */
	assert_int_equal(h.off, 1);
}

/* A stop during the layout: the half-made file goes, no message. */
static void test_stop(void **state)
{
	struct sb_jobtarget t;
	struct sb_job_opts job;
	struct sb_error er;
	struct heard h;
	(void)state;
	const char *d = fresh_dir("stopped");
	target_init(&t, &h);
	h.stops = 1;
	job_init(&job, SB_RW_READ, 64 * MIB);
	assert_int_equal(sb_jobtarget_prepare(&t, d, &job, 1, 0, &er), -EINTR);
	assert_int_equal(er.cls, SB_ERR_STOPPED);
	assert_string_equal(er.msg, "");
	assert_int_equal(entries(d), 0);
	assert_int_equal(h.on, 1);
	assert_int_equal(h.off, 1);
	sb_jobtarget_cleanup(&t, 0);
	assert_int_equal(h.off, 1);
}

/* A file per job in a directory, each heard of; removed or kept. */
static void test_files_per_job(void **state)
{
	struct sb_jobtarget t;
	struct sb_job_opts job;
	struct sb_error er;
	struct heard h;
	(void)state;
	const char *d = fresh_dir("jobs");
	for (int keep = 0; keep <= 1; keep++) {
		target_init(&t, &h);
		job_init(&job, SB_RW_WRITE, MIB);
		job.numjobs = 3;
		assert_int_equal(sb_jobtarget_prepare(&t, d, &job, 0, 0, &er), 0);
		assert_int_equal(t.npaths, 3);
		assert_string_not_equal(t.paths[0], t.paths[1]);
		assert_int_equal(entries(d), 3);
		assert_int_equal(h.on, 3);
		sb_jobtarget_cleanup(&t, keep);
		assert_int_equal(h.off, 3);
		assert_int_equal(entries(d), keep ? 3u : 0u);
		assert_int_equal(h.warnings, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_directory),
		cmocka_unit_test(test_not_ours),
		cmocka_unit_test(test_read_is_not_write),
		cmocka_unit_test(test_checked_first),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_files_per_job),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
