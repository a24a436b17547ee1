/*
 * The files a soak iteration killed before its end left behind (a
 * directory target's .storbench-verify-*.tmp): the log lists them before
 * any is made (the configuration, a resumed run's start record), and a
 * resume removes them, but only those that prove to be the soak's, as
 * storbench decides ownership everywhere (lib/target/scratch.h,
 * rankdir.h): a regular file, not a symlink, of this user, with one name,
 * that no run holds locked, carrying storbench's mark where the
 * filesystem keeps user xattrs, whose first block is a whole verify block
 * of the soak's seed and of a generation it may have written; removed
 * through what was opened, only while the name still names it. Anything
 * else merely has the name.
 */
#ifndef SB_SOAK_LEFTOVER_H
#define SB_SOAK_LEFTOVER_H

#include "lib/sb.h"

/* 1 removed, 0 nothing there (already gone), -EPERM not provably the
 * soak's (why says what it is instead; nothing is touched), other -errno.
 * max_generation: the highest generation the soak may have written. */
int sb_soak_leftover_remove(const char *path, uint64_t seed, uint64_t max_generation, char *why,
			    size_t wl);

#endif
