/* storbench: the command table. */
#include "cli/cli.h"

#include <sys/utsname.h>

#define RESULTS (CLI_OUTPUT | CLI_FORMAT)
/* a command whose result the history records (--db, --label) */
#define RECORDS (RESULTS | CLI_DB)
/* a command that writes its target: progress lines, --destroy-data */
#define WRITER (RECORDS | CLI_QUIET | CLI_DESTROY)
/* a job's: its files kept, under mpirun, the target's state before */
#define JOBS (WRITER | CLI_KEEP | CLI_RANKS | CLI_PRECOND | CLI_DISCARD)

/* Each command's words (struct cli_words in cli/cli.h): its line in
 * --help, its --format values, its own help of a shared flag where the
 * common words would not say it right, and what exit 0 and 1 mean for it
 * (the exit status table of its --help). */
static const struct cli_words w_quick = {
	"CrystalDiskMark-style summary of a target (the default job)",
	"text|json",
	{ [CLI_S_OUTPUT] = "write JSON results to FILE (a second target goes to FILE with "
			   "'-2' added)",
	  [CLI_S_KEEP] = "keep the test file",
	  [CLI_S_DESTROY] = "allow the write tests on a block device or a file storbench did "
			    "not create" },
	"every test measured",
	"a test met an I/O error",
};
/* --seed is a workload option of run (fio's randseed), in the job model */
static const struct cli_words w_run = {
	"fio-class workload: any pattern, block size, depth, engine",
	"text|json|json+",
	{ [CLI_S_KEEP] = "keep the test file(s) storbench created",
	  [CLI_S_DESTROY] = "allow writing to an existing file storbench did not create" },
	"every job ran",
	"a job met an I/O error, or its verify= found a bad block",
};
/* fio runs under mpirun (CLI_RANKS) and reads its own command line, not
 * the shared flags */
static const struct cli_words w_fio = {
	"fio's command line: its options, job files and normal output layout",
	"normal|json",
	{ NULL },
	"every job ran",
	"a job met an I/O error, or its verify= found a bad block",
};
static const struct cli_words w_latency = {
	"ioping-class latency probe; dd and hdparm presets",
	"text|json",
	{ [CLI_S_QUIET] = "no line per request",
	  [CLI_S_KEEP] = "keep the test file storbench created",
	  [CLI_S_DESTROY] = "allow writing to data storbench did not create" },
	"every request answered",
	"a request failed",
};
#define META_HELP                                                                                \
	{                                                                                        \
		[CLI_S_QUIET] = "no progress lines",                                             \
		[CLI_S_SEED] = "seed for names, sizes, orders, seeks [clock]",                   \
		[CLI_S_STONEWALL] = "under mpirun: each test ends on every rank when the first " \
				    "rank ends it (mdtest's stonewalling)"                       \
	}
