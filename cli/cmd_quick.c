/*
 * storbench quick: CrystalDiskMark's matrix, measured properly: direct I/O,
 * random data, a discarded warm-up, then repeats reported as median and
 * min..max. With two targets, side by side with their ratio.
 */
#include "cli/cli.h"

#include <unistd.h>

struct quick_test {
	const char *name;
	int random;
	uint32_t bs;
	unsigned qd, threads;
};

static const struct quick_test tests_default[] = {
	{ "SEQ1M Q8T1", 0, 1u << 20, 8, 1 },
	{ "SEQ1M Q1T1", 0, 1u << 20, 1, 1 },
	{ "RND4K Q32T1", 1, 4096, 32, 1 },
	{ "RND4K Q1T1", 1, 4096, 1, 1 },
};

static const struct quick_test tests_nvme[] = {
	{ "SEQ1M Q8T1", 0, 1u << 20, 8, 1 },
	{ "SEQ128K Q32T1", 0, 128u << 10, 32, 1 },
	{ "RND4K Q32T16", 1, 4096, 32, 16 },
	{ "RND4K Q1T1", 1, 4096, 1, 1 },
};

#define NTESTS 4
#define MAX_TARGETS 2

enum { O_SIZE, O_RUNTIME, O_REPEAT, O_PRESET, O_IDLE, O_ENGINE, O_READ_ONLY };

static const struct cli_opt quick_opts[] = {
	{ "size", OPT_ARG, O_SIZE, "SIZE", "test file size [1G]" },
	{ "runtime", OPT_ARG, O_RUNTIME, "TIME", "length of each measurement [5s]" },
	{ "repeat", OPT_ARG, O_REPEAT, "N",
	  "measured runs per test, after one warm-up; compare needs 4 or more [3]" },
	{ "preset", OPT_ARG, O_PRESET, "default|nvme|flash",
	  "test matrix: default; nvme (deeper queues); flash (1 s runs, 30 s idle) [default]" },
	{ "idle", OPT_ARG, O_IDLE, "TIME", "pause between tests [0, 30s for flash]" },
	{ "engine", OPT_ARG, O_ENGINE, "NAME", "I/O engine for queued tests [io_uring]" },
	{ "read-only", OPT_NOARG, O_READ_ONLY, NULL, "skip the write tests" },
	{ NULL, 0, 0, NULL, NULL },
};

struct quick_ctx {
	uint64_t size, runtime_ns, idle_ns;
	int idle_set, size_set;
	unsigned repeat;
	const struct quick_test *tests;
	char engine[16];
	struct cli_shared sh; /* --output, --format, --quiet, --keep, --destroy-data */
	int json_stdout, read_only;
	/* for the progress line: the test (and direction) now running, of
	 * how many in all (the targets' together) */
	struct quick_steps {
		unsigned at, total;
		uint64_t start_ns;
	} * steps;
	/* many ranks: the tests' runs, summarized once they are aggregated */
	struct quick_span {
		size_t first;
		unsigned n;
		const char *test;
	} spans[2 * NTESTS];
	unsigned nspans;
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
			c->tests = tests_default;
		} else if (!strcmp(v, "nvme")) {
			c->tests = tests_nvme;
		} else if (!strcmp(v, "flash")) {
			c->tests = tests_default;
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
	}
	return -EINVAL;
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench quick [options] [TARGET [TARGET2]]\n\n"
	       "CrystalDiskMark's tests (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1),\n"
	       "read and write, with direct I/O and random data: a discarded warm-up, then\n"
	       "--repeat runs, reported as median and min..max. TARGET is a directory (a\n"
	       "test file is created and removed), a file, or a block device (read tests\n"
	       "only, for now); the current directory by default. With TARGET2, both are\n"
	       "measured and compared.\n\n"
	       "To compare results later (storbench compare before.json after.json), measure\n"
	       "both with --repeat=%d: compare's test needs at least %u runs a side to tell a\n"
	       "change from run-to-run noise, and says \"inconclusive\" with fewer.\n\n"
	       "options:\n",
	       SB_DIFF_RUNS_ADVISED, sb_diff_runs_needed());
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench quick .\n"
	       "  storbench quick --preset=flash /media/sdcard\n"
	       "  storbench quick --size=256M --runtime=2s /mnt/ssd /mnt/hdd\n"
	       "  storbench quick --repeat=%d -o before.json /mnt/ssd\n",
	       SB_DIFF_RUNS_ADVISED);
	cli_print_exit_status(stdout, co->cmd);
}

