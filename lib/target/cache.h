/* Cold caches: what every command that needs them calls. */
#ifndef SB_CACHE_H
#define SB_CACHE_H

#include "lib/sb.h"

enum sb_cache_method {
	SB_CACHE_NONE = 0,
	SB_CACHE_FADVISE = 1,	  /* posix_fadvise(DONTNEED) on the file */
	SB_CACHE_DROP_CACHES = 2, /* sync, then 3 > /proc/sys/vm/drop_caches */
	SB_CACHE_BLKFLSBUF = 3,	  /* the block device's own cache: BLKFLSBUF */
};

/* Drop the page cache under the file open at fd (fd may be -1: then only
 * drop_caches is tried). As root: sync and write 3 to drop_caches; when that
 * is not allowed: fdatasync and posix_fadvise(DONTNEED). Returns the method
 * used (> 0), or -errno when neither worked. */
int sb_cache_drop(int fd);
const char *sb_cache_method_name(int method);
/* hdparm's flush_buffer_cache on the block device open at fd: sync, fsync,
 * fdatasync, sync, BLKFLSBUF (the device's pages only, not the whole page
 * cache), sync. SB_CACHE_BLKFLSBUF, or -errno of BLKFLSBUF (-ENOTTY: not a
 * block device; -EACCES/-EPERM: it needs CAP_SYS_ADMIN). */
int sb_cache_flush_blockdev(int fd);
/* Whether sb_cache_drop can drop the whole page cache here (drop_caches is
 * writable: root, and /proc/sys not read-only), rather than one file's
 * pages with fadvise, which not every filesystem honours. */
int sb_cache_can_drop_all(void);
/* Of [off, off + len) of the file or device open at fd, the bytes in the
 * page cache now (mincore over a read-only mapping), into *resident, and
 * the bytes looked at into *checked: all of a region up to 16 GiB, 64
 * windows spread over a larger one. 0 or -errno. */
int sb_cache_resident(int fd, uint64_t off, uint64_t len, uint64_t *resident, uint64_t *checked);

#endif
