/* needs: root */
/*
 * What each sweep test includes in its timing and what it does around it,
 * seen through the trace of real runs: fsync and close inside the timed
 * section with flush and close (iozone -e -c) and after it without; burst
 * mode's fsync and sleep after every burst of writes inside timed passes
 * only; the page cache dropped before the first pass of each read test (not
 * before rereads, and with O_DIRECT only before the stdio read); the file
 * laid out, or the first read made, untimed when a selected test needs them;
 * a stop request keeps what was measured; a request to end the timed pass
 * (--stonewall) ends it there with the bytes of its records, and a file
 * cut short is laid out again before a read; a full filesystem is reported
 * with where it happened and leaves no file behind.
 */
#include "sweep-trace.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

#define KIB 1024ull

static struct st_trace tr;

/* Positions of the begin and end of test's timed section. */
static void section(int test, long *b, long *e)
{
	*b = st_find(&tr, 0, test, SB_SWEEP_OP_BEGIN);
	*e = st_find(&tr, 0, test, SB_SWEEP_OP_END);
	assert_true(*b >= 0 && *e > *b);
}

static long last_io_before(long end)
{
	for (long i = end; i-- > 0;)
		if (tr.v[i].op == SB_SWEEP_OP_READ || tr.v[i].op == SB_SWEEP_OP_WRITE)
			return i;
	return -1;
}

static void run_write_read(int flush, int close_)
{
	struct sb_sweep_opts o;
	st_opts(&o, &tr, 64 * KIB, 16 * KIB, (1u << SB_SWEEP_WRITE) | (1u << SB_SWEEP_READ));
	o.flush = flush;
	o.close = close_;
	free(st_run(&o, 0));
}

static void test_flush_close_inside(void **state)
{
	long b, e;
	run_write_read(1, 1);
	for (int t = SB_SWEEP_WRITE; t <= SB_SWEEP_READ; t += SB_SWEEP_READ) {
		section(t, &b, &e);
		const long io = last_io_before(e);
		assert_int_equal(tr.v[io + 1].op, SB_SWEEP_OP_FSYNC);
		assert_int_equal(tr.v[io + 2].op, SB_SWEEP_OP_CLOSE);
		assert_int_equal(io + 3, e);
	}
}

static void test_flush_close_outside(void **state)
{
	long b, e;
	run_write_read(0, 0);
	section(SB_SWEEP_WRITE, &b, &e);
	assert_int_equal(last_io_before(e), e - 1);
	assert_int_equal(tr.v[e + 1].op, SB_SWEEP_OP_FSYNC); /* untimed, as iozone */
	assert_int_equal(tr.v[e + 2].op, SB_SWEEP_OP_CLOSE);
	run_write_read(1, 0);
	section(SB_SWEEP_WRITE, &b, &e);
	assert_int_equal(tr.v[e - 1].op, SB_SWEEP_OP_FSYNC);
	assert_int_equal(st_find(&tr, (size_t)b, SB_SWEEP_WRITE, SB_SWEEP_OP_CLOSE), e + 2);
}

static void test_burst(void **state)
{
	struct sb_sweep_opts o;
	long b, e;
	st_opts(&o, &tr, 64 * KIB, 4 * KIB, (1u << SB_SWEEP_WRITE) | (1u << SB_SWEEP_READ));
	o.burst_bytes = 12 * KIB; /* every 3 records */
	o.burst_idle_ns = 1000000;
	free(st_run(&o, 0));
	section(SB_SWEEP_WRITE, &b, &e);
	unsigned writes = 0, idles = 0;
	for (long i = b; i < e; i++) {
		if (tr.v[i].op == SB_SWEEP_OP_WRITE && ++writes % 3 == 0) {
			assert_int_equal(tr.v[i + 1].op, SB_SWEEP_OP_FSYNC);
			assert_int_equal(tr.v[i + 2].op, SB_SWEEP_OP_IDLE);
			assert_true(tr.v[i + 2].len >= 1000000); /* slept at least IDLE */
		}
		idles += tr.v[i].op == SB_SWEEP_OP_IDLE;
	}
	assert_int_equal(writes, 16);
	assert_int_equal(idles, 5);
	section(SB_SWEEP_READ, &b, &e);
	assert_int_equal(st_find(&tr, (size_t)b, SB_SWEEP_READ, SB_SWEEP_OP_IDLE), -1);
}

static int drop_before(int test)
{
	long b = st_find(&tr, 0, test, SB_SWEEP_OP_BEGIN);
	long d = st_find(&tr, 0, test, SB_SWEEP_OP_DROP);
	assert_true(b >= 0);
	return d >= 0 && d < b;
}

