/*
 * exec: fio's engine that runs a program for the job's runtime and moves
 * no data. The first request starts program= with arguments= (split at
 * spaces, %r replaced by the runtime in whole seconds and %n by the job's
 * name, as fio's) through posix_spawnp: a fork and exec, no shell. Each
 * later request waits 50 ms (fio's), and so does the pause after it
 * (e->think_ns). Once the runtime is over, or as the job ends, the program
 * gets SIGTERM, then SIGKILL if it still runs grace_time seconds later,
 * and is reaped. std_redirect=1 (fio's default) sends its stdout and
 * stderr to e->out_fd, JOB.stdout and JOB.stderr, which the caller opens
 * (lib/run/exec_out.h).
 *
 * A program that cannot be run (not there, not executable) does not end
 * the job: fio 3.33's does not either (its child dies, the job runs to
 * its runtime with error 0). Why is written into JOB.stderr when it is
 * redirected.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXEC_WAIT_NS 50000000ull /* fio's 50 ms between looks */

extern char **environ;

struct exec_state {
	pid_t pid;    /* 0: not started, or reaped */
	int started;  /* the first request came */
	uint64_t t0;  /* when the program started */
	char *argbuf; /* the arguments expanded, split in place */
	char **argv;  /* program, then the words of argbuf, NULL */
};

static int exec_available(void)
{
	return 0;
}

static int exec_init(struct sb_engine *e)
{
	struct exec_state *x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	e->priv = x;
	e->think_ns = EXEC_WAIT_NS;
	return 0;
}

/* s with every "%r" then every "%n" replaced (fio's order), malloc'ed */
static char *expand(const char *s, const char *runtime, const char *name)
{
	const char *keys[2] = { "%r", "%n" }, *with[2] = { runtime, name };
	char *cur = strdup(s);
	for (int k = 0; k < 2 && cur; k++) {
		size_t n = 0;
		for (const char *p = cur; (p = strstr(p, keys[k])); p += 2)
			n++;
		const size_t wl = strlen(with[k]);
		char *out = malloc(strlen(cur) + n * wl + 1), *o = out;
		const char *p = cur, *hit;
		if (out) {
			while ((hit = strstr(p, keys[k]))) {
				memcpy(o, p, (size_t)(hit - p));
				o += hit - p;
				memcpy(o, with[k], wl);
				o += wl;
				p = hit + 2;
			}
			memcpy(o, p, strlen(p) + 1);
		}
		free(cur);
		cur = out;
	}
	return cur;
}

/* argv: the program, then the expanded arguments' words (fio splits at
 * spaces only) */
static int build_argv(struct sb_engine *e, struct exec_state *x)
{
	char rt[24];
	snprintf(rt, sizeof(rt), "%" PRIu64, e->runtime_ns / 1000000000u);
	x->argbuf = expand(e->exec->arguments, rt, e->mk_job ? e->mk_job : "");
	if (!x->argbuf)
		return -ENOMEM;
	size_t words = 0;
	for (char *p = x->argbuf; *p;) {
		p += strspn(p, " ");
		if (*p)
			words++;
		p += strcspn(p, " ");
	}
	x->argv = calloc(words + 2, sizeof(*x->argv));
	if (!x->argv)
		return -ENOMEM;
	size_t n = 0;
	x->argv[n++] = (char *)e->exec->program;
	for (char *p = x->argbuf; *p;) {
		p += strspn(p, " ");
		if (!*p)
			break;
		x->argv[n++] = p;
		p += strcspn(p, " ");
		if (*p)
			*p++ = 0;
	}
	return 0;
}

static void say_cannot_run(int fd, const char *program, int err)
{
	char line[512];
	const int n = snprintf(line, sizeof(line), "storbench: exec: cannot run '%s': %s\n",
			       program, strerror(err));
	if (n > 0 && write(fd, line, (size_t)SB_MIN((size_t)n, sizeof(line) - 1)) < 0)
		return; /* the program's file: nothing more to tell */
}

