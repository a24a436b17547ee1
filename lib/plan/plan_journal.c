/*
 * A plan's journal (plan.h): the steps finished on each target and their
 * result files, one JSON document written whole after each step, so that
 * a crash, a reboot or a power cut leaves the last one whole.
 */
#include "lib/plan/plan.h"

#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <sys/file.h>
#include <unistd.h>

#include "lib/base/outfile.h"
#include "lib/json/json_write.h"

#define JOURNAL_MAX (16u << 20)

static void done_free(struct sb_plan_done *d)
{
	free(d->target);
	free(d->step);
	free(d->run);
	free(d->result);
}

static int done_copy(struct sb_plan_done *dst, const char *target, const char *step,
		     const char *run, const char *result, int status)
{
	dst->target = strdup(target);
	dst->step = strdup(step);
	dst->run = strdup(run);
	dst->result = strdup(result);
	dst->status = status;
	if (!dst->target || !dst->step || !dst->run || !dst->result) {
		done_free(dst);
		return -ENOMEM;
	}
	return 0;
}

static int push(struct sb_plan_journal *j, const char *target, const char *step, const char *run,
		const char *result, int status)
{
	/* full at 0 and at each power of two: doubled (a journal of 16 MiB
	 * holds some 150,000 steps) */
	if (!(j->n & (j->n - 1))) {
		const size_t cap = j->n ? 2 * j->n : 8;
		struct sb_plan_done *a = realloc(j->d, cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		j->d = a;
	}
	struct sb_plan_done *a = j->d;
	int e = done_copy(&a[j->n], target, step, run, result, status);
	if (!e)
		j->n++;
	return e;
}

int sb_plan_journal_read(const char *path, struct sb_plan_journal *j, struct sb_error *err)
{
	struct sb_jdoc *doc = NULL;
	struct sb_json_error je;
	struct sb_json_limits lim = { 0 };
	memset(j, 0, sizeof(*j));
	lim.max_size = JOURNAL_MAX;
	lim.max_depth = 8;
	int e = sb_json_parse_file(path, &lim, &doc, &je);
	if (e == -ENOENT)
		return 0;
	if (e == -EBADMSG || e == -E2BIG || e == -EFBIG)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "'%s': not a plan's journal: %s",
				    path, je.msg);
	if (e < 0)
		return sb_error_set(err, e, sb_errno_class(-e), "cannot read '%s': %s", path,
				    strerror(-e));
	const struct sb_jv *root = sb_jdoc_root(doc), *steps = sb_jv_get(root, "steps");
	if (!sb_jv_is(sb_jv_get(root, "storbench_plan_journal"), SB_JV_NUM) ||
	    !sb_jv_is(steps, SB_JV_ARR)) {
		sb_jdoc_free(doc);
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "'%s': not a plan's journal (no storbench_plan_journal, steps)",
				    path);
	}
	for (size_t i = 0; i < sb_jv_len(steps) && !e; i++) {
		const struct sb_jv *s = sb_jv_at(steps, i);
		const char *t = sb_jv_str(sb_jv_get(s, "target")),
			   *st = sb_jv_str(sb_jv_get(s, "step")),
			   *r = sb_jv_str(sb_jv_get(s, "run")),
			   *res = sb_jv_str(sb_jv_get(s, "result"));
		double status = sb_jv_num(sb_jv_get(s, "status"), -1);
		if (!t || !st || !r || !res || (status != 0 && status != 1)) {
			e = sb_error_set(err, -EINVAL, SB_ERR_INPUT,
					 "'%s': steps[%zu]: expected target, step, run, result "
					 "(strings) and status (0 or 1)",
					 path, i);
			break;
		}
		if ((e = push(j, t, st, r, res, (int)status)) < 0)
			sb_error_set(err, e, SB_ERR_ENV, "out of memory");
	}
	sb_jdoc_free(doc);
	if (e < 0) /* nothing of a journal refused */
		sb_plan_journal_free(j);
	return e;
}

/* The journal's directory locked (flock) for path's writer: its fd, or
 * -errno with err. */
static int journal_lock(const char *path, struct sb_error *err)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path);
	const char *dir = dirname(buf);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return sb_error_set(err, -errno, sb_errno_class(errno), "cannot lock '%s': %s", dir,
				    strerror(errno));
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR) {
			int e = -errno;
			close(fd);
			return sb_error_set(err, e, sb_errno_class(-e), "cannot lock '%s': %s", dir,
					    strerror(-e));
		}
	return fd;
}

static int journal_write(const char *path, const struct sb_plan_journal *j, struct sb_error *err)
{
	struct sb_outfile o;
	struct sb_json w;
	int e;
	if ((e = sb_outfile_open(&o, path)) < 0)
		return sb_error_set(err, e, sb_errno_class(-e), "cannot write '%s': %s", path,
				    strerror(-e));
	sb_json_begin(&w, o.f, 0);
	sb_json_obj_open(&w, NULL);
	sb_json_u64(&w, "storbench_plan_journal", 1);
	sb_json_arr_open(&w, "steps");
	for (size_t i = 0; i < j->n; i++) {
		sb_json_obj_open(&w, NULL);
		sb_json_str(&w, "target", j->d[i].target);
		sb_json_str(&w, "step", j->d[i].step);
		sb_json_str(&w, "run", j->d[i].run);
		sb_json_str(&w, "result", j->d[i].result);
		sb_json_u64(&w, "status", (uint64_t)j->d[i].status);
		sb_json_obj_close(&w);
	}
	sb_json_arr_close(&w);
	sb_json_obj_close(&w);
	e = sb_json_end(&w);
	if (e < 0) {
		sb_outfile_abort(&o);
	} else {
		e = sb_outfile_commit(&o);
	}
	if (e < 0)
		return sb_error_set(err, e, sb_errno_class(-e), "cannot write '%s': %s", path,
				    strerror(-e));
	return 0;
}

int sb_plan_journal_add(const char *path, struct sb_plan_journal *j, const struct sb_plan_done *d,
			struct sb_error *err)
{
	/* several writers (plan --parallel: a process per target): under
	 * the lock, the journal as it is now, then this step added to it */
	struct sb_plan_journal now;
	int lock = journal_lock(path, err), e;
	if (lock < 0)
		return lock;
	if ((e = sb_plan_journal_read(path, &now, err)) < 0) {
		close(lock);
		return e;
	}
	/* d may be one of j's: added before j goes */
	e = push(&now, d->target, d->step, d->run, d->result, d->status);
	sb_plan_journal_free(j);
	*j = now;
	if (e < 0)
		sb_error_set(err, e, SB_ERR_ENV, "out of memory");
	else
		e = journal_write(path, j, err);
	close(lock);
	return e;
}

const struct sb_plan_done *sb_plan_journal_find(const struct sb_plan_journal *j, const char *target,
						const char *step, const char *run)
{
	/* the last: a step run again (its result was lost) is added anew */
	for (size_t i = j->n; i-- > 0;)
		if (!strcmp(j->d[i].target, target) && !strcmp(j->d[i].step, step) &&
		    !strcmp(j->d[i].run, run))
			return &j->d[i];
	return NULL;
}

void sb_plan_journal_free(struct sb_plan_journal *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->n; i++)
		done_free(&j->d[i]);
	free(j->d);
	memset(j, 0, sizeof(*j));
}
