/*
 * storbench soak: the stability loop engineers run for days (write, sync,
 * drop caches, read back, delete), done properly: every block verified,
 * one JSON Lines record per iteration that survives a crash, kernel storage
 * errors caught, health before and after, anomalies found in the
 * throughput series, and --resume after a power cut.
 */
#include "cli/soak_cli.h"

#include <sys/stat.h>
#include <unistd.h>

enum {
	S_ITER = 100,
	S_DURATION,
	S_IDLE,
	S_BURST,
	S_STOP,
	S_ANOMALY,
	S_LOG,
	S_RESUME,
	S_WORKLOAD,
	S_IOZONE_OUT
};

static const struct cli_opt soak_table[] = {
	{ "iterations", OPT_ARG, S_ITER, "N",
	  "stop after N whole iterations (one a signal cut short does not count) [10, unless "
	  "--duration]" },
	{ "duration", OPT_ARG, S_DURATION, "TIME", "stop after this long (e.g. 72h) [none]" },
	{ "idle", OPT_ARG, S_IDLE, "TIME", "pause after each iteration [0]" },
	{ "burst", OPT_ARG, S_BURST, "SIZE,IDLE",
	  "write in bursts: sync and pause IDLE after every SIZE (pause not timed); "
	  "under mpirun every burst starts on all ranks together" },
	{ "stop-on-error", OPT_NOARG, S_STOP, NULL, "stop at the first failed iteration" },
	{ "fail-on-anomaly", OPT_NOARG, S_ANOMALY, NULL,
	  "outliers and throughput changes fail the soak (otherwise warnings)" },
	{ "log", OPT_ARG, S_LOG, "FILE",
	  "JSON Lines log, one record per iteration [storbench-soak-TIME.jsonl here]; "
	  "under mpirun each rank's is LOG.rank-N and rank 0's LOG the ranks' together" },
	{ "resume", OPT_ARG, S_RESUME, "LOG",
	  "continue the soak of LOG with its options (the files a killed iteration left "
	  "are removed when they prove to be the soak's; every write takes a generation no "
	  "earlier one used); --iterations and --duration replace its stop condition; "
	  "only --output, --format and --quiet may be given besides" },
	{ "workload", OPT_ARG, S_WORKLOAD, "verify|iozone",
	  "what each iteration does: write and verify, or iozone's command line given "
	  "after '--' (then --burst, --size and the options after it are refused) "
	  "[verify]" },
	{ "iozone-output", OPT_NOARG, S_IOZONE_OUT, NULL,
	  "with --workload=iozone: print iozone's rows (and -R's blocks) each iteration" },
	{ "size", OPT_ARG, VOPT_SIZE, "SIZE",
	  "bytes written and checked each iteration "
	  "[a file or device: all of it; new file: 1G; "
	  "directory: 1G]" },
	{ "offset", OPT_ARG, VOPT_OFFSET, "SIZE",
	  "where the region starts in a file or device [0]" },
	{ "bs", OPT_ARG, VOPT_BS, "SIZE", "request size [1M]" },
	{ "block-size", OPT_ARG, VOPT_BLOCK, "SIZE", "verify block (a multiple of 512) [4k]" },
	{ "iodepth", OPT_ARG, VOPT_DEPTH, "N", "requests in flight [4]" },
	{ "engine", OPT_ARG, VOPT_ENGINE, "NAME",
	  "psync, io_uring, libaio [io_uring where usable]" },
	{ "direct", OPT_ARG, VOPT_DIRECT, "0|1",
	  "O_DIRECT (0: buffered, caches dropped before "
	  "each check) [1 where supported]" },
	{ NULL, 0, 0, NULL, NULL },
};

