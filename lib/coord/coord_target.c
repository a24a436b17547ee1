/*
 * A job's target under many ranks (coord_ranks.h): every rank checks its
 * target creating nothing, and they all go on only if none refused; then
 * each makes its files (its own directory under a directory TARGET first)
 * and they agree again (a full disk on one host stops all). Nothing is
 * written before the first agreement.
 */
#include "lib/coord/coord_ranks.h"
#include "lib/target/jobtarget.h"

/* The caller's code for a refusal of class cls (no message) */
static int code_of_class(int (*code_of)(const struct sb_error *er), enum sb_errclass cls)
{
	const struct sb_error er = { .err = -EIO, .cls = cls };
	return code_of(&er);
}

/* The first check, creating nothing: agreed, then the space the ranks on
 * one filesystem need together. */
static int checked(struct sb_ranks *r, struct sb_jobtarget *t, const char *path,
		   struct sb_job_opts *job, int needs_data, int noio, int *is_dir, int *is_new,
		   struct sb_ranks_agreed *a, struct sb_error *err)
{
	struct sb_error er;
	struct sb_jobtarget chk = *t;
	chk.check_only = 1;
	chk.space_need = 0;
	const int e = sb_jobtarget_prepare(&chk, path, job, needs_data, noio, &er);
	*is_dir = !e && chk.info.kind == SB_TARGET_DIR && !noio;
	/* a new file is made by this rank (O_EXCL), never taken for one
	 * another rank made meanwhile on a shared filesystem */
	*is_new = !e && chk.probed && chk.info.kind == SB_TARGET_NONE;
	if (*is_new && !t->probed) {
		t->info = chk.info;
		t->probed = 1;
	}
	const uint64_t need = e ? 0 : chk.space_need, avail = chk.info.fs_free;
	char fs[sizeof(chk.info.mountpoint)];
	snprintf(fs, sizeof(fs), "%s", chk.info.mountpoint);
	sb_jobtarget_cleanup(&chk, 0);
	a->code = e ? a->code_of(&er) : 0;
	int le = sb_ranks_agree_error(r, &a->code, &a->who, &er, err);
	/* each rank's files fit: and those of the ranks on one filesystem? */
	if (!le && !a->code)
		le = sb_ranks_space_agree(r, path, need, avail, fs,
					  code_of_class(a->code_of, SB_ERR_ENV), &a->code, &a->who,
					  err);
	return le;
}

int sb_ranks_jobtarget_prepare(struct sb_ranks *r, struct sb_jobtarget *t, const char *path,
			       struct sb_job_opts *job, int needs_data, int noio, int *own_dir,
			       struct sb_ranks_agreed *a, struct sb_error *err)
{
	struct sb_error er;
	int is_dir, is_new;
	*own_dir = 0;
	int le = checked(r, t, path, job, needs_data, noio, &is_dir, &is_new, a, err);
	if (le || a->code)
		return le;
	/* a directory a killed run left: taken over only when every rank may
	 * go on, so a refusal anywhere removes nothing anywhere; made (and
	 * claimed) once for all the jobs that share it */
	const char *where = path;
	if ((le = sb_ranks_dir(r, path, is_dir, 1, &where, a, err)) || a->code)
		return le;
	if (where != path) {
		*own_dir = 1;
		t->probed = 0; /* its own directory, probed anew */
	}
	const int e = sb_jobtarget_prepare(t, where, job, needs_data, noio, &er);
	/* found taken (-EEXIST), or held by the rank that made it (-EBUSY) */
	if ((e == -EEXIST || e == -EBUSY) && is_new && where == path)
		sb_error_set(&er, e, SB_ERR_INPUT,
			     "cannot create '%s': another rank made it first (the ranks share "
			     "this path: give a directory, where each gets one of its own)",
			     path);
	a->code = e ? a->code_of(&er) : 0;
	return sb_ranks_agree_error(r, &a->code, &a->who, &er, err);
}

int sb_ranks_probe(struct sb_ranks *r, struct sb_jobtarget *t, const char *path,
		   struct sb_ranks_agreed *a, struct sb_error *err)
{
	struct sb_error er;
	const int e = sb_jobtarget_probe(t, path, &er);
	a->code = e ? a->code_of(&er) : 0;
	if (e && er.msg[0] && r->h.error)
		r->h.error(r->h.ctx, er.msg); /* this rank's own, as alone */
	return sb_ranks_agree(r, &a->code, &a->who, NULL, err);
}

int sb_ranks_probe_dir(struct sb_ranks *r, struct sb_jobtarget *t, const char **path, int write,
		       struct sb_ranks_agreed *a, struct sb_error *err)
{
	int le = sb_ranks_probe(r, t, *path, a, err);
	if (le || a->code)
		return le;
	const char *mine = *path;
	le = sb_ranks_dir(r, *path, t->info.kind == SB_TARGET_DIR, write, &mine, a, err);
	if (le || a->code)
		return le;
	if (mine != *path)
		memset(t, 0, sizeof(*t)); /* its own directory, probed anew */
	*path = mine;
	return 0;
}
