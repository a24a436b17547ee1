/*
 * io_uring through liburing (2.3 or later). Reads, writes and fsync go
 * through the ring; trim is done inline. The target is registered as a fixed
 * file when the kernel allows it, saving a file lookup per request, and the
 * caller's buffers as fixed buffers (fio's fixedbufs) when it says where
 * they are, saving the pinning and mapping of the pages of every direct
 * request.
 */
#ifdef HAVE_URING
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <liburing.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* Newer than some liburing headers: the values are the kernel's ABI. */
#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN (1U << 8)
#endif
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN (1U << 13)
#endif
#ifndef IORING_REGISTER_ENABLE_RINGS
#define IORING_REGISTER_ENABLE_RINGS 12
#endif

#define URING_MAX_ENTRIES 32768u /* IORING_MAX_ENTRIES */

struct uring {
	struct io_uring ring;
	int fixed;    /* the target is registered as fixed file 0 */
	int fixed_fd; /* its descriptor */
	int disabled; /* created R_DISABLED: the first user enables it */
	char *buf;    /* registered buffer 0: every request's lies in it */
	size_t buflen;
	unsigned inflight; /* queued and not yet reaped */
	unsigned entries;  /* size of the arrays below */
	struct io_uring_cqe **cqes;
	struct sb_io **events;
};

/* 0 unless the sysctl says io_uring is off; 1 means "root or a group only",
 * which the probe in uring_available settles. */
static int sysctl_disabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "re");
	int v = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static int uring_available(void)
{
	struct io_uring ring;
	struct io_uring_probe *probe;
	int r, ok;

	if (sysctl_disabled() == 2)
		return -EPERM;
	r = io_uring_queue_init(2, &ring, 0);
	if (r < 0)
		return r == -EPERM || r == -EACCES || sysctl_disabled() ? -EPERM : -ENOSYS;
	/* IORING_OP_READ/WRITE need 5.6, as does the probe itself. */
	probe = io_uring_get_probe_ring(&ring);
	ok = probe && io_uring_opcode_supported(probe, IORING_OP_READ) &&
	     io_uring_opcode_supported(probe, IORING_OP_WRITE) &&
	     io_uring_opcode_supported(probe, IORING_OP_FSYNC);
	io_uring_free_probe(probe);
	io_uring_queue_exit(&ring);
	return ok ? 0 : -ENOSYS;
}

static unsigned round_pow2(unsigned n)
{
	unsigned p = 1;
	while (p < n)
		p <<= 1;
	return p;
}

static void uring_free(struct uring *u)
{
	free(u->cqes);
	free(u->events);
	free(u);
}

/*
 * Completions of requests the kernel punted to its workers (zram and other
 * devices without NOWAIT) come back as task work. By default each one
 * interrupts the submitting thread; with DEFER_TASKRUN (6.1) they wait
 * until we ask for events, with COOP_TASKRUN (5.19) they at least do not
 * interrupt: 20-30% more IOPS and less CPU per request on zram. DEFER needs
 * a single issuer, which is the thread that first uses the ring (the
 * worker, not the thread that set it up): the ring starts disabled and
 * ring_enable() binds it. Older kernels refuse the flags; fall back.
 */
