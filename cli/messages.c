/* Messages: "storbench: ..." on stderr, lowercase, no full stop; and the
 * exit code of a library error. */
#include "cli/cli.h"
#include "report/report.h"

#include <signal.h>
#include <stdarg.h>
#include <unistd.h>

/* "rank 2 on HOST: " in a run of many ranks (cli/ranks.c sets it) */
static char prefix[128];

void cli_msg_set_prefix(const char *p)
{
	snprintf(prefix, sizeof(prefix), "%s", p);
}

/* A peer's command line (iozone, fio): storbench's name of an option in
 * a message, and the option as the user typed it ("--record-sizes" is
 * "-r" to iozone, "--bs" is "-bs" when fio's line said so). */
static struct {
	char ours[48], typed[64];
} alias[64];
static unsigned naliases;

void cli_msg_alias(const char *ours, const char *typed)
{
	unsigned i = 0;
	if (strlen(ours) >= sizeof(alias[0].ours) || strlen(typed) >= sizeof(alias[0].typed))
		return;
	while (i < naliases && strcmp(alias[i].ours, ours))
		i++;
	if (i == SB_ARRAY_SIZE(alias))
		return;
	/* the last way it was typed: the value that holds */
	snprintf(alias[i].ours, sizeof(alias[0].ours), "%s", ours);
	snprintf(alias[i].typed, sizeof(alias[0].typed), "%s", typed);
	naliases += i == naliases;
}

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

/* text with every alias's name, standing alone, as typed */
static void as_typed(const char *text, char *out, size_t len)
{
	size_t o = 0;
	for (const char *p = text; *p && o + 1 < len;) {
		const char *typed = NULL;
		size_t n = 0;
		for (unsigned i = 0; i < naliases && (p == text || !name_char(p[-1])); i++) {
			n = strlen(alias[i].ours);
			if (!strncmp(p, alias[i].ours, n) && !name_char(p[n])) {
				typed = alias[i].typed;
				break;
			}
		}
		if (typed) {
			o += (size_t)snprintf(out + o, len - o, "%s", typed);
			o = SB_MIN(o, len - 1);
			p += n;
		} else {
			out[o++] = *p++;
		}
	}
	out[o] = '\0';
}

static void say(const char *kind, const char *fmt, va_list ap)
{
	char text[8192], typed[8192];
	vsnprintf(text, sizeof(text), fmt, ap);
	as_typed(text, typed, sizeof(typed));
	/* the message may quote a file's words: none moves the cursor or
	 * forges a line. The line is made whole first and written in one
	 * write(2): stderr is unbuffered, and under mpirun the ranks' lines
	 * are one stream, where a line written a character at a time
	 * interleaves with another rank's */
	char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);
	FILE *f = m ? m : stderr;
	fprintf(f, "storbench: %s%s", kind, prefix);
	rep_vis_put(f, naliases ? typed : text);
	fputc('\n', f);
	if (!m || fclose(m) != 0) {
		free(line);
		return;
	}
	fflush(stderr);
	(void)sb_write_full(STDERR_FILENO, line, len);
	free(line);
}

void sb_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
}

void sb_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("warning: ", fmt, ap);
	va_end(ap);
}

void sb_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("note: ", fmt, ap);
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

int cli_error_told(const struct sb_error *er)
{
	struct sb_error quiet = *er;
	quiet.msg[0] = '\0';
	return cli_error(&quiet);
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
