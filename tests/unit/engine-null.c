/* needs: none */
/* null: completes every request with its full length, without a target and
 * without touching the buffer: inside queue() at a depth of 1, and above it
 * as fio's null engine (a commit completes what was queued; nothing more is
 * taken until that is reaped). */
#include "tests/lib/sbtest.h"
#include "lib/engine/engine.h"

static void flags_and_setup(void **state)
{
	const struct sb_engine_ops *ops = sb_engine_find("null");
	struct sb_engine e;

	(void)state;
	assert_non_null(ops);
	assert_int_equal(ops->flags, SB_ENGINE_SYNC | SB_ENGINE_NOIO);
	assert_int_equal(ops->available(), 0);
	assert_int_equal(sb_engine_init(&e, ops, -1, 16, 0), 0);
	assert_ptr_equal(e.ops, ops);
	assert_int_equal(e.fd, -1);
	assert_int_equal(e.depth, 16);
	sb_engine_cleanup(&e);
}

static void completes_inline(void **state)
{
	const struct sb_engine_ops *ops = sb_engine_find("null");
	struct sb_engine e;

	(void)state;
	assert_int_equal(sb_engine_init(&e, ops, -1, 1, 0), 0);
	assert_int_equal(e.sync, 1);
	for (int ddir = SB_DDIR_READ; ddir <= SB_DDIR_SYNC; ddir++) {
		/* buf NULL: the engine must not touch it. */
		struct sb_io io = { .buf = NULL,
				    .offset = 1ull << 40,
				    .len = 131072,
				    .ddir = (uint8_t)ddir,
				    .res = -1,
				    .start_ns = 42,
				    .index = 3 };
		assert_int_equal(ops->queue(&e, &io), SB_Q_DONE);
		assert_int_equal(io.res, ddir == SB_DDIR_SYNC ? 0 : 131072);
		assert_int_equal(io.start_ns, 42);
		assert_int_equal(io.index, 3);
		assert_int_equal(io.offset, 1ull << 40);
	}
	assert_int_equal(ops->commit(&e), 0);
	assert_int_equal(ops->getevents(&e, 0, 4), 0);
	assert_int_equal(ops->getevents(&e, 1, 4), 0);
	sb_engine_cleanup(&e);
}

/* Above a depth of 1: queued, completed by the commit, reaped all at once,
 * and nothing taken while completed requests wait (e.full, fio's BUSY). */
static void queues_as_fio(void **state)
{
	const struct sb_engine_ops *ops = sb_engine_find("null");
	struct sb_engine e;
	struct sb_io io[5];

	(void)state;
	assert_int_equal(sb_engine_init(&e, ops, -1, 4, 0), 0);
	assert_int_equal(e.sync, 0);
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 4; i++) {
			io[i] = (struct sb_io){ .len = 4096, .ddir = SB_DDIR_READ, .res = -1 };
			assert_int_equal(ops->queue(&e, &io[i]), SB_Q_QUEUED);
		}
		io[4] = (struct sb_io){ .len = 4096, .ddir = SB_DDIR_READ };
		assert_int_equal(ops->queue(&e, &io[4]), -EBUSY); /* the depth is 4 */
		assert_int_equal(ops->getevents(&e, 1, 4), 0);	   /* not committed */
		assert_int_equal(e.full, 0);
		assert_int_equal(ops->commit(&e), 0);
		assert_int_equal(e.full, 1);
		assert_int_equal(ops->queue(&e, &io[4]), -EBUSY); /* reap first */
		assert_int_equal(ops->getevents(&e, 1, 4), 4);
		assert_int_equal(e.full, 0);
		for (unsigned i = 0; i < 4; i++) {
			assert_ptr_equal(ops->event(&e, i), &io[i]);
			assert_int_equal(io[i].res, 4096);
		}
		assert_int_equal(ops->getevents(&e, 0, 4), 0);
	}
	sb_engine_cleanup(&e);
}

static void many_requests(void **state)
{
	const struct sb_engine_ops *ops = sb_engine_find("null");
	struct sb_engine e;
	struct sb_io io = { .len = 4096, .ddir = SB_DDIR_WRITE };
	int64_t total = 0;

	(void)state;
	assert_int_equal(sb_engine_init(&e, ops, -1, 1, 0), 0);
	for (unsigned i = 0; i < 1000000; i++) {
		io.offset = (uint64_t)i * 4096;
		io.res = 0;
		assert_int_equal(ops->queue(&e, &io), SB_Q_DONE);
		total += io.res;
	}
	assert_int_equal(total, 4096ll * 1000000);
	sb_engine_cleanup(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(flags_and_setup),
		cmocka_unit_test(completes_inline),
		cmocka_unit_test(queues_as_fio),
		cmocka_unit_test(many_requests),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
