/*
 * storbench verify: the target made ready for the library's run
 * (lib/verify/verify.h), with its messages and exit codes: probed,
 * resolved (lib/verify/verify_target.h: nothing is created), its space
 * checked, the engine chosen, a device's consent taken through the write
 * gate; after the run, the files made removed. Under mpirun every step is
 * agreed, and a directory TARGET gets a directory of its own per rank.
 * soak makes its target ready with the same steps.
 */
#include "cli/verify_cli.h"
#include "lib/storbench.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define MSG_LEN 8448 /* two paths and some words */

struct sb_vtarget_opts verify_lib_opts(const struct verify_opts *o)
{
	return (struct sb_vtarget_opts){
		.phase = o->phase,
		.offset = o->offset,
		.size = o->size_given ? o->size : 0,
		.block_size = o->block_size,
		.block_size_given = o->block_size_given,
		.seed = o->seed,
		.seed_given = o->seed_given,
		.direct = o->direct,
		.destroy = o->destroy,
	};
}

int verify_target_resolve(struct vtarget *t, const char *path, struct verify_opts *o)
{
	struct sb_vtarget_opts lo = verify_lib_opts(o);
	char msg[MSG_LEN];
	int e;
	/* a caller that looked first (soak) is not made to look twice */
	if (!t->ct.probed && (e = cli_target_probe(&t->ct, path)))
		return e;
	if (t->ct.info.kind == SB_TARGET_BLOCK && (o->phase & SB_VPHASE_WRITE) && !o->destroy)
		return cli_refuse_device(path);
	e = sb_vtarget_resolve(&t->v, path, &t->ct.info, &lo, msg, sizeof(msg));
	/* a check may have read the seed and the block size from the data */
	o->seed = lo.seed;
	o->block_size = lo.block_size;
	if (!e)
		return 0;
	sb_err("%s", msg);
	/* a target that is not there cannot be used; no data of ours in one
	 * that is, or a file not ours, is the user's to set right */
	if (e == -ENOENT && t->ct.info.kind == SB_TARGET_NONE)
		return SB_EXIT_ENV;
	return e == -EINVAL || e == -EPERM || e == -ENOENT ? SB_EXIT_USAGE : SB_EXIT_ENV;
}

/* A device: written through what the write gate gave, once consented. */
static int consent(struct vtarget *t, const struct verify_opts *o)
{
	t->ct.destroy_data = o->destroy;
	const int rc = cli_device_consent(&t->ct, t->v.path);
	if (rc)
		return rc;
	struct sb_vseg *s = &t->v.seg[0];
	if (s->fd >= 0)
		close(s->fd);
	s->fd = fcntl(t->ct.excl_fd - 1, F_DUPFD_CLOEXEC, 0);
	if (s->fd < 0) {
		sb_err("cannot use '%s': %s", t->v.path, strerror(errno));
		return SB_EXIT_ENV;
	}
	return 0;
}

void verify_track_created(const char *path, int fd, const struct verify_opts *o)
{
	cli_ranks_note_file(path); /* in a rank's directory */
	/* tracked once, with its descriptor of now (soak: each iteration's
	 * file); a second Ctrl-C removes what --phase=both would have removed */
	cli_signals_track_fd(path, -1, 0);
	if (o->phase == SB_VPHASE_BOTH && !o->keep)
		cli_signals_track_fd(path, fd, 1);
}

int verify_target_create(struct vtarget *t, const struct verify_opts *o)
{
	const struct sb_vtarget_opts lo = verify_lib_opts(o);
	char msg[MSG_LEN];
	if (t->v.is_blockdev)
		return consent(t, o);
	const int e = sb_vtarget_create(&t->v, &lo, msg, sizeof(msg));
	for (unsigned i = 0; i < t->v.nseg; i++)
		if (t->v.seg[i].created)
			verify_track_created(t->v.seg[i].path, t->v.seg[i].fd, o);
	if (!e)
		return 0;
	sb_err("%s", msg);
	snprintf(t->why, sizeof(t->why), "%.*s", (int)sizeof(t->why) - 1, msg);
	return cli_exit_of_errno(e);
}

