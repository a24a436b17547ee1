/*
 * I/O engines: one file per engine behind one asynchronous ops table, as in
 * fio (queue / commit / getevents / event). A synchronous engine completes
 * inside queue() and returns SB_Q_DONE. The registry is an explicit
 * NULL-terminated array in registry.c (survives static linking), with every
 * engine name storbench knows.
 *
 * Hot path contract for the worker:
 *   r = ops->queue(e, io);          SB_Q_QUEUED, SB_Q_DONE (io->res set) or -errno
 *   ops->commit(e);                 submit everything queued since last commit
 *   n = ops->getevents(e, min, max) wait for >= min completions, reap <= max;
 *                                   with e->settle_ns set and min > 1, settle
 *                                   for >= 1 once settle_ns have passed
 *   io = ops->event(e, i)           i < n, io->res set (bytes or -errno)
 * SB_DDIR_SYNC requests fsync, SB_DDIR_DATASYNC fdatasync (fio's fdatasync=N).
 * SB_DDIR_TRIM discards [offset, offset+len): BLKDISCARD on block devices,
 * fallocate(PUNCH_HOLE) on files. Engines without async trim/sync do them
 * inline and return SB_Q_DONE; the worker drains the queue before a SYNC.
 */
#ifndef SB_ENGINE_H
#define SB_ENGINE_H

#include "lib/sb.h"

struct sb_io {
	void *buf;
	uint64_t offset;
	uint32_t len;
	uint8_t ddir;	   /* enum sb_ddir */
	/* the request's own I/O priority (class << 13 | level; fio's
	 * cmdprio), 0: the thread's */
	uint16_t ioprio;
	int64_t res;	   /* on completion: bytes transferred or -errno */
	uint64_t start_ns; /* set by the worker when it queues the request */
	uint64_t issue_ns; /* set by the worker when the commit returned */
	uint32_t index;	   /* the worker's slot number */
	/* set by a file-operation engine (SB_ENGINE_FILEOP): 1 when the
	 * request did nothing and is counted, not timed (fio's FIO_NOSTATS
	 * for its fake I/O), 0 when it timed the operation */
	uint8_t untimed;
};

enum {
	SB_Q_QUEUED = 0,
	SB_Q_DONE = 1,
};

enum {
	SB_ENGINE_SYNC = 1u << 0, /* completes every request inside queue() */
	SB_ENGINE_NOIO = 1u << 1, /* does no I/O at all: target is not opened */
	/* fio's file and directory engines (filestat, filedelete, ...): the
	 * first request of each file in a loop is an operation on its name
	 * (e->path), timed as the request's latency; the file's other
	 * requests move nothing, are counted and not timed (io->untimed).
	 * No data is read or written. */
	SB_ENGINE_FILEOP = 1u << 2,
	/* changes files other than by writing their region (ftruncate,
	 * falloc), reading no data: runs only on the files it laid out, as
	 * SB_ENGINE_FILEOP ones */
	SB_ENGINE_OWNFILES = 1u << 3,
	/* works on its files by name, in the job's directory, holding none
	 * open: e->path the directory (or the one new file's name), e->mk_*
	 * the names; the run removes them after, as its own. With
	 * SB_ENGINE_NOIO the engine makes them (fio's filecreate); without,
	 * the run lays them out new before the jobs, as fio does, and opens
	 * none (filestat, filedelete) */
	SB_ENGINE_MKFILES = 1u << 4,
	/* SB_ENGINE_SYNC at a depth of 1 only: above it requests queue to
	 * commit (vsync merges them), so --iodepth has an effect */
	SB_ENGINE_DEEP = 1u << 5,
	/* fio's diskless engines that move no data (cpuio, exec; with
	 * SB_ENGINE_NOIO): no target, no size; the job runs for its runtime
	 * alone, each request counted with 0 bytes */
	SB_ENGINE_TIMED = 1u << 6,
	/* works with a second file beside the job's, fio's donorname= (the
	 * e4defrag engine): the run opens it (e->aux_fd) after init, before
	 * the first request */
	SB_ENGINE_DONOR = 1u << 7,
};

