/* needs: none */
/*
 * The sequential verify pass on a real file, through psync and (where it
 * works) io_uring, buffered and direct: what it writes reads back intact;
 * nothing outside the region is touched; blocks damaged in the file with
 * pwrite are named with their class at their offset; blocks past the end of
 * a truncated file are missing (not unreadable: nothing failed); a
 * directory's second file carries its base offset; the progress callback
 * can stop the pass.
 */
#include "tests/lib/sbtest.h"
#include "lib/verify/seqpass.h"
#include "lib/verify/ranges.h"

#include <fcntl.h>
#include <unistd.h>

#define BS 4096u
#define REGION_OFF (64u * 1024)
#define REGION (4u << 20)
#define FILE_SIZE (REGION_OFF + REGION + 64u * 1024)
#define SEED 77
#define GEN 3

static const struct sb_engine_ops *engine(const char *name)
{
	const struct sb_engine_ops *ops = sb_engine_find(name);
	if (!ops || (ops->available && ops->available() < 0))
		return NULL;
	return ops;
}

static int open_file(const char *path, int direct)
{
	int fd = open(path, O_RDWR | (direct ? O_DIRECT : 0));
	if (fd < 0 && direct && errno == EINVAL)
		return -1;
	assert_true(fd >= 0);
	return fd;
}

static void run_pass(int fd, const struct sb_engine_ops *ops, const struct sb_verify_fmt *f,
		     int write, struct sb_verify_acc *acc, struct sb_verify_pass_result *res)
{
	const struct sb_verify_pass p = {
		.fd = fd,
		.engine = ops,
		.depth = 4,
		.request_size = 256 * 1024,
		.offset = REGION_OFF,
		.size = REGION,
		.fmt = f,
		.write = write,
	};
	assert_int_equal(sb_verify_pass_run(&p, acc, res), 0);
	assert_int_equal(res->first_error, 0);
	assert_int_equal(res->bytes, REGION);
	assert_int_equal(res->ios, REGION / (256 * 1024));
	assert_int_equal(res->interrupted, 0);
}

/* a 4 KiB block at region block i */
static void put(int fd, unsigned i, const void *b)
{
	assert_int_equal(pwrite(fd, b, BS, REGION_OFF + (off_t)i * BS), BS);
}

static void roundtrip(const char *name, int direct)
{
	const struct sb_engine_ops *ops = engine(name);
	const char *path = sbt_path("pass.dat");
	struct sb_verify_fmt f, old;
	struct sb_verify_acc acc;
	struct sb_verify_pass_result res;
	unsigned char *guard = malloc(FILE_SIZE), *b = malloc(BS), *back = malloc(FILE_SIZE);

	if (!ops) {
		print_message("%s not usable here\n", name);
		return;
	}
	assert_non_null(guard);
	memset(guard, 0xaa, FILE_SIZE);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, guard, FILE_SIZE, 0), FILE_SIZE);
	close(fd);
	if ((fd = open_file(path, direct)) < 0) {
		print_message("no O_DIRECT here\n");
		return;
	}
	sb_verify_fmt_init(&f, SEED, GEN, BS);
	run_pass(fd, ops, &f, 1, NULL, &res);
	assert_int_equal(res.lat.count, REGION / (256 * 1024));
	/* nothing outside the region was written */
	int plain = open(path, O_RDONLY);
	assert_int_equal(pread(plain, back, FILE_SIZE, 0), FILE_SIZE);
	assert_memory_equal(back, guard, REGION_OFF);
	assert_memory_equal(back + REGION_OFF + REGION, guard, FILE_SIZE - REGION_OFF - REGION);
	close(plain);

	assert_int_equal(sb_verify_acc_init(&acc, BS, 16), 0);
	run_pass(fd, ops, &f, 0, &acc, &res);
	sb_verify_acc_finish(&acc);
	assert_int_equal(acc.blocks, REGION / BS);
	assert_int_equal(acc.count[SB_VERIFY_INTACT], REGION / BS);
	sb_verify_acc_free(&acc);

	/* damage through a plain descriptor, then check again */
	plain = open(path, O_RDWR);
	assert_int_equal(pread(plain, b, BS, REGION_OFF + 3 * BS), BS);
	put(plain, 20, b); /* block 3 now also at 20 */
	b[100] ^= 4;
	put(plain, 10, b); /* a damaged copy of block 3: neither ours here nor intact */
	old = f;
	old.generation = GEN - 1;
	sb_verify_fill(&old, b, BS, REGION_OFF + 30 * BS, 0);
	put(plain, 30, b);
	memset(b, 0, BS);
	put(plain, 40, b);
	put(plain, 41, b);
	close(plain);
	assert_int_equal(sb_verify_acc_init(&acc, BS, 16), 0);
	run_pass(fd, ops, &f, 0, &acc, &res);
	sb_verify_acc_finish(&acc);
	assert_int_equal(acc.nranges, 4);
	const struct sb_verify_range *r = acc.ranges;
	assert_int_equal(r[0].offset, REGION_OFF + 10 * BS);
	assert_int_equal(r[0].cls, SB_VERIFY_FOREIGN);
	assert_int_equal(r[1].offset, REGION_OFF + 20 * BS);
	assert_int_equal(r[1].cls, SB_VERIFY_MISPLACED);
	assert_int_equal(r[1].expected_offset, REGION_OFF + 3 * BS);
	assert_int_equal(r[2].offset, REGION_OFF + 30 * BS);
	assert_int_equal(r[2].cls, SB_VERIFY_STALE);
	assert_int_equal(r[2].generation, GEN - 1);
	assert_int_equal(r[3].offset, REGION_OFF + 40 * BS);
	assert_int_equal(r[3].length, 2 * BS);
	assert_int_equal(r[3].cls, SB_VERIFY_FOREIGN);
	sb_verify_acc_free(&acc);

	/* the file loses its last 5 blocks and a half: they are missing */
	assert_int_equal(ftruncate(fd, REGION_OFF + REGION - 5 * BS - BS / 2), 0);
	assert_int_equal(sb_verify_acc_init(&acc, BS, 16), 0);
	run_pass(fd, ops, &f, 0, &acc, &res);
	sb_verify_acc_finish(&acc);
	assert_int_equal(acc.count[SB_VERIFY_MISSING], 6);
	assert_int_equal(acc.count[SB_VERIFY_UNREADABLE], 0);
	assert_int_equal(acc.ranges[acc.nranges - 1].offset, REGION_OFF + REGION - 6 * BS);
	assert_int_equal(acc.ranges[acc.nranges - 1].length, 6 * BS);
	assert_int_equal(acc.ranges[acc.nranges - 1].cls, SB_VERIFY_MISSING);
	sb_verify_acc_free(&acc);
	close(fd);
	unlink(path);
	free(guard);
	free(back);
	free(b);
}

