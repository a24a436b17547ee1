/*
 * bonnie++'s block I/O tests (bonnie++.cpp TestFileOps, bon_io.cpp): each
 * timed from its start to after fsync and close, with the time of every
 * chunk (chunk bytes of putc/getc, or one block) in the histogram.
 */
#include "lib/meta/meta_int.h"
#include "lib/target/cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

struct io_run {
	const struct sb_meta_io *p;
	const struct sb_meta_ctl *ctl;
	struct sb_meta_error *err;
	int *cache_method;
	char *buf;
	struct sb_rng rng;
	uint32_t idx;  /* bonnie++'s bufindex: the byte changed next */
	uint64_t sink; /* what getc read, so it is not optimised away */
	int fd;
	FILE *f;
};

/* Between tests: the run stops (a stonewall is not a stop there). */
static int io_stopped(const struct io_run *io)
{
	return io->ctl && io->ctl->stop && io->ctl->stop(io->ctl->ctx) == SB_META_STOP;
}

/* Within an operation (a chunk of characters): the run stops, asked
 * without counting an operation (peek), or of stop() where there is none. */
static int io_peek(const struct io_run *io)
{
	if (io->ctl && io->ctl->peek)
		return io->ctl->peek(io->ctl->ctx);
	return io_stopped(io);
}

/* Before each chunk: the caller's tick (this is its thread), then stop(). */
static int io_poll(const struct io_run *io)
{
	if (!io->ctl)
		return 0;
	if (io->ctl->tick)
		io->ctl->tick(io->ctl->ctx);
	return io->ctl->stop ? io->ctl->stop(io->ctl->ctx) : 0;
}

static int io_fail(struct io_run *io, enum sb_meta_test t, int err)
{
	io->err->test = t;
	io->err->err = err;
	snprintf(io->err->path, sizeof(io->err->path), "%s", io->p->path);
	return -err;
}

/* ---- one chunk of each test; 0 or a positive errno ---- */

/* A stop is looked for within a chunk of characters too: a chunk is
 * thousands of calls, each a system call with char_syscall, and on a
 * slow device it takes minutes. EINTR when asked. */
static int char_stop(const struct io_run *io, uint32_t i)
{
	const uint32_t every = io->p->char_syscall ? 64 : 4096;
	return (i + 1) % every == 0 && io_peek(io) ? EINTR : 0;
}

static int putc_chunk(struct io_run *io)
{
	for (uint32_t i = 0; i < io->p->chunk; i++) {
		const char c = (char)(i & 0x7f);
		if (io->p->char_syscall ? write(io->fd, &c, 1) != 1 : putc(c, io->f) == EOF)
			return errno ? errno : EIO;
		if (char_stop(io, i))
			return EINTR;
	}
	return 0;
}

static int getc_chunk(struct io_run *io)
{
	for (uint32_t i = 0; i < io->p->chunk; i++) {
		if (char_stop(io, i))
			return EINTR;
		char c;
		int v = io->p->char_syscall ? (read(io->fd, &c, 1) == 1 ? (unsigned char)c : EOF)
					    : getc(io->f);
		if (v == EOF)
			return errno ? errno : EIO;
		io->sink += (uint64_t)v;
	}
	return 0;
}

/* A block differs from the last: bonnie++ bumps one byte; with random data
 * every sector gets a new value too, so no two blocks are alike. */
static void next_block(struct io_run *io)
{
	io->buf[io->idx]++;
	io->idx = (io->idx + 1) % io->p->chunk;
	if (!io->p->bonnie_data)
		sb_buf_scramble(io->buf, io->p->chunk, sb_rng_next(&io->rng));
}

static int full(ssize_t n, uint32_t want)
{
	return n < 0 ? errno : (uint32_t)n != want ? EIO : 0;
}

static int write_chunk(struct io_run *io)
{
	next_block(io);
	return full(write(io->fd, io->buf, io->p->chunk), io->p->chunk);
}

static int rewrite_chunk(struct io_run *io)
{
	const uint32_t n = io->p->chunk;
	int e = full(read(io->fd, io->buf, n), n);
	if (e)
		return e;
	io->buf[io->idx % n]++;
	io->idx++;
	if (lseek(io->fd, -(off_t)n, SEEK_CUR) < 0)
		return errno;
	return full(write(io->fd, io->buf, n), n);
}

static int read_chunk(struct io_run *io)
{
	return full(read(io->fd, io->buf, io->p->chunk), io->p->chunk);
}

/* ---- a test: open, time the chunks, fsync and close ---- */

struct io_test {
	enum sb_meta_test t;
	int flags;  /* open flags */
	int direct; /* add O_DIRECT when asked for */
	int stdio;  /* "w" or "r" through a FILE */
	int drop;   /* cold cache first */
	int (*chunk)(struct io_run *io);
};

static int open_test(struct io_run *io, const struct io_test *it)
{
	const struct sb_meta_io *p = io->p;
	int flags = it->flags | O_CLOEXEC | (it->direct && p->direct ? O_DIRECT : 0);
	if (flags & O_CREAT) /* each writing test starts a new file, as bonnie++'s reopen(true) */
		unlinkat(p->dirfd, SB_META_IO_FILE, 0);
	io->fd = openat(p->dirfd, SB_META_IO_FILE, flags | O_NOFOLLOW, 0600);
	if (io->fd < 0)
		return errno;
	if (it->drop && p->drop_cache) {
		int m = sb_cache_drop(io->fd);
		*io->cache_method = m > 0 ? m : *io->cache_method;
	}
	io->f = NULL;
	if (it->stdio && !p->char_syscall) {
		io->f = fdopen(io->fd, (it->flags & O_ACCMODE) == O_RDONLY ? "r" : "w");
		if (!io->f)
			return errno;
	}
	return 0;
}

