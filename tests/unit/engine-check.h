/*
 * The checks engine-conformance runs on every real engine: a 4 MiB file
 * written through the engine in 4 KiB blocks of distinct contents at
 * shuffled offsets, synced, read back through the engine and with plain
 * pread; trim; short reads.
 * The driver checks every completion: its result, that each request comes
 * back exactly once, and that no more than depth are ever in flight.
 */
#ifndef ENGINE_CHECK_H
#define ENGINE_CHECK_H

#include "tests/lib/sbtest.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define EC_BS 4096u
#define EC_SIZE (4u << 20)
#define EC_NBLOCKS (EC_SIZE / EC_BS)
#define EC_RES_LEN INT64_MIN /* expect io->res to be the request length */

/* The engine under test, set by the test program's main. */
static const struct sb_engine_ops *ec_ops;

static uint64_t ec_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void ec_shuffle(uint32_t *order, unsigned n, uint64_t seed)
{
	for (unsigned i = 0; i < n; i++)
		order[i] = i;
	for (unsigned i = n - 1; i > 0; i--) {
		const unsigned j = (unsigned)(ec_rand(&seed) % (i + 1));
		const uint32_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

/* Contents of every block differ: block number and word index in each word. */
static void ec_pattern(void *buf, unsigned nblocks, uint32_t seed)
{
	uint64_t *w = buf;
	for (uint64_t b = 0; b < nblocks; b++)
		for (uint64_t i = 0; i < EC_BS / 8; i++)
			w[b * EC_BS / 8 + i] = (b + 1) << 40 ^ (uint64_t)seed << 16 ^ i ^
					       0x9e3779b97f4a7c15ull;
}

static void *ec_alloc(size_t size)
{
	void *p = aligned_alloc(4096, size);
	assert_non_null(p);
	return p;
}

/* The requests of one pass and what the driver knows of them. */
struct ec_pass {
	struct sb_engine *e;
	struct sb_io *ios;    /* depth slots */
	unsigned *free_slots; /* stack of free slot numbers */
	unsigned nfree;
	uint8_t *busy; /* per slot: handed to the engine */
	uint8_t *seen; /* per request: completions so far */
	unsigned inflight;
	uint64_t done;
	int64_t want_res; /* expected io->res, or EC_RES_LEN */
};

static void ec_complete(struct ec_pass *p, struct sb_io *io)
{
	assert_non_null(io);
	assert_true(io >= p->ios && io < p->ios + p->e->depth);
	assert_int_equal(io->index, (unsigned)(io - p->ios));
	assert_true(p->busy[io->index]);
	assert_int_equal(io->res, p->want_res == EC_RES_LEN ? (int64_t)io->len : p->want_res);
	assert_int_equal(p->seen[io->start_ns], 0);
	p->seen[io->start_ns]++;
	p->busy[io->index] = 0;
	p->free_slots[p->nfree++] = io->index;
	p->done++;
}

/* Reap completions, varying min and max to exercise partial batches. */
static void ec_reap(struct ec_pass *p, unsigned round)
{
	const unsigned depth = p->e->depth;
	const unsigned max = round % 3 == 1 ? SB_MAX(1u, depth / 3) : depth;
	int n = 0;

	if (round % 4 == 2)
		n = p->e->ops->getevents(p->e, 0, max);
	if (n == 0)
		n = p->e->ops->getevents(p->e, 1, max);
	assert_true(n >= 1);
	assert_true((unsigned)n <= max && (unsigned)n <= p->inflight);
	for (int i = 0; i < n; i++)
		ec_complete(p, p->e->ops->event(p->e, (unsigned)i));
	p->inflight -= (unsigned)n;
}

/*
 * Run n requests of len bytes, request k at offset off[k] with buffer
 * bufs + off[k] (bufs may be NULL for sync). io->start_ns carries k so that
 * completions can be matched to requests.
 */
static void ec_run(struct sb_engine *e, int ddir, char *bufs, const uint64_t *off, unsigned n,
		   uint32_t len, int64_t want_res)
{
	struct ec_pass p = { .e = e, .want_res = want_res };
	unsigned next = 0, round = 0;

	p.ios = calloc(e->depth, sizeof(*p.ios));
	p.free_slots = calloc(e->depth, sizeof(*p.free_slots));
	p.busy = calloc(e->depth, 1);
	p.seen = calloc(n, 1);
	assert_true(p.ios && p.free_slots && p.busy && p.seen);
	for (unsigned i = 0; i < e->depth; i++)
		p.free_slots[p.nfree++] = e->depth - 1 - i;

	while (next < n || p.inflight) {
		unsigned queued = 0;
		while (next < n && p.nfree) {
			struct sb_io *io = &p.ios[p.free_slots[--p.nfree]];
			*io = (struct sb_io){
				.buf = bufs ? bufs + off[next] : NULL,
				.offset = off[next],
				.len = len,
				.ddir = (uint8_t)ddir,
				.res = INT64_MIN,
				.start_ns = next,
				.index = (uint32_t)(io - p.ios),
			};
			next++;
			p.busy[io->index] = 1;
			const int r = e->ops->queue(e, io);
			if (r == SB_Q_DONE) {
				ec_complete(&p, io);
				continue;
			}
			assert_int_equal(r, SB_Q_QUEUED);
			assert_false(e->sync); /* the ops' SB_ENGINE_SYNC, as init left it */
			p.inflight++;
			queued++;
			assert_true(p.inflight <= e->depth);
		}
		if (queued)
			assert_int_equal(e->ops->commit(e), 0);
		if (p.inflight)
			ec_reap(&p, round++);
	}
	assert_int_equal(p.done, n);
	for (unsigned k = 0; k < n; k++)
		assert_int_equal(p.seen[k], 1);
	/* Nothing left behind. */
	assert_int_equal(e->ops->getevents(e, 0, e->depth), 0);
	free(p.ios);
	free(p.free_slots);
	free(p.busy);
	free(p.seen);
}

static void ec_run_blocks(struct sb_engine *e, int ddir, char *buf, uint64_t seed)
{
	uint32_t *order = calloc(EC_NBLOCKS, sizeof(*order));
	uint64_t *off = calloc(EC_NBLOCKS, sizeof(*off));

	assert_true(order && off);
	ec_shuffle(order, EC_NBLOCKS, seed);
	for (unsigned k = 0; k < EC_NBLOCKS; k++)
		off[k] = (uint64_t)order[k] * EC_BS;
	ec_run(e, ddir, buf, off, EC_NBLOCKS, EC_BS, EC_RES_LEN);
	free(order);
	free(off);
}

static void ec_sync(struct sb_engine *e)
{
	const uint64_t zero = 0;
	ec_run(e, SB_DDIR_SYNC, NULL, &zero, 1, 0, 0);
}

static void ec_pread_all(const char *path, char *buf, size_t size)
{
	const int fd = open(path, O_RDONLY);
	size_t done = 0;

	assert_true(fd >= 0);
	while (done < size) {
		const ssize_t r = pread(fd, buf + done, size - done, (off_t)done);
		assert_true(r > 0);
		done += (size_t)r;
	}
	close(fd);
}

/* Opens path for the test; with O_DIRECT where the filesystem has none
 * (tmpfs before Linux 6.6), skips the test. */
static int ec_open(const char *path, int direct)
{
	const int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | (direct ? O_DIRECT : 0), 0600);

	if (fd < 0 && direct && errno == EINVAL)
		skip();
	assert_true(fd >= 0);
	return fd;
}

/* How ec_roundtrip's buffers are told to the engine (fio's fixedbufs). */
enum {
	EC_BUFS_UNTOLD,
	EC_BUFS_BOTH,	/* written from and read into registered buffers */
	EC_BUFS_WRITES, /* only the written ones: reads go as before */
};

static void ec_roundtrip_bufs(unsigned depth, int direct, int bufs)
{
	char name[64];
	const char *path;
	char *mem = ec_alloc(2 * EC_SIZE), *want = mem, *got = mem + EC_SIZE;
	struct sb_engine e;
	int fd;

	snprintf(name, sizeof(name), "rt-%s-qd%u-%s-%d", ec_ops->name, depth,
		 direct ? "direct" : "buffered", bufs);
	path = sbt_path(name);
	fd = ec_open(path, direct);
	assert_int_equal(ftruncate(fd, EC_SIZE), 0);
	ec_pattern(want, EC_NBLOCKS, depth * 2 + (unsigned)direct);
	assert_int_equal(sb_engine_init(&e, ec_ops, fd, depth, 0), 0);
	if (bufs != EC_BUFS_UNTOLD) {
		sb_engine_register_bufs(&e, mem, bufs == EC_BUFS_BOTH ? 2 * EC_SIZE : EC_SIZE);
		/* io_uring registers them (root: no RLIMIT_MEMLOCK in the way) */
		if (ec_ops->register_bufs && sbt_is_root())
			assert_true(e.fixed_bufs);
		if (!ec_ops->register_bufs)
			assert_false(e.fixed_bufs);
	}

	ec_run_blocks(&e, SB_DDIR_WRITE, want, 1 + depth);
	ec_sync(&e);
	memset(got, 0xaa, EC_SIZE);
	ec_run_blocks(&e, SB_DDIR_READ, got, 7 + depth);
	assert_memory_equal(got, want, EC_SIZE);

	memset(got, 0x55, EC_SIZE);
	ec_pread_all(path, got, EC_SIZE);
	assert_memory_equal(got, want, EC_SIZE);

	sb_engine_cleanup(&e);
	close(fd);
	unlink(path);
	free(mem);
}

static void ec_roundtrip(unsigned depth, int direct)
{
	ec_roundtrip_bufs(depth, direct, EC_BUFS_UNTOLD);
}

/* Trim punches a hole: zeros inside the range, the data outside, same size. */
static void ec_trim(unsigned depth)
{
	const uint64_t off[2] = { 64 * 1024, 512 * 1024 };
	const uint32_t len = 128 * 1024;
	const unsigned nblocks = 1024 * 1024 / EC_BS;
	const char *path = sbt_path("trim");
	char *want = ec_alloc(nblocks * EC_BS), *got = ec_alloc(nblocks * EC_BS);
	struct sb_engine e;
	struct stat st;
	const int fd = ec_open(path, 0);

	ec_pattern(want, nblocks, 3);
	assert_int_equal(pwrite(fd, want, nblocks * EC_BS, 0), (ssize_t)(nblocks * EC_BS));
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(sb_engine_init(&e, ec_ops, fd, depth, 0), 0);

	struct sb_io probe = { .offset = off[0], .len = len, .ddir = SB_DDIR_TRIM };
	assert_int_equal(ec_ops->queue(&e, &probe), SB_Q_DONE);
	if (probe.res == -EOPNOTSUPP)
		skip();
	assert_int_equal(probe.res, len);
	ec_run(&e, SB_DDIR_TRIM, NULL, off, 2, len, EC_RES_LEN);

	for (unsigned i = 0; i < 2; i++)
		memset(want + off[i], 0, len);
	ec_pread_all(path, got, nblocks * EC_BS);
	assert_memory_equal(got, want, nblocks * EC_BS);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, nblocks * EC_BS);

	sb_engine_cleanup(&e);
	close(fd);
	free(want);
	free(got);
}

