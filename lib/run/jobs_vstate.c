/*
 * fio's verify_state_save and verify_state_load around a job file's
 * verify= job (lib/verify/verify_state.h): the writer's state written
 * before its fill (nothing valid yet), after it (its region) and at its
 * end, its file kept; a later run's job that only reads checks what the
 * state says was written, on the same file.
 */
#include "lib/run/jobs_run.h"
#include "lib/verify/verify_state.h"

#include <inttypes.h>
#include <sys/stat.h>

/* The state file of job (its thread number from 0) beside file. */
static int state_path(struct run *r, const struct sb_job_opts *job, const char *file, char *out,
		      size_t n)
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", file);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = 0; /* "/f": "/" */
	else
		dir[0] = 0;
	const unsigned num = job->fiolog.jobnum ? job->fiolog.jobnum - 1 : 0;
	if (sb_verify_state_name(out, n, dir, job->name, num) < 0)
		return sb_run_fail(r, SB_RUN_INPUT,
				   "verify_state: the state file's name beside "
				   "'%s' is too long",
				   file);
	return SB_RUN_OK;
}

/* A path that names a regular file (or none yet), or a filename= list
 * of them: where a state is kept. */
static int plain_file(struct run *r, const struct sb_job_opts *job, const struct sb_jobtarget *t,
		      const char *what)
{
	if ((t->npaths == 1 || (job->nfilenames > 1 && t->npaths == job->nfilenames)) &&
	    !t->is_blockdev && t->info.kind != SB_TARGET_DIR)
		return SB_RUN_OK;
	return sb_run_fail(r, SB_RUN_INPUT,
			   "%s: needs a job whose filename= names a file (not a device, nor a "
			   "directory where storbench names the files it makes its own way)",
			   what);
}

int sb_run_vstate_save(struct run *r, const struct sb_job_opts *job, const struct sb_jobtarget *t,
		       const struct sb_verify_fmt *fmt, uint64_t done, int ended)
{
	char path[4200], msg[4600];
	int st = plain_file(r, job, t, "verify_state_save");
	if (!st)
		st = state_path(r, job, t->paths[0], path, sizeof(path));
	if (st)
		return st;
	struct sb_verify_state s = { .fmt = *fmt,
				     .offset = t->region_offset,
				     .size = t->region_size / fmt->block_size * fmt->block_size,
				     .ended = ended };
	s.done = SB_MIN(done, s.size);
	snprintf(s.job, sizeof(s.job), "%s", job->name);
	snprintf(s.file, sizeof(s.file), "%s", t->paths[0]);
	for (size_t i = 1, used = 0; i < t->npaths; i++) { /* a filename= list */
		const size_t l = strlen(t->paths[i]) + 1;
		if (l > sizeof(s.more) - used)
			return sb_run_fail(r, SB_RUN_INPUT,
					   "verify_state_save: the names of the job's files are too "
					   "long for its state");
		memcpy(s.more + used, t->paths[i], l);
		used += l;
		s.nmore++;
	}
	const int e = sb_verify_state_write(path, &s, msg, sizeof(msg));
	if (e == -EEXIST)
		return sb_run_fail(r, SB_RUN_INPUT, "verify_state_save: %s", msg);
	return e ? sb_run_fail(r, SB_RUN_ENV, "verify_state_save: %s", msg) : SB_RUN_OK;
}

int sb_run_vstate_may_save(struct run *r, const struct sb_job_opts *job)
{
	char path[4200], msg[4600];
	struct stat st;
	const char *file = job->nfilenames > 1 ? sb_job_filename_at(job->filenames, 0) : r->tgt;
	if (!stat(file, &st) && !S_ISREG(st.st_mode))
		return sb_run_fail(r, SB_RUN_INPUT,
				   "verify_state_save: needs a job whose filename= names a file, "
				   "not '%s'",
				   file);
	int rc = state_path(r, job, file, path, sizeof(path));
	if (rc)
		return rc;
	const int e = sb_verify_state_may_write(path, msg, sizeof(msg));
	return e ? sb_run_fail(r, e == -EEXIST ? SB_RUN_INPUT : SB_RUN_ENV, "verify_state_save: %s",
			       msg)
		 : SB_RUN_OK;
}

/* Whether a and b name one file. */
static int same_file(const char *a, const char *b)
{
	struct stat x, y;
	if (!strcmp(a, b))
		return 1;
	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

int sb_run_vstate_load(struct run *r, const struct sb_job_opts *job, const struct sb_jobtarget *t)
{
	char path[4200], msg[4600];
	struct sb_verify_state s;
	int st = plain_file(r, job, t, "verify_state_load");
	for (unsigned i = 0; !st && i < t->npaths; i++)
		if (t->created[i])
			st = sb_run_fail(r, SB_RUN_INPUT,
					 "verify_state_load: '%s' is not there (the job checks the "
					 "file an earlier run wrote)",
					 t->paths[i]);
	if (!st)
		st = state_path(r, job, t->paths[0], path, sizeof(path));
	if (st)
		return st;
	const int e = sb_verify_state_read(path, &s, msg, sizeof(msg));
	if (e)
		return sb_run_fail(r, e == -EINVAL || e == -ENOENT ? SB_RUN_INPUT : SB_RUN_ENV,
				   "verify_state_load: %s", msg);
	if (!same_file(s.file, t->paths[0]))
		return sb_run_fail(r, SB_RUN_INPUT,
				   "verify_state_load: '%s' is the state of '%s', not of '%s'",
				   path, s.file, t->paths[0]);
	if (s.nmore + 1 != t->npaths)
		return sb_run_fail(r, SB_RUN_INPUT,
				   "verify_state_load: '%s' is the state of %u files, the job has %u",
				   path, s.nmore + 1, t->npaths);
	if (t->npaths > 1) { /* a filename= list: the same files, in order */
		const char *m = s.more;
		for (unsigned i = 1; i < t->npaths; i++, m += strlen(m) + 1)
			if (!same_file(m, t->paths[i]))
				return sb_run_fail(r, SB_RUN_INPUT,
						   "verify_state_load: '%s' is the state of '%s' as "
						   "file %u, not of '%s'",
						   path, m, i + 1, t->paths[i]);
		/* the writer's files whole, once its fill ended */
		if (s.offset || s.size != t->region_size / s.fmt.block_size * s.fmt.block_size)
			return sb_run_fail(r, SB_RUN_INPUT,
					   "verify_state_load: '%s' covers %" PRIu64
					   " bytes of the files, the job's are %" PRIu64,
					   path, s.size, t->region_size);
		if (s.done < s.size)
			return sb_run_fail(r, SB_RUN_INPUT,
					   "verify_state_load: '%s' says the writer ended before its "
					   "files were written (done %" PRIu64 "): nothing to check",
					   path, s.done);
		r->vl.fmt = s.fmt;
		r->vl.off = 0;
		r->vl.size = t->region_size;
		return SB_RUN_OK;
	}
	/* what the writer had made valid, inside this job's region */
	const uint64_t lo = SB_MAX(s.offset, t->region_offset);
	const uint64_t hi = SB_MIN(s.offset + s.done, t->region_offset + t->region_size);
	const uint32_t vb = s.fmt.block_size;
	/* whole blocks of the writer's, from its region's start */
	const uint64_t mis = lo > s.offset ? (lo - s.offset) % vb : 0;
	r->vl.fmt = s.fmt;
	r->vl.off = mis ? lo + vb - mis : lo;
	r->vl.size = hi > r->vl.off ? (hi - r->vl.off) / vb * vb : 0;
	return SB_RUN_OK;
}