/* The program started, its outputs where std_redirect says: 0, or -errno
 * when the outputs cannot be made (the job's error). A program that
 * cannot be run leaves x->pid 0. */
static int start(struct sb_engine *e, struct exec_state *x)
{
	const struct sb_exec_opts *o = e->exec;
	const int *fds = e->out_fd;
	int err;
	if ((err = build_argv(e, x)) < 0)
		return err;
	if (o->std_redirect && (fds[0] < 0 || fds[1] < 0))
		return -EBADF; /* the caller opens them */
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, all;
	sigemptyset(&none);
	sigfillset(&all);
	sigdelset(&all, SIGKILL); /* no action to reset */
	sigdelset(&all, SIGSTOP);
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	if (o->std_redirect) {
		posix_spawn_file_actions_adddup2(&fa, fds[0], 1);
		posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	}
	/* the program hears signals as it would from a shell: none blocked
	 * (a worker thread blocks them), none ignored */
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &all);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	err = posix_spawnp(&x->pid, o->program, &fa, &at, x->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (err) {
		x->pid = 0;
		if (o->std_redirect)
			say_cannot_run(fds[1], o->program, err);
	}
	return 0;
}

/* SIGTERM, grace_time seconds for it to end, then SIGKILL; reaped */
static void finish(struct sb_engine *e, struct exec_state *x)
{
	int status;
	if (x->pid <= 0)
		return;
	if (waitpid(x->pid, &status, WNOHANG) == x->pid) { /* ended by itself */
		x->pid = 0;
		return;
	}
	kill(x->pid, SIGTERM);
	const uint64_t until = sb_now_ns() + (uint64_t)e->exec->grace_s * 1000000000u;
	for (;;) {
		const pid_t r = waitpid(x->pid, &status, WNOHANG);
		if (r == x->pid || (r < 0 && errno != EINTR)) {
			x->pid = 0;
			return;
		}
		if (sb_now_ns() >= until)
			break;
		const struct timespec ts = { 0, 10000000 };
		nanosleep(&ts, NULL);
	}
	kill(x->pid, SIGKILL);
	while (waitpid(x->pid, &status, 0) < 0 && errno == EINTR)
		;
	x->pid = 0;
}

static int exec_queue(struct sb_engine *e, struct sb_io *io)
{
	struct exec_state *x = e->priv;
	io->len = 0; /* nothing moved: a request of 0 bytes */
	io->res = 0;
	if (!e->exec || !e->exec->program[0]) {
		io->res = -EINVAL;
		return SB_Q_DONE;
	}
	if (!x->started) {
		x->started = 1;
		x->t0 = sb_now_ns();
		const int err = start(e, x);
		if (err < 0)
			io->res = err;
		return SB_Q_DONE;
	}
	const struct timespec ts = { 0, (long)EXEC_WAIT_NS };
	nanosleep(&ts, NULL);
	if (e->runtime_ns && sb_now_ns() - x->t0 >= e->runtime_ns)
		finish(e, x);
	return SB_Q_DONE;
}

static void exec_cleanup(struct sb_engine *e)
{
	struct exec_state *x = e->priv;
	if (!x)
		return;
	if (e->exec)
		finish(e, x);
	free(x->argv);
	free(x->argbuf);
	free(x);
}

const struct sb_engine_ops sb_engine_exec = {
	.name = "exec",
	.desc = "no I/O: runs program= for the job's runtime (job files)",
	.flags = SB_ENGINE_SYNC | SB_ENGINE_NOIO | SB_ENGINE_TIMED,
	.available = exec_available,
	.init = exec_init,
	.queue = exec_queue,
	.commit = sb_fileop_commit,
	.getevents = sb_fileop_getevents,
	.event = sb_fileop_event,
	.cleanup = exec_cleanup,
};
