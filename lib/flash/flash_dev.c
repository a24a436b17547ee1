/*
 * flashbench's device access (METHODS.md 1.1): one timed pread/pwrite of a
 * whole buffer, CLOCK_MONOTONIC around it, and a raised priority.
 */
#include "lib/flash/flash_int.h"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

int sb_flash_raise_priority(int realtime, char *what, size_t len)
{
	if (realtime) {
		struct sched_param sp = { .sched_priority = 10 };
		snprintf(what, len, "SCHED_FIFO 10");
		return sched_setscheduler(0, SCHED_FIFO, &sp) < 0 ? -errno : 0;
	}
	snprintf(what, len, "nice -10");
	return setpriority(PRIO_PROCESS, 0, -10) < 0 ? -errno : 0;
}

int sb_flash_time_io(int fd, void *buf, size_t len, uint64_t off, int write, uint64_t *ns)
{
	const uint64_t t0 = sb_now_ns();
	const ssize_t n = write ? pwrite(fd, buf, len, (off_t)off)
				: pread(fd, buf, len, (off_t)off);
	*ns = sb_now_ns() - t0;
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

void *sb_flash_buffer(size_t len, int fill)
{
	void *p = NULL;
	if (posix_memalign(&p, 4096, len ? len : 1))
		return NULL;
	memset(p, fill, len);
	return p;
}

int sb_flash_stopped(const struct sb_flash_hooks *h)
{
	return h && h->stop && h->stop(h->ctx);
}

void sb_flash_tell(const struct sb_flash_hooks *h, uint64_t done, uint64_t total)
{
	if (h && h->progress)
		h->progress(h->ctx, done, total);
}
