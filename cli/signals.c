/* Ctrl-C, SIGTERM, SIGHUP (the terminal hung up: the SSH session of an
 * unattended soak dropped) and SIGPIPE (the reader of our output went away,
 * as in `storbench meta | head`): the first asks the run to stop at the next I/O
 * boundary (results are still written, marked interrupted); the second
 * removes the test files storbench created and exits at once. Result files
 * are written whole or not at all (cli_write_json renames into place), so
 * none is ever left half written. */
#include "cli/cli.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static volatile sig_atomic_t got_signal;
/* the runs going on now: a job, or the concurrent jobs of a job file */
static struct sb_run *volatile current[CLI_GROUP_MAX];

/* Room for every file that can exist at once: CLI_GROUP_MAX concurrent
 * jobs of up to SB_JT_MAX_FILES files each (struct sb_jobtarget). */
#define MAX_TRACKED (CLI_GROUP_MAX * SB_JT_MAX_FILES)
static struct tracked {
	const char *volatile path;
	volatile int fd; /* open as fd: removed only while path names it; -1 by name */
} tracked[MAX_TRACKED];

/* What else a second Ctrl-C undoes (a run directory): async-signal-safe. */
static void (*volatile exit_fn)(void *ctx);
static void *volatile exit_ctx;

/* Commands with nothing to stop (report, compare): the first signal
 * cleans up and exits. */
static volatile sig_atomic_t exit_on_first;

static void on_signal(int sig)
{
	if (got_signal || exit_on_first) {
		void (*fn)(void *) = exit_fn;
		for (int i = 0; i < MAX_TRACKED; i++) {
			const char *p = tracked[i].path;
			if (p && tracked[i].fd >= 0)
				sb_scratch_remove(p, tracked[i].fd);
			else if (p)
				unlink(p);
		}
		if (fn)
			fn(exit_ctx);
		_exit(128 + sig);
	}
	got_signal = sig;
	for (int i = 0; i < CLI_GROUP_MAX; i++) {
		struct sb_run *r = current[i];
		if (r)
			sb_run_stop(r);
	}
}

static void handled(sigset_t *s)
{
	sigemptyset(s);
	sigaddset(s, SIGINT);
	sigaddset(s, SIGTERM);
	sigaddset(s, SIGHUP);
	sigaddset(s, SIGPIPE);
}

void cli_signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* a SIGTERM does not cut short the handler of a second Ctrl-C */
	handled(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
}

void cli_signals_install_exit(void)
{
	exit_on_first = 1;
	cli_signals_install();
}

int cli_interrupted(void)
{
	return got_signal;
}

int cli_interrupt_status(void)
{
	return got_signal ? SB_EXIT_SIGNAL + got_signal : 0;
}

void cli_signals_set_runs(struct sb_run *const *runs, unsigned n)
{
	for (unsigned i = 0; i < CLI_GROUP_MAX; i++) {
		current[i] = i < n ? runs[i] : NULL;
		if (i < n && runs[i] && got_signal)
			sb_run_stop(runs[i]);
	}
}

void cli_signals_track_fd(const char *path, int fd, int on)
{
	for (int i = 0; i < MAX_TRACKED; i++) {
		if (on && !tracked[i].path) {
			tracked[i].fd = fd; /* before the path: the handler reads path first */
			tracked[i].path = path;
			return;
		}
		if (!on && tracked[i].path == path) {
			tracked[i].path = NULL;
			return;
		}
	}
}

void cli_signals_track_file(const char *path, int on)
{
	cli_signals_track_fd(path, -1, on);
}

void cli_signals_hold(int on)
{
	sigset_t s;
	handled(&s);
	pthread_sigmask(on ? SIG_BLOCK : SIG_UNBLOCK, &s, NULL);
}

void cli_signals_on_exit(void (*fn)(void *ctx), void *ctx)
{
	exit_fn = NULL; /* never a new fn with the old ctx */
	exit_ctx = ctx;
	exit_fn = fn;
}