static int soak_set(void *ctx, int id, const char *v, char *hint, size_t hl)
{
	struct soak_opts *o = ctx;
	uint64_t n;
	char *comma;
	if (id < 100 || id == S_BURST) /* the verify workload's */
		for (const struct cli_opt *t = soak_table; t->name; t++)
			if (t->id == id)
				o->verify_opt = t->name;
	switch (id) {
	case S_WORKLOAD:
		if (strcmp(v, "verify") && strcmp(v, "iozone"))
			return snprintf(hint, hl, "verify or iozone"), -EINVAL;
		o->iozone = !strcmp(v, "iozone");
		return 0;
	case S_IOZONE_OUT: return o->iozone_output = 1, 0;
	case S_ITER:
		if (sb_parse_u64(v, &n) < 0 || n < 1)
			return snprintf(hint, hl, "a number of at least 1"), -EINVAL;
		o->iterations = n;
		return 0;
	case S_DURATION:
	case S_IDLE:
		if (sb_parse_duration_ns(v, &n) < 0 || (id == S_DURATION && !n))
			return snprintf(hint, hl, "a duration (examples: 30s, 5m, 72h)"), -EINVAL;
		*(id == S_DURATION ? &o->duration_ns : &o->idle_ns) = n;
		return 0;
	case S_BURST:
		comma = strchr(v, ',');
		if (comma) {
			char size[64];
			snprintf(size, sizeof(size), "%.*s", (int)(comma - v), v);
			if (sb_parse_size(size, &o->burst_bytes) == 0 && o->burst_bytes &&
			    sb_parse_duration_ns(comma + 1, &o->burst_idle_ns) == 0)
				return 0;
		}
		return snprintf(hint, hl, "SIZE,IDLE (example: 64M,10s)"), -EINVAL;
	case S_STOP: return o->stop_on_error = 1, 0;
	case S_ANOMALY: return o->fail_on_anomaly = 1, 0;
	case S_LOG:
	case S_RESUME:
		if (!*v)
			return snprintf(hint, hl, "a file name"), -EINVAL;
		*(id == S_LOG ? &o->log : &o->resume) = v;
		return 0;
	}
	return verify_set_opt(&o->v, id, v, hint, hl);
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench soak [options] TARGET\n"
	       "       storbench soak --workload=iozone [options] -- IOZONE-OPTIONS\n"
	       "       storbench soak --resume LOG\n\n"
	       "Repeats, for days if asked: write the region with verify blocks, fsync, drop\n"
	       "the caches, read it back and check every block, delete (a file or directory\n"
	       "target) or keep (a device or existing file: the next write replaces it).\n"
	       "Each iteration is one line of the JSON Lines log, flushed to disk before the\n"
	       "next one starts. Kernel messages about storage trouble of the target's own\n"
	       "devices (the device, its disk and partitions, its filesystem, loop and dm\n"
	       "devices over or under it, its controller), or naming no device, fail the\n"
	       "iteration they came in; those about other devices are listed, not counted.\n"
	       "At the end: the verdict, PASS, FAIL, INTERRUPTED (a signal stopped it: the\n"
	       "text says how to resume) or ABORTED (it could not go on), each failed\n"
	       "iteration and what failed, stability of the throughput, outliers, change\n"
	       "points, health before and after. storbench report shows the same first.\n\n"
	       "With --workload=iozone each iteration runs iozone's command line once (as\n"
	       "storbench iozone does, docs/iozone-cli.md; the test file is its -f) and logs\n"
	       "every cell (test x file size x record size, KiB/s); each cell gets the\n"
	       "stability and anomaly analysis, and so do the write and read tests'\n"
	       "throughput over all cells. --idle is the pause between iterations.\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench soak --iterations=100 --size=1G /mnt/emmc\n"
	       "  storbench soak --duration=72h --log=/root/sd.jsonl --destroy-data /dev/mmcblk1\n"
	       "  storbench soak --resume /root/sd.jsonl          (after a reboot)\n"
	       "  storbench soak --workload=iozone --iterations=100 --idle=5s --log=io.jsonl -- \\\n"
	       "      -azecI -+n -L64 -S32 -r2m -s128m -i0 -i2 -+b 400000,30000 -w -f testfile\n"
	       "  mpirun -n 8 storbench soak --duration=24h --size=4G --log=/shared/s.jsonl "
	       "/scratch\n");
	cli_print_exit_status(stdout, co->cmd);
}

/* --workload=iozone: iozone's options (argv[0..argc)), checked as
 * storbench iozone checks them; the target is its -f. */