/* fio's cpuio options (job files): a burst of load percent of a CPU */
enum sb_cpumode {
	SB_CPU_NOOP,  /* a busy loop */
	SB_CPU_QSORT, /* sorts of 256 Ki numbers, fio's qsort */
};
struct sb_cpuio_opts {
	unsigned load;	   /* cpuload, 1..100; 0: not given */
	unsigned chunk_us; /* cpuchunks: a burst, microseconds (fio's 50000) */
	unsigned mode;	   /* enum sb_cpumode */
	int exit_io_done;  /* exit_on_io_done: ends with the group's I/O jobs */
};

/* fio's exec options (job files): a program run for the job's runtime */
struct sb_exec_opts {
	char program[256];    /* "": not given */
	char arguments[1024]; /* split at spaces; %r the runtime in s, %n the job */
	unsigned grace_s;     /* seconds from SIGTERM to SIGKILL (fio's 1) */
	int std_redirect;     /* stdout, stderr to JOB.stdout, JOB.stderr (fio's 1) */
};

struct sb_engine;

struct sb_engine_ops {
	const char *name;
	const char *desc;
	unsigned flags;
	/* 0 when usable on this kernel, -ENOSYS/-EPERM/... when not. */
	int (*available)(void);
	int (*init)(struct sb_engine *e);
	int (*queue)(struct sb_engine *e, struct sb_io *io);
	int (*commit)(struct sb_engine *e);
	int (*getevents)(struct sb_engine *e, unsigned min, unsigned max);
	struct sb_io *(*event)(struct sb_engine *e, unsigned i);
	void (*cleanup)(struct sb_engine *e);
	/* optional: the caller's buffers, len bytes from buf, which every
	 * request's buffer lies in from now on (io_uring registers them:
	 * fixed buffers). 0, or -errno when the engine cannot (the caller
	 * goes on without). */
	int (*register_bufs)(struct sb_engine *e, void *buf, size_t len);
};

struct sb_engine {
	const struct sb_engine_ops *ops;
	void *priv;	 /* engine state */
	int fd;		 /* target, opened by the caller (-1 for NOIO engines) */
	unsigned depth;	 /* most requests in flight at once */
	int is_blockdev; /* trim uses BLKDISCARD */
	/* every request completes inside queue(): the ops' SB_ENGINE_SYNC,
	 * which an engine's init may clear (null at a depth above 1 queues
	 * and completes at commit, as fio's null engine) */
	int sync;
	/* set by an engine that takes nothing more until what it completed
	 * is reaped (fio's FIO_Q_BUSY: null above a depth of 1); the caller
	 * reaps before it queues again */
	int full;
	/* Writes and trims must stay inside [wlo, whi): the region the user
	 * offered. Checked on every request by sb_engine_queue. */
	uint64_t wlo, whi;
	/* Completion coalescing, set by the engine at init where waking the
	 * caller for every completion slows the device itself (io_uring on a
	 * target it hands to kernel workers): a wait for more than one
	 * completion gives up after this long and takes what has come (at
	 * least one). 0: waits are for all of min. The caller may clear it. */
	uint64_t settle_ns;
	/* the caller's buffers are registered (sb_engine_register_bufs) */
	int fixed_bufs;
	/* SB_ENGINE_FILEOP: the name of the file requests are for, and
	 * whether its operation is still to do (the caller sets both as the
	 * file starts a loop; the engine clears path_fresh); fio's stat_type
	 * (enum sb_stat_type) for the stat engines */
	const char *path;
	int path_fresh;
	unsigned stat_type;
	/* SB_ENGINE_MKFILES: mk_nfiles files named MK_JOB.MK_CLONE.F in the
	 * directory e->path, file F's requests at [wlo + F * mk_span, +
	 * mk_span), or, where mk_end is given, up to wlo + mk_end[F] from the
	 * end of the file before; 0: the one file e->path names. mk_ino: the
	 * inode numbers of the files the run laid out (0: not made), which
	 * filedelete unlinks only while the name is still theirs */
	const char *mk_job;
	unsigned mk_clone, mk_nfiles;
	uint64_t mk_span;
	/* SB_ENGINE_TIMED: the job's options (set by the caller after init,
	 * read from the first request on), its runtime and name (mk_job);
	 * think_ns, set by the engine: the pause after each request, in
	 * place of the job's thinktime (fio's cpuio and exec set it) */
	const struct sb_cpuio_opts *cpuio;
	const struct sb_exec_opts *exec;
	uint64_t runtime_ns;
	uint64_t think_ns;
	/* exec with std_redirect: the program's stdout and stderr, opened
	 * (through the write gate) and closed by the caller */
	int out_fd[2];
	/* SB_ENGINE_DONOR: the donor file open to write (-1: none; the run
	 * owns and closes it) and fio's inplace= (e4defrag) */
	int aux_fd;
	unsigned inplace;
	/* set by an engine whose failed request needs words beyond its errno
	 * (the filesystem it needs): the job's message, NULL: none */
	const char *why;
	const uint64_t *mk_end;
	const uint64_t *mk_ino;
};

