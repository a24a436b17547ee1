/*
 * storbench spo's commands: a command line run with sh -c (the cut, the
 * reconnection, the writer and the check of --cycles), through
 * posix_spawn, with its standard input and output as given; the
 * writer's and the check's command lines of --cycles, from its options.
 */
#include "lib/spo/spo.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

int sb_spo_spawn(const char *cmd, int in_fd, int out_fd, int group, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	char *const argv[] = { "sh", "-c", (char *)cmd, NULL };
	int e = posix_spawn_file_actions_init(&fa);
	if (e)
		return -e;
	if ((e = posix_spawnattr_init(&at))) {
		posix_spawn_file_actions_destroy(&fa);
		return -e;
	}
	if (in_fd >= 0)
		e = posix_spawn_file_actions_adddup2(&fa, in_fd, 0);
	if (!e && out_fd >= 0)
		e = posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	/* its own group: a fake cut can kill it whole */
	if (!e && group && !(e = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP)))
		e = posix_spawnattr_setpgroup(&at, 0);
	if (!e)
		e = posix_spawn(pid, "/bin/sh", &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return -e;
}

int sb_spo_wait(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int sb_spo_shell(const char *cmd, int in_fd, int out_fd)
{
	pid_t pid;
	const int e = sb_spo_spawn(cmd, in_fd, out_fd, 0, &pid);
	return e ? e : sb_spo_wait(pid);
}

/* ---- --cycles' command lines ---- */

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
static void writer_opts(const struct sb_spo_cmd_args *o, char *inner, size_t len)
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

/* The writer's (check 0) or the check's (1) command line into out
 * (SB_SPO_CMD_LEN bytes). */
static int build(const struct sb_spo_cmd_args *o, int check, char *out, struct sb_error *err)
{
	const char *target = o->target, *self = o->self;
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
		return sb_error_set(err, -E2BIG, SB_ERR_INPUT,
				    "--cycles: the command line is too long");
	return 0;
}

int sb_spo_commands(const struct sb_spo_cmd_args *a, char *writer, char *check,
		    struct sb_error *err)
{
	memset(err, 0, sizeof(*err));
	const int e = build(a, 0, writer, err);
	return e ? e : build(a, 1, check, err);
}