static void test_cache_drops(void **state)
{
	struct sb_sweep_opts o;
	st_opts(&o, &tr, 64 * KIB, 16 * KIB, SB_SWEEP_ALL_TESTS);
	o.warm = 0;
	struct sb_sweep_result *r = st_run(&o, 0);
	assert_true(r->cache_method > 0 || r->cache_error);
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		assert_int_equal(drop_before(t), t == SB_SWEEP_READ || t == SB_SWEEP_RANDREAD ||
							 t == SB_SWEEP_BKWDREAD ||
							 t == SB_SWEEP_STRIDEREAD ||
							 t == SB_SWEEP_FREAD);
	free(r);
}

static void test_cache_drops_direct(void **state)
{
	struct sb_sweep_opts o;
	const int fd = open(sbt_path("probe"), O_CREAT | O_RDWR | O_DIRECT, 0600);
	if (fd < 0)
		skip(); /* no O_DIRECT on this filesystem */
	close(fd);
	unlink(sbt_path("probe"));
	st_opts(&o, &tr, 64 * KIB, 16 * KIB, SB_SWEEP_ALL_TESTS);
	o.warm = 0;
	o.direct = 1;
	free(st_run(&o, 0));
	for (int t = 0; t < SB_SWEEP_NTESTS; t++)
		assert_int_equal(drop_before(t), t == SB_SWEEP_FREAD);
}

/* Only the named test is measured; what it needs comes untimed first. */
static void test_prerequisites(void **state)
{
	struct sb_sweep_opts o;
	st_opts(&o, &tr, 64 * KIB, 16 * KIB, 1u << SB_SWEEP_REREAD);
	struct sb_sweep_result *r = st_run(&o, 0);
	const long lay = st_find(&tr, 0, SB_SWEEP_LAYOUT, SB_SWEEP_OP_WRITE);
	const long rd = st_find(&tr, 0, SB_SWEEP_READ, SB_SWEEP_OP_READ);
	const long rr = st_find(&tr, 0, SB_SWEEP_REREAD, SB_SWEEP_OP_READ);
	assert_true(lay >= 0 && rd > lay && rr > rd);
	assert_int_equal(st_find(&tr, 0, SB_SWEEP_LAYOUT, SB_SWEEP_OP_BEGIN), -1);
	assert_int_equal(r->state[SB_SWEEP_REREAD][0][0], SB_SWEEP_CELL_DONE);
	assert_int_equal(r->state[SB_SWEEP_READ][0][0], SB_SWEEP_CELL_SKIP);
	free(r);

	st_opts(&o, &tr, 64 * KIB, 16 * KIB,
		(1u << SB_SWEEP_FREREAD) | (1u << SB_SWEEP_RECREWRITE));
	free(st_run(&o, 0));
	assert_true(st_find(&tr, 0, SB_SWEEP_FREAD, SB_SWEEP_OP_READ) >
		    st_find(&tr, 0, SB_SWEEP_RECREWRITE, SB_SWEEP_OP_WRITE));
	/* record rewrite leaves one record: the file is laid out again */
	assert_true(st_find(&tr, 0, SB_SWEEP_LAYOUT, SB_SWEEP_OP_WRITE) >
		    st_find(&tr, 0, SB_SWEEP_RECREWRITE, SB_SWEEP_OP_END));
}

static void test_stop_keeps_results(void **state)
{
	struct sb_sweep_opts o;
	st_opts(&o, &tr, 64 * KIB, 16 * KIB, (1u << SB_SWEEP_WRITE) | (1u << SB_SWEEP_READ));
	o.file_sizes[1] = 128 * KIB;
	o.nfile = 2;
	/* the first cell polls 1 + 4 + 1 + 4 times: stop inside the second cell's read */
	tr.stop_after = 10 + 1 + 8 + 1 + 3;
	struct sb_sweep_result *r = st_run(&o, -EINTR);
	tr.stop_after = 0;
	assert_true(r->interrupted);
	assert_int_equal(r->cells_done, 1);
	assert_int_equal(r->state[SB_SWEEP_READ][0][0], SB_SWEEP_CELL_DONE);
	assert_int_equal(r->state[SB_SWEEP_WRITE][1][0], SB_SWEEP_CELL_DONE);
	assert_int_equal(r->state[SB_SWEEP_READ][1][0], SB_SWEEP_CELL_PLANNED);
	free(r);
}

/* --stonewall's request (SB_SWEEP_END_PASS): said in the timed write
 * after its first record, and all the time outside timed passes, where it
 * is ignored. */
static int end_pass_test = -1; /* the timed pass in progress, -1 none */
static unsigned end_pass_polls, end_pass_ends;

