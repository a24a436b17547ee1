/*
 * Output files that are whole or absent: written under a temporary name in
 * the same directory (created with O_EXCL|O_NOFOLLOW, so nothing planted
 * there is followed or reused), flushed to the medium, then renamed over
 * the final name and the directory flushed. A reader, a crash or a full
 * disk never leaves half a document under the final name; the first write
 * error is kept with its errno (a full disk is ENOSPC, not EIO).
 */
#ifndef SB_OUTFILE_H
#define SB_OUTFILE_H

#include "lib/sb.h"

struct sb_outfile {
	FILE *f;	 /* write here */
	char path[4096]; /* the final name */
	char tmp[4200];	 /* the temporary name; "" when written in place */
	int fd;		 /* the temporary file's descriptor; -1 for a stream */
	int err;	 /* the first write error (-errno), 0 none */
	int borrowed;	 /* f is the caller's stream (stdout): only flushed */
};

/* Starts an output file at path. 0, or -errno with nothing left behind
 * (-ENOENT for an empty path, -ENAMETOOLONG for one too long). */
int sb_outfile_open(struct sb_outfile *o, const char *path);
/* The same calls over a stream of the caller's (stdout for "-"). */
void sb_outfile_stream(struct sb_outfile *o, FILE *f);
/* Flushes, syncs, renames over the final name and syncs the directory.
 * 0, or the first error's -errno; on error the temporary file is removed.
 * Closes o->f either way (a borrowed stream is only flushed). */
int sb_outfile_commit(struct sb_outfile *o);
/* Drops the output: closes and removes the temporary file. */
void sb_outfile_abort(struct sb_outfile *o);

/* Writes all len bytes of buf to fd (a write cut short goes on, EINTR
 * retried). 0, or -errno of the first failure (-EIO for a write of 0). */
int sb_write_full(int fd, const void *buf, size_t len);

#endif
