/*
 * One timed pass over the test file, with iozone's timing rules
 * (iozone.c write_perf_test, read_perf_test): the clock starts after the
 * open; fsync (-e) and close (-c) are inside it when asked and done after
 * it otherwise; burst sleeps (-+b) are subtracted. Every operation goes to
 * the trace callback when there is one.
 */
#include "lib/sweep/sweep_int.h"
#include "lib/job/buffer.h"
#include "lib/base/rng.h"
#include "lib/target/scratch.h"

#include <fcntl.h>
#include <unistd.h>

void sb_sweep_event(struct sweep_run *s, int test, int op, uint64_t off, uint64_t len,
		    const void *data)
{
	if (!s->h->trace)
		return;
	const struct sb_sweep_event ev = { test, op, s->fsize, s->rec, off, len, data };
	s->h->trace(s->h->ctx, &ev);
}

static int fail(struct sweep_pass *p, int op, uint64_t off, int err)
{
	struct sb_sweep_result *r = p->s->r;
	r->fail_test = p->test;
	r->fail_op = op;
	r->fail_file_size = p->s->fsize;
	r->fail_record_size = p->s->rec;
	r->fail_offset = off;
	r->fail_errno = err;
	return -err;
}

/* what a pass writes is synced at its end: the tests that write, the layout */
static int is_write(int test)
{
	return sb_sweep_test_writes(test) || test == SB_SWEEP_LAYOUT;
}

static void init(struct sweep_pass *p, struct sweep_run *s, int test)
{
	memset(p, 0, sizeof(*p));
	p->s = s;
	p->test = test;
	p->fd = -1;
}

int sb_sweep_pass_open(struct sweep_pass *p, struct sweep_run *s, int test, int flags)
{
	init(p, s, test);
	if (s->o->direct)
		flags |= O_DIRECT;
	const int fd = sb_scratch_reopen(s->fd, flags);
	if (fd < 0)
		return fail(p, -1, 0, -fd);
	p->fd = fd;
	return 0;
}

/* fopen's modes as open flags (no O_CREAT: the file is there). */
static int mode_flags(const char *mode)
{
	const int plus = strchr(mode, '+') != NULL;
	switch (mode[0]) {
	case 'w': return (plus ? O_RDWR : O_WRONLY) | O_TRUNC;
	case 'a': return (plus ? O_RDWR : O_WRONLY) | O_APPEND;
	default: return plus ? O_RDWR : O_RDONLY;
	}
}

int sb_sweep_pass_fopen(struct sweep_pass *p, struct sweep_run *s, int test, const char *mode)
{
	char m[8];
	init(p, s, test);
	snprintf(m, sizeof(m), "%se", mode); /* e: close on exec */
	p->stdio_buf = malloc(s->rec);
	if (!p->stdio_buf)
		return fail(p, -1, 0, ENOMEM);
	const int fd = sb_scratch_reopen(s->fd, mode_flags(mode));
	p->fp = fd >= 0 ? fdopen(fd, m) : NULL;
	if (!p->fp) {
		const int e = fd < 0 ? -fd : errno;
		if (fd >= 0)
			close(fd);
		free(p->stdio_buf);
		p->stdio_buf = NULL;
		return fail(p, -1, 0, e);
	}
	setvbuf(p->fp, p->stdio_buf, _IOFBF, s->rec);
	p->fd = fileno(p->fp);
	return 0;
}

void sb_sweep_pass_begin(struct sweep_pass *p)
{
	sb_sweep_event(p->s, p->test, SB_SWEEP_OP_BEGIN, 0, 0, NULL);
	p->timing = 1;
	p->t0 = sb_now_ns();
}

/* The poll's answer: 0 go on, SB_SWEEP_END_PASS, or stop the run */
static int asked(struct sweep_run *s)
{
	return sb_sweep_poll(s);
}

static int stopped(struct sweep_run *s)
{
	const int a = asked(s);
	return a && a != SB_SWEEP_END_PASS;
}

/* Each record written differs from every other (no dedupe, no
 * compression): a fresh key per record scrambled into the buffer. */
static void next_record_data(struct sweep_run *s)
{
	uint64_t x = s->o->seed ^ ++s->nwritten;
	const uint64_t key = sb_splitmix64(&x);
	sb_buf_scramble(s->buf, s->rec, s->key ^ key);
	s->key = key;
}

