/*
 * A run's hold on the files and devices it uses, for the life of the run:
 * two storbench runs never write one file or device at once, and a run
 * never reads what another is writing (issue 26). The hold is an open
 * file description lock (fcntl F_OFD_SETLK, Linux 3.15), taken on the
 * descriptor the run keeps open for as long as it uses the file:
 *
 *   - unlike a POSIX lock (F_SETLK) it is not let go when the process
 *     closes some other descriptor of the file (the jobs' reopens through
 *     /proc/self/fd, a probe), and it is the same on every filesystem the
 *     kernel locks itself (tmpfs, ramfs, FUSE that has no locks of its
 *     own) and goes to the server where one does (NFS, FUSE);
 *   - unlike flock, NFS does not turn it into another kind of lock, and
 *     it can say who holds it.
 *
 * It is taken past any data (at 2^62): a byte the run locks to write
 * (exclusive) or to read (shared), and a byte at 2^62 + 1 + pid, always
 * shared, that names the run: the refusal of another run names that pid.
 * The hold is advisory: it keeps storbench runs apart (and a program that
 * locks whole files), never a program that just writes.
 */
#ifndef SB_HOLD_H
#define SB_HOLD_H

#include "lib/sb.h"

/* Hold the file or block device open as fd for as long as fd stays open:
 * write, exclusive (fd must be open for writing), else shared. 0 held, or
 * where the filesystem keeps no locks (nothing to hold there), or when
 * this process holds it already through another descriptor (the jobs of
 * one job file on one file), or, to read, when another program (not a
 * storbench run) locks all of it; -EBUSY when another holds it in a way
 * that excludes this, *holder then its pid (a storbench run), or 0 when
 * that is not known (another program's lock, to write); -errno. */
int sb_hold(int fd, int write, long *holder);
/* The same, for a file this run has just created (O_EXCL): another run
 * may only have opened it to look, and goes, so a conflict is waited out
 * (for a second at most). */
int sb_hold_new(int fd, long *holder);
/* Is the file open as fd held by another run (this process's holds do not
 * count)? write: held in any way (a write would be refused), else held to
 * write. 1 (*holder its pid, or 0 unknown), 0 not, or where the
 * filesystem keeps no locks. */
int sb_hold_held(int fd, int write, long *holder);
/* Who holds the file at path (a symlink is not followed): a storbench
 * run's pid, 0 none or not known. For a name found taken (EEXIST) by a
 * run that is using it. */
long sb_hold_path(const char *path);
/* The refusal, into er: "cannot use 'PATH': another storbench run (pid N)
 * is using it" (SB_ERR_ENV, -EBUSY). Returns -EBUSY. */
int sb_hold_refusal(struct sb_error *er, const char *path, long holder);
/* The same text into msg (len bytes). */
void sb_hold_why(char *msg, size_t len, const char *path, long holder);

#endif