/* A read past the end comes back short with what the file has, then 0. */
static void ec_short_read(unsigned depth)
{
	const char *path = sbt_path("short");
	char *want = ec_alloc(2 * EC_BS), *got = ec_alloc(3 * EC_BS);
	const uint64_t at[2] = { 0, 2 * EC_BS };
	struct sb_engine e;
	const int fd = ec_open(path, 0);

	ec_pattern(want, 2, 9);
	assert_int_equal(pwrite(fd, want, 6000, 0), 6000);
	assert_int_equal(sb_engine_init(&e, ec_ops, fd, depth, 0), 0);

	memset(got, 0, 2 * EC_BS);
	ec_run(&e, SB_DDIR_READ, got, at, 1, 2 * EC_BS, 6000);
	assert_memory_equal(got, want, 6000);
	ec_run(&e, SB_DDIR_READ, got, at + 1, 1, EC_BS, 0);

	sb_engine_cleanup(&e);
	close(fd);
	free(want);
	free(got);
}

/* A request the kernel refuses (a write to a read-only descriptor) comes back
 * once, through the usual path, with its error. */
static void ec_error_reported(unsigned depth)
{
	const char *path = sbt_path("readonly");
	char *buf = ec_alloc(4 * EC_BS);
	const uint64_t off[4] = { 0, EC_BS, 2 * EC_BS, 3 * EC_BS };
	struct sb_engine e;
	int fd = ec_open(path, 0);

	close(fd);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	memset(buf, 1, 4 * EC_BS);
	assert_int_equal(sb_engine_init(&e, ec_ops, fd, depth, 0), 0);
	ec_run(&e, SB_DDIR_WRITE, buf, off, 4, EC_BS, -EBADF);
	sb_engine_cleanup(&e);
	close(fd);
	free(buf);
}

