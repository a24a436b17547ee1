/*
 * A job's target: from TARGET (a directory, a file, a new file or a block
 * device) to the files each job opens. Everything is validated first (the
 * region, direct I/O alignment, free space, consent to write a device or a
 * file that is not ours), created after, and only what was created here is
 * ever removed.
 *
 * Test files are always new (lib/target/scratch.h): in a directory under a
 * name nobody can guess, each job its own. A file TARGET is opened once,
 * never written through a symlink, and without consent only when it is
 * ours; a device is held with O_EXCL for the whole run. Jobs reopen what is
 * held (sb_jobtarget_open), never the name.
 *
 * Every call that can fail returns -errno and fills a struct sb_error
 * (lib/sb.h): what the program prints and the kind of error.
 */
#ifndef SB_JOBTARGET_H
#define SB_JOBTARGET_H

#include "lib/sb.h"
#include "lib/job/job.h"
#include "lib/target/target.h"

#define SB_JT_MAX_FILES 256
#define SB_JT_NEW_FILE_SIZE (1ull << 30) /* a new test file without a size */

/* What the caller hears of while files are made and removed. Each may be
 * NULL; all get ctx. */
struct sb_jt_hooks {
	/* polled between chunks of a file's layout: non-zero stops it (the
	 * half-made file is removed; -EINTR, SB_ERR_STOPPED) */
	int (*stop)(void *ctx);
	/* a test file created here, open as fd: on 1 as soon as it exists,
	 * on 0 once it is no longer ours to remove (it is about to be removed,
	 * or kept) */
	void (*track)(void *ctx, const char *path, int fd, int on);
	/* cleanup could not remove a file it created: why */
	void (*warn)(void *ctx, const char *msg);
	void *ctx;
};

struct sb_jobtarget {
	/* inputs, set before sb_jobtarget_prepare (the rest zeroed) */
	int destroy_data; /* consent to overwrite a file or device */
	/* written whatever the jobs do (--precondition, --discard-before):
	 * the target passes the write gate (lib/target/gate.h) as a job's
	 * that writes */
	int writes;
	/* sb_jobtarget_prepare validates everything and creates nothing: the
	 * ranks of a multi-host run agree that every one may go on before any
	 * writes (cli/ranks.c); clean it up and prepare a fresh one after */
	int check_only;
	struct sb_jt_hooks hooks;
	/* the job's engine makes its files itself by name (fio's filecreate,
	 * SB_ENGINE_MKFILES): nothing is laid out; the target is a directory
	 * the files are named in (JOB.N.F, mk_nfiles each job) or a new
	 * file's name (mk_nfiles 0), paths[0]; none may exist before, and
	 * cleanup removes what the run made of them */
	int mkfiles;
	unsigned mk_nfiles, mk_jobs;
	uint64_t mk_span; /* each file's part of the region */
	char mk_job[64];  /* the job's name */
	int mkfiles_made; /* prepared to make them: cleanup removes them */
	/* laid out here for an engine that works on them by name (filestat,
	 * filedelete: SB_ENGINE_MKFILES without SB_ENGINE_NOIO): each file's
	 * end in the region (mk_nfiles of them, every clone's alike) and
	 * each file's inode number, clone k's at k * mk_nfiles (0: not made
	 * here), which cleanup removes only while the name is still it */
	uint64_t *mk_end, *mk_ino;

	struct sb_target_info info;
	int probed;		      /* info holds a successful probe of the path */
	char *paths[SB_JT_MAX_FILES]; /* what each job opens */
	unsigned npaths;
	int created[SB_JT_MAX_FILES]; /* paths[i] was created here */
	int fd[SB_JT_MAX_FILES];      /* fd + 1 of paths[i] held open (a file created
				 * here, the file TARGET, a device held with
				 * O_EXCL), 0 none: the jobs reopen it
				 * (sb_jobtarget_open), never the name */
	uint64_t region_offset, region_size;
	uint32_t align; /* direct I/O alignment; 1 buffered */
	int is_blockdev;
	int excl_fd;	     /* fd + 1 of the device held with O_EXCL, 0 none */
	int direct_fallback; /* no O_DIRECT here (tmpfs): measured buffered */
	/* fio's nrfiles in a directory: each job's files are paths[job *
	 * nrfiles ..] (0: one per job, of region_size), named JOB.N.F as fio
	 * names them, each fsize[i] long, its region all of it (region_offset
	 * 0; region_size is job 0's files together) */
	unsigned nrfiles;
	uint64_t fsize[SB_JT_MAX_FILES];
	/* the bytes the new files take on the filesystem (a directory or a
	 * new file; 0 otherwise), as checked against info.fs_free: the ranks
	 * sharing a filesystem check their sum (cli/ranks.c) */
	uint64_t space_need;
};

/* Look at path (sb_target_probe) without creating anything; refuses what
 * is neither a file, a directory nor a block device. */
int sb_jobtarget_probe(struct sb_jobtarget *t, const char *path, struct sb_error *er);
/* May the block device at path be written? The write gate's answer
 * (sb_gate_device: in use never, any other only with t->destroy_data, the
 * refusal naming a signature it found). On success the device is held
 * open O_RDWR | O_EXCL (t->excl_fd, and fd[0] for the jobs) until
 * sb_jobtarget_cleanup. */
int sb_jobtarget_consent(struct sb_jobtarget *t, const char *path, struct sb_error *er);
/* Resolve path for job: probe it (unless t->probed), validate, create the
 * test files as needed (needs_data: filled with data a read can read,
 * else allocated). noio: the target is only a name (the null engine). A
 * --direct the filesystem lacks and the user did not ask for turns job's
 * direct off (t->direct_fallback). On failure what was made stays listed
 * in t for sb_jobtarget_cleanup to remove. */
int sb_jobtarget_prepare(struct sb_jobtarget *t, const char *path, struct sb_job_opts *job,
			 int needs_data, int noio, struct sb_error *er);
/* One job's part of a target prepared (or only probed) for several jobs at
 * once (a file or a device): its region and alignment, checked. The view
 * shares the target's paths and owns nothing: never clean it up.
 * new_size: the size a new file is (or will be) created at. */
int sb_jobtarget_view(const struct sb_jobtarget *shared, struct sb_jobtarget *view,
		      struct sb_job_opts *job, const char *path, uint64_t new_size,
		      struct sb_error *er);
/* A new descriptor of paths[i] with open(2) flags: a reopen of what the
 * target holds open (fd[i]: write access only when the write gate gave
 * it), else an open of the name to read (a device read; -EPERM to write).
 * Returns it or -errno. */
int sb_jobtarget_open(const struct sb_jobtarget *t, unsigned i, int flags);
/* Remove the files created here (unless keep), close what is held. */
void sb_jobtarget_cleanup(struct sb_jobtarget *t, int keep);

#endif
