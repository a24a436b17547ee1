/*
 * Reading sysfs attributes: the one reader of lib/device (devinfo.c,
 * diskstat.c, mmc.c, purge.c ...) and of lib/target, which uses it for the
 * device beneath a target (target.c, devlist.c). Not a public header.
 */
#ifndef SB_SYSFS_H
#define SB_SYSFS_H

#include "lib/sb.h"

/* The block class: /sys/class/block/NAME for every disk and partition. */
#define SB_SYS_BLOCK "/sys/class/block"

/* dir/name into out; -ENAMETOOLONG when it does not fit. */
int sb_sysfs_path(char *out, size_t size, const char *dir, const char *name);
/* dir/attr as text without leading and trailing white space, cut to fit
 * buf. 0 or -errno; buf is left alone on failure. */
int sb_sysfs_text(const char *dir, const char *attr, char *buf, size_t size);
/* dir/attr as a number (decimal, or 0x hexadecimal), the whole text of it:
 * -EINVAL when it is something else. */
int sb_sysfs_u64(const char *dir, const char *attr, uint64_t *v);
/* 1 when dir/attr exists. */
int sb_sysfs_exists(const char *dir, const char *attr);
/* The selected entry of a list such as queue/scheduler: "none
 * [mq-deadline] kyber" -> "mq-deadline"; a lone word stands; out is left
 * alone otherwise. */
void sb_sysfs_selected(const char *list, char *out, size_t size);
/* 1 when the block device open as fd is a partition (its sysfs entry
 * has "partition"), else 0. */
int sb_sysfs_is_partition(int fd);
/* Strip leading and trailing spaces, tabs and newlines, in place. */
void sb_sysfs_trim(char *s);

#endif
