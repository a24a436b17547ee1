/*
 * storbench verify: fill a file, a directory or a device with verify blocks
 * and read them back (f3write/f3read in one tool), or probe a device for
 * fake capacity (--probe, f3probe-like). Write and check may run in
 * separate invocations: the blocks carry everything a check needs. Here
 * the options and the exit code; the run is the library's.
 */
#include "cli/verify_cli.h"

#include <unistd.h>

static const struct cli_opt verify_opts_table[] = {
	{ "phase", OPT_ARG, VOPT_PHASE, "write|check|both",
	  "write the blocks, check them, or both [both]" },
	{ "size", OPT_ARG, VOPT_SIZE, "SIZE",
	  "bytes to cover [a file or device: all of it from "
	  "--offset; a new file: 1G; a directory: its free space]" },
	{ "offset", OPT_ARG, VOPT_OFFSET, "SIZE",
	  "where the region starts in a file or device [0]" },
	{ "block-size", OPT_ARG, VOPT_BLOCK, "SIZE",
	  "verify block: the unit that is checked "
	  "(a multiple of 512) [4k]" },
	{ "bs", OPT_ARG, VOPT_BS, "SIZE", "request size: many blocks per read or write [1M]" },
	{ "iodepth", OPT_ARG, VOPT_DEPTH, "N", "requests in flight [4]" },
	{ "engine", OPT_ARG, VOPT_ENGINE, "NAME",
	  "psync, io_uring, libaio [io_uring where usable]" },
	{ "generation", OPT_ARG, VOPT_GEN, "N",
	  "generation of the data (a later write of the same "
	  "region takes a higher one) [1]" },
	{ "direct", OPT_ARG, VOPT_DIRECT, "0|1", "VOPT_DIRECT [1 where supported]" },
	{ "probe", OPT_NOARG, VOPT_PROBE, NULL,
	  "fake-capacity probe of a whole block device "
	  "(destructive)" },
	{ "max-ranges", OPT_ARG, VOPT_RANGES, "N", "bad ranges listed at most [100]" },
	{ NULL, 0, 0, NULL, NULL },
};

static int set_flag(struct verify_opts *o, int id)
{
	switch (id) {
	case VOPT_PROBE: return o->probe = 1, 0;
	}
	return -EINVAL;
}

int verify_set_opt(struct verify_opts *o, int id, const char *v, char *hint, size_t hl)
{
	uint64_t n;
	int e;

	switch (id) {
	case VOPT_PHASE:
		o->phase = !strcmp(v, "write")	 ? SB_VPHASE_WRITE
			   : !strcmp(v, "check") ? SB_VPHASE_CHECK
			   : !strcmp(v, "both")	 ? SB_VPHASE_BOTH
						 : 0;
		return o->phase ? 0 : (snprintf(hint, hl, "write, check or both"), -EINVAL);
	case VOPT_SIZE:
		o->size_given = 1;
		return cli_opt_size(v, &o->size, 1, UINT64_MAX, 0, "a size above 0 (e.g. 64M, 4G)",
				    hint, hl);
	case VOPT_OFFSET:
		return cli_opt_size(v, &o->offset, 0, UINT64_MAX, 0, "a size (e.g. 0, 1M)", hint,
				    hl);
	case VOPT_BLOCK:
		e = cli_opt_size(v, &n, SB_VERIFY_MIN_BS, SB_VERIFY_MAX_BS, 512,
				 "a multiple of 512 from 512 to 16M", hint, hl);
		o->block_size = (uint32_t)n;
		o->block_size_given = 1;
		return e;
	case VOPT_BS:
		e = cli_opt_size(v, &n, SB_VERIFY_MIN_BS, 64u << 20, 0, "a size from 512 to 64M",
				 hint, hl);
		o->request_size = (uint32_t)n;
		o->request_given = 1;
		return e;
	case VOPT_DEPTH:
		e = cli_opt_number(v, &n, 1, 1024, hint, hl);
		o->iodepth = (unsigned)n;
		return e;
	case VOPT_ENGINE:
		if (!*v || strlen(v) >= sizeof(o->engine))
			return snprintf(hint, hl, "an engine name"), -EINVAL;
		snprintf(o->engine, sizeof(o->engine), "%s", v);
		return 0;
	case VOPT_GEN: return cli_opt_number(v, &o->generation, 0, UINT64_MAX, hint, hl);
	case VOPT_DIRECT:
		e = cli_opt_number(v, &n, 0, 1, hint, hl);
		o->direct = (int)n;
		return e ? (snprintf(hint, hl, "0 or 1"), e) : 0;
	case VOPT_RANGES:
		e = cli_opt_number(v, &n, 0, 100000, hint, hl);
		o->max_ranges = (unsigned)n;
		return e;
	}
	return set_flag(o, id);
}

static int verify_set(void *ctx, int id, const char *v, char *hint, size_t hl)
{
	return verify_set_opt(ctx, id, v, hint, hl);
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench verify [options] TARGET\n\n"
	       "Fills TARGET with verify blocks and reads them back: every block carries its\n"
	       "offset, the run's seed, a generation, a checksum and where the region ends, so\n"
	       "a check tells intact blocks from corrupted, misplaced, stale, newer, foreign,\n"
	       "missing and unreadable ones, without keeping a copy. TARGET is a file, a\n"
	       "directory (files of 1 GiB are written in it, as f3write does) or a block\n"
	       "device (with --destroy-data).\n"
	       "--phase=write, then --phase=check with the same options after a power cycle\n"
	       "or replug, catches what a device only pretended to store.\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench verify --size=4G /mnt/sd\n"
	       "  storbench verify --phase=write --destroy-data /dev/sdb   (then replug)\n"
	       "  storbench verify --phase=check /dev/sdb\n"
	       "  storbench verify --probe --destroy-data /dev/sdb\n");
	cli_print_exit_status(stdout, co->cmd);
}

