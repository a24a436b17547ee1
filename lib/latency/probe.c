/* The latency probe loop: one timed request at a time (see probe.h). */
#include "lib/latency/probe.h"
#include "lib/job/buffer.h"
#include "lib/base/rng.h"

#include <fcntl.h>
#include <unistd.h>

struct probe {
	const struct sb_probe_params *p;
	struct sb_rng rng;
	uint64_t blocks;   /* whole blocks in the region */
	uint64_t next_seq; /* SEQ: block index of the next request */
	void *buf;
};

void *sb_probe_buffer(uint32_t bs)
{
	/* 4 KiB alignment satisfies O_DIRECT on every logical block size */
	return sb_buf_alloc(bs, 4096);
}

/* Offset of the next request, or UINT64_MAX when a stopping SEQ pass is done. */
static uint64_t next_offset(struct probe *pr)
{
	const struct sb_probe_params *p = pr->p;
	uint64_t block = 0;
	switch (p->pattern) {
	case SB_PROBE_RANDOM: block = sb_rng_below(&pr->rng, pr->blocks); break;
	case SB_PROBE_SEQ:
		if (pr->next_seq == pr->blocks) {
			if (p->stop_at_end)
				return UINT64_MAX;
			pr->next_seq = 0;
		}
		block = pr->next_seq++;
		break;
	case SB_PROBE_FIXED: break;
	}
	return p->offset + block * p->bs;
}

/* One request at off: 0 or -errno. A short transfer is -EIO. */
static int do_io(struct probe *pr, uint64_t off)
{
	const struct sb_probe_params *p = pr->p;
	ssize_t n;
	for (;;) {
		if (p->use_lseek) {
			if (lseek(p->fd, (off_t)off, SEEK_SET) < 0)
				return -errno;
			n = p->write ? write(p->fd, pr->buf, p->bs) : read(p->fd, pr->buf, p->bs);
		} else {
			n = p->write ? pwrite(p->fd, pr->buf, p->bs, (off_t)off)
				     : pread(p->fd, pr->buf, p->bs, (off_t)off);
		}
		if (n >= 0 || errno != EINTR)
			break;
		if (p->stop && p->stop(p->ctx))
			return -EINTR;
	}
	if (n < 0)
		return -errno;
	return (size_t)n == p->bs ? 0 : -EIO;
}

static int stopped(const struct sb_probe_params *p)
{
	return p->stop && p->stop(p->ctx);
}

/* Sleep until the monotonic time t (ns), waking early on a stop request. */
static void sleep_until(const struct sb_probe_params *p, uint64_t t)
{
	for (;;) {
		uint64_t now = sb_now_ns();
		if (now >= t || stopped(p))
			return;
		uint64_t d = SB_MIN(t - now, 100000000ull); /* poll stop every 100 ms */
		struct timespec ts = { (time_t)(d / 1000000000ull), (long)(d % 1000000000ull) };
		nanosleep(&ts, NULL);
	}
}

static int one_request(struct probe *pr, uint64_t n, uint64_t off, struct sb_ioping *st)
{
	const struct sb_probe_params *p = pr->p;
	if (p->drop_cache)
		posix_fadvise(p->fd, (off_t)off, p->bs, POSIX_FADV_DONTNEED);
	if (p->write)
		sb_buf_fill(pr->buf, p->bs, &pr->rng, 0);
	const uint64_t t0 = sb_now_ns();
	int e = do_io(pr, off);
	const uint64_t ns = sb_now_ns() - t0;
	if (e < 0)
		return e;
	struct sb_probe_req r = { n, off, ns, n <= p->warmup, 0 };
	sb_ioping_add(st, ns, !r.warmup);
	if (!r.warmup)
		r.mark = sb_ioping_mark(st, ns);
	if (p->on_request)
		p->on_request(p->ctx, &r);
	return 0;
}

static int loop(struct probe *pr, struct sb_ioping *st, uint64_t start, uint64_t *fail_offset)
{
	const struct sb_probe_params *p = pr->p;
	uint64_t next = start;
	for (uint64_t n = 1; !stopped(p); n++) {
		uint64_t off = next_offset(pr);
		if (off == UINT64_MAX)
			return 0;
		int e = one_request(pr, n, off, st);
		if (e < 0) {
			*fail_offset = off;
			return e == -EINTR && stopped(p) ? 0 : e;
		}
		uint64_t now = sb_now_ns();
		next += p->interval_ns;
		if (next < now)
			next = now; /* late: start the next one at once, no catching up */
		if (p->count && n >= p->count)
			return 0;
		if (p->min_time_ns && now - start >= p->min_time_ns)
			return 0;
		if (p->deadline_ns && next - start >= p->deadline_ns)
			return 0;
		if (next > now)
			sleep_until(p, next);
	}
	return 0;
}

int sb_probe_run(const struct sb_probe_params *p, struct sb_ioping *st, uint64_t *fail_offset)
{
	struct probe pr;
	uint64_t dummy;
	if (!fail_offset)
		fail_offset = &dummy;
	if (!p->bs || p->size < p->bs)
		return -EINVAL;
	memset(&pr, 0, sizeof(pr));
	pr.p = p;
	pr.blocks = p->size / p->bs;
	sb_rng_seed(&pr.rng, p->seed);
	pr.buf = sb_probe_buffer(p->bs);
	if (!pr.buf)
		return -ENOMEM;
	if (!p->write)
		memset(pr.buf, 0, p->bs);
	const uint64_t start = sb_now_ns();
	int e = loop(&pr, st, start, fail_offset);
	sb_ioping_set_wall(st, sb_now_ns() - start);
	free(pr.buf);
	return e;
}

void sb_probe_settle(const struct sb_probe_params *p)
{
	if (!p->settle_ns)
		return;
	sync();
	sleep_until(p, sb_now_ns() + p->settle_ns);
}

uint64_t sb_probe_seek_overhead_ns(int fd, uint64_t off, uint64_t n)
{
	const uint64_t t0 = sb_now_ns();
	uint64_t t = t0;
	for (uint64_t i = 0; i < n; i++) {
		if (lseek(fd, (off_t)off, SEEK_SET) < 0)
			break;
		t = sb_now_ns();
	}
	return t - t0;
}