static void job_for(struct sb_job_opts *j, const struct quick_ctx *c, const struct quick_test *t,
		    int ddir, uint64_t seed)
{
	sb_job_opts_default(j);
	snprintf(j->name, sizeof(j->name), "%s %s", t->name, sb_ddir_name(ddir));
	j->rw = t->random ? (ddir == SB_DDIR_READ ? SB_RW_RANDREAD : SB_RW_RANDWRITE)
			  : (ddir == SB_DDIR_READ ? SB_RW_READ : SB_RW_WRITE);
	j->bs = t->bs;
	j->iodepth = t->qd;
	j->numjobs = t->threads;
	j->runtime_ns = c->runtime_ns;
	j->time_based = 1;
	j->direct = 1;
	j->seed = seed;
	j->size = c->size;
	snprintf(j->engine, sizeof(j->engine), "%s", c->engine);
}

static void idle(uint64_t ns)
{
	while (ns && !cli_interrupted()) {
		uint64_t step = SB_MIN(ns, 100000000ull);
		struct timespec ts = { 0, (long)step };
		nanosleep(&ts, NULL);
		ns -= step;
	}
}

/* Warm-up plus repeats of one test in one direction; results appended. */
static int one_test(struct quick_ctx *c, const struct quick_test *qt, int ddir,
		    struct sb_jobtarget *t, struct sb_results *res, uint64_t seed)
{
	struct sb_job_opts job;
	int fell_back;
	job_for(&job, c, qt, ddir, seed);
	job.size = t->region_size;
	if (t->direct_fallback)
		job.direct = 0; /* tmpfs and the like: said once by cli_target_prepare */
	const struct sb_engine_ops *ops = cli_engine_choose(&job, &fell_back);
	if (!ops)
		return SB_EXIT_USAGE;
	snprintf(job.engine, sizeof(job.engine), "%s", ops->name);
	size_t first = res->njobs;
	for (unsigned run = 0; run <= c->repeat && !cli_interrupted(); run++) {
		struct sb_job_result *jr = sb_job_result_create();
		if (!jr) {
			sb_err("out of memory");
			return SB_EXIT_ENV;
		}
		if (run == 0)
			snprintf(jr->name, sizeof(jr->name), "%s (warm-up)", job.name);
		else
			snprintf(jr->name, sizeof(jr->name), "%s (run %u of %u)", job.name, run,
				 c->repeat);
		const unsigned left = c->steps->total - c->steps->at;
		struct cli_measure m = {
			.label = jr->name,
			.quiet = c->sh.quiet,
			.command = "quick",
			.step_word = "test",
			.step = c->steps->at,
			.nsteps = c->steps->total,
			.later = left * (c->repeat + 1) + (c->repeat - run),
			.later_ns = left * c->idle_ns,
			.start_ns = c->steps->start_ns,
		};
		job.seed = seed + run;
		int e = cli_measure(&m, &job, ops, t, jr);
		if (run == 0 || e < 0) {
			sb_job_result_free(jr);
			if (e < 0)
				return SB_EXIT_FAIL;
			continue;
		}
		if (jr->interrupted)
			res->interrupted = 1;
		if (sb_results_add_job(res, jr) < 0) {
			sb_job_result_free(jr);
			return SB_EXIT_ENV;
		}
		sb_results_sanity(res, jr);
	}
	if (cli_ranks() > 1 && c->nspans < SB_ARRAY_SIZE(c->spans))
		c->spans[c->nspans++] = (struct quick_span){ first, (unsigned)(res->njobs - first),
							     qt->name };
	else
		sb_repeats_summarize(res, first, (unsigned)(res->njobs - first), qt->name);
	return 0;
}

/* The write tests left out: said in the results (JSON, the text, with
 * --quiet too), never dropped without a word; under mpirun each rank says
 * it of its own target at once. */
static void no_writes(struct sb_results *res, const char *path, enum sb_target_kind kind,
		      int consent)
{
	char why[600];
	if (!consent && kind == SB_TARGET_BLOCK)
		snprintf(why, sizeof(why),
			 "'%s' is a device: read tests only (the write tests need --destroy-data, "
			 "and overwrite it)",
			 path);
	else if (!consent)
		snprintf(why, sizeof(why),
			 "'%s' is a file storbench did not create: read tests only (the write "
			 "tests need --destroy-data, and overwrite it, or a new file or a "
			 "directory to make one in)",
			 path);
	else
		snprintf(why, sizeof(why),
			 "read tests only: the target of another rank needs "
			 "--destroy-data for the write tests");
	sb_results_warn(res, "%s", why);
	if (cli_ranks() > 1 && !consent)
		sb_warn("%s", why);
}

