/*
 * Files read whole (a plan, a job file, a results history's import), and
 * a path made absolute before a child changes its directory.
 */
#ifndef SB_BASE_FILEREAD_H
#define SB_BASE_FILEREAD_H

#include "lib/sb.h"

/* Reads the rest of f into *text (NUL-terminated, the caller frees) of
 * *len bytes; max bytes at most (0: no limit). 0, -ENOMEM, -EIO (a read
 * failed) or -EFBIG (more than max); *text is NULL but on 0. */
int sb_read_stream(FILE *f, size_t max, char **text, size_t *len);
/* The same for the file at path: -errno when it cannot be opened. */
int sb_read_file(const char *path, size_t max, char **text, size_t *len);

/* path made absolute into out: its directory resolved, its last name
 * kept when it does not exist yet (a file a run makes). 0; -errno of
 * realpath on path (but ENOENT); -ENOENT when its directory is missing. */
int sb_path_absolute(const char *path, char *out, size_t len);

#endif
