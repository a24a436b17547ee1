/*
 * storbench spo --cycles' command lines: the writer's and the check's, as
 * sh runs them (each argument quoted, through --remote one argument of
 * its prefix), from the options the program was given.
 */
#include "lib/spo/spo.h"

/* " '--NAME=VUNIT'" */
static void opt_num(char *buf, size_t len, const char *name, unsigned long long v, const char *unit)
{
	char a[96];
	snprintf(a, sizeof(a), "--%s=%llu%s", name, v, unit);
	strncat(buf, " ", len - strlen(buf) - 1);
	sb_spo_sh_quote(buf, len, a);
}

static void opt_str(char *buf, size_t len, const char *s)
{
	strncat(buf, s, len - strlen(buf) - 1);
}

/* The writer's options, as given, after its command */
static void writer_opts(const struct sb_spo_cmd_args *o, char *inner, size_t len)
{
	opt_num(inner, len, "bs", o->bs, "");
	opt_num(inner, len, "iodepth", o->iodepth, "");
	opt_str(inner, len,
		o->rw == SB_SPO_RANDWRITE  ? " --rw=randwrite"
		: o->rw == SB_SPO_SEQWRITE ? " --rw=write"
					   : " --rw=mixed");
	opt_str(inner, len, " --sync=");
	opt_str(inner, len, sb_spo_sync_name(o->sync));
	if (o->flush_writes_given)
		opt_num(inner, len, "flush-every", o->flush_writes, "");
	if (o->flush_ns_given)
		opt_num(inner, len, "flush-interval", o->flush_ns, "ns");
	opt_num(inner, len, "canary", o->canary, "");
	opt_num(inner, len, "offset", o->offset, "");
	if (o->size_given)
		opt_num(inner, len, "size", o->size, "");
}

/* The writer's (check 0) or the check's (1) command line into out
 * (SB_SPO_CMD_LEN bytes). */
static int cmdline(const struct sb_spo_cmd_args *o, int check, char *out, struct sb_error *err)
{
	const char *target = o->target, *self = o->self;
	char inner[SB_SPO_CMD_LEN];
	inner[0] = 0;
	sb_spo_sh_quote(inner, sizeof(inner), self);
	opt_str(inner, sizeof(inner),
		check ? " spo --check --journal=- --format=json"
		      : " spo --destroy-data --quiet --journal=-");
	if (!check)
		writer_opts(o, inner, sizeof(inner));
	else if (o->allow_torn)
		opt_num(inner, sizeof(inner), "allow-torn", o->allow_torn, "");
	opt_str(inner, sizeof(inner), " ");
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
		return sb_error_set(err, -E2BIG, SB_ERR_INPUT,
				    "--cycles: the command line is too long");
	return 0;
}

int sb_spo_commands(const struct sb_spo_cmd_args *a, char *writer, char *check,
		    struct sb_error *err)
{
	memset(err, 0, sizeof(*err));
	const int e = cmdline(a, 0, writer, err);
	return e ? e : cmdline(a, 1, check, err);
}
