/* storbench: the command table. */
#include "cli/cli.h"

#include <sys/utsname.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "quick", cmd_quick, "CrystalDiskMark-style summary of a target (the default job)" },
	{ "run", cmd_run, "fio-class workload: any pattern, block size, depth, engine" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: storbench COMMAND [options] TARGET\n"
		   "       storbench --version | --help\n\n"
		   "Storage performance and stability testing.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < SB_ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nTARGET is a directory (a test file is created in it and removed), a\n"
		   "regular file, or a block device (read-only for now).\n"
		   "'storbench COMMAND --help' lists the options of a command.\n");
}

static const char *libc_name(void)
{
#ifdef __GLIBC__
	static char buf[32];
	snprintf(buf, sizeof(buf), "glibc %d.%d", __GLIBC__, __GLIBC_MINOR__);
	return buf;
#else
	return "musl or other";
#endif
}

static void version(void)
{
	struct utsname u;
	const char *feat = sb_features();
	if (uname(&u) < 0)
		snprintf(u.machine, sizeof(u.machine), "unknown");
	printf("storbench %s\n", sb_version());
	printf("arch: %s, libc: %s\n", u.machine, libc_name());
	printf("features: psync null%s%s\n", *feat ? " " : "", feat);
	printf("engines:");
	for (int i = 0; sb_engines[i]; i++)
		printf(" %s", sb_engines[i]->name);
	printf("\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return SB_EXIT_USAGE;
	}
	const char *c = argv[1];
	if (!strcmp(c, "--help") || !strcmp(c, "-h") || !strcmp(c, "help")) {
		usage(stdout);
		return SB_EXIT_OK;
	}
	if (!strcmp(c, "--version") || !strcmp(c, "-V") || !strcmp(c, "version")) {
		version();
		return SB_EXIT_OK;
	}
	for (size_t i = 0; i < SB_ARRAY_SIZE(commands); i++)
		if (!strcmp(c, commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	sb_err("'%s' is not a command (one of: quick, run; see storbench --help)", c);
	return SB_EXIT_USAGE;
}
