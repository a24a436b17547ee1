/*
 * Many ranks at once (coord_ranks.h): the state of a run of ranks and the steps
 * the program takes over lib/coord's calls:
 *
 *   - targets: every rank checks its target without creating anything,
 *     the verdicts are agreed, and one rank's refusal stops all before any
 *     writes (rank 0 hears the rank, its host and why); a directory target
 *     gets a subdirectory per rank (--per-rank-dir);
 *   - space: the ranks that share a filesystem fit on it together.
 *
 * No wait is unbounded: a rank that does not answer within the deadline
 * is lost (sb_coord_lost), and the program ends the job.
 */
#include "lib/coord/coord_ranks.h"
#include "lib/base/units.h"

#include <time.h>

static void tell_error(const struct sb_ranks *r, const char *msg)
{
	if (r->h.error && msg[0])
		r->h.error(r->h.ctx, msg);
}

static void tell_warning(const struct sb_ranks *r, const char *msg)
{
	if (r->h.warning)
		r->h.warning(r->h.ctx, msg);
}

int sb_ranks_join(struct sb_ranks *r, int mpi, int *argc, char ***argv,
		  const struct sb_ranks_hooks *h)
{
	if (h)
		r->h = *h;
	const int e = sb_coord_init(&r->c, mpi, argc, argv);
	if (e < 0)
		return e;
	r->size = sb_coord_size(r->c);
	r->rank = sb_coord_rank(r->c);
	return 0;
}

/* Every rank must run the same storbench: a binary of another version
 * would gather figures of another shape (fio's client/server checks
 * nothing of the kind). */
static int same_program(struct sb_ranks *r, const char *ident, struct sb_error *err)
{
	char msg[2 * SB_COORD_IDENT_LEN + 128];
	int same;
	const int e = sb_coord_same_program(r->c, ident, &same, msg, sizeof(msg), SB_RANKS_SETUP_S);
	tell_error(r, msg);
	if (e)
		return sb_coord_lost(err, "starting", e);
	return same ? 0 : sb_error_set(err, -EPROTO, SB_ERR_ENV, "%s", "");
}

int sb_ranks_start(struct sb_ranks *r, const char *ident, long pid, long long now,
		   struct sb_error *err)
{
	if (r->size < 2)
		return 0;
	if (r->rank == 0) {
		r->offset = calloc((size_t)r->size, sizeof(double));
		r->rtt = calloc((size_t)r->size, sizeof(double));
		if (!r->offset || !r->rtt) {
			tell_error(r, "out of memory");
			return sb_coord_lost(err, "starting", -ENOMEM);
		}
	}
	int e = same_program(r, ident, err);
	if (e)
		return e;
	if ((e = sb_coord_clock_offsets(r->c, r->offset, r->rtt, SB_RANKS_SETUP_S)))
		return sb_coord_lost(err, "measuring the clocks", e);
	/* the run's name in the markers of the ranks' directories */
	if (r->rank == 0)
		snprintf(r->run_id, sizeof(r->run_id), "%.32s-%ld-%lld", sb_coord_host(r->c), pid,
			 now);
	if ((e = sb_coord_bcast(r->c, r->run_id, sizeof(r->run_id), SB_RANKS_SETUP_S)))
		return sb_coord_lost(err, "starting", e);
	return 0;
}

void sb_ranks_finish(struct sb_ranks *r)
{
	sb_coord_finish(r->c);
	r->c = NULL;
	free(r->offset);
	free(r->rtt);
	r->offset = r->rtt = NULL;
}

static void said(void *ctx, int rank, const char *msg)
{
	const struct sb_ranks *r = ctx;
	if (r->h.said)
		r->h.said(r->h.ctx, rank, msg);
}

int sb_ranks_agree(struct sb_ranks *r, int *code, int *who, const char *msg, struct sb_error *err)
{
	*who = -1;
	if (r->size < 2)
		return 0;
	const int e = sb_coord_agree_said(r->c, code, who, msg, said, r, SB_RANKS_SETUP_S);
	if (e)
		return sb_coord_lost(err, "waiting for every rank to be ready", e);
	return 0;
}

int sb_ranks_agree_error(struct sb_ranks *r, int *code, int *who, const struct sb_error *er,
			 struct sb_error *err)
{
	char msg[sizeof(er->msg) + 160], prefix[160];
	msg[0] = '\0';
	if (*code && er->msg[0]) {
		sb_coord_prefix(r->c, prefix, sizeof(prefix));
		snprintf(msg, sizeof(msg), "%s%s", prefix, er->msg);
	}
	/* told once, to rank 0, with the rank's name: a message only this
	 * rank printed would be lost in the others' or never seen on another
	 * host */
	return sb_ranks_agree(r, code, who, *code ? msg : NULL, err);
}

int sb_ranks_max(struct sb_ranks *r, long *v, unsigned n, double timeout_s, const char *what,
		 struct sb_error *err)
{
	if (r->size < 2)
		return 0;
	const int e = sb_coord_max(r->c, v, n, timeout_s);
	return e ? sb_coord_lost(err, what, e) : 0;
}

int sb_ranks_gather(struct sb_ranks *r, const void *mine, size_t len, void **all,
		    struct sb_error *err)
{
	*all = NULL;
	if (r->rank == 0 && !(*all = calloc((size_t)r->size, len)))
		return sb_coord_lost(err, "gathering the results", -ENOMEM);
	const int e = sb_coord_gather(r->c, mine, len, *all, SB_RANKS_SETUP_S);
	if (e) {
		free(*all);
		*all = NULL;
		return sb_coord_lost(err, "gathering the results", e);
	}
	return 0;
}

