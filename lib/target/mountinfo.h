/*
 * The mounts of /proc/self/mountinfo: what is mounted at a target's mount
 * point, and how (lib/target/mountinfo.c).
 */
#ifndef SB_MOUNTINFO_H
#define SB_MOUNTINFO_H

#include "lib/sb.h"

/* The mount at mountpoint (the last one stacked there). */
struct sb_mount {
	char source[256]; /* e.g. "/dev/vda1" */
	char fstype[32];
	char options[512]; /* per-mount options, then the superblock's */
};
int sb_mount_info(const char *mountpoint, struct sb_mount *out);

/* Undo the octal escapes of /proc/self/mountinfo fields (\040 for a
 * space), in place. */
void sb_mountinfo_unescape(char *s);

#endif
