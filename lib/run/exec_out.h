/*
 * Internal to lib/run: the files fio's exec engine sends its program's
 * stdout and stderr to (std_redirect=1, fio's default): JOB.stdout and
 * JOB.stderr in the working directory, fio's names (a '/' of the job's
 * name made '.'), through the write gate as fio's logs are (sb_gate_log:
 * a new file, one of storbench's, or with destroy any regular file;
 * never a device, a fifo, a symbolic link or a file the kernel uses).
 */
#ifndef SB_EXEC_OUT_H
#define SB_EXEC_OUT_H

#include "lib/sb.h"
#include "lib/job/job.h"

/* Whether the job's files may be written (nothing made): 0 when the job
 * runs no program with std_redirect, or -errno with er filled. */
int sb_exec_out_check(const struct sb_job_opts *job, int destroy, struct sb_error *er);
/* Opens them, made or truncated: fds[0] stdout's, fds[1] stderr's (-1 and
 * -1 when the job asks for none); 0, or -errno with neither open. */
int sb_exec_out_open(const struct sb_job_opts *job, int destroy, int fds[2]);
#endif