static const struct cli_words w_meta = {
	"bonnie++-class file create/stat/delete, block and seek tests",
	"text|json|csv",
	META_HELP,
	"every test ran",
	"a file operation failed",
};
static const struct cli_words w_bonnie = {
	"bonnie++'s command line, text table and CSV line (runs meta)",
	"text|json|csv",
	META_HELP,
	"every test ran",
	"a file operation failed",
};
static const struct cli_words w_sweep = {
	"iozone-class matrix: tests x file size x record size",
	"text|json",
	{ [CLI_S_QUIET] = "no progress lines",
	  [CLI_S_DESTROY] = "TARGET may be an existing file storbench did not create: it is "
			    "overwritten",
	  [CLI_S_STONEWALL] = "under mpirun: each timed pass ends on every rank when the "
			      "first rank ends it" },
	"every cell measured",
	"a test met an I/O error",
};
static const struct cli_words w_iozone = {
	"iozone's command line and output layout, run as a sweep",
	"text",
	{ NULL },
	"every cell measured",
	"a test met an I/O error",
};
static const struct cli_words w_flash = {
	"flashbench-class geometry: erase block, page, open allocation units",
	"text|json",
	{ [CLI_S_QUIET] = "no progress line",
	  [CLI_S_DESTROY] = "allow --open-au to overwrite the target" },
	"the probes ran",
	"a probe met an I/O error",
};
static const struct cli_words w_info = {
	"identity, geometry, cache state and health of the device",
	"text|json",
	{ [CLI_S_OUTPUT] = "write the JSON document to FILE",
	  [CLI_S_DESTROY] = "allow --set-cache to switch the device's cache" },
	"described (and the cache switched, with --set-cache)",
	NULL,
};
static const struct cli_words w_verify = {
	"fill and check data (f3-class), fake-capacity probe",
	"text|json",
	{ [CLI_S_KEEP] = "keep the files of --phase=both",
	  [CLI_S_DESTROY] = "allow overwriting a device or a file storbench did not create",
	  [CLI_S_SEED] = "run seed [write: random; check: read from the data]" },
	"every block intact",
	"a block was not intact (corrupted, misplaced, stale, missing,\nunreadable), or a write "
	"failed",
};
static const struct cli_words w_soak = {
	"stability loop: write, sync, drop caches, read and verify, delete",
	"text|json",
	{ [CLI_S_OUTPUT] = "write the JSON results to FILE at the end",
	  [CLI_S_QUIET] = "no progress within iterations" },
	"every iteration verified (PASS)",
	"a block did not verify, an I/O error, a kernel storage\nerror of the target's (or an "
	"anomaly, with --fail-on-anomaly): FAIL; a soak\nthe target stops is ABORTED (3), one a "
	"signal stops INTERRUPTED (130, 143;\nFAIL, 1, when an iteration failed before)",
};
static const struct cli_words w_pts = {
	"SNIA PTS: purge, precondition, IOPS/throughput/latency/WSAT to steady state",
	"text|json",
	{ [CLI_S_QUIET] = "no progress lines",
	  [CLI_S_DESTROY] = "required: every byte of DEVICE is destroyed (purged, then "
			    "written)",
	  [CLI_S_SEED] = "seed of the data and the offsets [clock]" },
	"steady state reached by every test",
	"a test did not reach steady state, or an I/O error",
};
static const struct cli_words w_cliff = {
	"where the fast write (SLC) cache ends, and how much comes back after idle",
	"text|json",
	{ [CLI_S_QUIET] = "no progress line",
	  [CLI_S_DESTROY] = "allow overwriting a block device or a file (required for them)" },
	"measured, with or without a drop",
	"the fill met an I/O error",
};
static const struct cli_words w_spo = {
	"sudden power off: acknowledged writes must survive a power cut",
	"text|json",
	{ [CLI_S_OUTPUT] = "--check: write the JSON results to FILE",
	  [CLI_S_QUIET] = "no progress line",
	  [CLI_S_DESTROY] = "allow overwriting TARGET (the writer always overwrites it)",
	  [CLI_S_SEED] = "the run's id [random]" },
	"the writer stopped by --duration or the cut; --check: nothing\nacknowledged was lost or "
	"damaged; --cycles: every cycle passed",
	"a write or a flush failed (the writer); acknowledged data lost or\ndamaged (--check); a "
	"cycle failed (--cycles)",
};
static const struct cli_words w_report = {
	"render results (storbench, fio) as HTML with charts, CSV, XLSX, text, JSON",
	"text|html|csv|xlsx|json",
	{ [CLI_S_OUTPUT] = "write to FILE; its extension picks the format: .html, .csv, .xlsx, "
			   ".json, .txt [text on stdout]",
	  [CLI_S_FORMAT] = "the format, whatever the extension" },
	"rendered",
	NULL,
};
static const struct cli_words w_plan = {
	"qualification plan: storbench steps with acceptance criteria, resumable",
	"text|json",
	{ [CLI_S_OUTPUT] = "write the plan's JSON result to FILE",
	  [CLI_S_QUIET] = "no line per step; each step runs with --quiet" },
	"every criterion of every step passed",
	"a criterion failed",
};
static const struct cli_words w_history = {
	"the results history: results recorded with --db, by device, firmware, label",
	"text|json|csv|html",
	{ [CLI_S_OUTPUT] = "write to FILE; its extension picks the format: .json, .csv, "
			   ".html, .txt [text on stdout]",
	  [CLI_S_DB] = "the history to read or import into [$STORBENCH_DB]",
	  [CLI_S_LABEL] = "list: only results with this label; --import: a label of the "
			  "files imported (repeatable)" },
	"answered (whatever the differences)",
	NULL,
};
static const struct cli_words w_compare = {
	"results side by side: differences and whether they are real",
	"text|json|html|csv|xlsx",
	{ [CLI_S_OUTPUT] = "write to FILE: .html, .json, .csv, .xlsx or .txt [text on stdout]",
	  [CLI_S_FORMAT] = "the format, whatever the extension" },
	"compared (whatever the differences)",
	NULL,
};

/* One row a command, as git's: its name, its function, the shared flags
 * it takes (cli/opt.c declares them) and its words. */