static int quick_target(struct quick_ctx *c, const char *path, struct sb_results *res)
{
	struct sb_jobtarget t;
	struct sb_job_opts probe;
	memset(&t, 0, sizeof(t));
	/* the file is laid out once, with random data, for every test */
	sb_job_opts_default(&probe);
	probe.rw = c->read_only ? SB_RW_READ : SB_RW_RW;
	probe.size = c->size;
	probe.bs = 1u << 20;
	probe.seed = sb_now_ns();
	int rc = cli_target_probe(&t, path);
	if (rc)
		return rc;
	/* a device or a file that is not ours: writes only with consent */
	int consent = c->sh.destroy_data || t.info.kind == SB_TARGET_NONE ||
		      t.info.kind == SB_TARGET_DIR ||
		      (t.info.kind == SB_TARGET_FILE && sb_file_is_ours(path) == 1);
	int writes = !c->read_only && consent;
	/* many ranks: the write tests on every rank or on none */
	if (!c->read_only && cli_ranks_worst(!writes))
		writes = 0;
	if (!writes) {
		probe.rw = SB_RW_READ;
		if (!c->read_only) /* counted with its write tests */
			c->steps->total -= NTESTS;
	}
	if (!c->read_only && !writes)
		no_writes(res, path, t.info.kind, consent);
	t.destroy_data = c->sh.destroy_data;
	if (t.info.kind != SB_TARGET_NONE && t.info.kind != SB_TARGET_DIR && !c->size_set) {
		/* an existing file or device smaller than the default: all of it */
		uint64_t have = t.info.kind == SB_TARGET_BLOCK ? t.info.capacity : t.info.file_size;
		if (have && have < probe.size)
			probe.size = have / (1u << 20) * (1u << 20);
	}
	rc = cli_state_check(&c->sh, &t, path);
	if (!rc)
		rc = cli_target_prepare(&t, path, &probe, 1, 0);
	cli_results_describe(res, &t, path);
	if (!rc)
		rc = cli_state_apply(&c->sh, &t, path, res, c->sh.quiet);
	for (int i = 0; !rc && i < NTESTS && !cli_interrupted(); i++) {
		for (int d = SB_DDIR_READ; !rc && d <= (writes ? SB_DDIR_WRITE : SB_DDIR_READ);
		     d++) {
			if ((i || d) && c->idle_ns)
				idle(c->idle_ns);
			c->steps->at++;
			rc = one_test(c, &c->tests[i], d, &t, res, probe.seed + (uint64_t)i * 100);
		}
	}
	cli_target_cleanup(&t, c->sh.keep);
	return rc;
}

static const struct sb_summary_row *row_of(const struct sb_results *r, const char *test, int d)
{
	for (size_t i = 0; r && i < r->nsummary; i++)
		if (!strcmp(r->summary[i].test, test) && r->summary[i].ddir == d)
			return &r->summary[i];
	return NULL;
}

static void cell(FILE *f, const struct sb_summary_row *s)
{
	if (!s) {
		fprintf(f, " %9s %19s %9s %9s", "-", "", "-", "-");
		return;
	}
	char range[48];
	snprintf(range, sizeof(range), "(%.1f..%.1f)", s->bw_min / 1048576, s->bw_max / 1048576);
	fprintf(f, " %9.1f %19s %9.0f %9.1f", s->bw_median / 1048576, range, s->iops_median,
		s->lat_mean_median_ns / 1000);
}

static void print_table(FILE *f, const struct quick_ctx *c, struct sb_results **res, int n)
{
	char a[32], b[32];
	fprintf(f, "%s test file, %s x %u runs (after a warm-up), direct I/O, random data\n",
		sb_fmt_size(c->size, a, sizeof(a)), sb_fmt_ns((double)c->runtime_ns, b, sizeof(b)),
		c->repeat);
	for (int k = 0; k < n; k++) {
		if (n > 1)
			fprintf(f, "\n[%c] ", 'A' + k);
		render_target_text(f, res[k]);
	}
	for (int d = SB_DDIR_READ; d <= SB_DDIR_WRITE; d++) {
		if (!row_of(res[0], c->tests[0].name, d) &&
		    (n < 2 || !row_of(res[1], c->tests[0].name, d)))
			continue;
		fprintf(f, "\n%-5s %-9s %9s %19s %9s %9s\n", d ? "WRITE" : "READ", "", "MiB/s",
			"min..max", "IOPS", "lat(µs)");
		for (int i = 0; i < NTESTS; i++) {
			for (int k = 0; k < n; k++) {
				char label[48];
				snprintf(label, sizeof(label), "%s%s",
					 n > 1 ? (k ? "[B] " : "[A] ") : "", c->tests[i].name);
				fprintf(f, "%-15s", label);
				cell(f, row_of(res[k], c->tests[i].name, d));
				fputc('\n', f);
			}
			const struct sb_summary_row *x = n > 1 ? row_of(res[0], c->tests[i].name, d)
							       : NULL;
			const struct sb_summary_row *y = n > 1 ? row_of(res[1], c->tests[i].name, d)
							       : NULL;
			if (x && y && x->bw_median > 0)
				fprintf(f, "%-15s %8.2fx\n", "    B/A",
					y->bw_median / x->bw_median);
		}
	}
	if (c->repeat < sb_diff_runs_needed())
		fprintf(f,
			"\nnote: %u run%s per test: 'storbench compare' cannot tell a change from "
			"noise\nwith fewer than %u runs a side; measure with --repeat=%d to compare "
			"results\n",
			c->repeat, c->repeat == 1 ? "" : "s", sb_diff_runs_needed(),
			SB_DIFF_RUNS_ADVISED);
}

