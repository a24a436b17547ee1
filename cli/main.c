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
	{ "latency", cmd_latency, "ioping-class latency probe; dd and hdparm presets" },
	{ "meta", cmd_meta, "bonnie++-class file create/stat/delete, block and seek tests" },
	{ "sweep", cmd_sweep, "iozone-class matrix: tests x file size x record size" },
	{ "info", cmd_info, "identity, geometry, cache state and health of the device" },
	{ "verify", cmd_verify, "fill and check data (f3-class), fake-capacity probe" },
	{ "soak", cmd_soak, "stability loop: write, sync, drop caches, read and verify, delete" },
	{ "report", cmd_report, "render results (storbench, fio) as HTML with charts, CSV, XLSX, text" },
	{ "compare", cmd_compare, "results side by side: differences and whether they are real" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: storbench COMMAND [options] TARGET\n"
		   "       storbench --version | --help\n\n"
		   "Storage performance and stability testing.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < SB_ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nTARGET is a directory (test files are created in it and removed), a\n"
		   "regular file, or a block device (written only with --destroy-data, and\n"
		   "never while mounted). Running 'storbench quick' with no TARGET measures\n"
		   "a scratch file in the current directory.\n"
		   "'storbench COMMAND --help' lists the options of a command.\n");
}

/* musl defines no macro of its own: the Makefile names it in SB_LIBC */
static const char *libc_name(void)
{
#if defined(SB_LIBC)
	return SB_LIBC;
#elif defined(__GLIBC__)
	static char buf[32];
	snprintf(buf, sizeof(buf), "glibc %d.%d", __GLIBC__, __GLIBC_MINOR__);
	return buf;
#else
	return "unknown";
#endif
}

#ifdef SB_STATIC
#define SB_LINKAGE "static"
#else
#define SB_LINKAGE "dynamic"
#endif

static void version(void)
{
	struct utsname u;
	const char *feat = sb_features();
	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	printf("storbench %s\n", sb_version());
#ifdef SB_TARGET
	/* the machine it was built for (e.g. aarch64-linux-gnu), which uname
	 * does not tell: an armhf binary on an arm64 kernel says aarch64 there */
	printf("arch: %.*s (%s), libc: %s, %s\n", (int)strcspn(SB_TARGET, "-"), SB_TARGET,
	       SB_TARGET, libc_name(), SB_LINKAGE);
#else
	printf("arch: %s, libc: %s, %s\n", u.machine, libc_name(), SB_LINKAGE);
#endif
	printf("kernel: %s %s %s\n", u.sysname, u.release, u.machine);
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
	char names[256];
	size_t n = 0;
	for (size_t i = 0; i < SB_ARRAY_SIZE(commands) && n < sizeof(names); i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
				      commands[i].name);
	sb_err("'%s' is not a command (one of: %s; see storbench --help)", c, names);
	return SB_EXIT_USAGE;
}