/* fio's stat_type= of filestat and dirstat */
enum sb_stat_type {
	SB_STAT_STAT = 0,
	SB_STAT_LSTAT,
	SB_STAT_STATX,
};

/* The engines' settle time when they coalesce: no completion is stamped
 * more than this late. */
#define SB_ENGINE_SETTLE_NS 30000u

/* ---- the registry (registry.c), the one list of engine names ---- */
/* Engines compiled in, NULL-terminated. */
extern const struct sb_engine_ops *const sb_engines[];
/* By name; NULL when not built in. */
const struct sb_engine_ops *sb_engine_find(const char *name);
/* The i-th name of every engine storbench knows, built in or not (for
 * messages); NULL past the last. */
const char *sb_engine_known(unsigned i);
/* Its SB_ENGINE_* flags, built in or not. */
unsigned sb_engine_known_flags(unsigned i);
int sb_engine_is_known(const char *name);
/* For --help: "psync|io_uring|..." and what a job without --engine gets. */
extern const char sb_engine_choices[];
extern const char sb_engine_default_text[];
/* fio's ioengine=NAME: the engine it runs as (e.g. "sync" runs as psync),
 * NULL when storbench has none. */
const char *sb_engine_from_fio(const char *fio_name);
/* The i-th ioengine name a job file may give; NULL past the last. */
const char *sb_engine_fio_name(unsigned i);
/* The plain synchronous engine (psync), always built in: the default for
 * one request in flight, fio's default ioengine, what probes use. */
const struct sb_engine_ops *sb_engine_plain(void);
/* 0 when ops can be used on this kernel, else -errno. */
int sb_engine_available(const struct sb_engine_ops *ops);
/* The engine for a job that names none. */
struct sb_engine_pick {
	const struct sb_engine_ops *ops;    /* the choice */
	const struct sb_engine_ops *missed; /* the first preferred one that cannot be
					     * used here, NULL when none */
	int err;			    /* why not (-errno) */
	int fell_back;			    /* more than one request in flight was asked
					     * and the preferred engine could not be had */
};
void sb_engine_default(unsigned iodepth, struct sb_engine_pick *pick);
/* The engine a job uses (choose.c): the one it names (name: not built
 * in, not an engine, or not usable here: -errno with err saying which,
 * SB_ERR_INPUT), or for "" or NULL the default (sb_engine_default: pick
 * says whether it fell back, which the caller tells once). */
int sb_engine_choose(const char *name, unsigned iodepth, struct sb_engine_pick *pick,
		     struct sb_error *err);

/* Fill e and call ops->init. Returns 0 or -errno. */
int sb_engine_init(struct sb_engine *e, const struct sb_engine_ops *ops, int fd, unsigned depth,
		   int is_blockdev);
void sb_engine_cleanup(struct sb_engine *e);
/* Tell the engine where every request's buffer lies (after init, before
 * the first request): an engine that can registers them (fixed buffers)
 * and says so in e->fixed_bufs. Never fails: without, requests go as
 * before. */
void sb_engine_register_bufs(struct sb_engine *e, void *buf, size_t len);