int sb_ranks_bcast(struct sb_ranks *r, void *buf, size_t len, struct sb_error *err)
{
	const int e = sb_coord_bcast(r->c, buf, len, SB_RANKS_SETUP_S);
	return e ? sb_coord_lost(err, "agreeing", e) : 0;
}

/* ---- targets ---- */

const char *sb_ranks_target(struct sb_ranks *r, const char *path, int is_dir)
{
	if (r->size < 2 || !is_dir || r->per_rank_dir == 0)
		return path;
	snprintf(r->dir, sizeof(r->dir), "%s/storbench-rank-%d", path, r->rank);
	return r->dir;
}

/* The directory is made with a marker naming this run, or one a killed
 * run left is looked at: taken over only when its marker proves it a dead
 * storbench run's, with nothing in it that run did not make
 * (lib/target/rankdir.h); nothing is removed before sb_ranks_claim_dir,
 * after every rank agreed. */
int sb_ranks_make_dir(struct sb_ranks *r, struct sb_error *er)
{
	if (!r->dir[0] || (r->rd_open && !strcmp(r->rd.path, r->dir)))
		return 0; /* none, or made by this run already */
	r->noted = 0;
	const int e = sb_rankdir_open(&r->rd, r->dir, r->run_id, sb_coord_host(r->c), er);
	if (e) {
		sb_rankdir_close(&r->rd, SB_RANKDIR_REMOVE); /* only one made here */
		r->dir[0] = '\0';
		return e;
	}
	r->rd_open = 1;
	return 0;
}

int sb_ranks_claim_dir(struct sb_ranks *r, struct sb_error *er)
{
	if (!r->rd_open || !r->rd.reuse)
		return 0;
	char made[64] = "?", size[32], msg[sizeof(r->dir) + 512];
	const time_t t = (time_t)r->rd.old_created;
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(made, sizeof(made), "%Y-%m-%d %H:%M:%S UTC", &tm);
	const unsigned n = r->rd.nfound;
	const uint64_t bytes = r->rd.found_bytes;
	const int e = sb_rankdir_claim(&r->rd, er);
	if (e)
		return e;
	snprintf(msg, sizeof(msg),
		 "reusing '%s', left by run %s (pid %ld on %s, made %s), which did not end: "
		 "removed the %u file%s it made there (%s)",
		 r->dir, r->rd.old_run, r->rd.old_pid, r->rd.old_host, made, n, n == 1 ? "" : "s",
		 sb_fmt_size(bytes, size, sizeof(size)));
	tell_warning(r, msg);
	return 0;
}

/* One step of the directory agreed: a refusal on any rank stops every
 * rank. */
static int dir_step(struct sb_ranks *r, int e, const struct sb_error *er, struct sb_ranks_agreed *a,
		    struct sb_error *err)
{
	a->code = e ? a->code_of(er) : 0;
	return sb_ranks_agree_error(r, &a->code, &a->who, er, err);
}

int sb_ranks_dir(struct sb_ranks *r, const char *path, int is_dir, int write, const char **where,
		 struct sb_ranks_agreed *a, struct sb_error *err)
{
	struct sb_error er = { 0 };
	*where = sb_ranks_target(r, path, is_dir);
	const int mine = *where != path && write;
	/* a refusal on any rank removes nothing on any: what a killed run
	 * left is claimed only once every rank may go on. Every rank agrees
	 * as often, with a directory of its own or not (a rank's target may
	 * be a file or a device: mpirun's A : B form) */
	int e = dir_step(r, mine ? sb_ranks_make_dir(r, &er) : 0, &er, a, err);
	if (!e && !a->code)
		e = dir_step(r, mine ? sb_ranks_claim_dir(r, &er) : 0, &er, a, err);
	if (e || a->code)
		sb_ranks_remove_dir(r, 0);
	return e;
}

void sb_ranks_note_file(struct sb_ranks *r, const char *path)
{
	if (r->rd_open && sb_rankdir_note(&r->rd, path) == 0)
		r->noted++;
}

void sb_ranks_remove_dir(struct sb_ranks *r, int keep)
{
	if (r->rd_open) {
		/* kept files are marked so, and no later run takes them */
		const int e = sb_rankdir_close(&r->rd, keep && r->noted ? SB_RANKDIR_KEEP
									: SB_RANKDIR_REMOVE);
		if (e < 0) {
			char msg[sizeof(r->dir) + 128];
			snprintf(msg, sizeof(msg), "could not remove '%s': %s", r->dir,
				 e == -ENOTEMPTY ? "it holds files storbench did not remove"
						 : strerror(-e));
			tell_warning(r, msg);
		}
		r->rd_open = 0;
	}
	/* a directory of that name this run did not make (a user's, empty or
	 * not) is never removed */
	r->dir[0] = '\0';
}

/* ---- space on a filesystem the ranks share ---- */

int sb_ranks_space_agree(struct sb_ranks *r, const char *path, uint64_t need, uint64_t avail,
			 const char *fs, int refuse, int *code, int *who, struct sb_error *err)
{
	struct sb_coord_space mine, *all;
	struct {
		long first;
		char msg[1024];
	} v = { -1, "" };
	*code = 0;
	*who = -1;
	if (r->size < 2)
		return 0;
	sb_coord_space_mine(r->c, &mine, path, need, avail, fs);
	int e = sb_ranks_gather(r, &mine, sizeof(mine), (void **)&all, err);
	if (e)
		return e;
	if (all)
		v.first = sb_coord_space_verdict(all, r->size, v.msg, sizeof(v.msg));
	free(all);
	if ((e = sb_ranks_bcast(r, &v, sizeof(v), err)))
		return e;
	/* the refusal is the group's first rank's, as any other rank's */
	const int me = v.first == r->rank;
	*code = me ? refuse : 0;
	return sb_ranks_agree(r, code, who, me ? v.msg : NULL, err);
}
