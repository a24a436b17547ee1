/*
 * filecreate: fio's engine of that name. The request that starts a file
 * in a loop opens it by name, made new (O_CREAT | O_EXCL, never through a
 * symlink) in the job's directory and nowhere else, its open the
 * request's latency; a name that exists already (a later loop, a clone
 * sharing a filename=) is opened to read, never truncated or written. The
 * file's other requests move nothing, counted untimed as fio's. Each file
 * is closed as the next one opens (fio's openfiles=1): one descriptor and
 * a bit a file of memory, however many files.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct fc {
	int dirfd;
	int lastfd;	  /* the file opened last, closed untimed as the next opens */
	const char *base; /* the one file's name in dirfd (mk_nfiles 0) */
	uint64_t *done;	  /* a bit a file: opened in this loop */
	unsigned n;
};

/* The engine's state, made at its first request: the caller names the
 * directory and the files (e->path, e->mk_*) after init. 0 or -errno. */
static int fc_setup(struct sb_engine *e)
{
	if (!e->path || (e->mk_nfiles && (!e->mk_job || !e->mk_span)))
		return -EINVAL;
	/* a job name with a '/' would make a file elsewhere */
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
	struct fc *f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->n = e->mk_nfiles ? e->mk_nfiles : 1;
	f->base = base;
	f->lastfd = -1;
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

/* open file i of this loop, made new or (made before) to read: 0 or -errno */
static int fc_open(struct sb_engine *e, struct fc *f, unsigned i)
{
	char name[NAME_MAX + 1];
	const char *nm = f->base;
	if (!nm) {
		const int l = snprintf(name, sizeof(name), "%s.%u.%u", e->mk_job, e->mk_clone, i);
		if (l < 0 || (size_t)l >= sizeof(name))
			return -ENAMETOOLONG;
		nm = name;
	}
	int fd = openat(f->dirfd, nm, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST)
		fd = openat(f->dirfd, nm, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	f->lastfd = fd;
	return 0;
}

static int fc_queue(struct sb_engine *e, struct sb_io *io)
{
	io->untimed = 1;
	io->res = 0;
	if (io->ddir >= SB_DDIR_SYNC)
		return SB_Q_DONE;
	if (!e->priv && (io->res = fc_setup(e)) < 0)
		return SB_Q_DONE;
	struct fc *f = e->priv;
	if (e->path_fresh) { /* a new loop: every file opens again */
		memset(f->done, 0, (f->n + 63) / 64 * sizeof(*f->done));
		e->path_fresh = 0;
	}
	uint64_t i = e->mk_nfiles && io->offset > e->wlo ? (io->offset - e->wlo) / e->mk_span : 0;
	if (i >= f->n)
		i = f->n - 1;
	io->res = io->len;
	if (f->done[i / 64] & (1ull << (i % 64)))
		return SB_Q_DONE;
	f->done[i / 64] |= 1ull << (i % 64);
	if (f->lastfd >= 0)
		close(f->lastfd);
	f->lastfd = -1;
	io->untimed = 0;
	io->start_ns = sb_now_ns();
	io->issue_ns = io->start_ns;
	const int r = fc_open(e, f, (unsigned)i);
	if (r < 0)
		io->res = r;
	return SB_Q_DONE;
}

static void fc_cleanup(struct sb_engine *e)
{
	struct fc *f = e->priv;
	if (!f)
		return;
	if (f->lastfd >= 0)
		close(f->lastfd);
	close(f->dirfd);
	free(f->done);
	free(f);
}

const struct sb_engine_ops sb_engine_filecreate = {
	.name = "filecreate",
	.desc = "fio's filecreate: each file made new by name, its open timed",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NOIO | SB_ENGINE_FILEOP | SB_ENGINE_MKFILES,
	.available = sb_fileop_available,
	.init = sb_fileop_init,
	.queue = fc_queue,
	.commit = sb_fileop_commit,
	.getevents = sb_fileop_getevents,
	.event = sb_fileop_event,
	.cleanup = fc_cleanup,
};
