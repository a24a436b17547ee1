/* A sequential verify pass through an engine, requests retired in order. */
#include "lib/verify/seqpass.h"
#include "lib/job/buffer.h"

#include <assert.h>
#include <unistd.h>

#define BUF_ALIGN 4096

struct slot {
	struct sb_io io;
	uint64_t done_ns; /* 0 while in flight */
};

struct state {
	const struct sb_verify_pass *p;
	struct sb_verify_acc *acc;
	struct sb_verify_pass_result *res;
	struct sb_engine eng;
	struct slot *slots;
	unsigned char *mem;
	unsigned head, inflight;
	int stop;
};

static uint64_t wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void note_error(struct sb_verify_pass_result *res, uint64_t offset, int err)
{
	if (!res->first_error) {
		res->first_error = err;
		res->first_error_offset = offset;
	}
}

/* One block, synchronously: bytes moved or -errno. */
static ssize_t block_io(const struct state *st, unsigned char *buf, uint64_t off)
{
	const uint32_t bs = st->p->fmt->block_size;
	ssize_t r;

	assert(off >= st->p->offset && off + bs <= st->p->offset + st->p->size);
	do
		r = st->p->write ? pwrite(st->p->fd, buf, bs, (off_t)off)
				 : pread(st->p->fd, buf, bs, (off_t)off);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

/* The request failed or came back short: find out which blocks. Returns
 * the bytes of blocks that could not be written. */
static uint64_t redo_blocks(struct state *st, struct sb_io *io)
{
	const struct sb_verify_pass *p = st->p;
	const uint32_t bs = p->fmt->block_size;
	uint64_t lost = 0;

	for (uint32_t o = 0; o < io->len; o += bs) {
		unsigned char *buf = (unsigned char *)io->buf + o;
		const uint64_t at = p->base + io->offset + o;
		const ssize_t r = block_io(st, buf, io->offset + o);

		if (p->write) {
			if (r == (ssize_t)bs)
				continue;
			st->res->errors++;
			lost += bs;
			note_error(st->res, at, r < 0 ? (int)-r : ENOSPC);
		} else if (r == (ssize_t)bs) {
			sb_verify_check(p->fmt, buf, bs, at, st->acc);
		} else {
			/* a short read is the end of the file: the block is not there */
			struct sb_verify_finding f = { r < 0 ? SB_VERIFY_UNREADABLE
							     : SB_VERIFY_MISSING,
						       0, 0, r < 0 ? (int)-r : 0 };
			sb_verify_acc_add(st->acc, at, 1, &f);
		}
	}
	return lost;
}

/* Whether block b of the region (from offset) begins a write. */
static int starts_write(const struct sb_verify_pass *p, uint64_t b)
{
	b += p->written_first;
	return p->written[b / 64] >> (b % 64) & 1;
}

/* A check with the map: the request at next ends before the next write's
 * first block, so each write is read back as one request. */
static uint32_t to_next_start(const struct sb_verify_pass *p, uint64_t next, uint32_t len)
{
	const uint32_t bs = p->fmt->block_size;
	const uint64_t first = (next - p->offset) / bs;
	for (uint32_t k = 1; k < len / bs; k++)
		if (starts_write(p, first + k))
			return k * bs;
	return len;
}

static void retire(struct state *st, struct slot *s)
{
	struct sb_io *io = &s->io;
	uint64_t lost = 0;

	if (!st->p->written ||
	    starts_write(st->p, (io->offset - st->p->offset) / st->p->fmt->block_size)) {
		sb_hist_add(&st->res->lat, s->done_ns - io->start_ns);
		st->res->timed_bytes += io->len;
	}
	if (io->res != (int64_t)io->len)
		lost = redo_blocks(st, io);
	else if (!st->p->write)
		sb_verify_check(st->p->fmt, io->buf, io->len, st->p->base + io->offset, st->acc);
	/* a write's bytes are those written: failed writes are no bandwidth */
	st->res->bytes += io->len - lost;
	st->res->ios++;
	if (st->p->progress && st->p->progress(st->p->ctx, st->res->bytes))
		st->stop = 1;
}

static void submit(struct state *st, uint64_t off, uint32_t len)
{
	const struct sb_verify_pass *p = st->p;
	const unsigned idx = (st->head + st->inflight) % p->depth;
	struct slot *s = &st->slots[idx];

	s->io = (struct sb_io){
		.buf = st->mem + (size_t)idx * p->request_size,
		.offset = off,
		.len = len,
		.ddir = p->write ? SB_DDIR_WRITE : SB_DDIR_READ,
		.index = idx,
	};
	if (p->write)
		sb_verify_fill(p->fmt, s->io.buf, len, p->base + off, wall_ns());
	s->done_ns = 0;
	s->io.start_ns = sb_now_ns();
	int r = sb_engine_queue(&st->eng, &s->io);
	if (r < 0)
		s->io.res = r;
	if (r != SB_Q_QUEUED)
		s->done_ns = sb_now_ns();
	st->inflight++;
}

/* Wait for the oldest request. 0 or -errno from the engine. */
static int reap(struct state *st)
{
	int n = st->eng.ops->getevents(&st->eng, 1, st->p->depth);
	if (n == -EINTR)
		return 0;
	if (n < 0)
		return n;
	const uint64_t now = sb_now_ns();
	for (int i = 0; i < n; i++) {
		struct sb_io *io = st->eng.ops->event(&st->eng, (unsigned)i);
		st->slots[io->index].done_ns = now;
	}
	return 0;
}

static int loop(struct state *st)
{
	const struct sb_verify_pass *p = st->p;
	const uint64_t end = p->offset + p->size;
	uint64_t next = p->offset;

	while ((next < end && !st->stop) || st->inflight) {
		while (!st->stop && next < end && st->inflight < p->depth) {
			uint32_t len = (uint32_t)SB_MIN((uint64_t)p->request_size, end - next);
			if (p->written)
				len = to_next_start(p, next, len);
			submit(st, next, len);
			next += len;
		}
		int e = st->eng.ops->commit(&st->eng);
		if (e < 0)
			return e;
		while (st->inflight && st->slots[st->head].done_ns) {
			retire(st, &st->slots[st->head]);
			st->head = (st->head + 1) % p->depth;
			st->inflight--;
		}
		if (st->inflight && !st->slots[st->head].done_ns && (e = reap(st)) < 0)
			return e;
	}
	st->res->interrupted = next < end;
	return 0;
}

static int check_params(const struct sb_verify_pass *p, const struct sb_verify_acc *acc)
{
	const uint32_t bs = p->fmt ? p->fmt->block_size : 0;

	if (!bs || !p->engine || p->depth < 1 || !p->request_size || p->request_size % bs ||
	    p->size % bs || p->offset > UINT64_MAX - p->size || (!p->write && !acc))
		return -EINVAL;
	return 0;
}

int sb_verify_pass_run(const struct sb_verify_pass *p, struct sb_verify_acc *acc,
		       struct sb_verify_pass_result *res)
{
	struct state st = { .p = p, .acc = acc, .res = res };
	int e;

	memset(res, 0, sizeof(*res));
	sb_hist_init(&res->lat);
	if ((e = check_params(p, acc)) < 0)
		return e;
	st.slots = calloc(p->depth, sizeof(*st.slots));
	st.mem = sb_buf_alloc((size_t)p->depth * p->request_size, BUF_ALIGN);
	if (!st.slots || !st.mem) {
		e = -ENOMEM;
		goto out;
	}
	if ((e = sb_engine_init(&st.eng, p->engine, p->fd, p->depth, p->is_blockdev)) < 0)
		goto out;
	/* the last guard before the kernel: writes stay inside the region */
	sb_engine_set_write_bounds(&st.eng, p->offset, p->offset + p->size);
	const uint64_t t0 = sb_now_ns();
	e = loop(&st);
	if (!e && p->write && !res->interrupted && fsync(p->fd) < 0) {
		res->errors++;
		note_error(res, p->base + p->offset, errno);
	}
	res->ns = sb_now_ns() - t0;
	sb_engine_cleanup(&st.eng);
out:
	free(st.slots);
	free(st.mem);
	return e;
}
