/*
 * Kernel messages: read /dev/kmsg from a point in time on, and pick the
 * lines that point at storage trouble (I/O errors, mmc timeouts and CRC
 * errors, filesystem errors, NVMe resets, ATA errors, read-only remounts).
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

#endif
