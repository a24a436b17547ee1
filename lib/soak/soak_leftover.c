/*
 * What a killed soak iteration left: the files its start record listed
 * before it made them (soak_leftover.h). A name in the log proves nothing
 * (anyone may have made a file of that name since): a file goes only when
 * what it holds says it is that iteration's.
 */
#include "lib/soak/soak_leftover.h"
#include "lib/job/buffer.h"
#include "lib/target/scratch.h"
#include "lib/target/target.h"
#include "lib/verify/block.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first block of fd: a verify block of this seed and of a generation
 * the soak may have written (1 to max). */
static int first_block_ours(int fd, uint64_t seed, uint64_t max, char *why, size_t wl)
{
	unsigned char head[SB_VERIFY_HDR_SIZE];
	struct sb_verify_header h;
	if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head))
		return snprintf(why, wl, "it holds no verify block"), 0;
	sb_verify_header_decode(head, &h);
	if (h.magic != SB_VERIFY_MAGIC || h.block_size < SB_VERIFY_MIN_BS ||
	    h.block_size > SB_VERIFY_MAX_BS || h.block_size % 512)
		return snprintf(why, wl, "its first block is no verify block"), 0;
	unsigned char *blk = sb_buf_alloc(h.block_size, 4096);
	if (!blk)
		return -ENOMEM;
	int ok = pread(fd, blk, h.block_size, 0) == (ssize_t)h.block_size &&
		 sb_verify_block_valid(blk, h.block_size, &h);
	free(blk);
	if (!ok) {
		snprintf(why, wl, "its first block is no whole verify block");
		return 0;
	}
	if (h.seed == seed && h.generation >= 1 && h.generation <= max)
		return 1;
	snprintf(why, wl,
		 "its data is not the soak's (seed %016llx generation %llu, not %016llx "
		 "generation 1 to %llu)",
		 (unsigned long long)h.seed, (unsigned long long)h.generation,
		 (unsigned long long)seed, (unsigned long long)max);
	return 0;
}

/* 0 when the file open as fd is the soak's, -EPERM (why says) when
 * it cannot be told so, -errno. */
static int ours(int fd, uint64_t seed, uint64_t max, char *why, size_t wl)
{
	struct stat st;
	const char *not = NULL;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		not = "it is not a regular file";
	else if (st.st_uid != geteuid())
		not = "it is another user's";
	else if (st.st_nlink != 1)
		not = "it has other names";
	/* a run writing it holds it locked (verify's files are) */
	else if (flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK)
		not = "a run is using it";
	if (not ) {
		snprintf(why, wl, "%s", not );
		return -EPERM;
	}
	/* storbench's mark, where the filesystem keeps user xattrs */
	const int mark = sb_file_is_ours_fd(fd);
	if (mark <= 0) {
		snprintf(why, wl, "it does not carry storbench's mark");
		return mark < 0 ? mark : -EPERM;
	}
	const int data = first_block_ours(fd, seed, max, why, wl);
	return data < 0 ? data : data ? 0 : -EPERM;
}

int sb_soak_leftover_remove(const char *path, uint64_t seed, uint64_t max_generation, char *why,
			    size_t wl)
{
	why[0] = 0;
	/* not through a symlink; O_NONBLOCK: a FIFO planted there does not hang */
	const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		if (errno == ELOOP)
			return snprintf(why, wl, "it is a symbolic link"), -EPERM;
		return -errno;
	}
	int e = ours(fd, seed, max_generation, why, wl);
	/* still the file looked at: removed by what was opened, never a name */
	if (!e) {
		e = sb_scratch_remove(path, fd);
		if (e == -ESTALE)
			snprintf(why, wl, "the name now names another file");
		e = e == 0 ? 1 : e == -ENOENT ? 0 : e == -ESTALE ? -EPERM : e;
	}
	close(fd);
	return e;
}
