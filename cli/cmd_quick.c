/*
 * storbench quick: CrystalDiskMark's matrix, measured properly: direct I/O,
 * random data, a discarded warm-up, then repeats reported as median and
 * min..max. With two targets, side by side with their ratio.
 */
#include "cli/cli.h"
#include "report/report.h"

#include <unistd.h>

#define NTESTS SB_QUICK_TESTS
#define MAX_TARGETS 2

enum { O_SIZE, O_RUNTIME, O_REPEAT, O_PRESET, O_IDLE, O_ENGINE, O_READ_ONLY, O_TIME_BASED };

static const struct cli_opt quick_opts[] = {
	{ "size", OPT_ARG, O_SIZE, "SIZE", "test file size [1G]" },
	{ "runtime", OPT_ARG, O_RUNTIME, "TIME", "length of each measurement [5s]" },
	{ "repeat", OPT_ARG, O_REPEAT, "N",
	  "measured runs per test, after one warm-up; compare needs 4 or more [5]" },
	{ "preset", OPT_ARG, O_PRESET, "default|nvme|flash",
	  "test matrix: default; nvme (deeper queues); flash (1 s runs, 30 s idle) [default]" },
	{ "idle", OPT_ARG, O_IDLE, "TIME", "pause between tests [0, 30s for flash]" },
	{ "engine", OPT_ARG, O_ENGINE, "NAME", "I/O engine for queued tests [io_uring]" },
	{ "read-only", OPT_NOARG, O_READ_ONLY, NULL, "skip the write tests" },
	{ "time-based", OPT_NOARG, O_TIME_BASED, NULL,
	  "accepted as fio and run take it: every run of quick is bound by --runtime" },
	{ NULL, 0, 0, NULL, NULL },
};

struct quick_ctx {
	uint64_t size, runtime_ns, idle_ns;
	int idle_set, size_set;
	unsigned repeat;
	const struct sb_quick_test *tests;
	char engine[16];
	struct cli_shared sh; /* --output, --format, --quiet, --keep, --destroy-data */
	int json_stdout, read_only;
};

/* "an engine name (psync, io_uring, libaio)": the engines that do I/O. */
static void io_engines_hint(char *hint, size_t hl)
{
	size_t n = (size_t)snprintf(hint, hl, "an engine name (");
	for (unsigned i = 0, k = 0; sb_engine_known(i) && n < hl; i++)
		if (!(sb_engine_known_flags(i) & SB_ENGINE_NOIO))
			n += (size_t)snprintf(hint + n, hl - n, "%s%s", k++ ? ", " : "",
					      sb_engine_known(i));
	if (n < hl)
		snprintf(hint + n, hl - n, ")");
}

static int quick_set(void *vc, int id, const char *v, char *hint, size_t hl)
{
	struct quick_ctx *c = vc;
	uint64_t n;
	switch (id) {
	case O_SIZE:
		if (sb_parse_size(v, &c->size) < 0 || c->size < (2u << 20))
			return snprintf(hint, hl, "a size of at least 2M (examples: 256M, 1G)"),
			       -EINVAL;
		c->size_set = 1;
		return 0;
	case O_RUNTIME:
		if (sb_parse_duration_ns(v, &c->runtime_ns) < 0 || c->runtime_ns < 100000000ull)
			return snprintf(hint, hl,
					"a duration of at least 100ms (examples: 1s, 5s)"),
			       -EINVAL;
		return 0;
	case O_REPEAT:
		if (sb_parse_u64(v, &n) < 0 || n < 1 || n > 100)
			return snprintf(hint, hl, "a number from 1 to 100"), -EINVAL;
		c->repeat = (unsigned)n;
		return 0;
	case O_PRESET:
		if (!strcmp(v, "default")) {
			c->tests = sb_quick_default;
		} else if (!strcmp(v, "nvme")) {
			c->tests = sb_quick_nvme;
		} else if (!strcmp(v, "flash")) {
			c->tests = sb_quick_default;
			c->runtime_ns = 1000000000ull;
			if (!c->idle_set)
				c->idle_ns = 30000000000ull;
		} else {
			return snprintf(hint, hl, "default, nvme or flash"), -EINVAL;
		}
		return 0;
	case O_IDLE:
		if (sb_parse_duration_ns(v, &c->idle_ns) < 0)
			return snprintf(hint, hl, "a duration (examples: 0, 10s, 1m)"), -EINVAL;
		c->idle_set = 1;
		return 0;
	case O_ENGINE:
		if (!*v || strlen(v) >= sizeof(c->engine))
			return io_engines_hint(hint, hl), -EINVAL;
		snprintf(c->engine, sizeof(c->engine), "%s", v);
		return 0;
	case O_READ_ONLY: c->read_only = 1; return 0;
	case O_TIME_BASED: return 0; /* its runs are: nothing to change */
	}
	return -EINVAL;
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench quick [options] [TARGET [TARGET2]]\n\n"
	       "CrystalDiskMark's tests (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1),\n"
	       "read and write, with direct I/O and random data: a discarded warm-up, then\n"
	       "--repeat runs, reported as median and min..max. TARGET is a directory (a\n"
	       "test file is created and removed), a file or a block device (read tests\n"
	       "only, unless --destroy-data allows the writes); the current directory by\n"
	       "default. With TARGET2, both are measured and compared.\n\n"
	       "The default %d runs are what storbench compare needs to tell a change from\n"
	       "run-to-run noise (at least %u runs a side, %d to find smaller changes):\n"
	       "two results measured with the defaults compare with a verdict; with fewer\n"
	       "runs compare says \"inconclusive\".\n\n"
	       "options:\n",
	       SB_DIFF_RUNS_ADVISED, sb_diff_runs_needed(), SB_DIFF_RUNS_ADVISED);
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench quick .\n"
	       "  storbench quick --preset=flash /media/sdcard\n"
	       "  storbench quick --size=256M --runtime=2s /mnt/ssd /mnt/hdd\n"
	       "  storbench quick -o before.json /mnt/ssd\n");
	cli_print_exit_status(stdout, co->cmd);
}

