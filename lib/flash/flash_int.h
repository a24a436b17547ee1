/* Internals of lib/flash shared by its files. */
#ifndef SB_FLASH_INT_H
#define SB_FLASH_INT_H

#include "lib/flash/flash.h"

/* One pread (write 0) or pwrite of len bytes at off, timed into *ns. 0,
 * -errno, or -EIO for a short transfer. */
int sb_flash_time_io(int fd, void *buf, size_t len, uint64_t off, int write, uint64_t *ns);
/* A 4096-aligned buffer of len bytes filled with fill (free with free()). */
void *sb_flash_buffer(size_t len, int fill);
int sb_flash_stopped(const struct sb_flash_hooks *h);
/* What stands out from noise, for --align's boundaries and --open-au's
 * collapses alike: more than NOISE_FACTOR x the noise and more than
 * BASE_SHARE of the plain figure. */
#define SB_FLASH_NOISE_FACTOR 3.0
#define SB_FLASH_BASE_SHARE 0.05
double sb_flash_threshold(double noise_ns, double base_ns);
void sb_flash_tell(const struct sb_flash_hooks *h, uint64_t done, uint64_t total);

#endif
