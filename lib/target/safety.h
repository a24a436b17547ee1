/*
 * Safety: may this target be written? Mounted or swap-backed devices (or any
 * of their partitions and holders) never; devices holding a partition table,
 * filesystem, LVM, RAID, LUKS or swap signature only with consent. Devices
 * are compared by dev_t, never by name, so /dev/disk/by-id links and
 * /dev/root are caught.
 */
#ifndef SB_SAFETY_H
#define SB_SAFETY_H

#include <sys/types.h>
#include "lib/sb.h"

/* Is the block device dev, one of its partitions, a device holding it (dm,
 * md, LVM), or a loop device over or under any of these, or over the same
 * file as a loop device of them (device and inode: a hard link too),
 * recursively, mounted or used as swap; is such a loop device over an
 * active swap file; or does a loop device hold a file on one of them? Returns 1 (where gets e.g. "/dev/sda1 is mounted on /home", "swap",
 * or "/dev/loop3 is backed by /x.img, a file on /dev/sda1"), 0 when free,
 * -errno when it cannot tell. */
int sb_dev_in_use(dev_t dev, char *where, size_t wherelen);
/* 1 when the regular file open at fd is in use by the kernel, so that
 * writing it would corrupt what uses it: an active swap file (/proc/swaps),
 * or the backing file of a loop device (a filesystem image mounted through
 * /dev/loopN). why gets the reason, to follow "it is ". 0 when not, -errno
 * when it cannot be told. */
int sb_file_in_use(int fd, char *why, size_t len);

/* Does the block device at path carry a signature of data? Returns 1 (what
 * gets e.g. "ext4 filesystem", "GPT partition table"), 0 when none was
 * found, -errno when it cannot be read. Uses libblkid when built with it,
 * a built-in probe otherwise. */
int sb_dev_signature(const char *path, char *what, size_t whatlen);
/* The built-in probe on the file or device open as fd (its first 68 KiB):
 * 1 with what filled, 0 when nothing known, -errno when it cannot be read. */
int sb_fd_signature(int fd, char *what, size_t whatlen);
/* The built-in probe over the first n bytes of a device (used without
 * libblkid, and as its backup): 1 with what filled, 0 when nothing known. */
int sb_signature_scan(const unsigned char *b, size_t n, char *what, size_t whatlen);

#endif