static int fd_io(struct sweep_pass *p, int wr, uint64_t off)
{
	unsigned char *b = p->s->buf;
	size_t left = p->s->rec;
	while (left) {
		const ssize_t n = wr ? write(p->fd, b, left) : read(p->fd, b, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return fail(p, wr ? SB_SWEEP_OP_WRITE : SB_SWEEP_OP_READ, off,
				    n < 0 ? errno : EIO);
		b += n;
		left -= (size_t)n;
	}
	return 0;
}

static int stdio_io(struct sweep_pass *p, int wr, uint64_t off)
{
	const size_t n = wr ? fwrite(p->s->buf, p->s->rec, 1, p->fp)
			    : fread(p->s->buf, p->s->rec, 1, p->fp);
	if (n == 1)
		return 0;
	return fail(p, wr ? SB_SWEEP_OP_WRITE : SB_SWEEP_OP_READ, off,
		    ferror(p->fp) && errno ? errno : EIO);
}

static int do_fsync(struct sweep_pass *p)
{
	sb_sweep_event(p->s, p->test, SB_SWEEP_OP_FSYNC, 0, 0, NULL);
	if (p->fp && fflush(p->fp) != 0)
		return fail(p, SB_SWEEP_OP_FSYNC, 0, errno);
	if ((!p->fp || is_write(p->test)) && fsync(p->fd) != 0)
		return fail(p, SB_SWEEP_OP_FSYNC, 0, errno);
	return 0;
}

/* iozone's update_burst_sleep: after each burst, fsync, then sleep; the
 * sleep alone is taken out of the timing. */
static int burst(struct sweep_pass *p)
{
	struct sweep_run *s = p->s;
	const struct sb_sweep_opts *o = s->o;
	s->burst_written += s->rec;
	if (!o->burst_bytes || s->burst_written < o->burst_bytes)
		return 0;
	s->burst_written = 0;
	int e = do_fsync(p);
	if (e)
		return e;
	const uint64_t t = sb_now_ns();
	struct timespec ts = { (time_t)(o->burst_idle_ns / 1000000000ull),
			       (long)(o->burst_idle_ns % 1000000000ull) };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !stopped(s))
		;
	const uint64_t slept = sb_now_ns() - t;
	p->idle_ns += slept;
	sb_sweep_event(s, p->test, SB_SWEEP_OP_IDLE, 0, slept, NULL);
	return 0;
}

int sb_sweep_pass_io(struct sweep_pass *p, int wr, uint64_t off, int seek)
{
	struct sweep_run *s = p->s;
	const int a = asked(s);
	if (a == SB_SWEEP_END_PASS && p->timing) {
		p->early = 1;
		return 1;
	}
	if (a && a != SB_SWEEP_END_PASS)
		return -EINTR;
	if (seek && !p->fp && lseek(p->fd, (off_t)off, SEEK_SET) < 0)
		return fail(p, wr ? SB_SWEEP_OP_WRITE : SB_SWEEP_OP_READ, off, errno);
	if (wr)
		next_record_data(s);
	int e = p->fp ? stdio_io(p, wr, off) : fd_io(p, wr, off);
	if (e)
		return e;
	if (p->timing)
		p->bytes += s->rec;
	sb_sweep_event(s, p->test, wr ? SB_SWEEP_OP_WRITE : SB_SWEEP_OP_READ, off, s->rec, s->buf);
	return wr && p->timing ? burst(p) : 0;
}

static int do_close(struct sweep_pass *p)
{
	int e = 0;
	sb_sweep_event(p->s, p->test, SB_SWEEP_OP_CLOSE, 0, 0, NULL);
	if (p->fp)
		e = fclose(p->fp) != 0 ? errno : 0;
	else
		e = close(p->fd) != 0 ? errno : 0;
	p->fp = NULL;
	p->fd = -1;
	free(p->stdio_buf);
	p->stdio_buf = NULL;
	return e ? fail(p, SB_SWEEP_OP_CLOSE, 0, e) : 0;
}

int sb_sweep_pass_end(struct sweep_pass *p, uint64_t *elapsed_ns)
{
	const struct sb_sweep_opts *o = p->s->o;
	int e = 0;
	if (p->timing) {
		if (o->flush)
			e = do_fsync(p);
		if (!e && o->close)
			e = do_close(p);
		const uint64_t t = sb_now_ns() - p->t0;
		*elapsed_ns = t > p->idle_ns ? t - p->idle_ns : 1;
		p->s->pass_bytes = p->bytes;
		p->s->pass_early = p->early;
		sb_sweep_event(p->s, p->test, SB_SWEEP_OP_END, 0, 0, NULL);
	}
	/* untimed: iozone syncs before closing so the next test starts clean */
	if (!e && (p->fd >= 0 || p->fp)) {
		e = do_fsync(p);
		const int c = do_close(p);
		e = e ? e : c;
	}
	if (e)
		sb_sweep_pass_abort(p);
	return e;
}

void sb_sweep_pass_abort(struct sweep_pass *p)
{
	if (p->fp)
		fclose(p->fp);
	else if (p->fd >= 0)
		close(p->fd);
	p->fp = NULL;
	p->fd = -1;
	free(p->stdio_buf);
	p->stdio_buf = NULL;
}