/* fsync and close inside the timing, as bonnie++'s Close() */
static int close_test(struct io_run *io)
{
	int e = 0;
	if (io->f && fflush(io->f) != 0)
		e = errno;
	if (fsync(io->fd) < 0 && !e && errno != EINVAL)
		e = errno;
	if ((io->f ? fclose(io->f) : close(io->fd)) != 0 && !e)
		e = errno;
	io->f = NULL;
	io->fd = -1;
	return e;
}

static int run_test(struct io_run *io, const struct io_test *it, uint64_t bytes,
		    struct sb_meta_result *r)
{
	const uint64_t nchunks = bytes / io->p->chunk;
	if (io->ctl && io->ctl->phase)
		io->ctl->phase(io->ctl->ctx, it->t);
	int e = open_test(io, it);
	if (e)
		return io_fail(io, it->t, e);
	sb_hist_init(&r->lat);
	r->ran = 1;
	io->idx = 0;
	const uint64_t t0 = sb_now_ns(), cpu0 = sb_meta_thread_cpu_ns();
	r->start_ns = t0;
	for (uint64_t k = 0; k < nchunks && !e; k++) {
		const int st = io_poll(io);
		if (st == SB_META_STOP) {
			r->interrupted = 1;
			break;
		}
		if (st == SB_META_STONEWALL && !r->stonewalled) {
			/* the timing ends here; write goes on untimed (the
			 * tests after it read the whole file) */
			r->stonewalled = 1;
			r->cpu_ns = sb_meta_thread_cpu_ns() - cpu0;
			r->elapsed_ns = sb_now_ns() - t0;
			if (it->t != SB_META_WRITE)
				break;
		}
		const uint64_t tc = sb_now_ns();
		e = it->chunk(io);
		if (e == EINTR && io_peek(io)) {
			r->interrupted = 1; /* within a chunk of characters */
			e = 0;
			break;
		}
		if (!e && !r->stonewalled) {
			sb_hist_add(&r->lat, sb_now_ns() - tc);
			r->ops++;
			r->bytes += io->p->chunk;
		}
	}
	int c = close_test(io);
	if (!r->stonewalled) {
		r->cpu_ns = sb_meta_thread_cpu_ns() - cpu0; /* inside the timed window */
		r->elapsed_ns = sb_now_ns() - t0;
	}
	if (e || c)
		return io_fail(io, it->t, e ? e : c);
	return r->interrupted ? -EINTR : 0;
}

static const struct io_test tests[] = {
	{ SB_META_PUTC, O_WRONLY | O_CREAT | O_EXCL, 0, 1, 0, putc_chunk },
	{ SB_META_WRITE, O_RDWR | O_CREAT | O_EXCL, 1, 0, 0, write_chunk },
	{ SB_META_REWRITE, O_RDWR, 1, 0, 1, rewrite_chunk },
	{ SB_META_GETC, O_RDONLY, 0, 1, 1, getc_chunk },
	{ SB_META_READ, O_RDONLY, 1, 0, 1, read_chunk },
};

static int run_tests(struct io_run *io, struct sb_meta_result *res)
{
	for (size_t i = 0; i < SB_ARRAY_SIZE(tests); i++) {
		const struct io_test *it = &tests[i];
		const int chars = it->t == SB_META_PUTC || it->t == SB_META_GETC;
		const uint64_t bytes = chars ? io->p->char_size : io->p->size;
		if (!bytes)
			continue;
		if (io_stopped(io))
			return -EINTR;
		int e = run_test(io, it, bytes, &res[it->t]);
		if (e)
			return e;
	}
	if (io_stopped(io))
		return -EINTR;
	return sb_meta_seeks_run(io->p, io->ctl, &res[SB_META_SEEKS], io->err);
}

int sb_meta_io_run(const struct sb_meta_io *p, const struct sb_meta_ctl *ctl,
		   struct sb_meta_result *res, int *cache_method, struct sb_meta_error *err)
{
	struct io_run io = {
		.p = p, .ctl = ctl, .err = err, .cache_method = cache_method, .fd = -1
	};
	struct stat st;
	memset(err, 0, sizeof(*err));
	*cache_method = 0;
	if (!p->chunk || p->size % p->chunk || p->char_size % p->chunk || p->char_size > p->size ||
	    (!p->size && p->char_size) || fstat(p->dirfd, &st) < 0 || !S_ISDIR(st.st_mode))
		return -EINVAL;
	io.buf = sb_buf_alloc(p->chunk, 4096);
	if (!io.buf)
		return -ENOMEM;
	sb_rng_seed(&io.rng, p->seed);
	if (p->bonnie_data)
		memset(io.buf, 0, p->chunk); /* bonnie++: memset(buf, 0, chunk) */
	else
		sb_buf_fill(io.buf, p->chunk, &io.rng, 0);
	int e = p->size ? run_tests(&io, res) : 0;
	if (io.fd >= 0)
		close(io.fd);
	unlinkat(p->dirfd, SB_META_IO_FILE, 0);
	free(io.buf);
	return e;
}

uint64_t sb_meta_twice_ram(uint64_t mem_total)
{
	const uint64_t mib = 1ull << 20;
	uint64_t n = mem_total ? 2 * (mem_total / mib) : 300;
	if (n % 1024 > 512)
		n += 1024 - n % 1024;
	return n * mib;
}

uint64_t sb_meta_default_size(uint64_t mem_total, int can_drop, enum sb_meta_size_rule *rule)
{
	const uint64_t twice = sb_meta_twice_ram(mem_total);
	*rule = can_drop ? SB_META_SIZE_COLD : SB_META_SIZE_TWICE_RAM;
	return can_drop ? SB_MIN(twice, SB_META_COLD_SIZE) : twice;
}
