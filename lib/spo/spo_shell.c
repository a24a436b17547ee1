/*
 * storbench spo's commands: a command line run with sh -c (the cut, the
 * reconnection, the writer and the check of --cycles), through
 * posix_spawn, with its standard input and output as given.
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
