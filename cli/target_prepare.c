/*
 * From TARGET to the files each job opens: the library's (lib/target/
 * jobtarget.h), with the program's hooks and its messages.
 */
#include "cli/cli.h"

#include "lib/storbench.h"

static int stop_asked(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

/* a second Ctrl-C removes the files being made */
static void track(void *ctx, const char *path, int fd, int on)
{
	(void)ctx;
	cli_signals_track_fd(path, fd, on);
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

int cli_target_prepare(struct sb_jobtarget *t, const char *path, struct sb_job_opts *job,
		       int needs_data, int noio)
{
	struct sb_error er;
	t->hooks = hooks;
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
}
