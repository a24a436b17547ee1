/*
 * A directory of a rank's own under a directory TARGET (mpirun -n N
 * storbench ..., TARGET/storbench-rank-N), marked so that the next run can
 * tell what a killed run left there. When a rank dies, mpirun kills the
 * others at once: no rank removes its test files, and the directory stays.
 *
 * The mark is a file inside, SB_RANKDIR_MARKER, written when the directory
 * is made and held locked (flock) for the life of the run:
 *
 *   storbench per-rank directory 1
 *   run RUN-ID
 *   host HOST
 *   pid PID
 *   start TICKS          (the process's start time, /proc/PID/stat field 22)
 *   created UNIX-SECONDS
 *   file NAME            (one a file the run made there, added as it makes it)
 *   kept                 (the run ended keeping its files: --keep)
 *
 * A later run takes such a directory over only when everything proves it
 * is a dead run's leftover: the marker parses, it is not locked (flock) and
 * its process is not alive (the same pid and start time on the same host;
 * where the filesystem has no locks, a run of another host cannot be told
 * dead, so the directory is refused), the run did not keep its files, and
 * every entry of the directory is the marker or a regular file of ours the
 * marker names. Then, and only then, exactly those files are removed
 * (never through a symlink: a symlink or a directory under a listed name
 * is a refusal) and the marker is the new run's. Anything else is a
 * refusal that touches nothing.
 */
#ifndef SB_RANKDIR_H
#define SB_RANKDIR_H

#include "lib/sb.h"

#define SB_RANKDIR_MARKER ".storbench-rank"

struct sb_rankdir {
	int dfd, mfd; /* the directory and its marker (locked), -1 none */
	char path[4096];
	int made;		 /* made by this run (mkdir) */
	char run[64], host[128]; /* this run's */
	/* an earlier run's directory to take over (sb_rankdir_claim): its
	 * marker's run, host, pid and creation time, and the files to remove */
	int reuse;
	char old_run[64], old_host[128];
	long old_pid;
	long long old_created;
	char **names;
	unsigned nnames, nfound; /* listed; listed and there */
	uint64_t found_bytes;
};

/* Make path (mode 0700) with this run's marker, locked; or, where path
 * exists, decide whether it is a dead storbench run's to take over (d->reuse
 * set: nothing is removed yet, sb_rankdir_claim does it). A refusal is
 * -EEXIST (SB_ERR_INPUT) with the reason in er, and touches nothing.
 * run and host name this run in the marker. d is cleared here; every
 * return leaves it for sb_rankdir_close. */
int sb_rankdir_open(struct sb_rankdir *d, const char *path, const char *run, const char *host,
		    struct sb_error *er);
/* Taking an earlier run's over: remove the files its marker lists (each
 * still a regular file: what changed since sb_rankdir_open stays, and is
 * a refusal) and write this run's marker in its place. 0 when not
 * d->reuse. */
int sb_rankdir_claim(struct sb_rankdir *d, struct sb_error *er);
/* A file this run made in the directory (path its full path, or a name in
 * it): listed in the marker, once however often it is made again. Paths
 * elsewhere are ignored. 0 or -errno. */
int sb_rankdir_note(struct sb_rankdir *d, const char *path);
/* The end of the run, how: */
enum sb_rankdir_end {
	SB_RANKDIR_REMOVE, /* the marker and the directory go when nothing but the
			    * marker is left (else both stay: -ENOTEMPTY) */
	SB_RANKDIR_KEEP,   /* the files were kept (--keep): the marker says so,
			    * and a later run refuses the directory */
	SB_RANKDIR_LEAVE,  /* nothing touched (an earlier run's, not taken over) */
};
/* Closes d (again: nothing); 0 or -errno. */
int sb_rankdir_close(struct sb_rankdir *d, enum sb_rankdir_end how);

#endif
