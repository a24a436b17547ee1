/*
 * Targets: what the user named (a regular file, a directory or a block
 * device), the block device beneath it, and the files storbench creates.
 * Writing to block devices is refused until the safety rules land (issue 3).
 */
#ifndef SB_TARGET_H
#define SB_TARGET_H

#include <sys/types.h>
#include "lib/sb.h"

enum sb_target_kind {
	SB_TARGET_NONE, /* does not exist (a file to create) */
	SB_TARGET_FILE,
	SB_TARGET_DIR,
	SB_TARGET_BLOCK,
	SB_TARGET_OTHER, /* character device, fifo, socket: refused */
};

struct sb_target_info {
	enum sb_target_kind kind;
	char path[4096];
	uint64_t file_size; /* regular file: st_size; block device: capacity */
	/* the block device holding the data (the device itself, or the one the
	 * filesystem of a file/directory lives on); devname "" when unknown
	 * (tmpfs, overlay, ...) */
	unsigned dev_major, dev_minor;
	char devname[64];    /* kernel name, e.g. "sda1", "zram0" */
	char disk[64];	     /* whole disk for a partition, e.g. "sda" */
	uint64_t capacity;   /* bytes, of devname */
	uint32_t logical_bs; /* bytes; 512 when unknown */
	uint32_t physical_bs;
	int rotational; /* 1, 0, or -1 unknown */
	char model[128];
	char scheduler[32];   /* the selected one, e.g. "none", "mq-deadline" */
	char write_cache[32]; /* "write back", "write through", "" */
	char fstype[32];      /* filesystem of a file/dir target, e.g. "ext4" */
	char mountpoint[256];
	uint64_t fs_free; /* bytes available to us on that filesystem */
	int direct_ok;	  /* O_DIRECT worked on a probe: 1, 0, -1 untested */
};

/* Look at path without creating or changing anything. Missing path: kind
 * NONE (its parent directory's filesystem is described). -errno on failure
 * (e.g. -EACCES, -ENOENT for a missing parent). */
int sb_target_probe(const char *path, struct sb_target_info *out);

/* 1 when the target's data is in RAM: a file or directory on tmpfs, ramfs
 * or devtmpfs, with no block device beneath (lib/target/devlist.c). */
int sb_target_in_ram(const struct sb_target_info *t);
/* The warning every command gives for a target in RAM, in buf: 1, or 0
 * (buf untouched) when the target is not in RAM. */
int sb_target_ram_warning(const struct sb_target_info *t, char *buf, size_t len);
/* Is path, probed into t, a missing path under /dev (its directory on
 * devtmpfs, or /dev itself), or a regular file on devtmpfs? A device that
 * is not there, never a file to create or use: -ENODEV (SB_ERR_ENV) with
 * er naming the block devices there are. A directory on devtmpfs (/dev,
 * /dev/disk/by-id) is not storage either: -EISDIR (SB_ERR_INPUT), the
 * same list. 0 otherwise. */
int sb_target_missing_device(const char *path, const struct sb_target_info *t, struct sb_error *er);
/* The block devices of /sys/class/block that hold something, by name,
 * with their sizes: "sda (59.6 GiB), sda1 (59.6 GiB)", cut short at a
 * whole entry to fit buf ("" when there are none). */
void sb_block_devices(char *buf, size_t len);

/* Files storbench creates carry the xattr "user.storbench" where the
 * filesystem has user xattrs. Their names (lib/target/scratch.h) hold the
 * process id and random bits, but a name is never proof of ownership: a
 * user may name a file anything. */
#define SB_CREATED_XATTR "user.storbench"

/* Asked now and then during long work: stop when fn(ctx) returns non-zero. */
struct sb_stop {
	int (*fn)(void *ctx);
	void *ctx;
};

/* Mark the new file open as fd as storbench's (the xattr), before anything
 * is written to it. 0 where the filesystem keeps no user xattrs too (the
 * file is then no one's to take later: sb_file_is_ours_fd); -errno. */
int sb_file_mark(int fd);
/* Lay out a new file open as fd with size bytes: mark it as ours, then with
 * fill write random data (so reads read real blocks), fsync and drop it from
 * the page cache; otherwise allocate with fallocate (or ftruncate). -EINTR
 * when stop (may be NULL) asked to stop between chunks; -errno. */
int sb_file_layout(int fd, uint64_t size, int fill, uint64_t seed, const struct sb_stop *stop);
/* Create path exclusively (sb_scratch_create_path: nothing there, not even
 * a symlink) and lay it out as sb_file_layout. Returns 0 or -errno; on
 * failure nothing is left behind. */
int sb_file_create(const char *path, uint64_t size, int fill, uint64_t seed);
/* Remove path only when it is ours (sb_file_is_ours) and still the file
 * looked at. -EPERM when it is not ours (a symlink never is). */
int sb_file_remove_created(const char *path);
/* 1 when path is a regular file (not followed through a symlink) with our
 * mark, the xattr, 0 when not, -errno when that cannot be told. The one
 * rule of every command: on a filesystem without user xattrs no file is
 * ours but those this run holds open, whatever it holds (a verify block
 * is data, and data is copied). */
int sb_file_is_ours(const char *path);
/* The same for the file open as fd. */
int sb_file_is_ours_fd(int fd);

/* Drop the page cache of a file: posix_fadvise(DONTNEED) after fdatasync. */
int sb_drop_file_cache(int fd);

#endif