static void test_psync(void **state)
{
	(void)state;
	roundtrip("psync", 0);
	roundtrip("psync", 1);
}

static void test_uring(void **state)
{
	(void)state;
	roundtrip("io_uring", 0);
	roundtrip("io_uring", 1);
}

/* The k-th file of a directory starts at base: its blocks say so, and a
 * check with another base finds them misplaced by exactly that much. */
static void test_base(void **state)
{
	const char *path = sbt_path("base.dat");
	struct sb_verify_fmt f;
	struct sb_verify_acc acc;
	struct sb_verify_pass_result res;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct sb_verify_pass p = {
		.fd = fd,
		.engine = sb_engine_find("psync"),
		.depth = 1,
		.request_size = 64 * 1024,
		.offset = 0,
		.size = 1 << 20,
		.base = 1ull << 30,
		.fmt = &f,
		.write = 1,
	};

	(void)state;
	assert_true(fd >= 0);
	sb_verify_fmt_init(&f, SEED, GEN, BS);
	assert_int_equal(sb_verify_pass_run(&p, NULL, &res), 0);
	p.write = 0;
	assert_int_equal(sb_verify_acc_init(&acc, BS, 4), 0);
	assert_int_equal(sb_verify_pass_run(&p, &acc, &res), 0);
	assert_int_equal(sb_verify_acc_bad(&acc), 0);
	sb_verify_acc_free(&acc);
	p.base = 0;
	assert_int_equal(sb_verify_acc_init(&acc, BS, 4), 0);
	assert_int_equal(sb_verify_pass_run(&p, &acc, &res), 0);
	sb_verify_acc_finish(&acc);
	assert_int_equal(acc.count[SB_VERIFY_MISPLACED], (1 << 20) / BS);
	assert_int_equal(acc.nranges, 1);
	assert_int_equal(acc.ranges[0].expected_offset, 1ull << 30);
	sb_verify_acc_free(&acc);
	close(fd);
}

static int stop_early(void *ctx, uint64_t done)
{
	(void)ctx;
	return done >= 128 * 1024;
}

static void test_stop_and_params(void **state)
{
	const char *path = sbt_path("stop.dat");
	struct sb_verify_fmt f;
	struct sb_verify_pass_result res;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct sb_verify_pass p = {
		.fd = fd,
		.engine = sb_engine_find("psync"),
		.depth = 2,
		.request_size = 64 * 1024,
		.offset = 0,
		.size = 1 << 20,
		.fmt = &f,
		.write = 1,
		.progress = stop_early,
	};

	(void)state;
	sb_verify_fmt_init(&f, SEED, GEN, BS);
	assert_int_equal(sb_verify_pass_run(&p, NULL, &res), 0);
	assert_int_equal(res.interrupted, 1);
	assert_true(res.bytes >= 128 * 1024 && res.bytes < (1 << 20));
	p.request_size = 6000; /* not a multiple of the block size */
	assert_int_equal(sb_verify_pass_run(&p, NULL, &res), -EINVAL);
	p.request_size = 8192;
	p.size = 5000;
	assert_int_equal(sb_verify_pass_run(&p, NULL, &res), -EINVAL);
	p.size = 8192;
	p.write = 0; /* a check needs an accumulator */
	assert_int_equal(sb_verify_pass_run(&p, NULL, &res), -EINVAL);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_psync),
		cmocka_unit_test(test_uring),
		cmocka_unit_test(test_base),
		cmocka_unit_test(test_stop_and_params),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
