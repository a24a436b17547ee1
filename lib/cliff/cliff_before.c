/* storbench cliff's purge before the fill (cliff.h), so that the cache
 * starts empty: a device is purged whole (the methods of pts); a file's
 * region gets a hole punched (the filesystem passes the discard on where
 * it can). A refusal is an error. */
#include "lib/cliff/cliff.h"
#include "lib/target/jobtarget.h"
#include "lib/target/precond.h"

#include <fcntl.h>
#include <unistd.h>

static int purge_file(const struct sb_cliff_opts *o, int fd, struct sb_cliff_result *out,
		      struct sb_error *err)
{
	const struct sb_jobtarget *t = o->t;
	struct sb_state st;
	memset(&st, 0, sizeof(st));
	const int e = sb_discard_region(fd, 0, o->path, t->region_offset, t->region_size, &st, err);
	if (e)
		return sb_error_set(err, e, err->cls,
				    "--purge=%s: '%s' cannot punch a hole in its region: %s "
				    "(nothing was written)",
				    sb_purge_name(o->purge), o->path, strerror(-e));
	out->purge = "discard";
	snprintf(out->purge_method, sizeof(out->purge_method), "%s", st.discard_method);
	out->purge_bytes = st.discard_bytes;
	return 0;
}

int sb_cliff_purge(const struct sb_cliff_opts *o, struct sb_cliff_result *out, struct sb_error *err)
{
	const struct sb_jobtarget *t = o->t;
	if (o->purge == SB_PURGE_NONE)
		return 0;
	if (!t->is_blockdev && o->purge != SB_PURGE_AUTO && o->purge != SB_PURGE_DISCARD)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "--purge=%s: '%s' is not a block device (a file takes "
				    "--purge=discard: a hole punched in its region)",
				    sb_purge_name(o->purge), o->path);
	const int fd = sb_jobtarget_open(t, 0, O_RDWR);
	if (fd < 0)
		return sb_error_set(err, fd, SB_ERR_ENV, "cannot open '%s' to purge it: %s",
				    o->path, strerror(-fd));
	int e;
	if (t->is_blockdev) {
		enum sb_purge_method used;
		e = sb_purge_how(fd, o->path, o->purge, &used, out->purge_method,
				 sizeof(out->purge_method), err);
		if (!e) {
			out->purge = sb_purge_name(used);
			out->purge_bytes = t->info.capacity;
		}
	} else {
		e = purge_file(o, fd, out, err);
	}
	close(fd);
	return e;
}
