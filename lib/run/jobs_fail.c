/*
 * A run's failure (jobs_run.h): its status, class and message. Apart from
 * the steps (jobs_steps.c) so that a step's helpers in files of their own
 * (jobs_zbd.c) fail through it without calling back into the steps.
 */
#include "lib/run/jobs_run.h"

#include <stdarg.h>
#include <stdio.h>

int sb_run_fail(struct run *r, int st, const char *fmt, ...)
{
	static const enum sb_errclass cls[] = { SB_ERR_FAIL, SB_ERR_FAIL, SB_ERR_INPUT, SB_ERR_ENV,
						SB_ERR_STOPPED };
	va_list ap;
	r->err->err = st == SB_RUN_INPUT ? -EINVAL : st == SB_RUN_STOPPED ? -EINTR : -EIO;
	r->err->cls = cls[st];
	va_start(ap, fmt);
	vsnprintf(r->err->msg, sizeof(r->err->msg), fmt, ap);
	va_end(ap);
	return st;
}
