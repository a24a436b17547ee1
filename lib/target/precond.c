/*
 * Bringing a target to a named state before a measurement: the jobs of the
 * fills (run by the program through the runner, as any job) and the
 * discard of a region. PTS's workload-independent preconditioning is the
 * fill job (lib/pts uses it).
 */
#include "lib/target/precond.h"
#include "lib/base/units.h"
#include "lib/base/u128.h"

#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

static const char *const names[] = { "none", "purge", "fill", "fill-random" };

const char *sb_precond_name(enum sb_precond p)
{
	return (unsigned)p < SB_ARRAY_SIZE(names) ? names[p] : "?";
}

/* "2x", "0.5x", "1.25x": hundredths of the region. */
static int parse_times(const char *v, unsigned *x100)
{
	char *end;
	const size_t n = strlen(v);
	if (n < 2 || (v[n - 1] != 'x' && v[n - 1] != 'X') || !(v[0] >= '0' && v[0] <= '9'))
		return -EINVAL;
	errno = 0;
	const double d = strtod(v, &end);
	if (errno || end != v + n - 1 || !(d >= 0.01) || d > 100)
		return -EINVAL;
	*x100 = (unsigned)(d * 100 + 0.5);
	return 0;
}

int sb_precond_parse(const char *v, struct sb_state_opts *o, char *msg, size_t msglen)
{
	o->precond = SB_PRECOND_NONE;
	o->purge = SB_PURGE_AUTO;
	o->amount_bytes = 0;
	o->amount_x100 = 100;
	if (!strcmp(v, "purge"))
		o->precond = SB_PRECOND_PURGE;
	else if (!strcmp(v, "fill"))
		o->precond = SB_PRECOND_FILL;
	else if (!strncmp(v, "fill-random", 11) && (!v[11] || v[11] == ':')) {
		o->precond = SB_PRECOND_FILL_RANDOM;
		const char *a = v[11] ? v + 12 : NULL;
		if (a && parse_times(a, &o->amount_x100) < 0 &&
		    (sb_parse_size(a, &o->amount_bytes) < 0 ||
		     o->amount_bytes < SB_PRECOND_RANDOM_BS)) {
			snprintf(msg, msglen,
				 "fill-random:AMOUNT takes a multiple of the region (0.5x, 1x, 2x; "
				 "up to 100x) or a size of at least 4k (8G)");
			return -EINVAL;
		}
	} else {
		snprintf(msg, msglen, "purge, fill, fill-random or fill-random:AMOUNT (2x, 8G)");
		return -EINVAL;
	}
	return 0;
}

uint64_t sb_precond_amount(const struct sb_state_opts *o, uint64_t region_bytes)
{
	uint64_t a = o->amount_bytes;
	if (!a) {
		uint64_t rem;
		const sb_u128 x = sb_u128_div(sb_u128_mul(region_bytes, o->amount_x100), 100, &rem);
		a = sb_u128_hi(x) ? UINT64_MAX : sb_u128_lo(x);
	}
	a -= a % SB_PRECOND_RANDOM_BS;
	return a ? a : SB_PRECOND_RANDOM_BS;
}

void sb_precond_fill_job(struct sb_job_opts *j, uint64_t offset, uint64_t size, unsigned iodepth,
			 uint64_t seed)
{
	sb_job_opts_default(j);
	snprintf(j->name, sizeof(j->name), "preconditioning SEQ 128KiB W");
	j->rw = SB_RW_WRITE;
	j->bs = SB_PRECOND_FILL_BS;
	j->iodepth = iodepth;
	j->numjobs = 1;
	j->direct = 1;
	j->offset = offset;
	j->size = size;
	j->seed = seed;
}

void sb_precond_random_job(struct sb_job_opts *j, uint64_t offset, uint64_t size, uint64_t amount,
			   unsigned iodepth, uint64_t seed)
{
	sb_precond_fill_job(j, offset, size, iodepth, seed);
	snprintf(j->name, sizeof(j->name), "preconditioning RND 4KiB W");
	j->rw = SB_RW_RANDWRITE;
	j->bs = SB_PRECOND_RANDOM_BS;
	j->io_size = amount;
}

int sb_discard_region(int fd, int is_blockdev, const char *path, uint64_t offset, uint64_t len,
		      struct sb_state *st, struct sb_error *er)
{
	const char *how = is_blockdev ? "BLKDISCARD" : "FALLOC_FL_PUNCH_HOLE";
	int e = 0;
	if (is_blockdev) {
		uint64_t range[2] = { offset, len };
		if (ioctl(fd, BLKDISCARD, range) < 0)
			e = -errno;
	} else if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset,
			     (off_t)len) < 0) {
		e = -errno;
	}
	if (e) {
		const int unsupported = e == -EOPNOTSUPP || e == -EINVAL || e == -ENOTTY;
		return sb_error_set(er, e, unsupported ? SB_ERR_INPUT : SB_ERR_ENV,
				    "--discard-before: '%s' %s%s (%s)", path,
				    unsupported ? "does not support discard" : "failed: ",
				    unsupported ? "" : strerror(-e), how);
	}
	st->discarded = 1;
	snprintf(st->discard_method, sizeof(st->discard_method), "%s", how);
	st->discard_bytes = len;
	return 0;
}

void sb_state_name(struct sb_state *st)
{
	const char *base = "as found";
	switch (st->precond) {
	case SB_PRECOND_PURGE: base = "purged"; break;
	case SB_PRECOND_FILL: base = "full"; break;
	case SB_PRECOND_FILL_RANDOM: base = "full (random)"; break;
	case SB_PRECOND_NONE: break;
	}
	if (st->discarded)
		snprintf(st->name, sizeof(st->name), "%s",
			 st->precond == SB_PRECOND_NONE ? "discarded" : "");
	if (st->discarded && st->precond != SB_PRECOND_NONE)
		snprintf(st->name, sizeof(st->name), "%s, then discarded", base);
	else if (!st->discarded)
		snprintf(st->name, sizeof(st->name), "%s", base);
}