/* The tests on one target (sb_quick_run): the exit code, the results
 * into *out. before, after: the tests of the targets before and after it,
 * for the progress line. */
static int quick_target(const struct quick_ctx *c, const char *path, unsigned before,
			unsigned after, uint64_t start_ns, struct sb_quick_result *out)
{
	struct sb_run_hooks h;
	struct cli_run_ui ui;
	struct sb_error err;
	const struct sb_quick_opts o = { .target = path,
					 .tests = c->tests,
					 .size = c->size,
					 .size_set = c->size_set,
					 .runtime_ns = c->runtime_ns,
					 .idle_ns = c->idle_ns,
					 .repeat = c->repeat,
					 .engine = c->engine,
					 .read_only = c->read_only,
					 .destroy_data = c->sh.destroy_data,
					 .keep = c->sh.keep,
					 .state = c->sh.state,
					 .stonewall = cli_ranks_stonewall(),
					 .tests_before = before,
					 .tests_after = after };
	cli_run_hooks(&h, &ui, c->sh.quiet, start_ns);
	if (sb_quick_run(&o, &h, cli_ranks_coord(), out, &err) < 0)
		cli_error(&err);
	return cli_run_status(out->status);
}

static int write_outputs(const struct quick_ctx *c, struct sb_results *const *res, int n)
{
	int rc = 0;
	for (int k = 0; c->sh.output && k < n; k++) {
		char path[4096];
		const char *dot = strrchr(c->sh.output, '.');
		if (k == 0)
			snprintf(path, sizeof(path), "%s", c->sh.output);
		else if (dot && !strchr(dot, '/'))
			snprintf(path, sizeof(path), "%.*s-2%s", (int)(dot - c->sh.output),
				 c->sh.output, dot);
		else
			snprintf(path, sizeof(path), "%s-2", c->sh.output);
		if (cli_write_json(res[k], path) < 0)
			rc = SB_EXIT_ENV;
	}
	if (c->json_stdout && cli_write_json(res[0], "-") < 0)
		rc = SB_EXIT_ENV;
	return rc;
}

int cmd_quick(const struct cli_command *cmd, int argc, char **argv)
{
	struct quick_ctx c = {
		.size = 1ull << 30,
		.runtime_ns = 5000000000ull,
		.repeat = SB_DIFF_RUNS_ADVISED, /* what compare needs */
		.tests = sb_quick_default,
	};
	char *pos[MAX_TARGETS];
	int npos;
	struct cli_cmd_opts co = { quick_opts, quick_set, 0, NULL, &c, cmd, &c.sh };
	int p = cli_parse(argc, argv, &co, pos, MAX_TARGETS, &npos);
	if (p == 1) {
		help(&co);
		return SB_EXIT_OK;
	}
	if (p < 0)
		return SB_EXIT_USAGE;
	c.json_stdout = cli_format_is(cmd, &c.sh, "json");
	if (npos < 1)
		pos[npos++] = "."; /* the default job: a scratch file here */
	if (npos == 2 && cli_ranks() > 1) {
		sb_err("under mpirun quick measures one TARGET (on every rank); compare two "
		       "results with storbench compare");
		return SB_EXIT_USAGE;
	}
	if (npos == 2 && c.json_stdout) {
		sb_err("--format=json: prints one target's results; with two targets use --output");
		return SB_EXIT_USAGE;
	}
	int rc = cli_state_alone(&c.sh);
	if (rc)
		return rc;
	cli_signals_install();
	struct sb_quick_result q[MAX_TARGETS];
	struct sb_results *res[MAX_TARGETS] = { NULL, NULL };
	const unsigned per = NTESTS * (c.read_only ? 1 : 2);
	const uint64_t start_ns = sb_now_ns();
	unsigned done = 0;
	memset(q, 0, sizeof(q));
	for (int k = 0; k < npos && !rc && !cli_interrupted(); k++) {
		rc = quick_target(&c, pos[k], done, (unsigned)(npos - 1 - k) * per, start_ns,
				  &q[k]);
		done = q[k].tests_done;
		res[k] = q[k].res;
	}
	const int n = res[1] ? 2 : 1;
	/* many ranks: rank 0 writes the aggregate, the others nothing */
	if (res[0] && !q[0].write) {
		sb_quick_result_free(&q[0]);
		return cli_interrupted() ? cli_interrupt_status() : rc;
	}
	/* a run stopped before its first test's runs ended writes what it has
	 * (the warm-up is no measurement), marked interrupted by the library */
	if (res[0] && (res[0]->nsummary || cli_interrupted())) {
		if (!c.json_stdout) {
			const struct rep_quick_settings rs = { c.size, c.runtime_ns, c.repeat,
							       c.tests, cli_interrupted() };
			rep_quick_run_text(stdout, &rs, q, res, n, pos, npos);
			rep_quick_ranks_text(stdout, &q[0]);
		}
		int w = write_outputs(&c, res, n);
		if (!rc)
			rc = w;
	}
	if (n > 1)
		rep_quick_warnings_text(stderr, res, pos);
	else if (res[0])
		rep_warnings_text(stderr, res[0]);
	for (int k = 0; k < n; k++)
		sb_quick_result_free(&q[k]);
	if (cli_interrupted())
		rc = cli_interrupt_status();
	return rc;
}