/*
 * Queue depth reads without reaping: an asynchronous engine takes them all
 * and refuses one more with -EBUSY; one getevents(depth, depth) returns them
 * all. A synchronous engine completes each one inside queue().
 */
static void ec_full_queue(unsigned depth)
{
	const char *path = sbt_path("full");
	char *buf = ec_alloc((size_t)depth * EC_BS);
	struct sb_io *ios = calloc(depth + 1, sizeof(*ios));
	uint8_t *seen = calloc(depth, 1);
	struct sb_engine e;
	const int fd = ec_open(path, 0);

	assert_true(ios && seen);
	ec_pattern(buf, depth, 5);
	assert_int_equal(pwrite(fd, buf, (size_t)depth * EC_BS, 0), (ssize_t)depth * EC_BS);
	assert_int_equal(sb_engine_init(&e, ec_ops, fd, depth, 0), 0);
	const int sync = e.sync; /* the ops' SB_ENGINE_SYNC, as init left it */
	for (unsigned i = 0; i <= depth; i++) {
		ios[i] = (struct sb_io){ .buf = buf + (size_t)(i % depth) * EC_BS,
					 .offset = (uint64_t)(i % depth) * EC_BS,
					 .len = EC_BS,
					 .ddir = SB_DDIR_READ,
					 .index = i };
		const int r = ec_ops->queue(&e, &ios[i]);
		if (sync)
			assert_int_equal(r, SB_Q_DONE);
		else
			assert_int_equal(r, i < depth ? SB_Q_QUEUED : -EBUSY);
	}
	assert_int_equal(ec_ops->commit(&e), 0);
	if (!sync) {
		assert_int_equal(ec_ops->getevents(&e, depth, depth), (int)depth);
		for (unsigned i = 0; i < depth; i++) {
			const struct sb_io *io = ec_ops->event(&e, i);
			assert_true(io >= ios && io < ios + depth);
			assert_int_equal(io->res, EC_BS);
			assert_int_equal(seen[io->index]++, 0);
		}
	}
	assert_int_equal(ec_ops->getevents(&e, 0, depth), 0);

	sb_engine_cleanup(&e);
	close(fd);
	free(buf);
	free(ios);
	free(seen);
}

/* Makes engine the one under test: NULL, or why it cannot be (not built
 * in, not usable here). */
static const char *ec_usable(const char *engine)
{
	static char why[128];

	ec_ops = sb_engine_find(engine);
	if (!ec_ops)
		return "not built in";
	const int r = ec_ops->available();
	if (r < 0) {
		snprintf(why, sizeof(why), "not available here: %s", strerror(-r));
		return why;
	}
	return NULL;
}

#endif