static int parse_iozone(struct soak_opts *o, int npos, int argc, char **argv, char **target)
{
	struct sb_iozone_args *a = &o->za;
	if (npos) {
		sb_err("--workload=iozone: iozone's options go after '--' and name the test "
		       "file (-f FILE), not a TARGET");
		return SB_EXIT_USAGE;
	}
	if (o->verify_opt) {
		sb_err("--%s: not with --workload=iozone (iozone's options say what each "
		       "iteration does: -s, -r, -i, -I, -+b)",
		       o->verify_opt);
		return SB_EXIT_USAGE;
	}
	if (argc < 1) {
		sb_err("--workload=iozone: give iozone's options after '--' (example: -- -ecI "
		       "-r64k -s1m -i0 -i2 -f FILE)");
		return SB_EXIT_USAGE;
	}
	if (sb_iozone_args_parse(a, argc, argv) < 0) {
		sb_err("%s", a->error);
		return SB_EXIT_USAGE;
	}
	const char *no = a->help ? "-h" : a->version ? "-v" : a->xls ? "-b" : NULL;
	if (no) {
		sb_err("%s: not with soak (storbench iozone -h lists iozone's options; the "
		       "soak's workbook is storbench report LOG --format=xlsx)",
		       no);
		return SB_EXIT_USAGE;
	}
	if (a->excel && !o->iozone_output) {
		sb_err("-R: iozone's Excel blocks are printed with --iozone-output (each "
		       "iteration); storbench report LOG --format=csv has every iteration");
		return SB_EXIT_USAGE;
	}
	*target = (char *)a->file;
	return 0;
}

/* Parse argv (the command line, or the one stored in a log). */
static int parse(const struct cli_command *cmd, int argc, char **argv, struct soak_opts *o,
		 char **target)
{
	char *pos[1];
	int npos, dd = 1;
	struct cli_shared sh = { 0 };
	struct cli_cmd_opts co = { soak_table, soak_set, 0, NULL, o, cmd, &sh };
	while (dd < argc && strcmp(argv[dd], "--"))
		dd++;
	/* soak's options end at "--": then iozone's (--workload=iozone) or,
	 * as ever, the TARGET */
	int p = cli_parse(dd, argv, &co, pos, 1, &npos);
	if (p == 0 && !o->iozone && dd < argc)
		p = cli_parse(argc, argv, &co, pos, 1, &npos);
	if (p == 1) {
		help(&co);
		return -1;
	}
	if (p < 0)
		return SB_EXIT_USAGE;
	verify_take_shared(&o->v, cmd, &sh);
	if (o->resume)
		return npos || (o->iozone && dd < argc)
			       ? (sb_err("--resume: takes the log only: the target and options "
					 "come from it"),
				  SB_EXIT_USAGE)
			       : 0;
	if (o->iozone && cli_ranks() > 1) {
		sb_err("--workload=iozone: not under mpirun yet (run it on each host, or soak's "
		       "verify workload under mpirun; see docs/mpi.md)");
		return SB_EXIT_USAGE;
	}
	if (o->iozone)
		return parse_iozone(o, npos, argc - dd - (dd < argc), argv + dd + (dd < argc),
				    target);
	if (o->iozone_output) {
		sb_err("--iozone-output: only with --workload=iozone");
		return SB_EXIT_USAGE;
	}
	if (npos != 1) {
		sb_err("soak needs one TARGET: a file, a directory or a block device (see --help)");
		return SB_EXIT_USAGE;
	}
	*target = pos[0];
	if (cli_ranks_stonewall()) {
		sb_err("--stonewall: not with soak (every rank writes and checks all of its region)");
		return SB_EXIT_USAGE;
	}
	return verify_check_opts(&o->v);
}

static void soak_defaults(struct soak_opts *o)
{
	memset(o, 0, sizeof(*o));
	verify_defaults(&o->v);
	o->v.max_ranges = SB_SOAK_MAX_RANGES * 4;
}

/* The log's name: as given, or one made up here (rank 0's under mpirun). */
static void log_name(const struct soak_opts *o, char *name, size_t len)
{
	if (o->log) {
		snprintf(name, len, "%s", o->log);
		return;
	}
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(name, len, "storbench-soak-%Y%m%d-%H%M%S.jsonl", &tm);
}

/* What the library runs: the options, the target made ready. */
static void run_opts(const struct soak_opts *o, struct soak_target *st, const char *target,
		     const char *log, struct sb_soak_opts *r)
{
	memset(r, 0, sizeof(*r));
	r->info = &st->t.ct.info;
	r->vt = &st->t.v;
	r->vto = verify_lib_opts(&o->v);
	r->ops = st->ops;
	r->block_size = o->v.block_size;
	r->request_size = o->v.request_size;
	r->iodepth = o->v.iodepth;
	r->iozone = o->iozone ? &o->za : NULL;
	r->destroy = o->v.destroy;
	r->target = target;
	r->seed = o->v.seed;
	r->iterations = o->iterations;
	r->duration_ns = o->duration_ns;
	r->idle_ns = o->idle_ns;
	r->burst_bytes = o->burst_bytes;
	r->burst_idle_ns = o->burst_idle_ns;
	r->stop_on_error = o->stop_on_error;
	r->fail_on_anomaly = o->fail_on_anomaly;
	r->log = log;
	r->argc = o->argc;
	r->argv = o->argv;
}

