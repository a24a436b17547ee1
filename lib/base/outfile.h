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
	FILE *f;		/* write here (stdout for "-") */
	char path[4096];	/* the final name */
	char tmp[4200];		/* the temporary name; "" for stdout */
	int fd;			/* the temporary file's descriptor; -1 for stdout */
	int err;		/* the first write error (-errno), 0 none */
};

/* Starts an output file at path ("-" or NULL: stdout). 0, or -errno with
 * nothing left behind (-ENAMETOOLONG for a path too long). */
int sb_outfile_open(struct sb_outfile *o, const char *path);
/* Flushes, syncs, renames over the final name and syncs the directory.
 * 0, or the first error's -errno; on error the temporary file is removed.
 * Closes o->f either way (not stdout, which is only flushed). */
int sb_outfile_commit(struct sb_outfile *o);
/* Drops the output: closes and removes the temporary file. */
void sb_outfile_abort(struct sb_outfile *o);

#endif
