/* needs: none */
/*
 * Host description and CPU accounting: the fields are filled and sane,
 * process and thread CPU time grow with work, and threads named like
 * io_uring's workers are counted.
 */
#include "tests/lib/sbtest.h"
#include "lib/base/sysinfo.h"

#include <pthread.h>
#include <sys/utsname.h>
#include <unistd.h>

static void test_host_info(void **state)
{
	struct sb_host h;
	struct utsname u;
	(void)state;

	memset(&h, 0xaa, sizeof(h));
	assert_int_equal(sb_host_info(&h), 0);
	assert_int_equal(uname(&u), 0);
	assert_true(h.hostname[0] != '\0');
	assert_string_equal(h.kernel, u.release);
	assert_string_equal(h.machine, u.machine);
	assert_true(memchr(h.cpu_model, '\0', sizeof(h.cpu_model)) != NULL);
	assert_int_equal(h.ncpus, (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(h.mem_total >= 16ull << 20);
	assert_true(h.mem_available > 0 && h.mem_available <= h.mem_total);
	/* x86 kernels always name the model; ARM may not */
	if (strcmp(u.machine, "x86_64") == 0 || strcmp(u.machine, "i686") == 0)
		assert_true(h.cpu_model[0] != '\0');
}

static volatile uint64_t sink;

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Burn ms of CPU time (not wall time: the machine may be busy). */
static void burn_cpu(uint64_t ms)
{
	const uint64_t end = thread_cpu_ns() + ms * 1000000;
	uint64_t x = 1;
	while (thread_cpu_ns() < end)
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
	sink = x;
}

static void test_cpu_grows(void **state)
{
	uint64_t pu0, ps0, pu1, ps1, tu0, ts0, tu1, ts1;
	(void)state;

	assert_int_equal(sb_cpu_process(&pu0, &ps0), 0);
	assert_int_equal(sb_cpu_thread(&tu0, &ts0), 0);
	burn_cpu(150);
	/* the thread read first: the process read after it has all of it
	 * (read the other way round, the thread's time grew in between and
	 * the check below failed once under ASan) */
	assert_int_equal(sb_cpu_thread(&tu1, &ts1), 0);
	assert_int_equal(sb_cpu_process(&pu1, &ps1), 0);
	/* 150 ms of work; getrusage may be tick-based, allow for that */
	assert_true(pu1 + ps1 >= pu0 + ps0 + 100000000ull);
	assert_true(tu1 + ts1 >= tu0 + ts0 + 100000000ull);
	assert_true(pu1 >= pu0 && ps1 >= ps0);
	/* the process includes the thread */
	assert_true(pu1 + ps1 >= tu1 + ts1);
}

/* A thread named like an io_uring worker, parked until told to go. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int named, go;

static void *fake_worker(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "iou-wrk-4242");
	pthread_mutex_lock(&lock);
	named = 1;
	pthread_cond_broadcast(&cond);
	while (!go)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void test_iou_workers(void **state)
{
	pthread_t t;
	(void)state;

	assert_int_equal(sb_count_iou_workers(), 0);
	assert_int_equal(pthread_create(&t, NULL, fake_worker, NULL), 0);
	pthread_mutex_lock(&lock);
	while (!named)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	const int n = sb_count_iou_workers();
	pthread_mutex_lock(&lock);
	go = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	pthread_join(t, NULL);
	assert_int_equal(n, 1);
	/* a joined thread can linger in /proc/self/task for a moment (often
	 * under qemu-user, which clears the tid before the thread is gone) */
	int left = sb_count_iou_workers();
	for (int i = 0; left > 0 && i < 200; i++) {
		usleep(10000);
		left = sb_count_iou_workers();
	}
	assert_int_equal(left, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_info),
		cmocka_unit_test(test_cpu_grows),
		cmocka_unit_test(test_iou_workers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
