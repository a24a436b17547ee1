/*
 * The write gate: the one place a target the user named (a regular file or
 * a block device) becomes a descriptor that may write it. Every write of a
 * target, the workload's, a precondition's, a discard's, a purge's,
 * verify's, spo's, goes through a descriptor the gate gave (or a reopen of
 * it: sb_scratch_reopen never gains write access the descriptor lacks), so
 * that the rules hold for all of them alike:
 *
 *   a file: never through a symbolic link (--destroy-data is consent to
 *   overwrite the file named, not what a link points to by now), never a
 *   file the kernel uses (a loop device's backing file, an active swap
 *   file) nor one of its interfaces (proc, sysfs, efivarfs ...), and
 *   without --destroy-data only storbench's own;
 *
 *   a device: never in use (mounted, swap, a holder, a loop device sharing
 *   its data: sb_dev_in_use), never without --destroy-data (the refusal
 *   names a signature it holds), and held with O_EXCL while it is written.
 */
#ifndef SB_GATE_H
#define SB_GATE_H

#include "lib/sb.h"

/* Is the content of the file open as fd storbench's? 1 yes, 0 no, -errno.
 * NULL: sb_file_is_ours_fd. */
typedef int (*sb_gate_ours_fn)(int fd, void *ctx);

/* Open the regular file path to write it (O_RDWR, close-on-exec, blocking
 * I/O), or refuse. destroy: --destroy-data. Returns the descriptor, or
 * -errno with er filled: -ELOOP a symlink, -ETXTBSY in use by the kernel
 * (SB_ERR_ENV), -EPERM not ours without destroy, -EINVAL not a regular
 * file, or what open said. */
int sb_gate_file(const char *path, int destroy, sb_gate_ours_fn ours, void *ctx,
		 struct sb_error *er);

/* May the block device at path be written? Returns a descriptor of the
 * device checked, open O_RDWR | O_EXCL (mount, mkfs and another storbench
 * get EBUSY while it is held), or -errno with er filled: -EBUSY in use
 * (SB_ERR_ENV), -EPERM without destroy (the one refusal every command
 * gives: it names a signature the device holds), -ENOTBLK not a device. */
int sb_gate_device(const char *path, int destroy, struct sb_error *er);

/* A log a run writes under a name the user gave (fio's write_iolog=,
 * write_bw_log= ...): a new file (made O_EXCL, marked storbench's), or an
 * existing one that passes sb_gate_file with its content storbench's (its
 * mark) or none (empty), or any with destroy; made empty (append: kept).
 * Never a device, a fifo, a directory, a symbolic link, a file the kernel
 * uses or one of its interfaces. Returns the descriptor open to write, or
 * -errno with er filled as sb_gate_file's (-EINVAL not a regular file).
 * check_only: only told whether it would be (0), nothing made or changed. */
int sb_gate_log(const char *path, int destroy, int append, int check_only, struct sb_error *er);

/* A second file a job writes, name beside its own file (in the same
 * directory: fio's donorname= of e4defrag): made new (O_EXCL, never
 * through a symlink, marked storbench's and held), or an existing one
 * through sb_gate_file (storbench's, or any with destroy). Returns the
 * descriptor open O_RDWR, or -errno with er filled. check_only: only
 * told whether an existing one may be used (0), nothing made. */
int sb_gate_beside(const char *file, const char *name, int destroy, int check_only,
		   struct sb_error *er);

#endif
