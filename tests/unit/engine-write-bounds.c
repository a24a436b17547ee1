/* needs: none */
/*
 * sb_engine_queue refuses every write or trim that would leave the offered
 * region, with -ERANGE and without touching the file; reads are free.
 */
#include "tests/lib/sbtest.h"

#include <fcntl.h>
#include <unistd.h>

#include "lib/engine/engine.h"

static void test_bounds(void **state)
{
	(void)state;
	const char *path = sbt_path("f");
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	static char buf[16384];
	struct sb_engine e;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 16384), 0);
	assert_int_equal(sb_engine_init(&e, sb_engine_find("psync"), fd, 1, 0), 0);
	sb_engine_set_write_bounds(&e, 4096, 8192);

	struct {
		int ddir;
		uint64_t off;
		uint32_t len;
		int64_t want;
	} cases[] = {
		{ SB_DDIR_WRITE, 4096, 4096, 4096 },
		{ SB_DDIR_WRITE, 0, 4096, -ERANGE },
		{ SB_DDIR_WRITE, 4095, 2, -ERANGE },
		{ SB_DDIR_WRITE, 8192, 512, -ERANGE },
		{ SB_DDIR_WRITE, 4096, 4097, -ERANGE },
		{ SB_DDIR_WRITE, UINT64_MAX - 10, 4096, -ERANGE },
		{ SB_DDIR_TRIM, 0, 16384, -ERANGE },
		{ SB_DDIR_TRIM, 4096, 4096, 4096 },
		{ SB_DDIR_READ, 0, 16384, 16384 },
	};
	memset(buf, 0xab, sizeof(buf));
	for (size_t i = 0; i < SB_ARRAY_SIZE(cases); i++) {
		struct sb_io io = { .buf = buf,
				    .offset = cases[i].off,
				    .len = cases[i].len,
				    .ddir = (uint8_t)cases[i].ddir };
		assert_int_equal(sb_engine_queue(&e, &io), SB_Q_DONE);
		if (io.res != cases[i].want)
			fail_msg("case %zu: res %lld, want %lld", i, (long long)io.res,
				 (long long)cases[i].want);
	}
	/* nothing outside [4096, 8192) was written: the guards read back zero */
	char back[16384];
	assert_int_equal(pread(fd, back, sizeof(back), 0), (ssize_t)sizeof(back));
	for (size_t i = 0; i < sizeof(back); i++)
		if ((i < 4096 || i >= 8192) && back[i] != 0)
			fail_msg("byte %zu outside the region was written", i);
	sb_engine_cleanup(&e);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
