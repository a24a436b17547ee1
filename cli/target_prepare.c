/*
 * From TARGET to the files each job opens: the library's (lib/target/
 * jobtarget.h), with the program's hooks and its messages.
 */
#include "cli/cli.h"

#include "lib/storbench.h"

#include <unistd.h>

static int stop_asked(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

/* a second Ctrl-C removes the files being made; a rank's directory lists
 * them in its marker, for a run after a killed one */
static void track(void *ctx, const char *path, int fd, int on)
{
	(void)ctx;
	cli_signals_track_fd(path, fd, on);
	if (on)
		cli_ranks_note_file(path);
}

static void warn(void *ctx, const char *msg)
{
	(void)ctx;
	sb_warn("%s", msg);
}

static const struct sb_jt_hooks hooks = { stop_asked, track, warn, NULL };

int cli_target_probe(struct sb_jobtarget *t, const char *path)
{
	struct sb_error er;
	return sb_jobtarget_probe(t, path, &er) ? cli_error(&er) : 0;
}

int cli_device_consent(struct sb_jobtarget *t, const char *path)
{
	struct sb_error er;
	return sb_jobtarget_consent(t, path, &er) ? cli_error(&er) : 0;
}

int cli_refuse_device(const char *path)
{
	struct sb_error er;
	const int fd = sb_gate_device(path, 0, &er);
	if (fd >= 0) { /* cannot be: without consent the gate never opens */
		close(fd);
		sb_error_set(&er, -EPERM, SB_ERR_INPUT, "refusing to write to '%s'", path);
	}
	return cli_error(&er);
}

/* The jobs of a job file that run together in a directory share the
 * rank's own directory: made by the first, removed after the last one's
 * files (cli_target_cleanup counts them down); held, it stays for the
 * next group of jobs until released. */
static unsigned dir_users;
static int dir_held;

void cli_target_hold_rank_dir(int on, int keep)
{
	dir_held = on;
	if (!on && dir_users) {
		dir_users = 0;
		cli_ranks_remove_dir(keep);
	}
}

/* Many ranks: every one checks its target creating nothing, and they all
 * go on only if none refused; then each makes its files (its own
 * directory under a directory TARGET first) and they agree again (a full
 * disk on one host stops all). Nothing is written before the first
 * agreement. */
static int prepare_ranks(struct sb_jobtarget *t, const char *path, struct sb_job_opts *job,
			 int needs_data, int noio)
{
	struct sb_error er;
	struct sb_jobtarget chk = *t;
	chk.check_only = 1;
	chk.space_need = 0;
	int e = sb_jobtarget_prepare(&chk, path, job, needs_data, noio, &er);
	const int is_dir = !e && chk.info.kind == SB_TARGET_DIR && !noio;
	/* a new file is made by this rank (O_EXCL), never taken for one
	 * another rank made meanwhile on a shared filesystem */
	const int is_new = !e && chk.probed && chk.info.kind == SB_TARGET_NONE;
	if (is_new && !t->probed) {
		t->info = chk.info;
		t->probed = 1;
	}
	const uint64_t need = e ? 0 : chk.space_need, avail = chk.info.fs_free;
	char fs[sizeof(chk.info.mountpoint)];
	snprintf(fs, sizeof(fs), "%s", chk.info.mountpoint);
	sb_jobtarget_cleanup(&chk, 0);
	int rc = cli_ranks_agree_error(e, &er);
	/* each rank's files fit: and those of the ranks on one filesystem? */
	if (!rc)
		rc = cli_ranks_space_agree(path, need, avail, fs);
	if (rc)
		return rc;
	/* a directory a killed run left: taken over only when every rank may
	 * go on, so a refusal anywhere removes nothing anywhere; made (and
	 * claimed) once for all the jobs that share it */
	const char *where = path;
	if ((rc = cli_ranks_dir(path, is_dir, 1, &where)))
		return rc;
	if (where != path) {
		dir_users++;
		t->probed = 0; /* its own directory, probed anew */
	}
	e = sb_jobtarget_prepare(t, where, job, needs_data, noio, &er);
	/* found taken (-EEXIST), or held by the rank that made it (-EBUSY) */
	if ((e == -EEXIST || e == -EBUSY) && is_new && where == path)
		sb_error_set(&er, e, SB_ERR_INPUT,
			     "cannot create '%s': another rank made it first (the ranks share "
			     "this path: give a directory, where each gets one of its own)",
			     path);
	return cli_ranks_agree_error(e, &er);
}

int cli_target_prepare(struct sb_jobtarget *t, const char *path, struct sb_job_opts *job,
		       int needs_data, int noio)
{
	struct sb_error er;
	t->hooks = hooks;
	if (cli_ranks() > 1)
		return prepare_ranks(t, path, job, needs_data, noio);
	return sb_jobtarget_prepare(t, path, job, needs_data, noio, &er) ? cli_error(&er) : 0;
}

int cli_target_view(const struct sb_jobtarget *shared, struct sb_jobtarget *view,
		    struct sb_job_opts *job, const char *path, uint64_t new_size)
{
	struct sb_error er;
	return sb_jobtarget_view(shared, view, job, path, new_size, &er) ? cli_error(&er) : 0;
}

void cli_target_cleanup(struct sb_jobtarget *t, int keep)
{
	t->hooks = hooks;
	sb_jobtarget_cleanup(t, keep);
	if (dir_users > 1 || (dir_users && dir_held)) { /* another job's files are in it */
		dir_users -= dir_users > 1;
		return;
	}
	dir_users = 0;
	cli_ranks_remove_dir(keep);
}
