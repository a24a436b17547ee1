/* The exit status: one table for every command (cli.h's enum sb_exit),
 * printed at the end of each command's --help and of storbench --help;
 * scripts/gen-man makes the manual page's EXIT STATUS from the latter. A
 * command's words (struct cli_words, cli/main.c) say what a pass and a
 * failure are for it. */
#include "cli/cli.h"

static const struct {
	int code;
	const char *what;
} rows[] = {
	{ SB_EXIT_USAGE, "usage or input: a bad option or value, options that do not go\n"
			 "together, a target of the wrong kind, a refusal the user can lift\n"
			 "(--destroy-data), an input file (results, job file, journal, log)\n"
			 "missing or malformed: nothing was run" },
	{ SB_EXIT_ENV, "the target or the system cannot be used: missing, read-only, full,\n"
		       "no permission, busy or in use, a command or a kernel feature it lacks" },
	{ SB_EXIT_SIGINT, "interrupted by Ctrl-C (SIGINT); 143 by SIGTERM, 128+N by signal N:\n"
			  "what was measured is written, marked interrupted" },
};

/* "  CODE TEXT", the text's further lines under its first */
static void row(FILE *f, int code, const char *what)
{
	fprintf(f, "  %-4d ", code);
	for (const char *p = what; *p; p++) {
		fputc(*p, f);
		if (*p == '\n')
			fputs("       ", f);
	}
	fputc('\n', f);
}

void cli_print_exit_status(FILE *f, const struct cli_command *cmd)
{
	char pass[512], fail[512];
	snprintf(pass, sizeof(pass), "pass%s%s", cmd && cmd->words->pass ? ": " : "",
		 cmd && cmd->words->pass ? cmd->words->pass : "");
	if (!cmd)
		snprintf(fail, sizeof(fail),
			 "the verdict: the test ran and found a failure (a block "
			 "that did not\nverify, an I/O error, no steady state)");
	else if (cmd->words->fail)
		snprintf(fail, sizeof(fail), "the verdict: %s", cmd->words->fail);
	else
		snprintf(fail, sizeof(fail), "not used: %s tests no device for a failure",
			 cmd->name);
	fprintf(f, "\nexit status:\n");
	row(f, SB_EXIT_OK, pass);
	row(f, SB_EXIT_FAIL, fail);
	for (size_t i = 0; i < SB_ARRAY_SIZE(rows); i++)
		row(f, rows[i].code, rows[i].what);
}