/* Many ranks: each rank's median bandwidth per test (a column per rank,
 * up to 8; the JSON's client_stats has them all). */
static void print_ranks(FILE *f, const struct quick_ctx *c, const struct sb_results *r)
{
	const unsigned nr = r->njobs ? r->jobs[0]->nclients : 0;
	if (nr < 2)
		return;
	if (nr > 8) {
		fprintf(f, "\n%u ranks: each rank's figures are in the JSON's client_stats\n", nr);
		return;
	}
	fprintf(f, "\nper rank, MiB/s (median of the runs)\n%-19s", "test");
	for (unsigned k = 0; k < nr; k++)
		fprintf(f, " %9s%-2u", "rank ", r->jobs[0]->clients[k].rank);
	fputc('\n', f);
	for (unsigned i = 0; i < c->nspans; i++) {
		const struct quick_span *s = &c->spans[i];
		if (!s->n)
			continue;
		const int d = r->jobs[s->first]->opts.rw == SB_RW_WRITE ||
			      r->jobs[s->first]->opts.rw == SB_RW_RANDWRITE;
		char label[48];
		snprintf(label, sizeof(label), "%s %s", s->test, d ? "write" : "read");
		fprintf(f, "%-19s", label);
		for (unsigned k = 0; k < nr; k++) {
			double bw[101];
			unsigned m = 0;
			for (size_t j = s->first; j < s->first + s->n && m < 101; j++) {
				const struct sb_job_result *jr = r->jobs[j];
				if (k >= jr->nclients)
					continue;
				const struct sb_job_result *cj = jr->clients[k].job;
				if (cj->runtime_ns)
					bw[m++] = (double)cj->dir[d].bytes * 1e9 /
						  (double)cj->runtime_ns;
			}
			fprintf(f, " %11.1f", m ? sb_median(bw, m) / 1048576 : 0.0);
		}
		fputc('\n', f);
	}
}

static int write_outputs(const struct quick_ctx *c, struct sb_results **res, int n)
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
		.repeat = 3,
		.tests = tests_default,
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
	cli_signals_install();
	struct quick_steps steps = { 0, (unsigned)npos * NTESTS * (c.read_only ? 1 : 2),
				     sb_now_ns() };
	c.steps = &steps;
	struct sb_results *res[MAX_TARGETS] = { NULL, NULL };
	int rc = 0;
	for (int k = 0; k < npos && !rc && !cli_interrupted(); k++) {
		res[k] = sb_results_create("quick");
		if (!res[k]) {
			sb_err("out of memory");
			rc = SB_EXIT_ENV;
			break;
		}
		rc = quick_target(&c, pos[k], res[k]);
	}
	int n = res[1] ? 2 : 1;
	/* many ranks: rank 0 writes the aggregate, the others nothing */
	if (res[0] && cli_ranks() > 1) {
		if (cli_ranks_collect(res[0], &rc)) { /* rank 0 says it all */
			sb_results_free(res[0]);
			return cli_interrupted() ? cli_interrupt_status() : rc;
		}
		for (unsigned i = 0; i < c.nspans; i++)
			sb_repeats_summarize(res[0], c.spans[i].first, c.spans[i].n,
					     c.spans[i].test);
	}
	/* a run stopped before its first test's runs ended writes what it has
	 * (the warm-up is no measurement), marked interrupted */
	for (int k = 0; k < n; k++)
		if (res[k] && cli_interrupted())
			res[k]->interrupted = 1;
	if (res[0] && (res[0]->nsummary || cli_interrupted())) {
		if (!c.json_stdout) {
			print_table(stdout, &c, res, n);
			print_ranks(stdout, &c, res[0]);
		}
		int w = write_outputs(&c, res, n);
		if (!rc)
			rc = w;
	}
	for (int k = 0; k < n; k++) {
		if (res[k])
			render_warnings_text(stderr, res[k]);
		sb_results_free(res[k]);
	}
	if (cli_interrupted())
		rc = cli_interrupt_status();
	return rc;
}