/* The soak of o on target: the target made ready, the library's run, what
 * it printed and its exit code. */
static int run(struct soak_opts *o, const char *target, const char *prog,
	       struct sb_soak_resume *resume, const struct soak_opts *cl)
{
	struct soak_target st;
	struct soak_out so;
	struct sb_soak_hooks h;
	struct sb_soak_opts ro;
	struct sb_soak_result res;
	struct sb_error err;
	char log[4096];
	memset(&res, 0, sizeof(res));
	if (o->iozone)
		iozone_name_options(); /* messages name iozone's options as typed */
	int rc = soak_target_prepare(o, target, &st);
	if (rc) {
		soak_target_cleanup(&st);
		return rc;
	}
	cli_signals_install();
	log_name(o, log, sizeof(log));
	run_opts(o, &st, target, log, &ro);
	ro.prog = prog;
	ro.resume = resume;
	if (cl) {
		ro.resume_iterations = cl->iterations;
		ro.resume_duration_ns = cl->duration_ns;
	}
	soak_out_hooks(&so, o, &h);
	const int e = sb_soak_run(&ro, &h, cli_ranks_coord(), &res, &err);
	rc = soak_out_end(&so, &st, e, &err, &res);
	sb_soak_result_free(&res);
	soak_target_cleanup(&st);
	return rc;
}

/* --resume LOG: the soak goes on with exactly the options it was started
 * with; the command line may change how long (cl) and the outputs. */
static int resume(const struct cli_command *cmd, int argc, char **argv, struct soak_opts *o)
{
	struct soak_opts cl;
	struct soak_out so;
	struct sb_soak_hooks h;
	struct sb_soak_resume *r = NULL;
	struct sb_error err;
	char *target = NULL;
	const char *log = o->resume;
	char msg[320];
	int rc;
	if (sb_soak_resume_args_ok(argc, argv, msg, sizeof(msg)))
		return sb_err("%s", msg), SB_EXIT_USAGE;
	soak_out_hooks(&so, o, &h);
	if (sb_soak_resume(log, &h, cli_ranks_coord(), &r, &err) < 0)
		return soak_out_end(&so, NULL, -1, &err, NULL);
	soak_defaults(o);
	if ((rc = parse(cmd, r->argc, r->argv, o, &target)) != 0)
		goto refused;
	soak_defaults(&cl);
	/* what the command line says: how long, and the outputs */
	const uint64_t iterations = o->iterations, duration_ns = o->duration_ns;
	if ((rc = parse(cmd, argc, argv, &cl, &target)) != 0 ||
	    (rc = parse(cmd, argc, argv, o, &target)) != 0)
		goto refused;
	o->iterations = iterations;
	o->duration_ns = duration_ns;
	o->v.seed = r->seed;
	o->v.seed_given = 1;
	o->argc = r->argc;
	o->argv = r->argv;
	o->log = log;
	rc = run(o, target, argv[-1], r, &cl);
refused:
	sb_soak_resume_free(r); /* after the run: the options point into it */
	return rc < 0 ? SB_EXIT_USAGE : rc;
}

int cmd_soak(const struct cli_command *cmd, int argc, char **argv)
{
	struct soak_opts o;
	char *target = NULL;

	soak_defaults(&o);
	int rc = parse(cmd, argc, argv, &o, &target);
	if (rc)
		return rc < 0 ? SB_EXIT_OK : rc;
	if (o.resume)
		return resume(cmd, argc, argv, &o);
	o.argc = argc;
	o.argv = argv;
	if (!o.v.seed_given) {
		o.v.seed = sb_now_ns() ^ ((uint64_t)getpid() << 32);
		cli_ranks_bcast(&o.v.seed, sizeof(o.v.seed)); /* rank 0's on all */
	}
	/* main hands over its argv from the command's name on: the word
	 * before it is the program as it was run */
	return run(&o, target, argv[-1], NULL, NULL);
}
