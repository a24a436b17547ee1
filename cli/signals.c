/* Ctrl-C and SIGTERM: the first asks the run to stop at the next I/O
 * boundary (results are still written, marked interrupted); the second
 * exits at once. */
#include "cli/cli.h"

#include <signal.h>
#include <unistd.h>

static volatile sig_atomic_t got_signal;
static struct sb_run *volatile current;

static void on_signal(int sig)
{
	if (got_signal)
		_exit(sig == SIGTERM ? SB_EXIT_SIGTERM : SB_EXIT_SIGINT);
	got_signal = sig;
	struct sb_run *r = current;
	if (r)
		sb_run_stop(r);
}

void cli_signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int cli_interrupted(void)
{
	return got_signal;
}

void cli_signals_set_run(struct sb_run *r)
{
	current = r;
	if (r && got_signal)
		sb_run_stop(r);
}
