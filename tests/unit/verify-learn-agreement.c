/* needs: none */
/*
 * A check without --seed learns the seed from the data by the agreement of
 * blocks read at several places of the region, not from the first valid
 * block: a block, or a whole first MiB, of another run at the start does
 * not make the run's own data "foreign". The region end the blocks carry
 * is learned with it, and a file cut short is read to that end (the rest
 * is missing, not fewer blocks).
 */
#include "tests/lib/sbtest.h"
#include "lib/verify/verify_target.h"
#include "lib/target/target.h"

#include <fcntl.h>
#include <unistd.h>

#define BS 4096u
#define SIZE (4u << 20)
#define SEED_A 1111
#define SEED_B 2222

static void write_run(int fd, uint64_t seed, uint64_t off, size_t len, uint64_t region_end)
{
	struct sb_verify_fmt f;
	unsigned char *b = malloc(len);
	assert_non_null(b);
	sb_verify_fmt_init(&f, seed, 1, BS);
	f.region_end = region_end;
	sb_verify_fill(&f, b, len, off, 1);
	assert_int_equal(pwrite(fd, b, len, (off_t)off), (ssize_t)len);
	free(b);
}

/* Resolve path for a check without a seed: what was learned. */
static void learn(const char *path, struct sb_vtarget *t, struct sb_vtarget_opts *o,
		  struct sb_target_info *info)
{
	char msg[512];
	memset(t, 0, sizeof(*t));
	*o = (struct sb_vtarget_opts){ .phase = SB_VPHASE_CHECK, .block_size = BS, .direct = 0 };
	assert_int_equal(sb_target_probe(path, info), 0);
	assert_int_equal(sb_vtarget_resolve(t, path, info, o, msg, sizeof(msg)), 0);
}

static void test_agreement(void **state)
{
	const char *path = sbt_path("learn.dat");
	struct sb_vtarget t;
	struct sb_vtarget_opts o;
	struct sb_target_info info;

	(void)state;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	write_run(fd, SEED_A, 0, SIZE, SIZE);
	write_run(fd, SEED_B, 0, BS, 0); /* another run's block at the start */
	learn(path, &t, &o, &info);
	assert_int_equal(t.learned, 1);
	assert_int_equal(o.seed, SEED_A);
	assert_int_equal(t.region_end, SIZE);
	sb_vtarget_free(&t);

	write_run(fd, SEED_B, 0, 1u << 20, 0); /* a whole first MiB of it */
	learn(path, &t, &o, &info);
	assert_int_equal(o.seed, SEED_A);
	sb_vtarget_free(&t);

	/* cut short by a block and a half: read to the end the data names */
	assert_int_equal(ftruncate(fd, SIZE - BS - BS / 2), 0);
	learn(path, &t, &o, &info);
	assert_int_equal(o.seed, SEED_A);
	assert_int_equal(t.size, SIZE);
	assert_int_equal(t.seg[0].size, SIZE);
	sb_vtarget_free(&t);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agreement),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
