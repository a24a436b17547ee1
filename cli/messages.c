/* Messages: "storbench: ..." on stderr, lowercase, no full stop; and the
 * exit code of a library error. */
#include "cli/cli.h"

#include <signal.h>
#include <stdarg.h>

/* "rank 2 on HOST: " in a run of many ranks (cli/ranks.c sets it) */
static char prefix[128];

void cli_msg_set_prefix(const char *p)
{
	snprintf(prefix, sizeof(prefix), "%s", p);
}

const char *cli_msg_prefix(void)
{
	return prefix;
}

void sb_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("storbench: ", stderr);
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void sb_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("storbench: warning: ", stderr);
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void sb_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("storbench: note: ", stderr);
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int cli_error(const struct sb_error *er)
{
	if (er->msg[0])
		sb_err("%s", er->msg);
	switch (er->cls) {
	case SB_ERR_INPUT: return SB_EXIT_USAGE;
	case SB_ERR_ENV: return SB_EXIT_ENV;
	case SB_ERR_FAIL: return SB_EXIT_FAIL;
	case SB_ERR_STOPPED:
		return cli_interrupt_status() ? cli_interrupt_status() : SB_EXIT_SIGINT;
	}
	return SB_EXIT_FAIL;
}

int cli_exit_of_errno(int err)
{
	switch (sb_errno_class(err)) {
	case SB_ERR_ENV: return SB_EXIT_ENV;
	case SB_ERR_FAIL: return SB_EXIT_FAIL;
	default: return SB_EXIT_USAGE;
	}
}

int cli_target_missing(int kind, const char *path)
{
	if (kind != SB_TARGET_NONE)
		return 0;
	sb_err("cannot use '%s': %s", path, strerror(ENOENT));
	return SB_EXIT_ENV;
}