int verify_check_opts(struct verify_opts *o)
{
	char a[32], b[32];
	if (!o->request_given && o->request_size < o->block_size)
		o->request_size = o->block_size;
	if (o->request_size % o->block_size) {
		sb_err("--bs: %s is not a multiple of the block size (%s)",
		       sb_fmt_size(o->request_size, a, sizeof(a)),
		       sb_fmt_size(o->block_size, b, sizeof(b)));
		return SB_EXIT_USAGE;
	}
	if (o->probe && (o->phase != SB_VPHASE_BOTH || o->size_given || o->offset)) {
		sb_err("--probe: tests the whole device; it takes no --phase, --size or --offset");
		return SB_EXIT_USAGE;
	}
	return 0;
}

void verify_defaults(struct verify_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->phase = SB_VPHASE_BOTH;
	o->block_size = 4096;
	o->request_size = 1u << 20;
	o->iodepth = 4;
	o->generation = 1;
	o->direct = -1;
	o->max_ranges = 100;
}

void verify_take_shared(struct verify_opts *o, const struct cli_command *cmd,
			const struct cli_shared *sh)
{
	/* only what was given: a resumed soak applies its command line over
	 * the options of its log */
	if (sh->output)
		o->output = sh->output;
	if (sh->format)
		o->json_stdout = cli_format_is(cmd, sh, "json");
	o->quiet |= sh->quiet;
	o->destroy |= sh->destroy_data;
	o->keep |= sh->keep;
	if (sh->seed_given) {
		o->seed = sh->seed;
		o->seed_given = 1;
	}
}

static int verdict(const struct sb_verify_result *v)
{
	if (cli_interrupted())
		return cli_interrupt_status();
	if (v->rep.wr.errors || v->rep.failed || sb_verify_acc_bad(&v->rep.acc))
		return SB_EXIT_FAIL;
	return SB_EXIT_OK;
}

/* The results written, and the exit code: a phase that could not run,
 * then (many ranks) the worst of every rank's, then the blocks. */
static int finish(const struct verify_opts *o, struct sb_verify_result *v)
{
	const int rc = v->phase_failed ? SB_EXIT_ENV : 0;
	int code = rc ? rc : v->stopped ? SB_EXIT_FAIL : verdict(v);
	const int out = verify_output(o, v, &code);
	if (cli_ranks() > 1)
		return out == 1 ? code : out ? out : code ? code : verdict(v);
	return rc ? rc : out ? out : verdict(v);
}

/* Every option is checked: the target made ready, the library's run
 * (lib/verify/verify.h), the results; the files it made removed after a
 * --phase=both without --keep. */
static int run(struct verify_opts *o, const char *path)
{
	struct vtarget t;
	struct sb_verify_result v;
	struct sb_error er;
	struct verify_line l;
	struct sb_verify_hooks h;
	const struct sb_engine_ops *ops = NULL;

	memset(&t, 0, sizeof(t));
	memset(&v, 0, sizeof(v));
	int rc = verify_prepare(&t, o, &path, &ops);
	if (rc)
		goto out;
	const struct sb_verify_opts vo = {
		.path = t.v.path,
		.info = &t.ct.info,
		.vt = &t.v,
		.vto = verify_lib_opts(o),
		.ops = ops,
		.phase = o->phase,
		.block_size = o->block_size,
		.request_size = o->request_size,
		.iodepth = o->iodepth,
		.seed = o->seed,
		.generation = o->generation,
		.max_ranges = o->max_ranges,
	};
	verify_hooks(&h, &l, o);
	if (sb_verify_run(&vo, &h, cli_ranks_coord(), &v, &er) < 0) {
		cli_ranks_end_if_lost(v.lost, SB_EXIT_ENV);
		rc = cli_error_told(&er);
		goto out;
	}
	rc = finish(o, &v);
	if (o->phase == SB_VPHASE_WRITE && t.v.is_dir && !o->quiet && !o->json_stdout)
		printf("kept the files in '%s' for --phase=check\n", path);
out:
	verify_target_cleanup(&t, o->phase == SB_VPHASE_BOTH && !o->keep);
	sb_verify_result_free(&v);
	return rc;
}

int cmd_verify(const struct cli_command *cmd, int argc, char **argv)
{
	struct verify_opts o;
	struct cli_shared sh = { 0 };
	char *pos[1];

	verify_defaults(&o);
	struct cli_cmd_opts co = { verify_opts_table, verify_set, 0, NULL, &o, cmd, &sh };
	int p = cli_parse_target(argc, argv, &co, help, "a file, a directory or a block device",
				 &pos[0]);
	if (p)
		return p < 0 ? SB_EXIT_OK : p;
	verify_take_shared(&o, cmd, &sh);
	int rc = verify_check_opts(&o);
	if (rc)
		return rc;
	if (o.probe && cli_ranks() > 1) {
		sb_err("--probe: not under mpirun (one device, one host: run it there alone)");
		return SB_EXIT_USAGE;
	}
	if (o.probe)
		return verify_probe(&o, pos[0]);
	if (!o.seed_given && (o.phase & SB_VPHASE_WRITE))
		o.seed = sb_now_ns() ^ ((uint64_t)getpid() << 32);
	return run(&o, pos[0]);
}