void verify_target_cleanup(struct vtarget *t, int remove_created)
{
	char msg[MSG_LEN];
	for (unsigned i = 0; i < t->v.nseg; i++) {
		cli_signals_track_file(t->v.seg[i].path, 0);
		if (remove_created && sb_vtarget_remove_said(&t->v, i, msg, sizeof(msg)) < 0 &&
		    msg[0])
			sb_warn("%s", msg);
	}
	sb_vtarget_free(&t->v);
	/* a rank's directory: removed with the files, else marked kept */
	cli_target_cleanup(&t->ct, !remove_created);
}

const struct sb_engine_ops *verify_engine(const struct verify_opts *o)
{
	struct sb_job_opts j;
	int fell_back;

	sb_job_opts_default(&j);
	snprintf(j.engine, sizeof(j.engine), "%s", o->engine);
	j.iodepth = o->iodepth;
	const struct sb_engine_ops *ops = cli_engine_choose(&j, &fell_back);
	if (ops && (ops->flags & SB_ENGINE_NOIO)) {
		sb_err("--engine: %s does no I/O; verify needs psync, io_uring or libaio",
		       ops->name);
		return NULL;
	}
	return ops;
}

/* Many ranks: each works on TARGET as given (a device or a file on its
 * own host) or, for a directory, in a directory of its own under it
 * (--per-rank-dir), this run's to write (cli_ranks_dir) once every rank
 * has checked TARGET; a write's seed is rank 0's on every rank (one
 * --phase=check line for all). */
static int ranks_target(struct vtarget *t, struct verify_opts *o, const char **path)
{
	const int rc = cli_ranks_probe_dir(&t->ct, path, !!(o->phase & SB_VPHASE_WRITE));
	if (!rc && !o->seed_given)
		cli_ranks_bcast(&o->seed, sizeof(o->seed));
	return rc;
}

/* What the target holds that the user should know before a check. */
static void resolved_warnings(const struct vtarget *t, const struct verify_opts *o,
			      const char *path)
{
	if (o->phase == SB_VPHASE_CHECK && !o->seed_given && !t->v.learned)
		sb_warn("no block written by storbench verify found in '%s': every block will "
			"count as foreign (give --seed to check against a run)",
			path);
	if (t->v.other_runs)
		sb_warn("'%s' holds the files of %u other verify run%s: checking those of run "
			"%s, the %s",
			path, t->v.other_runs, t->v.other_runs > 1 ? "s" : "",
			t->v.run[0] ? t->v.run : "without a name",
			o->seed_given ? "newest of the seed given" : "newest");
}

int verify_prepare(struct vtarget *t, struct verify_opts *o, const char **path,
		   const struct sb_engine_ops **ops)
{
	int rc;
	if (cli_ranks() > 1 && (rc = ranks_target(t, o, path)))
		return rc;
	/* many ranks: none goes on when one cannot (nothing written yet) */
	if ((rc = cli_ranks_agree(verify_target_resolve(t, *path, o), NULL)))
		return rc;
	/* each rank's files fit: and those of the ranks on one filesystem?
	 * (without --size each fills the free space: refused when shared) */
	if (o->phase != SB_VPHASE_CHECK &&
	    (rc = cli_ranks_space_agree(*path,
					t->v.is_blockdev || t->ct.info.kind == SB_TARGET_FILE
						? 0
						: t->v.size,
					t->ct.info.fs_free, t->ct.info.mountpoint)))
		return rc;
	resolved_warnings(t, o, *path);
	/* a block size read from the data may not divide the request size */
	if (o->request_size % o->block_size)
		o->request_size = SB_MAX(o->request_size / o->block_size, 1u) * o->block_size;
	*ops = verify_engine(o);
	if ((rc = cli_ranks_agree(*ops ? 0 : SB_EXIT_USAGE, NULL)))
		return rc;
	/* every option is valid: only now is anything created or written; a
	 * Ctrl-C from here on is handled, so the files made are removed */
	cli_signals_install();
	if (t->v.is_blockdev && (o->phase & SB_VPHASE_WRITE))
		return cli_ranks_agree(consent(t, o), NULL);
	return 0;
}