/* Limit writes and trims to [lo, hi) (sb_engine_init allows everything). */
static inline void sb_engine_set_write_bounds(struct sb_engine *e, uint64_t lo, uint64_t hi)
{
	e->wlo = lo;
	e->whi = hi;
}

/* Queue io through the engine, refusing (-ERANGE, completed at once) a
 * write or trim that would leave the offered region. Every submitter goes
 * through here: it is the last point before the kernel. */
static inline int sb_engine_queue(struct sb_engine *e, struct sb_io *io)
{
	if ((io->ddir == SB_DDIR_WRITE || io->ddir == SB_DDIR_TRIM) &&
	    SB_UNLIKELY(io->offset < e->wlo || io->offset > e->whi ||
			io->len > e->whi - io->offset)) {
		io->res = -ERANGE;
		return SB_Q_DONE;
	}
	return e->ops->queue(e, io);
}

/* Synchronous helpers shared by engines (inline_io.c): do io and set io->res. */
void sb_engine_do_sync(struct sb_engine *e, struct sb_io *io);

/* The file-operation engines' shared part (fileop.c), fio's engines
 * that work on files by name (SB_ENGINE_MKFILES): the directory is
 * opened at the first request (e->priv); each file's first request in a
 * loop (e->path_fresh starts one) is due its operation, the others
 * complete untimed with nothing done. sb_fileop_due: the index of the
 * file io is in when its operation is due, else -1; its name in the
 * directory into name (NAME_MAX + 1 bytes). -errno on failure. */
int64_t sb_fileop_due(struct sb_engine *e, const struct sb_io *io, char *name);
/* the directory's descriptor, opened by sb_fileop_due */
int sb_fileop_dirfd(const struct sb_engine *e);
/* queue io, doing op on file i's name when due (its time the request's:
 * start_ns and issue_ns are stamped just before, after check, when
 * given, found the name fit for it); SYNC and DATASYNC requests complete
 * with nothing done */
typedef int (*sb_fileop_fn)(const struct sb_engine *e, int dirfd, const char *name, uint64_t i);
int sb_fileop_queue(struct sb_engine *e, struct sb_io *io, sb_fileop_fn check, sb_fileop_fn op);
/* stat, lstat or statx of the name as e->stat_type says (filestat.c) */
int sb_fileop_stat(const struct sb_engine *e, int dirfd, const char *name, uint64_t i);
/* keep fd open until the next call (-1: none), closing the one kept */
void sb_fileop_hold(const struct sb_engine *e, int fd);
void sb_fileop_free(struct sb_engine *e);
int sb_fileop_available(void);
int sb_fileop_init(struct sb_engine *e);
/* init of an engine that works on the descriptor it is given (ftruncate,
 * falloc): -EBADF without one */
int sb_fileop_init_fd(struct sb_engine *e);
int sb_fileop_commit(struct sb_engine *e);
int sb_fileop_getevents(struct sb_engine *e, unsigned min, unsigned max);
struct sb_io *sb_fileop_event(struct sb_engine *e, unsigned i);
void sb_fileop_cleanup(struct sb_engine *e);
/* The ops of a file-operation engine NAME whose operation is OP, done
 * once CHECK (NULL: none) said yes. */
#define SB_FILEOP_ENGINE(sym, NAME, DESC, CHECK, OP)                            \
	static int sym##_queue(struct sb_engine *e, struct sb_io *io)           \
	{                                                                       \
		return sb_fileop_queue(e, io, CHECK, OP);                       \
	}                                                                       \
	const struct sb_engine_ops sym = {                                      \
		.name = NAME,                                                   \
		.desc = DESC,                                                   \
		.flags = SB_ENGINE_SYNC | SB_ENGINE_FILEOP | SB_ENGINE_MKFILES, \
		.available = sb_fileop_available,                               \
		.init = sb_fileop_init,                                         \
		.queue = sym##_queue,                                           \
		.commit = sb_fileop_commit,                                     \
		.getevents = sb_fileop_getevents,                               \
		.event = sb_fileop_event,                                       \
		.cleanup = sb_fileop_free,                                      \
	}

#endif
