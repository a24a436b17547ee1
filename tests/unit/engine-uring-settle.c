/* needs: none */
/* io_uring's coalesced wait (settle_ns): waiting for more completions than
 * will come gives up after the settle time and returns the ones there are;
 * with none there, it waits for one. Reads of an empty pipe stay pending
 * until a byte is written, so which requests complete is up to the test. */
#include "tests/lib/sbtest.h"
#include "lib/engine/engine.h"

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

static const struct sb_engine_ops *ops;

static int fds[2];
static struct sb_engine eng;
static struct sb_io ios[3];
static char bufs[3][8];

static int setup(void **state)
{
	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(sb_engine_init(&eng, ops, fds[0], 4, 0), 0);
	/* a pipe does non-blocking reads: the engine does not coalesce */
	assert_int_equal(eng.settle_ns, 0);
	for (unsigned i = 0; i < 3; i++) {
		ios[i].buf = bufs[i];
		ios[i].len = 1;
		ios[i].ddir = SB_DDIR_READ;
		ios[i].index = i;
		assert_int_equal(sb_engine_queue(&eng, &ios[i]), SB_Q_QUEUED);
	}
	assert_int_equal(eng.ops->commit(&eng), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	/* the reads still pending end when the writer closes */
	close(fds[1]);
	sb_engine_cleanup(&eng);
	close(fds[0]);
	return 0;
}

static void settles_for_what_came(void **state)
{
	(void)state;
	eng.settle_ns = 2000000; /* 2 ms */
	assert_int_equal(write(fds[1], "a", 1), 1);
	alarm(20); /* a wait for all three would hang: fail instead */
	int n = eng.ops->getevents(&eng, 3, 4);
	alarm(0);
	assert_int_equal(n, 1);
	assert_int_equal(eng.ops->event(&eng, 0)->res, 1);
}

static void *late_writer(void *arg)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	(void)arg;
	nanosleep(&ts, NULL);
	if (write(fds[1], "bc", 2) != 2)
		abort();
	return NULL;
}

static void waits_for_one_when_none_came(void **state)
{
	(void)state;
	/* nothing written yet: the settle time passes with no completion, and
	 * the wait goes on for one, which a byte written later brings */
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, late_writer, NULL), 0);
	alarm(20);
	int n = eng.ops->getevents(&eng, 2, 4);
	alarm(0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_true(n >= 1 && n <= 2);
	if (n == 1)
		assert_int_equal(eng.ops->getevents(&eng, 1, 4), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(settles_for_what_came),
		cmocka_unit_test(waits_for_one_when_none_came),
	};

	signal(SIGALRM, SIG_DFL);
	ops = sb_engine_find("io_uring");
	if (!ops)
		sbt_skip("io_uring is not built in");
	int r = ops->available();
	if (r < 0)
		sbt_skip("io_uring is not available here: %s", strerror(-r));
	return cmocka_run_group_tests(tests, setup, teardown);
}