static int ring_init(struct uring *u)
{
	static const unsigned flags[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	int r = -EINVAL;
	for (size_t i = 0; i < SB_ARRAY_SIZE(flags) && r == -EINVAL; i++) {
		struct io_uring_params p;
		memset(&p, 0, sizeof(p));
		p.flags = flags[i];
		r = io_uring_queue_init_params(u->entries, &u->ring, &p);
		u->disabled = r == 0 && (flags[i] & IORING_SETUP_R_DISABLED);
	}
	return r;
}

/* Bind a ring created disabled to the calling thread. */
static int ring_enable(struct uring *u)
{
	if (SB_LIKELY(!u->disabled))
		return 0;
	if (syscall(__NR_io_uring_register, u->ring.ring_fd, IORING_REGISTER_ENABLE_RINGS, NULL,
		    0) < 0)
		return -errno;
	u->disabled = 0;
	return 0;
}

/*
 * Does io_uring hand every request on fd to its kernel workers (io-wq)?
 * It does when the file cannot do non-blocking I/O (no FMODE_NOWAIT: zram,
 * brd, FUSE, ...). The kernel worker, busy doing the I/O itself, then also
 * has to wake the submitter for each completion, which slows the device
 * down: on zram, coalescing the waits (settle_ns) gives 15-20% more IOPS.
 * preadv2(RWF_NOWAIT) is refused on exactly such files, before any I/O or
 * alignment check; on others a one-byte read fails the O_DIRECT alignment
 * check or, buffered, never starts I/O (RWF_NOWAIT implies no I/O).
 */
static int punts(int fd)
{
	char byte;
	struct iovec iov = { &byte, 1 };

	return preadv2(fd, &iov, 1, 0, RWF_NOWAIT) < 0 && errno == EOPNOTSUPP;
}

static int uring_init(struct sb_engine *e)
{
	struct uring *u;
	int r;

	if (e->fd < 0)
		return -EBADF;
	if (e->depth > URING_MAX_ENTRIES)
		return -EINVAL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->entries = round_pow2(e->depth);
	u->cqes = calloc(u->entries, sizeof(*u->cqes));
	u->events = calloc(u->entries, sizeof(*u->events));
	if (!u->cqes || !u->events) {
		uring_free(u);
		return -ENOMEM;
	}
	r = ring_init(u);
	if (r < 0) {
		uring_free(u);
		return r;
	}
	u->fixed = io_uring_register_files(&u->ring, &e->fd, 1) == 0;
	u->fixed_fd = e->fd;
	/* A timed wait needs IORING_FEAT_EXT_ARG (5.11): without it liburing
	 * puts a timeout request in the ring, which we would reap as ours. */
	if ((u->ring.features & IORING_FEAT_EXT_ARG) && punts(e->fd))
		e->settle_ns = SB_ENGINE_SETTLE_NS;
	e->priv = u;
	return 0;
}

static int uring_queue(struct sb_engine *e, struct sb_io *io)
{
	struct uring *u = e->priv;
	struct io_uring_sqe *sqe;
	/* the registered file, unless the worker switched to another of its
	 * files (fio's nrfiles): that one goes by its descriptor */
	const int fixed = u->fixed && e->fd == u->fixed_fd;
	const int fd = fixed ? 0 : e->fd;

	if (SB_UNLIKELY(io->ddir > SB_DDIR_DATASYNC)) {
		io->res = -EINVAL;
		return SB_Q_DONE;
	}
	if (SB_UNLIKELY(io->ddir == SB_DDIR_TRIM)) {
		sb_engine_do_sync(e, io);
		return SB_Q_DONE;
	}
	int er = ring_enable(u);
	if (SB_UNLIKELY(er < 0))
		return er;
	sqe = io_uring_get_sqe(&u->ring);
	if (SB_UNLIKELY(!sqe))
		return -EBUSY;
	/* in the registered buffer (one comparison: below it wraps) */
	const int fixbuf = (uintptr_t)io->buf - (uintptr_t)u->buf < u->buflen;
	if (io->ddir == SB_DDIR_READ && fixbuf)
		io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->offset, 0);
	else if (io->ddir == SB_DDIR_WRITE && fixbuf)
		io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->offset, 0);
	else if (io->ddir == SB_DDIR_READ)
		io_uring_prep_read(sqe, fd, io->buf, io->len, io->offset);
	else if (io->ddir == SB_DDIR_WRITE)
		io_uring_prep_write(sqe, fd, io->buf, io->len, io->offset);
	else
		io_uring_prep_fsync(sqe, fd,
				    io->ddir == SB_DDIR_DATASYNC ? IORING_FSYNC_DATASYNC : 0);
	if (fixed)
		sqe->flags |= IOSQE_FIXED_FILE;
	sqe->ioprio = io->ioprio;
	io_uring_sqe_set_data(sqe, io);
	u->inflight++;
	return SB_Q_QUEUED;
}

/* The caller's buffers as fixed buffer 0 (one, up to the kernel's 1 GiB;
 * pinned, so RLIMIT_MEMLOCK may refuse it without CAP_IPC_LOCK). */
static int uring_register_bufs(struct sb_engine *e, void *buf, size_t len)
{
	struct uring *u = e->priv;
	struct iovec iov = { buf, len };

	if (!u || len > (1u << 30))
		return -EINVAL;
	const int r = io_uring_register_buffers(&u->ring, &iov, 1);
	if (r < 0)
		return r;
	u->buf = buf;
	u->buflen = len;
	return 0;
}

