/*
 * storbench spo: sudden power off integrity (METHODS.md section 9). The
 * writer (spo_writer.c) writes verify blocks and an acknowledgement journal
 * until the power goes; --check (spo_checker.c) reads back what the journal
 * mentions and classifies it; --cycles (spo_remote.c) runs both from a
 * controlling host, cycle after cycle. This file holds the options.
 */
#include "cli/spo_cmd.h"

#include <unistd.h>

enum {
	P_CHECK = 1,
	P_JOURNAL,
	P_BS,
	P_DEPTH,
	P_RW,
	P_SYNC,
	P_FLUSH_N,
	P_FLUSH_T,
	P_DURATION,
	P_CUT_AFTER,
	P_CUT_CMD,
	P_RECONNECT,
	P_RECONNECT_T,
	P_REMOTE,
	P_LOG,
	P_CANARY,
	P_SIZE,
	P_OFFSET,
	P_TORN,
	P_RANGES,
	P_CYCLES,
};

static const struct cli_opt spo_opts_table[] = {
	{ "check", OPT_NOARG, P_CHECK, NULL,
	  "after the cut: read back what the journal mentions and classify it" },
	{ "journal", OPT_ARG, P_JOURNAL, "FILE",
	  "the acknowledgement journal: a new file on another device, or - (standard "
	  "output for the writer, standard input for --check) [required]" },
	{ "bs", OPT_ARG, P_BS, "SIZE", "bytes per write, a multiple of 512 up to 1M [4k]" },
	{ "iodepth", OPT_ARG, P_DEPTH, "N", "writers at once, each its own slots (1-64) [1]" },
	{ "rw", OPT_ARG, P_RW, "randwrite|write|mixed",
	  "random slots, sequential slots, or random writes with 30% reads [randwrite]" },
	{ "sync", OPT_ARG, P_SYNC, "fdatasync|fsync|dsync|none",
	  "the durability point: a flush call, O_DSYNC writes, or none (nothing is "
	  "acknowledged: only damage is looked for) [fdatasync]" },
	{ "flush-every", OPT_ARG, P_FLUSH_N, "N", "flush after every N writes [1]" },
	{ "flush-interval", OPT_ARG, P_FLUSH_T, "TIME",
	  "flush at least this often (e.g. 50ms); alone: by time only" },
	{ "duration", OPT_ARG, P_DURATION, "TIME", "stop after TIME [until killed]" },
	{ "cut-after", OPT_ARG, P_CUT_AFTER, "MIN-MAX",
	  "run --cut-cmd after a random time in MIN-MAX (e.g. 5s-30s)" },
	{ "cut-cmd", OPT_ARG, P_CUT_CMD, "CMD",
	  "the command that cuts the power (a relay, pdudaemon, ipmitool, "
	  "'echo b > /proc/sysrq-trigger')" },
	{ "canary", OPT_ARG, P_CANARY, "SIZE",
	  "a region at the start written and flushed before the run: it must not change "
	  "[64 blocks of --bs]" },
	{ "size", OPT_ARG, P_SIZE, "SIZE", "bytes of the region [all of TARGET from --offset]" },
	{ "offset", OPT_ARG, P_OFFSET, "SIZE", "where the region starts [0]" },
	{ "allow-torn", OPT_ARG, P_TORN, "SIZE",
	  "--check: the atomic write unit the device promises; writes torn only between "
	  "such units pass [none: a torn write fails]" },
	{ "max-ranges", OPT_ARG, P_RANGES, "N", "--check: ranges listed at most [100]" },
	{ "cycles", OPT_ARG, P_CYCLES, "N",
	  "controlling host: N cycles of write, cut, reconnect, check (needs --cut-cmd, "
	  "--reconnect-cmd, --log)" },
	{ "reconnect-cmd", OPT_ARG, P_RECONNECT, "CMD",
	  "--cycles: succeeds once the board is back (e.g. 'ssh board true')" },
	{ "reconnect-timeout", OPT_ARG, P_RECONNECT_T, "TIME",
	  "--cycles: give up waiting for the board after TIME [10m]" },
	{ "remote", OPT_ARG, P_REMOTE, "PREFIX",
	  "--cycles: run the writer and the check through PREFIX (e.g. 'ssh root@board'); "
	  "they get the command line as one argument [run here]" },
	{ "log", OPT_ARG, P_LOG, "FILE",
	  "--cycles: the JSON Lines log of cycles, resumed when it exists; journals go to "
	  "FILE.N.journal" },
	{ NULL, 0, 0, NULL, NULL },
};

static int bad(char *hint, size_t hl, const char *what)
{
	snprintf(hint, hl, "%s", what);
	return -EINVAL;
}

