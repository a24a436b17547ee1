/*
 * storbench spo --cycles: the controlling host's loop (sb_spo_cycles_run,
 * lib/spo/spo_cycles.c) given the writer's and the check's command lines,
 * built here from the options given (through --remote, or this program),
 * and hooks that cut the power with --cut-cmd and say each cycle. The
 * verdict: the first failing cycle of N.
 */
#include "cli/spo_cmd.h"

#include <unistd.h>

#define DEFAULT_CUT_MIN 5000000000ull
#define DEFAULT_CUT_MAX 30000000000ull

/* " '--NAME=VUNIT'" */
static void add(char *buf, size_t len, const char *name, unsigned long long v, const char *unit)
{
	char a[96];
	snprintf(a, sizeof(a), "--%s=%llu%s", name, v, unit);
	strncat(buf, " ", len - strlen(buf) - 1);
	sb_spo_sh_quote(buf, len, a);
}

static void add_str(char *buf, size_t len, const char *s)
{
	strncat(buf, s, len - strlen(buf) - 1);
}

/* The writer's options, as given, after its command */
static void writer_opts(const struct spo_opts *o, char *inner, size_t len)
{
	add(inner, len, "bs", o->bs, "");
	add(inner, len, "iodepth", o->iodepth, "");
	add_str(inner, len,
		o->rw == SB_SPO_RANDWRITE  ? " --rw=randwrite"
		: o->rw == SB_SPO_SEQWRITE ? " --rw=write"
					   : " --rw=mixed");
	add_str(inner, len, " --sync=");
	add_str(inner, len, sb_spo_sync_name(o->sync));
	if (o->flush_writes_given)
		add(inner, len, "flush-every", o->flush_writes, "");
	if (o->flush_ns_given)
		add(inner, len, "flush-interval", o->flush_ns, "ns");
	add(inner, len, "canary", o->canary, "");
	add(inner, len, "offset", o->offset, "");
	if (o->size_given)
		add(inner, len, "size", o->size, "");
}

/* The writer's (check 0) and the check's (1) command lines into out
 * (SB_SPO_CMD_LEN bytes), from the options given. */
static int build(const struct spo_opts *o, const char *target, int check, const char *self,
		 char *out)
{
	char inner[SB_SPO_CMD_LEN];
	inner[0] = 0;
	sb_spo_sh_quote(inner, sizeof(inner), self);
	add_str(inner, sizeof(inner),
		check ? " spo --check --journal=- --format=json"
		      : " spo --destroy-data --quiet --journal=-");
	if (!check)
		writer_opts(o, inner, sizeof(inner));
	else if (o->allow_torn)
		add(inner, sizeof(inner), "allow-torn", o->allow_torn, "");
	add_str(inner, sizeof(inner), " ");
	sb_spo_sh_quote(inner, sizeof(inner), target);
	out[0] = 0;
	if (o->remote) {
		snprintf(out, SB_SPO_CMD_LEN, "%s ", o->remote);
		sb_spo_sh_quote(out, SB_SPO_CMD_LEN,
				inner); /* the remote shell gets one argument */
	} else {
		snprintf(out, SB_SPO_CMD_LEN, "%s", inner);
	}
	if (strlen(out) >= SB_SPO_CMD_LEN - 8)
		return sb_err("--cycles: the command line is too long"), -1;
	return 0;
}

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
	if (build(o, target, 0, self, writer) || build(o, target, 1, self, check))
		return SB_EXIT_USAGE;
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