static int retryable(int r)
{
	return r == -EINTR || r == -EAGAIN;
}

static int uring_commit(struct sb_engine *e)
{
	struct uring *u = e->priv;

	while (io_uring_sq_ready(&u->ring) > 0) {
		const int r = io_uring_submit(&u->ring);
		if (r < 0 && !retryable(r))
			return r;
		if (r == 0)
			return -EAGAIN; /* nothing consumed and no error: do not spin */
	}
	return 0;
}

/* Wait until at least min completions are in the CQ ring, submitting what
 * is still queued in the same system call. */
static int uring_wait(struct uring *u, unsigned min)
{
	while (io_uring_cq_ready(&u->ring) < min) {
		struct io_uring_cqe *cqe;
		int r;

		if (io_uring_sq_ready(&u->ring) > 0)
			r = io_uring_submit_and_wait(&u->ring, min);
		else
			r = io_uring_wait_cqe_nr(&u->ring, &cqe, min);
		if (r < 0 && !retryable(r))
			return r;
	}
	return 0;
}

/*
 * Wait at most ns for min completions. The kernel wakes us when the min-th
 * arrives or when our own timer fires, so the kernel worker that posts the
 * earlier ones does not have to wake us for each of them.
 */
static int settle(struct uring *u, unsigned min, uint64_t ns)
{
	struct __kernel_timespec ts = { .tv_sec = (long long)(ns / 1000000000u),
					.tv_nsec = (long long)(ns % 1000000000u) };
	struct io_uring_cqe *cqe;
	const int r = io_uring_submit_and_wait_timeout(&u->ring, &cqe, min, &ts, NULL);
	return r < 0 && r != -ETIME && !retryable(r) ? r : 0;
}

static int uring_getevents(struct sb_engine *e, unsigned min, unsigned max)
{
	struct uring *u = e->priv;
	unsigned n;

	max = SB_MIN(max, u->entries);
	/* Never wait for more than can come back: that would hang. */
	min = SB_MIN(SB_MIN(min, max), u->inflight);
	if (min > 1 && e->settle_ns && io_uring_cq_ready(&u->ring) < min) {
		const int r = settle(u, min, e->settle_ns);
		if (r < 0)
			return r;
		min = 1;
	}
	if (min) {
		const int r = uring_wait(u, min);
		if (r < 0)
			return r;
	}
	n = io_uring_peek_batch_cqe(&u->ring, u->cqes, max);
	for (unsigned i = 0; i < n; i++) {
		struct sb_io *io = io_uring_cqe_get_data(u->cqes[i]);
		io->res = u->cqes[i]->res;
		u->events[i] = io;
	}
	io_uring_cq_advance(&u->ring, n);
	u->inflight -= n;
	return (int)n;
}

static struct sb_io *uring_event(struct sb_engine *e, unsigned i)
{
	const struct uring *u = e->priv;
	return u->events[i];
}

/* Requests still in flight would go on writing into buffers that the caller
 * frees after cleanup (ring teardown is asynchronous): wait for them. */
static void uring_drain(struct uring *u)
{
	while (u->inflight) {
		unsigned n;

		if (uring_wait(u, 1) < 0)
			return;
		n = io_uring_cq_ready(&u->ring);
		io_uring_cq_advance(&u->ring, n);
		u->inflight -= SB_MIN(n, u->inflight);
	}
}

static void uring_cleanup(struct sb_engine *e)
{
	struct uring *u = e->priv;

	if (!u)
		return;
	uring_drain(u);
	/* the ring lets go of a registered file only in its teardown, after
	 * the process went on (or ended): a file removed next would keep its
	 * space for a while, and the next fill would find less free */
	if (u->fixed)
		io_uring_unregister_files(&u->ring);
	if (u->buf)
		io_uring_unregister_buffers(&u->ring);
	io_uring_queue_exit(&u->ring);
	uring_free(u);
	e->priv = NULL;
}

const struct sb_engine_ops sb_engine_io_uring = {
	.name = "io_uring",
	.desc = "Linux io_uring (liburing), asynchronous",
	.flags = 0,
	.available = uring_available,
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.event = uring_event,
	.cleanup = uring_cleanup,
	.register_bufs = uring_register_bufs,
};
#endif /* HAVE_URING */
