/*
 * Running the matrix as iozone's auto mode does (iozone.c auto_test,
 * begin): file sizes ascending, record sizes ascending within each, every
 * selected test in its order on one file that is created for the cell and
 * removed after it. What iozone leaves to chance storbench fixes: a read
 * test finds the page cache dropped (unless warm), and a test whose input
 * another test would have made (a file to read, a first read before the
 * reread) gets it from an untimed pass when that test was not selected.
 */
#include "lib/sweep/sweep_int.h"
#include "lib/base/units.h"
#include "lib/job/buffer.h"
#include "lib/target/cache.h"
#include "lib/target/hold.h"
#include "lib/target/scratch.h"
#include "lib/target/target.h"

#include <fcntl.h>
#include <unistd.h>

#define BUF_ALIGN 4096

static int bit(const struct sweep_run *s, int test)
{
	return (s->o->tests >> test) & 1u;
}

/* The first pass of a read test: measured from a cold cache. */
static int is_first_read(int test)
{
	return test == SB_SWEEP_READ || test == SB_SWEEP_RANDREAD || test == SB_SWEEP_BKWDREAD ||
	       test == SB_SWEEP_STRIDEREAD || test == SB_SWEEP_FREAD;
}

static int is_stdio(int test)
{
	return test >= SB_SWEEP_FWRITE && test <= SB_SWEEP_FREREAD;
}

static int needs_data(int test)
{
	return test != SB_SWEEP_WRITE && test != SB_SWEEP_FWRITE && test != SB_SWEEP_RECREWRITE;
}

static void drop_cache(struct sweep_run *s, int test)
{
	const int m = sb_cache_drop(s->fd);
	if (m > 0)
		s->r->cache_method = m;
	else
		s->r->cache_error = -m;
	sb_sweep_event(s, test, SB_SWEEP_OP_DROP, 0, 0, NULL);
}

/* What a test needs before its timed pass. */
static int prepare(struct sweep_run *s, int test)
{
	uint64_t ns;
	int e = 0;
	if (needs_data(test) && !s->have_data)
		e = sb_sweep_layout(s);
	/* a reread is the second read in a row: make the first when unselected */
	if (!e && test == SB_SWEEP_REREAD && !bit(s, SB_SWEEP_READ))
		e = sb_sweep_test_run(s, SB_SWEEP_READ, &ns);
	if (!e && test == SB_SWEEP_FREREAD && !bit(s, SB_SWEEP_FREAD))
		e = sb_sweep_test_run(s, SB_SWEEP_FREAD, &ns);
	/* O_DIRECT bypasses the cache; the stdio tests never use it */
	if (!e && !s->o->warm && is_first_read(test) && (!s->o->direct || is_stdio(test)))
		drop_cache(s, test);
	return e;
}

static void store(struct sweep_run *s, int test, unsigned fi, unsigned ri, uint64_t ns)
{
	struct sb_sweep_result *r = s->r;
	const double bytes = (double)s->pass_bytes; /* the whole file unless ended early */
	r->bytes[test][fi][ri] = s->pass_bytes;
	r->ended_early[test][fi][ri] = (unsigned char)s->pass_early;
	r->elapsed_ns[test][fi][ri] = ns;
	/* iozone: (bytes / seconds) >> 10, an integer */
	r->kibps[test][fi][ri] = (uint64_t)(bytes * 1e9 / (double)ns) >> 10;
	r->state[test][fi][ri] = SB_SWEEP_CELL_DONE;
}

static int stopped(const struct sweep_run *s)
{
	const int a = s->o->should_stop ? s->o->should_stop(s->o->ctx) : 0;
	return a && a != SB_SWEEP_END_PASS; /* that one ends a timed pass alone */
}

static void progress(const struct sweep_run *s, unsigned fi, unsigned ri, int test)
{
	if (s->o->progress)
		s->o->progress(s->o->ctx, fi, ri, test);
}

static int run_tests(struct sweep_run *s, unsigned fi, unsigned ri)
{
	int e = 0;
	for (int t = 0; t < SB_SWEEP_NTESTS && !e; t++) {
		uint64_t ns = 0;
		if (!bit(s, t))
			continue;
		if (stopped(s))
			return -EINTR;
		progress(s, fi, ri, t);
		e = prepare(s, t);
		int timed = 0;
		if (!e && s->o->timed)
			timed = !(e = s->o->timed(s->o->ctx, t, fi, ri, 0));
		if (!e)
			e = sb_sweep_test_run(s, t, &ns);
		if (!e)
			store(s, t, fi, ri, ns);
		if (timed) /* told of a failure too: the ranks wait for one another */
			s->o->timed(s->o->ctx, t, fi, ri, e ? -1 : 1);
	}
	return e;
}

static int create_failed(struct sweep_run *s, int op, int e)
{
	s->r->fail_test = -1;
	s->r->fail_op = op;
	s->r->fail_errno = -e;
	return e;
}

/* Held first, then marked: not yet under its name. */
static int prep_cell(int fd, void *ctx)
{
	long who;
	(void)ctx;
	const int e = sb_hold_new(fd, &who);
	return e ? e : sb_file_layout(fd, 0, 0, 0, NULL);
}

