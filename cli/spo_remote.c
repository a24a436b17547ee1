/*
 * storbench spo --cycles: the controlling host's loop (sb_spo_cycles_run,
 * lib/spo/spo_cycles.c) given the writer's and the check's command lines
 * (sb_spo_commands: through --remote, or this program), and hooks that cut the power with --cut-cmd and say each cycle. The
 * verdict: the first failing cycle of N.
 */
#include "cli/spo_cmd.h"

#include <unistd.h>

#define DEFAULT_CUT_MIN 5000000000ull
#define DEFAULT_CUT_MAX 30000000000ull

struct cycles {
	const struct spo_opts *o;
};

static int stop_asked(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

static void started(void *ctx)
{
	(void)ctx;
	cli_signals_install();
}

static void cut(void *ctx, int writer_pgid)
{
	const struct cycles *c = ctx;
	char pg[32];
	snprintf(pg, sizeof(pg), "%d", writer_pgid);
	setenv("SB_SPO_WRITER_PGID", pg, 1);
	sb_spo_shell(c->o->cut_cmd, -1, 2);
}

static void cycle(void *ctx, const struct sb_spo_cycle *cy)
{
	const struct cycles *c = ctx;
	if (!c->o->quiet)
		fprintf(stderr, "spo cycle %llu of %llu: %s\n", (unsigned long long)cy->n,
			(unsigned long long)cy->of, cy->pass ? "pass" : "FAIL");
}

static void note(void *ctx, const char *msg)
{
	(void)ctx;
	sb_note("%s", msg);
}

static void error(void *ctx, const char *msg)
{
	(void)ctx;
	sb_err("%s", msg);
}

int spo_cycles(struct spo_opts *o, const char *target)
{
	char self[4096] = "storbench", writer[SB_SPO_CMD_LEN], check[SB_SPO_CMD_LEN];
	struct cycles c = { .o = o };
	struct sb_spo_cycles_result res;
	struct sb_error er;

	if (!o->cut_max_ns) {
		o->cut_min_ns = DEFAULT_CUT_MIN;
		o->cut_max_ns = DEFAULT_CUT_MAX;
	}
	if (!o->remote) {
		const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n <= 0)
			return sb_err("--cycles: cannot find this program: %s", strerror(errno)),
			       SB_EXIT_USAGE;
		self[n] = 0;
	}
	const struct sb_spo_cmd_args ca = { .self = self,
					    .remote = o->remote,
					    .target = target,
					    .bs = o->bs,
					    .iodepth = o->iodepth,
					    .rw = o->rw,
					    .sync = o->sync,
					    .flush_writes = o->flush_writes,
					    .flush_ns = o->flush_ns,
					    .canary = o->canary,
					    .offset = o->offset,
					    .size = o->size,
					    .flush_writes_given = o->flush_writes_given,
					    .flush_ns_given = o->flush_ns_given,
					    .size_given = o->size_given,
					    .allow_torn = o->allow_torn };
	if (sb_spo_commands(&ca, writer, check, &er) < 0)
		return cli_error(&er);
	const struct sb_spo_cycles_opts lo = {
		.log = o->log,
		.target = target,
		.writer_cmd = writer,
		.check_cmd = check,
		.reconnect_cmd = o->reconnect_cmd,
		.cut_cmd = o->cut_cmd,
		.cycles = o->cycles,
		.bs = o->bs,
		.cut_min_ns = o->cut_min_ns,
		.cut_max_ns = o->cut_max_ns,
		.reconnect_timeout_ns = o->reconnect_timeout_ns,
	};
	const struct sb_spo_cycles_hooks h = { .ctx = &c,
					       .stop = stop_asked,
					       .started = started,
					       .cut = cut,
					       .cycle = cycle,
					       .note = note,
					       .error = error };
	const int e = sb_spo_cycles_run(&lo, &h, NULL, &res, &er);
	const int rc = !e ? 0 : res.interrupted ? SB_EXIT_SIGINT : cli_error(&er);
	if (rc && !res.first_fail)
		return rc;
	if (res.first_fail)
		printf("spo cycles: first failure at cycle %llu of %llu (%llu failed)\n",
		       (unsigned long long)res.first_fail, (unsigned long long)o->cycles,
		       (unsigned long long)res.failed);
	else
		printf("spo cycles: all %llu cycles passed\n", (unsigned long long)o->cycles);
	return rc ? rc : res.first_fail ? SB_EXIT_FAIL : SB_EXIT_OK;
}