static int set_cut_after(struct spo_opts *o, const char *v, char *hint, size_t hl)
{
	char a[64];
	const char *dash = strchr(v, '-');
	const char *what = "MIN-MAX, two times with MIN <= MAX (e.g. 5s-30s)";

	if (!dash || (size_t)(dash - v) >= sizeof(a))
		return bad(hint, hl, what);
	memcpy(a, v, (size_t)(dash - v));
	a[dash - v] = 0;
	if (sb_parse_duration_ns(a, &o->cut_min_ns) < 0 ||
	    sb_parse_duration_ns(dash + 1, &o->cut_max_ns) < 0 || o->cut_max_ns < o->cut_min_ns ||
	    !o->cut_max_ns)
		return bad(hint, hl, what);
	return 0;
}

static int set_cmd(const char *v, const char **out, char *hint, size_t hl)
{
	if (!*v)
		return bad(hint, hl, "a command");
	*out = v;
	return 0;
}

static int spo_set(void *ctx, int id, const char *v, char *hint, size_t hl)
{
	struct spo_opts *o = ctx;
	uint64_t n;
	int e;

	switch (id) {
	case P_CHECK: return o->check = 1, 0;
	case P_JOURNAL: return *v ? (o->journal = v, 0) : bad(hint, hl, "a file name or -");
	case P_BS:
		e = cli_opt_size(v, &n, SB_SPO_SECTOR, SB_SPO_MAX_BS, SB_SPO_SECTOR,
				 "a multiple of 512 from 512 to 1M", hint, hl);
		return o->bs = (uint32_t)n, e;
	case P_DEPTH:
		e = cli_opt_number(v, &n, 1, SB_SPO_MAX_DEPTH, hint, hl);
		return o->iodepth = (unsigned)n, e;
	case P_RW:
		o->rw = sb_spo_rw_parse(v);
		return o->rw < 0 ? bad(hint, hl, "randwrite, write or mixed") : 0;
	case P_SYNC:
		o->sync = sb_spo_sync_parse(v);
		return o->sync < 0 ? bad(hint, hl, "fdatasync, fsync, dsync or none") : 0;
	case P_FLUSH_N:
		o->flush_writes_given = 1;
		return cli_opt_number(v, &o->flush_writes, 1, 1000000, hint, hl);
	case P_FLUSH_T:
		o->flush_ns_given = 1;
		if (sb_parse_duration_ns(v, &o->flush_ns) < 0 || !o->flush_ns)
			return bad(hint, hl, "a time above 0 (e.g. 50ms, 1s)");
		return 0;
	case P_DURATION:
		if (sb_parse_duration_ns(v, &o->duration_ns) < 0 || !o->duration_ns)
			return bad(hint, hl, "a time above 0 (e.g. 30s, 10m)");
		return 0;
	case P_CUT_AFTER: return set_cut_after(o, v, hint, hl);
	case P_CUT_CMD: return set_cmd(v, &o->cut_cmd, hint, hl);
	case P_RECONNECT: return set_cmd(v, &o->reconnect_cmd, hint, hl);
	case P_REMOTE: return set_cmd(v, &o->remote, hint, hl);
	case P_LOG: return *v ? (o->log = v, 0) : bad(hint, hl, "a file name");
	case P_RECONNECT_T:
		if (sb_parse_duration_ns(v, &o->reconnect_timeout_ns) < 0 ||
		    !o->reconnect_timeout_ns)
			return bad(hint, hl, "a time above 0 (e.g. 5m)");
		return 0;
	case P_CANARY:
		return cli_opt_size(v, &o->canary, 0, UINT64_MAX, 0, "a size (e.g. 0, 256k, 1M)",
				    hint, hl);
	case P_SIZE:
		o->size_given = 1;
		return cli_opt_size(v, &o->size, 1, UINT64_MAX, 0, "a size above 0", hint, hl);
	case P_OFFSET:
		return cli_opt_size(v, &o->offset, 0, UINT64_MAX, SB_SPO_SECTOR,
				    "a multiple of 512 (e.g. 0, 1M)", hint, hl);
	case P_TORN:
		e = cli_opt_size(v, &n, SB_SPO_SECTOR, SB_SPO_MAX_BS, SB_SPO_SECTOR,
				 "a multiple of 512 from 512 to 1M", hint, hl);
		return o->allow_torn = (uint32_t)n, e;
	case P_RANGES:
		e = cli_opt_number(v, &n, 0, 100000, hint, hl);
		return o->max_ranges = (unsigned)n, e;
	case P_CYCLES: return cli_opt_number(v, &o->cycles, 1, 100000000, hint, hl);
	}
	return -EINVAL;
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench spo --destroy-data --journal=FILE|- [options] TARGET\n"
	       "       storbench spo --check --journal=FILE|- [options] TARGET\n"
	       "       storbench spo --cycles=N --cut-cmd=CMD --reconnect-cmd=CMD --log=FILE\n"
	       "                     [--remote=PREFIX] [options] TARGET\n\n"
	       "Sudden power off: does the device keep what it acknowledged when the power\n"
	       "goes? The writer fills blocks of TARGET (a block device or a file) with verify\n"
	       "blocks, each 512-byte sector carrying the run's id, its own address and the\n"
	       "write's generation, and journals every write: an intent before it is\n"
	       "submitted, an acknowledgement once it passed its durability point. Keep the\n"
	       "journal off the device under test and off its power: another disk, a network\n"
	       "filesystem, or standard output captured on another machine\n"
	       "(ssh board storbench spo ... --journal=- > journal). Cut the power while it\n"
	       "runs, power on, then --check: ok, ok-unacked (in flight: old or new),\n"
	       "lost-acked, torn, misdirected, corrupt, unreadable, collateral (the canary\n"
	       "changed).\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  ssh root@board storbench spo --destroy-data --journal=- /dev/mmcblk1 > j\n"
	       "  (cut the power, power on)\n"
	       "  ssh root@board storbench spo --check --journal=- /dev/mmcblk1 < j\n"
	       "  storbench spo --cycles=500 --remote='ssh root@board' --cut-after=5s-60s \\\n"
	       "      --cut-cmd='pdudaemon-client ... off' --reconnect-cmd='ssh root@board true' \\\n"
	       "      --log=spo.jsonl /dev/mmcblk1\n");
	cli_print_exit_status(stdout, co->cmd);
}

