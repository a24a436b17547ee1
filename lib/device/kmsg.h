/*
 * Kernel messages: read /dev/kmsg from a point in time on, pick the lines
 * that point at storage trouble (I/O errors, mmc timeouts and CRC errors,
 * filesystem errors, NVMe resets, ATA errors, read-only remounts), and
 * tell which device each is about: the target's own stack, another
 * device, or none named.
 */
#ifndef SB_KMSG_H
#define SB_KMSG_H

#include "lib/sb.h"

struct sb_kmsg {
	int fd;
};

/* Open /dev/kmsg positioned at its end: only what comes later is read.
 * -errno when it cannot be read (no permission, no /dev/kmsg). */
int sb_kmsg_open(struct sb_kmsg *k);
void sb_kmsg_close(struct sb_kmsg *k);

/* Read the next record without blocking: 1 with the message text in line
 * (the "prio,seq,time,flags;" prefix removed; *time_us gets the kernel's
 * timestamp), 0 when nothing more is there, -errno on failure. Lost
 * records (-EPIPE from the kernel) are skipped. */
int sb_kmsg_read(struct sb_kmsg *k, char *line, size_t len, uint64_t *time_us);

/* Does a kernel message point at storage trouble? Returns a short category
 * ("io-error", "mmc", "filesystem", "nvme", "ata", "read-only", "scsi") or
 * NULL. */
const char *sb_kmsg_storage_trouble(const char *line);

/* The names a kernel line gives devices, in the forms the kernel writes
 * them ("dev sdb," "(device sda1)" "EXT4-fs (dm-0):" "/dev/sdc" "[sda]"
 * "mmc0:" "nvme nvme0:" "sd 0:0:0:0:" "ata1.00:" "on sda1-8", a journal's
 * device with its inode cut off too): at most max into names, the most
 * explicit forms first; the count. */
#define SB_KMSG_NAME_LEN 32
size_t sb_kmsg_names(const char *line, char (*names)[SB_KMSG_NAME_LEN], size_t max);

/* The devices a target stands on, as the kernel names them: the block
 * device, its whole disk and that disk's partitions; what is under it (a
 * dm or md device's slaves, the device of a loop device's backing file);
 * what is over it (dm and md holders, a loop device over the device node
 * itself, not one over a file on its filesystem: that is someone else's
 * image); and the controllers and hosts they hang on (mmc0, nvme0, ata1,
 * host0, 0:0:0:0, virtio1, a USB port 1-1), from the sysfs paths. */
#define SB_KMSG_STACK_MAX 64
struct sb_kmsg_stack {
	char name[SB_KMSG_STACK_MAX][SB_KMSG_NAME_LEN];
	unsigned n;
};
/* The stack of block device devname (a kernel name; "" or NULL: a target
 * on no block device, as tmpfs, FUSE or NFS: an empty stack), read from
 * sysfs mounted at sys ("/sys"; tests give a tree of their own). 0, or
 * -errno when devname cannot be looked at (the stack then holds it). */
int sb_kmsg_stack_build(struct sb_kmsg_stack *st, const char *sys, const char *devname);
/* name into the stack (once); 0, or -ENOSPC when it is full. */
int sb_kmsg_stack_add(struct sb_kmsg_stack *st, const char *name);
int sb_kmsg_stack_has(const struct sb_kmsg_stack *st, const char *name);

/* What a line is about. A line naming a device of the stack is the
 * target's; one naming only other devices is not (listed for information,
 * never a failure of the target); one naming no device may be about any,
 * the target's too, and counts as the target's: a false alarm costs a
 * look, a missed error a device shipped. */
enum sb_kmsg_about {
	SB_KMSG_UNNAMED, /* no device named: counts */
	SB_KMSG_OURS,	 /* a device of the stack */
	SB_KMSG_OTHER,	 /* only devices outside it */
};
/* dev gets the device the answer is about ("" unnamed). */
enum sb_kmsg_about sb_kmsg_attribute(const char *line, const struct sb_kmsg_stack *st, char *dev,
				     size_t len);

#endif
