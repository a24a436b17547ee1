/*
 * The files of an exec job's program (exec_out.h): checked as the job's
 * target is prepared, opened by each worker.
 */
#include "lib/run/exec_out.h"
#include "lib/target/gate.h"

#include <unistd.h>

static int wants(const struct sb_job_opts *job)
{
	return !strcmp(job->engine, "exec") && job->exec.std_redirect;
}

/* JOB.WHAT, fio's name, a '/' made '.': never a path out of the directory */
static int out_name(const struct sb_job_opts *job, const char *what, char *buf, size_t len)
{
	const int n = snprintf(buf, len, "%s.%s", job->name, what);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	for (char *p = buf; *p; p++)
		if (*p == '/')
			*p = '.';
	return 0;
}

int sb_exec_out_check(const struct sb_job_opts *job, int destroy, struct sb_error *er)
{
	static const char *const what[2] = { "stdout", "stderr" };
	char name[sizeof(job->name) + 8];
	for (int i = 0; i < 2 && wants(job); i++) {
		int e = out_name(job, what[i], name, sizeof(name));
		if (e < 0)
			return sb_error_set(er, e, SB_ERR_INPUT, "std_redirect: '%s.%s': %s",
					    job->name, what[i], strerror(-e));
		if ((e = sb_gate_log(name, destroy, 0, 1, er)) < 0)
			return e;
	}
	return 0;
}

int sb_exec_out_open(const struct sb_job_opts *job, int destroy, int fds[2])
{
	static const char *const what[2] = { "stdout", "stderr" };
	char name[sizeof(job->name) + 8];
	fds[0] = fds[1] = -1;
	for (int i = 0; i < 2 && wants(job); i++) {
		struct sb_error er = { 0 };
		int e = out_name(job, what[i], name, sizeof(name));
		if (e == 0)
			e = fds[i] = sb_gate_log(name, destroy, 0, 0, &er);
		if (e < 0) {
			if (i)
				close(fds[0]);
			fds[0] = fds[1] = -1;
			return e;
		}
	}
	return 0;
}