static const struct cli_command commands[] = {
	{ "quick", cmd_quick, JOBS | CLI_UNITS, &w_quick },
	{ "run", cmd_run, JOBS | CLI_UNITS, &w_run },
	{ "fio", cmd_fio, CLI_RANKS, &w_fio },
	{ "latency", cmd_latency, WRITER | CLI_KEEP | CLI_UNITS, &w_latency },
	{ "meta", cmd_meta, RECORDS | CLI_QUIET | CLI_SEED | CLI_RANKS | CLI_UNITS, &w_meta },
	{ "bonnie", cmd_bonnie, RECORDS | CLI_QUIET | CLI_SEED | CLI_RANKS, &w_bonnie },
	{ "sweep", cmd_sweep, WRITER | CLI_PRECOND | CLI_RANKS | CLI_UNITS, &w_sweep },
	{ "iozone", cmd_iozone, 0, &w_iozone },
	{ "flash", cmd_flash, WRITER | CLI_UNITS, &w_flash },
	{ "info", cmd_info, RECORDS | CLI_DESTROY, &w_info },
	{ "verify", cmd_verify, WRITER | CLI_KEEP | CLI_SEED | CLI_RANKS | CLI_UNITS, &w_verify },
	{ "soak", cmd_soak, WRITER | CLI_SEED | CLI_RANKS | CLI_UNITS, &w_soak },
	{ "pts", cmd_pts, WRITER | CLI_SEED | CLI_UNITS, &w_pts },
	{ "cliff", cmd_cliff, WRITER | CLI_UNITS, &w_cliff },
	{ "spo", cmd_spo, WRITER | CLI_SEED, &w_spo },
	{ "report", cmd_report, RESULTS | CLI_UNITS, &w_report },
	{ "compare", cmd_compare, RESULTS | CLI_UNITS, &w_compare },
	{ "plan", cmd_plan, RESULTS | CLI_QUIET, &w_plan },
	{ "history", cmd_history, RECORDS, &w_history },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: storbench COMMAND [options] TARGET\n"
		   "       storbench --version | --help\n\n"
		   "Storage performance and stability testing.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < SB_ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].words->summary);
	fprintf(f, "\nTARGET is a directory (test files are created in it and removed), a\n"
		   "regular file, or a block device (written only with --destroy-data, and\n"
		   "never while mounted). Running 'storbench quick' with no TARGET measures\n"
		   "a scratch file in the current directory.\n"
		   "'storbench COMMAND --help' lists the options of a command.\n");
	cli_print_exit_status(f, NULL);
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
	if (sb_coord_library())
		printf("mpi: %s\n", sb_coord_library());
}

/* Output its reader never got is not a success: a closed pipe ends as the
 * signal would have ended it (141), any other failed write (a full disk
 * behind a redirection) as an error of the environment. */
static int finish(int rc)
{
	int lost = fflush(stdout) != 0 || ferror(stdout);
	int err = errno;
	if (rc != SB_EXIT_OK)
		return rc;
	if (cli_interrupted())
		return cli_interrupt_status();
	if (lost) {
		sb_err("could not write the standard output: %s", strerror(err));
		return SB_EXIT_ENV;
	}
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return SB_EXIT_USAGE;
	}
	const char *c = argv[1];
	/* a line printed is a line in the log: a soak's stdout redirected
	 * to a file for days is read with tail -f, and a second Ctrl-C ends
	 * the program at once (_exit) with nothing buffered lost */
	setvbuf(stdout, NULL, _IOLBF, 0);
	cli_commands_set(commands, SB_ARRAY_SIZE(commands));
	if (!strcmp(c, "--help") || !strcmp(c, "-h") || !strcmp(c, "help")) {
		usage(stdout);
		return SB_EXIT_OK;
	}
	if (!strcmp(c, "--version") || !strcmp(c, "-V") || !strcmp(c, "version")) {
		version();
		return SB_EXIT_OK;
	}
	for (size_t i = 0; i < SB_ARRAY_SIZE(commands); i++)
		if (!strcmp(c, commands[i].name)) {
			/* under mpirun: every rank joins the job first */
			int rc = cli_ranks_init(&argc, &argv);
			if (!rc && cli_ranks() > 1 && !(commands[i].shared & CLI_RANKS)) {
				/* each rank would write a result of its own */
				if (cli_rank() == 0 && !strcmp(c, "iozone"))
					sb_err("iozone: not under mpirun (its -f file would be the same on every rank); run storbench sweep, the same matrix, under mpirun");
				else if (cli_rank() == 0)
					sb_err("%s: not yet under mpirun (run, quick, verify, soak, sweep, meta, bonnie and fio are; see docs/mpi.md)",
					       c);
				rc = SB_EXIT_USAGE;
			}
			if (!rc)
				rc = finish(commands[i].fn(&commands[i], argc - 1, argv + 1));
			cli_ranks_finish();
			return rc;
		}
	char names[256];
	size_t n = 0;
	for (size_t i = 0; i < SB_ARRAY_SIZE(commands) && n < sizeof(names); i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
				      commands[i].name);
	sb_err("'%s' is not a command (one of: %s; see storbench --help)", c, names);
	return SB_EXIT_USAGE;
}
