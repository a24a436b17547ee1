#include "lib/plan/plan_proc.h"

#include "lib/base/fileread.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int sb_plan_path(const char *path, char *out, size_t len, struct sb_error *err)
{
	const int e = sb_path_absolute(path, out, len);
	return e ? sb_error_set(err, e, sb_errno_class(e), "cannot use '%s': %s", path,
				strerror(-e))
		 : 0;
}

int sb_plan_targets(const struct sb_plan *pl, const char *const *given, size_t n, int destroy,
		    char (*targets)[PATH_MAX + 256], char (*step_targets)[PATH_MAX + 256],
		    struct sb_error *err)
{
	const size_t size = sizeof(targets[0]);
	int e;
	for (size_t i = 0; i < n; i++) {
		if ((e = sb_plan_path(given ? given[i] : pl->target, targets[i], size, err)))
			return e;
		for (size_t s = 0; s < pl->nsteps; s++) {
			const char *st = pl->steps[s].target;
			char *dst = step_targets[i * pl->nsteps + s];
			if (!st)
				snprintf(dst, size, "%s", targets[i]);
			else if ((e = sb_plan_path(st, dst, size, err)))
				return e;
		}
	}
	for (size_t i = 0; i < n * pl->nsteps; i++)
		if ((e = sb_plan_check_target(&pl->steps[i % pl->nsteps], step_targets[i], destroy,
					      err)) < 0)
			return e;
	return 0;
}

int sb_plan_dir_make(const char *file, const struct sb_plan *pl, const char *given, char *out,
		     size_t len, struct sb_error *err)
{
	char base[256], dir[PATH_MAX], res[PATH_MAX];
	sb_plan_dir_name(file, pl, base, sizeof(base));
	snprintf(dir, sizeof(dir), given ? "%s" : "%s-plan", given ? given : base);
	const int made = mkdir(dir, 0755) < 0 && errno != EEXIST ? -errno : 0;
	const int e = made ? made : realpath(dir, res) ? 0 : -errno;
	if (e)
		return sb_error_set(err, e, sb_errno_class(e),
				    "cannot %s the plan's directory '%s': %s",
				    made ? "make" : "use", dir, strerror(-e));
	snprintf(out, len, "%s", res);
	return 0;
}

int sb_plan_step_argv(const struct sb_plan *pl, const struct sb_plan_call *call,
		      const struct sb_plan_argv_opts *o, struct sb_plan_argv *out)
{
	const struct sb_plan_step *st = call->st;
	const char *result = call->result;
	int resume = 0;
	memset(out, 0, sizeof(*out));
	snprintf(out->outopt, sizeof(out->outopt), "--output=%s", result);
	if (!strcmp(st->argv[0], "soak") && !sb_plan_step_has(st, "--log") &&
	    !sb_plan_step_has(st, "--resume")) {
		/* the plan names a soak's log: a soak stopped or killed in its
		 * middle resumes its own way (soak --resume) when the plan runs
		 * it again */
		struct stat sb;
		char log[PATH_MAX + 128];
		snprintf(log, sizeof(log), "%.*s.jsonl", (int)(strlen(result) - 5), result);
		resume = stat(log, &sb) == 0;
		snprintf(out->logopt, sizeof(out->logopt), "--%s=%s", resume ? "resume" : "log",
			 log);
	}
	char **argv = calloc((size_t)st->argc + 8 + 2 * pl->nlabels, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	int k = 0;
	argv[k++] = "storbench";
	argv[k++] = st->argv[0];
	if (o->quiet)
		argv[k++] = "--quiet";
	argv[k++] = out->outopt;
	/* db=: each step records its result, with the plan's labels */
	for (size_t l = 0; o->labels && l < pl->nlabels; l++) {
		argv[k++] = "--label";
		argv[k++] = pl->labels[l];
	}
	if (out->logopt[0])
		argv[k++] = out->logopt;
	/* resumed: the log has the target and the options, but for its stop */
	for (int a = 1; a < st->argc; a++)
		if (!resume || !strncmp(st->argv[a], "--iterations=", 13) ||
		    !strncmp(st->argv[a], "--duration=", 11))
			argv[k++] = st->argv[a];
	if (o->destroy && !resume)
		argv[k++] = "--destroy-data";
	if (!resume)
		argv[k++] = (char *)call->target;
	out->argv = argv;
	out->resume = resume;
	return 0;
}

void sb_plan_argv_free(struct sb_plan_argv *a)
{
	free(a->argv);
	a->argv = NULL;
}

int sb_plan_step_status(int status)
{
	if (WIFSIGNALED(status))
		return SB_PLAN_STEP_SIGNAL + WTERMSIG(status);
	return WEXITSTATUS(status) == 127 ? -ENOEXEC : WEXITSTATUS(status);
}

void sb_plan_lines_cut(int *midline, const char *buf, size_t n,
		       void (*piece)(void *ctx, const char *p, size_t n, int starts), void *ctx)
{
	for (size_t i = 0, from = 0; i < n; i++)
		if (buf[i] == '\n' || buf[i] == '\r' || i + 1 == n) {
			piece(ctx, buf + from, i + 1 - from, !*midline);
			*midline = buf[i] != '\n' && buf[i] != '\r';
			from = i + 1;
		}
}

int sb_plan_relay(int fd, void (*out)(void *ctx, const char *buf, size_t n), void *ctx, char *last,
		  size_t len)
{
	char buf[4096], line[1024];
	size_t n = 0;
	ssize_t r;
	*last = 0;
	while ((r = read(fd, buf, sizeof(buf))) > 0 || (r < 0 && errno == EINTR)) {
		if (r <= 0)
			continue;
		out(ctx, buf, (size_t)r);
		for (ssize_t i = 0; i < r; i++) {
			if (buf[i] == '\n' || buf[i] == '\r') {
				if (n) {
					line[n] = 0;
					snprintf(last, len, "%s", line);
				}
				n = 0;
			} else if (n + 1 < sizeof(line)) {
				line[n++] = buf[i];
			}
		}
	}
	if (n) {
		line[n] = 0;
		snprintf(last, len, "%s", line);
	}
	return r < 0 ? -errno : 0;
}

void sb_plan_children_signal(struct sb_plan_children *c, int sig)
{
	const pid_t p = c->step;
	c->signal = sig;
	if (p > 0)
		kill(p, sig);
	for (sig_atomic_t i = 0; i < c->ntargets; i++)
		kill(c->targets[i], sig);
}