static void defaults(struct spo_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->bs = 4096;
	o->iodepth = 1;
	o->rw = SB_SPO_RANDWRITE;
	o->sync = SB_SPO_FDATASYNC;
	o->flush_writes = 1;
	o->canary = UINT64_MAX; /* 64 blocks of --bs */
	o->max_ranges = 100;
	o->reconnect_timeout_ns = 600ull * 1000000000ull;
}

static int check_opts(struct spo_opts *o)
{
	if (o->canary == UINT64_MAX)
		o->canary = 64ull * o->bs;
	if (!o->journal && !o->cycles)
		return sb_err("spo needs --journal=FILE (or - for standard output/input)"),
		       SB_EXIT_USAGE;
	if (o->canary % o->bs)
		return sb_err("--canary: must be a multiple of --bs (%u)", o->bs), SB_EXIT_USAGE;
	if (o->allow_torn && o->bs % o->allow_torn && !o->check)
		return sb_err("--allow-torn: must divide --bs (%u)", o->bs), SB_EXIT_USAGE;
	if (o->sync == SB_SPO_DSYNC && (o->flush_writes_given || o->flush_ns_given))
		return sb_err("--flush-every and --flush-interval: O_DSYNC writes need no flush "
			      "(--sync=dsync)"),
		       SB_EXIT_USAGE;
	if (o->sync == SB_SPO_NONE && (o->flush_writes_given || o->flush_ns_given))
		return sb_err("--flush-every and --flush-interval: --sync=none never flushes"),
		       SB_EXIT_USAGE;
	if (o->flush_ns_given && !o->flush_writes_given)
		o->flush_writes = 0; /* by time only */
	if (!!o->cut_cmd != !!o->cut_max_ns && !o->cycles)
		return sb_err("--cut-after and --cut-cmd go together"), SB_EXIT_USAGE;
	if (o->check && (o->cycles || o->cut_cmd || o->duration_ns))
		return sb_err("--check: takes no --cycles, --cut-cmd or --duration"), SB_EXIT_USAGE;
	if (!o->cycles && (o->reconnect_cmd || o->remote || o->log))
		return sb_err("--reconnect-cmd, --remote and --log belong to --cycles"),
		       SB_EXIT_USAGE;
	if (o->cycles && (!o->cut_cmd || !o->reconnect_cmd || !o->log || o->journal))
		return sb_err("--cycles: needs --cut-cmd, --reconnect-cmd and --log (journals "
			      "go next to the log; no --journal)"),
		       SB_EXIT_USAGE;
	if (o->journal && !strcmp(o->journal, "-") && o->json_stdout && !o->check)
		return sb_err("--journal=- and --format=json: both want standard output"),
		       SB_EXIT_USAGE;
	return 0;
}

int cmd_spo(const struct cli_command *cmd, int argc, char **argv)
{
	struct spo_opts o;
	struct cli_shared sh = { 0 };
	char *target;

	defaults(&o);
	struct cli_cmd_opts co = { spo_opts_table, spo_set, 0, NULL, &o, cmd, &sh };
	int p = cli_parse_target(argc, argv, &co, help, "a block device or a file", &target);
	if (p)
		return p < 0 ? SB_EXIT_OK : p;
	o.output = sh.output;
	o.json_stdout = sh.format && cli_format_is(cmd, &sh, "json");
	o.quiet = sh.quiet;
	o.destroy = sh.destroy_data;
	o.seed = sh.seed;
	o.seed_given = sh.seed_given;
	o.argc = argc;
	o.argv = argv;
	const int rc = check_opts(&o);
	if (rc)
		return rc;
	if (o.cycles)
		return spo_cycles(&o, target);
	return o.check ? spo_check(&o, target) : spo_write(&o, target);
}
