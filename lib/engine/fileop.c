/*
 * What fio's file and directory engines share (its fileoperations.c):
 * they work on files by name in the job's directory, holding none open
 * (fio's filecreate, filestat and filedelete; a bit a file of memory,
 * however many files). The request that starts a file's loop does the
 * engine's operation on the file's name and is timed; the file's other
 * requests move nothing and are counted, untimed, as fio counts its fake
 * I/O. One request at a time, done inside queue().
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct named {
	int dirfd;
	const char *base; /* the one file's name in dirfd (mk_nfiles 0) */
	uint64_t *done;	  /* a bit a file: its operation done in this loop */
	unsigned n;
	int held; /* a file the engine keeps open (filecreate's last), -1 */
};

/* The engine's state, made at its first request: the caller names the
 * directory and the files (e->path, e->mk_*) after init. 0 or -errno. */
static int named_setup(struct sb_engine *e)
{
	if (!e->path || (e->mk_nfiles && (!e->mk_job || !e->mk_span)))
		return -EINVAL;
	/* a job name with a '/' would name a file elsewhere */
	if (e->mk_nfiles && strchr(e->mk_job, '/'))
		return -EINVAL;
	char dir[PATH_MAX];
	const char *slash = strrchr(e->path, '/'), *base = NULL;
	if (e->mk_nfiles) {
		snprintf(dir, sizeof(dir), "%s", e->path);
	} else if (slash) {
		snprintf(dir, sizeof(dir), "%.*s", slash == e->path ? 1 : (int)(slash - e->path),
			 e->path);
		base = slash + 1;
	} else {
		snprintf(dir, sizeof(dir), ".");
		base = e->path;
	}
	if (base && !*base)
		return -EINVAL;
	struct named *f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->n = e->mk_nfiles ? e->mk_nfiles : 1;
	f->base = base;
	f->held = -1;
	f->done = calloc((f->n + 63) / 64, sizeof(*f->done));
	f->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	const int r = !f->done ? -ENOMEM : f->dirfd < 0 ? -errno : 0;
	if (r < 0) {
		if (f->dirfd >= 0)
			close(f->dirfd);
		free(f->done);
		free(f);
		return r;
	}
	e->priv = f;
	return 0;
}

/* the file the offset is in: by mk_end's ends, else by mk_span */
static uint64_t file_of(const struct sb_engine *e, const struct named *f, uint64_t off)
{
	const uint64_t rel = off > e->wlo ? off - e->wlo : 0;
	if (!e->mk_nfiles)
		return 0;
	if (!e->mk_end)
		return SB_MIN(rel / e->mk_span, (uint64_t)f->n - 1);
	uint64_t lo = 0, hi = f->n - 1; /* the first file ending past rel */
	while (lo < hi) {
		const uint64_t mid = lo + (hi - lo) / 2;
		if (e->mk_end[mid] > rel)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

int64_t sb_fileop_due(struct sb_engine *e, const struct sb_io *io, char *name)
{
	int r;
	if (!e->priv && (r = named_setup(e)) < 0)
		return r;
	struct named *f = e->priv;
	if (e->path_fresh) { /* a new loop: every file's operation is due again */
		memset(f->done, 0, (f->n + 63) / 64 * sizeof(*f->done));
		e->path_fresh = 0;
	}
	const uint64_t i = file_of(e, f, io->offset);
	if (f->done[i / 64] & (1ull << (i % 64)))
		return -1;
	f->done[i / 64] |= 1ull << (i % 64);
	const int l = f->base ? snprintf(name, NAME_MAX + 1, "%s", f->base)
			      : snprintf(name, NAME_MAX + 1, "%s.%u.%llu", e->mk_job, e->mk_clone,
					 (unsigned long long)i);
	if (l < 0 || l > NAME_MAX)
		return -ENAMETOOLONG;
	return (int64_t)i;
}

int sb_fileop_dirfd(const struct sb_engine *e)
{
	const struct named *f = e->priv;
	return f ? f->dirfd : -1;
}

int sb_fileop_queue(struct sb_engine *e, struct sb_io *io, sb_fileop_fn check, sb_fileop_fn op)
{
	char name[NAME_MAX + 1];
	io->untimed = 1;
	io->res = 0;
	if (io->ddir >= SB_DDIR_SYNC)
		return SB_Q_DONE;
	const int64_t i = sb_fileop_due(e, io, name);
	io->res = i < -1 ? i : (int64_t)io->len;
	if (i == -1)
		return SB_Q_DONE;
	io->untimed = 0;
	if (i < 0)
		return SB_Q_DONE;
	const int dirfd = sb_fileop_dirfd(e);
	const int c = check ? check(e, dirfd, name, (uint64_t)i) : 0;
	if (c < 0) {
		io->res = c;
		return SB_Q_DONE;
	}
	io->start_ns = sb_now_ns();
	io->issue_ns = io->start_ns;
	const int r = op(e, dirfd, name, (uint64_t)i);
	if (r < 0)
		io->res = r;
	return SB_Q_DONE;
}

void sb_fileop_hold(const struct sb_engine *e, int fd)
{
	struct named *f = e->priv;
	if (f->held >= 0)
		close(f->held);
	f->held = fd;
}

void sb_fileop_free(struct sb_engine *e)
{
	struct named *f = e->priv;
	if (!f)
		return;
	if (f->held >= 0)
		close(f->held);
	close(f->dirfd);
	free(f->done);
	free(f);
	e->priv = NULL;
}

int sb_fileop_available(void)
{
	return 0;
}

int sb_fileop_init(struct sb_engine *e)
{
	(void)e;
	return 0;
}

int sb_fileop_init_fd(struct sb_engine *e)
{
	return e->fd < 0 ? -EBADF : 0;
}

int sb_fileop_commit(struct sb_engine *e)
{
	(void)e;
	return 0;
}

int sb_fileop_getevents(struct sb_engine *e, unsigned min, unsigned max)
{
	(void)e, (void)min, (void)max;
	return 0;
}

struct sb_io *sb_fileop_event(struct sb_engine *e, unsigned i)
{
	(void)e, (void)i;
	return NULL;
}

void sb_fileop_cleanup(struct sb_engine *e)
{
	(void)e;
}
