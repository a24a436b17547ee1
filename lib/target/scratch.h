/*
 * Scratch files: the test files storbench makes, often in a directory that
 * other users may write to too (/tmp, a shared mount, a FAT card). A
 * scratch file is always new: created with O_CREAT|O_EXCL|O_NOFOLLOW, so
 * nothing that exists, and no symlink planted under its name, is ever
 * opened; its name holds the process id and 64 random bits, so it cannot be
 * planted in advance; and from then on it is used through its descriptor
 * (fstat, ftruncate, a reopen through /proc/self/fd), never re-opened by
 * name. Its name is removed only while it still names that file.
 */
#ifndef SB_SCRATCH_H
#define SB_SCRATCH_H

#include <sys/types.h>
#include "lib/sb.h"

/* "dir/<prefix><pid>-<16 hex digits><suffix>" into buf, with fresh random
 * bits (dir NULL or "": no directory part). 0, or -ENAMETOOLONG. Nothing
 * is created: sb_scratch_create_path makes it. */
int sb_scratch_name(char *buf, size_t len, const char *dir, const char *prefix, const char *suffix);

/* Create a new file in dir named as sb_scratch_name does, open with flags
 * (O_RDWR or O_WRONLY, perhaps O_DIRECT) and O_CREAT | O_EXCL | O_NOFOLLOW
 * | O_CLOEXEC, mode 0600. A name that exists is never taken: another is
 * drawn. Returns the descriptor with path (len bytes) set, or -errno. */
int sb_scratch_create(const char *dir, const char *prefix, const char *suffix, int flags,
		      char *path, size_t len);

/* The same for exactly path (a name the user chose, or one drawn with
 * sb_scratch_name): -EEXIST when anything is there, a symlink included. */
int sb_scratch_create_path(const char *path, int flags);

/* Does path (its last component not followed) name the file open as fd?
 * 1, 0, or -errno (-ENOENT when nothing is there). */
int sb_scratch_same(const char *path, int fd);

/* Remove path when it still names the file open as fd: fstatat with
 * AT_SYMLINK_NOFOLLOW and unlinkat on one descriptor of its directory, so
 * what is checked is what is unlinked. 0; -ESTALE when the name now names
 * something else (a symlink, another file), which stays; -ENOENT when
 * nothing is there; -errno. fd stays open. Async-signal-safe: a signal
 * handler may call it. */
int sb_scratch_remove(const char *path, int fd);

/* A new file in place of the one open as old under path (this run's,
 * still named so), so that the name never stands free for another run to
 * take: made beside it under a random name (sb_scratch_create, flags),
 * prepared by prep(fd, ctx) if given (the hold, the mark), swapped in
 * (renameat2 RENAME_EXCHANGE; each side checked by descriptor, and put
 * back when path named something else by then), and the old one removed
 * by its descriptor and closed. Returns the new descriptor;
 * -EOPNOTSUPP where the filesystem cannot swap names (FAT), -errno: then
 * nothing changed and old is still open. */
int sb_scratch_replace(const char *path, int old, int flags, int (*prep)(int fd, void *ctx),
		       void *ctx);

/* A new open file description of the file open as fd (its own offset,
 * readahead and flags: O_DIRECT, O_SYNC, O_TRUNC ...), through
 * /proc/self/fd, which names that file whatever its name names now.
 * Without /proc, a duplicate with O_DIRECT set as flags say (shared with
 * fd), and -EOPNOTSUPP for O_SYNC or O_DSYNC that fd lacks. Never gains
 * write access: -EBADF for a write of a read-only fd (only the write gate,
 * lib/target/gate.h, gives descriptors that write a user's target).
 * Returns the descriptor (close-on-exec) or -errno. */
int sb_scratch_reopen(int fd, int flags);

#endif
