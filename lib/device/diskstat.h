/*
 * A block device's own counters: the disk statistics the kernel keeps of
 * it (/sys/class/block/NAME/stat), read before and after a run.
 */
#ifndef SB_DISKSTAT_H
#define SB_DISKSTAT_H

#include "lib/sb.h"

/* Disk statistics of a block device (lib/device/diskstat.c). */
struct sb_diskstat {
	uint64_t ios[2]; /* reads, writes completed */
	uint64_t merges[2];
	uint64_t sectors[2]; /* 512-byte units */
	uint64_t ticks[2];   /* ms */
	uint64_t in_queue;   /* ms */
	uint64_t io_ticks;   /* ms the device was busy */
	uint64_t discard_ios, discard_sectors;
};
int sb_diskstat_read(const char *devname, struct sb_diskstat *out);
/* The text of a stat file: 11, 15 or 17 numbers (missing discard fields
 * read as 0). -EINVAL when it is not one. */
int sb_diskstat_parse(const char *text, struct sb_diskstat *out);

#endif
