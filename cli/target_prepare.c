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

/* Many ranks: the library's steps (sb_ranks_jobtarget_prepare); the
 * rank's own directory is shared by the jobs that run together. */
static int prepare_ranks(struct sb_jobtarget *t, const char *path, struct sb_job_opts *job,
			 int needs_data, int noio)
{
	int own_dir;
	const int rc = cli_ranks_jobtarget_prepare(t, path, job, needs_data, noio, &own_dir);
	dir_users += own_dir;
	return rc;
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