static int end_pass_stop(void *ctx)
{
	(void)ctx;
	if (end_pass_test < 0)
		return SB_SWEEP_END_PASS;
	return end_pass_test == SB_SWEEP_WRITE && ++end_pass_polls > 1 ? SB_SWEEP_END_PASS : 0;
}

static void end_pass_timed(void *ctx, int test, unsigned fi, unsigned ri, int end)
{
	(void)ctx, (void)fi, (void)ri;
	assert_true(end >= 0); /* nothing failed */
	end_pass_test = end ? -1 : test;
	end_pass_ends += (unsigned)end;
}

static void test_end_pass(void **state)
{
	struct sb_sweep_opts o;
	st_opts(&o, &tr, 64 * KIB, 16 * KIB, (1u << SB_SWEEP_WRITE) | (1u << SB_SWEEP_READ));
	tr.stop = end_pass_stop;
	tr.timed = end_pass_timed;
	struct sb_sweep_result *r = st_run(&o, 0);
	assert_false(r->interrupted);
	assert_int_equal(r->cells_done, 1);
	assert_int_equal(end_pass_ends, 2);
	/* the write ended after its first record, its figure of that record */
	assert_int_equal(r->state[SB_SWEEP_WRITE][0][0], SB_SWEEP_CELL_DONE);
	assert_true(r->ended_early[SB_SWEEP_WRITE][0][0]);
	assert_int_equal(sb_sweep_pass_bytes(r, SB_SWEEP_WRITE, 0, 0), 16 * KIB);
	assert_int_equal(r->kibps[SB_SWEEP_WRITE][0][0],
			 (uint64_t)(16.0 * KIB * 1e9 /
				    (double)r->elapsed_ns[SB_SWEEP_WRITE][0][0]) >>
				 10);
	long b, e;
	section(SB_SWEEP_WRITE, &b, &e);
	unsigned writes = 0;
	for (long i = b; i < e; i++)
		writes += tr.v[i].op == SB_SWEEP_OP_WRITE;
	assert_int_equal(writes, 1);
	/* the file holds one record: laid out again (untimed, whole) before
	 * the read, which runs through */
	const long lay = st_find(&tr, (size_t)e, SB_SWEEP_LAYOUT, SB_SWEEP_OP_WRITE);
	assert_true(lay > e);
	section(SB_SWEEP_READ, &b, &e);
	assert_true(b > lay);
	assert_false(r->ended_early[SB_SWEEP_READ][0][0]);
	assert_int_equal(sb_sweep_pass_bytes(r, SB_SWEEP_READ, 0, 0), 64 * KIB);
	free(r);
}

static char mnt[512];

static int unmount(void **state)
{
	if (mnt[0]) {
		umount2(mnt, MNT_DETACH);
		rmdir(mnt);
		mnt[0] = '\0';
	}
	return 0;
}

static void test_full_filesystem(void **state)
{
	char path[600];
	struct sb_sweep_opts o;
	if (!sbt_is_root() || unshare(CLONE_NEWNS) != 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		skip(); /* needs root for a small tmpfs */
	snprintf(mnt, sizeof(mnt), "%s", sbt_path("tmpfs"));
	assert_int_equal(mkdir(mnt, 0755), 0);
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=256k") != 0)
		skip();
	snprintf(path, sizeof(path), "%s/.storbench-%d-0.tmp", mnt, (int)getpid());
	st_opts(&o, &tr, 1024 * KIB, 64 * KIB, SB_SWEEP_ALL_TESTS);
	struct sb_sweep_result *r = calloc(1, sizeof(*r));
	assert_int_equal(sb_sweep_plan(r, &o), 0);
	assert_int_equal(st_run_on(r, &o, path), -ENOSPC);
	assert_int_equal(r->fail_test, SB_SWEEP_WRITE);
	assert_true(r->fail_op == SB_SWEEP_OP_WRITE || r->fail_op == SB_SWEEP_OP_FSYNC);
	assert_int_equal(r->fail_record_size, 64 * KIB);
	assert_int_equal(r->fail_errno, ENOSPC);
	assert_int_equal(access(path, F_OK), -1);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flush_close_inside),
		cmocka_unit_test(test_flush_close_outside),
		cmocka_unit_test(test_burst),
		cmocka_unit_test(test_cache_drops),
		cmocka_unit_test(test_cache_drops_direct),
		cmocka_unit_test(test_prerequisites),
		cmocka_unit_test(test_stop_keeps_results),
		cmocka_unit_test(test_end_pass),
		cmocka_unit_test_teardown(test_full_filesystem, unmount),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	free(tr.v);
	return rc;
}