/* A new file for the cell, as ours: nothing under its name is opened. */
static int cell_file(struct sweep_run *s)
{
	const int fd = sb_scratch_create_path(s->path, O_RDWR);
	if (fd < 0)
		return fd;
	const int e = prep_cell(fd, NULL);
	if (e) {
		sb_scratch_remove(s->path, fd);
		close(fd);
		return e;
	}
	s->fd = fd;
	return 0;
}

/* The next cell's file in place of the last one's (still held as s->fd),
 * swapped in under the name (sb_scratch_replace): the name never stands
 * free between two cells for another run to take. */
static int swap_file(struct sweep_run *s)
{
	const int fd = sb_scratch_replace(s->path, s->fd, O_RDWR, prep_cell, NULL);
	if (fd < 0)
		return fd;
	s->fd = fd;
	return 0;
}

static int cell(struct sweep_run *s, unsigned fi, unsigned ri, int owned, int last)
{
	s->fsize = s->r->file_sizes[fi];
	s->rec = s->r->record_sizes[ri];
	s->numrecs = s->fsize / s->rec;
	s->have_data = 0;
	if (owned) {
		int c = s->fd >= 0 ? swap_file(s) : cell_file(s);
		if (c == -EOPNOTSUPP) { /* no swap here: removed, then made anew */
			c = sb_scratch_remove(s->path, s->fd);
			close(s->fd);
			s->fd = -1;
			if (!c || c == -ENOENT)
				c = cell_file(s);
		}
		if (c)
			return create_failed(s, -1, c);
	}
	int e = run_tests(s, fi, ri);
	if (owned && last && s->o->keep && !e) { /* iozone -w: the file stays, marked ours */
		close(s->fd);
		s->fd = -1;
	} else if (owned && !last && !e) {
		/* held for the next cell, which swaps its own in */
	} else if (owned) {
		const int rm = sb_scratch_remove(s->path, s->fd);
		close(s->fd);
		s->fd = -1;
		if (!e && rm && rm != -ENOENT)
			e = create_failed(s, -2, rm);
	}
	if (!e) {
		s->r->cells_done++;
		progress(s, fi, ri, -1);
	}
	return e;
}

static uint64_t largest_record(const struct sb_sweep_result *r)
{
	uint64_t m = 0;
	for (unsigned fi = 0; fi < r->nfile; fi++)
		for (unsigned ri = 0; ri < r->nrec; ri++)
			if (sb_sweep_cell_runs(r, fi, ri))
				m = SB_MAX(m, r->record_sizes[ri]);
	return m;
}

int sb_sweep_run(struct sb_sweep_result *r, const struct sb_sweep_opts *o, const char *path, int fd)
{
	struct sweep_run s;
	const int owned = fd < 0;
	memset(&s, 0, sizeof(s));
	s.o = o;
	s.r = r;
	s.path = path;
	r->opts = o;
	s.fd = fd;
	const uint64_t maxrec = largest_record(r);
	if (!maxrec)
		return -EINVAL;
	s.buf = sb_buf_alloc((size_t)maxrec, BUF_ALIGN);
	if (!s.buf)
		return -ENOMEM;
	struct sb_rng rng;
	sb_rng_seed(&rng, o->seed ^ 0x5eedda7aull);
	sb_buf_fill(s.buf, (size_t)maxrec, &rng, 0); /* incompressible */
	int e = 0;
	unsigned lastf = 0, lastr = 0;
	for (unsigned fi = 0; fi < r->nfile; fi++)
		for (unsigned ri = 0; ri < r->nrec; ri++)
			if (sb_sweep_cell_runs(r, fi, ri))
				lastf = fi, lastr = ri;
	for (unsigned fi = 0; fi < r->nfile && !e; fi++)
		for (unsigned ri = 0; ri < r->nrec && !e; ri++)
			if (sb_sweep_cell_runs(r, fi, ri))
				e = cell(&s, fi, ri, owned, fi == lastf && ri == lastr);
	if (e == -EINTR)
		r->interrupted = 1;
	free(s.buf);
	free(s.perm);
	return e;
}

int sb_sweep_failure(const struct sb_sweep_result *r, const char *file, int e, char *msg,
		     size_t ml)
{
	char a[32], b[32];
	if (!r->fail_errno)
		snprintf(msg, ml, "the sweep of '%s' failed: %s", file, strerror(-e));
	else if (r->fail_op == -1 && r->fail_test < 0)
		snprintf(msg, ml, "cannot create '%s': %s", file, strerror(-e));
	else if (r->fail_op == -2)
		snprintf(msg, ml, "cannot remove '%s': %s", file, strerror(-e));
	else if (r->fail_op == -1)
		snprintf(msg, ml, "cannot open '%s' for the %s test: %s", file,
			 sb_sweep_test_name(r->fail_test), strerror(-e));
	else
		snprintf(msg, ml, "%s failed in the %s test (file %s, record %s) at offset %llu: %s",
			 sb_sweep_op_name(r->fail_op), sb_sweep_test_name(r->fail_test),
			 sb_fmt_size(r->fail_file_size, a, sizeof(a)),
			 sb_fmt_size(r->fail_record_size, b, sizeof(b)),
			 (unsigned long long)r->fail_offset, strerror(-e));
	return e == -ENOSPC || e == -EACCES || e == -EPERM || e == -EROFS ? SB_ERR_ENV
									  : SB_ERR_FAIL;
}
