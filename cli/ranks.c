/*
 * Many ranks at once (mpirun -n N storbench COMMAND ...): the one place
 * where the program coordinates them, through lib/coord (Open MPI, or a
 * single process where every call is a no-op). Commands call the shared
 * steps (target preparation, measurement, output) and those call here, so
 * no command carries MPI code of its own:
 *
 *   - targets: every rank checks its target without creating anything,
 *     the verdicts are gathered, and one rank's refusal stops all before
 *     any writes (rank 0 names the rank, its host and why); a directory
 *     target gets a subdirectory per rank (--per-rank-dir);
 *   - measurement: the ranks set up, agree, then start together; while
 *     they run, a non-blocking reduction every 50 ms tells each whether any
 *     or all have finished (--stonewall stops all with the first);
 *   - output: rank 0 gathers every rank's figures and writes one result
 *     with the "All clients" aggregate; the others print nothing.
 *
 * No wait is unbounded: a rank that does not answer within the deadline
 * ends the job (MPI_Abort) with a message.
 */
#include "cli/cli.h"

#include <time.h>
#include <unistd.h>

/* Setup (a layout of test files) may take long; a round during the
 * measurement answers within a few ticks. */
#define SETUP_TIMEOUT_S 600.0
#define ROUND_TIMEOUT_S 60.0

static struct {
	struct sb_coord *c;
	int size, rank;
	double *offset, *rtt; /* rank 0: each rank's clock against its own */
	int stonewall;
	int per_rank_dir; /* -1: default (on for a directory), 0, 1 */
	char dir[4096];	  /* the rank's directory made here, "" none */
	/* its marker (lib/target/rankdir.h), when open; the files noted in it */
	struct sb_rankdir rd;
	int rd_open;
	unsigned noted;
	char run_id[64]; /* rank 0's host, pid and start: the same on every rank */
} R = { .size = 1, .per_rank_dir = -1 };

int cli_ranks(void)
{
	return R.size;
}

int cli_rank(void)
{
	return R.rank;
}

struct sb_coord *cli_ranks_coord(void)
{
	return R.c;
}

void cli_ranks_abort(int code)
{
	if (R.size < 2)
		return;
	sb_coord_abort(R.c, code);
	exit(code);
}

void cli_ranks_end_if_failed(void)
{
	if (R.size > 1 && sb_coord_failed(R.c))
		cli_ranks_abort(SB_EXIT_ENV);
}

void cli_ranks_set_stonewall(void)
{
	R.stonewall = 1;
}

void cli_ranks_set_per_rank_dir(int on)
{
	R.per_rank_dir = on;
}

/* A rank that cannot go on takes the whole job down: waiting for it would
 * hang the others. */
void cli_ranks_give_up(const char *what, int e)
{
	struct sb_error lost;
	sb_coord_lost(&lost, what, e);
	sb_err("%s", lost.msg);
	sb_coord_abort(R.c, SB_EXIT_ENV);
	exit(SB_EXIT_ENV);
}

/* Launched by mpirun (Open MPI) or srun (PMI, PMIx)? */
static int launched_size(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE" };
	for (size_t i = 0; i < SB_ARRAY_SIZE(vars); i++) {
		const char *v = getenv(vars[i]);
		if (v && atoi(v) > 0)
			return atoi(v);
	}
	return getenv("PMIX_RANK") ? 2 : 0;
}

/* Every rank must run the same storbench: a binary of another version
 * would gather figures of another shape (fio's client/server checks
 * nothing of the kind). */
static int same_program(void)
{
	char mine[SB_COORD_IDENT_LEN], msg[2 * SB_COORD_IDENT_LEN + 128];
	int same;
	snprintf(mine, sizeof(mine), "%s %s %zu", sb_version(), sb_features(),
		 sizeof(struct sb_job_result));
	const int e = sb_coord_same_program(R.c, mine, &same, msg, sizeof(msg), SETUP_TIMEOUT_S);
	if (msg[0])
		sb_err("%s", msg);
	if (e)
		cli_ranks_give_up("starting", e);
	return same ? 0 : -1;
}

int cli_ranks_init(int *argc, char ***argv)
{
	const int n = launched_size();
	if (n > 1 && !sb_coord_library()) {
		sb_err("launched as one of %d ranks, but this storbench was built without MPI "
		       "(build it with make MPI=1; see docs/mpi.md)",
		       n);
		return SB_EXIT_ENV;
	}
	if (sb_coord_init(&R.c, n > 0 && sb_coord_library(), argc, argv) < 0) {
		sb_err("cannot join the MPI job (MPI_Init failed)");
		return SB_EXIT_ENV;
	}
	R.size = sb_coord_size(R.c);
	R.rank = sb_coord_rank(R.c);
	if (R.size < 2)
		return 0;
	char prefix[128];
	sb_coord_prefix(R.c, prefix, sizeof(prefix));
	cli_msg_set_prefix(prefix);
	if (R.rank == 0) {
		R.offset = calloc((size_t)R.size, sizeof(double));
		R.rtt = calloc((size_t)R.size, sizeof(double));
		if (!R.offset || !R.rtt) {
			sb_err("out of memory");
			cli_ranks_give_up("starting", -ENOMEM);
		}
	}
	if (same_program())
		return SB_EXIT_ENV;
	int e = sb_coord_clock_offsets(R.c, R.offset, R.rtt, SETUP_TIMEOUT_S);
	if (e)
		cli_ranks_give_up("measuring the clocks", e);
	/* the run's name in the markers of the ranks' directories */
	if (R.rank == 0)
		snprintf(R.run_id, sizeof(R.run_id), "%.32s-%ld-%lld", sb_coord_host(R.c),
			 (long)getpid(), (long long)time(NULL));
	if ((e = sb_coord_bcast(R.c, R.run_id, sizeof(R.run_id), SETUP_TIMEOUT_S)))
		cli_ranks_give_up("starting", e);
	return 0;
}

void cli_ranks_finish(void)
{
	sb_coord_finish(R.c);
	R.c = NULL;
	free(R.offset);
	free(R.rtt);
}

void cli_ranks_said_refused(int rank)
{
	fprintf(stderr,
		"storbench: rank %d refused or failed: no rank goes on (every rank stops before "
		"its I/O)\n",
		rank);
}

static void said(void *ctx, int rank, const char *msg)
{
	(void)ctx;
	(void)rank;
	fprintf(stderr, "storbench: %s\n", msg);
}

int cli_ranks_agree(int code, const char *msg)
{
	int who;
	if (R.size < 2)
		return code;
	const int e = sb_coord_agree_said(R.c, &code, &who, msg, said, NULL, SETUP_TIMEOUT_S);
	if (e)
		cli_ranks_give_up("waiting for every rank to be ready", e);
	if (who >= 0 && R.rank == 0)
		cli_ranks_said_refused(who);
	return code;
}

int cli_ranks_worst(int code)
{
	long v = code;
	if (R.size < 2)
		return code;
	int e = sb_coord_max(R.c, &v, 1, SETUP_TIMEOUT_S);
	if (e)
		cli_ranks_give_up("agreeing", e);
	return (int)v;
}

void cli_ranks_max(long *v, unsigned n)
{
	if (R.size < 2)
		return;
	int e = sb_coord_max(R.c, v, n, SETUP_TIMEOUT_S);
	if (e)
		cli_ranks_give_up("agreeing", e);
}

void cli_ranks_max_within(long *v, unsigned n, double timeout_s)
{
	if (R.size < 2)
		return;
	int e = sb_coord_max(R.c, v, n, timeout_s);
	if (e)
		cli_ranks_give_up("waiting for every rank", e);
}

double cli_ranks_clock_offset(int r)
{
	return R.offset && r >= 0 && r < R.size ? R.offset[r] : 0;
}

void *cli_ranks_gather(const void *mine, size_t len)
{
	void *all = NULL;
	if (R.rank == 0 && !(all = calloc((size_t)R.size, len)))
		cli_ranks_give_up("gathering the results", -ENOMEM);
	int e = sb_coord_gather(R.c, mine, len, all, SETUP_TIMEOUT_S);
	if (e)
		cli_ranks_give_up("gathering the results", e);
	return all;
}

void cli_ranks_bcast(void *buf, size_t len)
{
	int e = sb_coord_bcast(R.c, buf, len, SETUP_TIMEOUT_S);
	if (e)
		cli_ranks_give_up("agreeing", e);
}

const char *cli_ranks_host(void)
{
	return sb_coord_host(R.c);
}

const char *cli_ranks_library(void)
{
	return sb_coord_library();
}

/* ---- targets ---- */

int cli_ranks_agree_error(int e, const struct sb_error *er)
{
	char msg[sizeof(er->msg) + 160];
	msg[0] = '\0';
	if (!e)
		return cli_ranks_agree(0, NULL);
	if (er->msg[0])
		snprintf(msg, sizeof(msg), "%s%s", cli_msg_prefix(), er->msg);
	/* printed once, by rank 0, with the rank's name: a message only this
	 * rank printed would be lost in the others' or never seen on another
	 * host */
	struct sb_error quiet = *er;
	quiet.msg[0] = '\0';
	return cli_ranks_agree(cli_error(&quiet), msg);
}

/* Where this rank works: a directory of its own under a directory
 * TARGET (made after every rank agreed), else TARGET itself. */
const char *cli_ranks_target(const char *path, int is_dir)
{
	if (R.size < 2 || !is_dir || R.per_rank_dir == 0)
		return path;
	snprintf(R.dir, sizeof(R.dir), "%s/storbench-rank-%d", path, R.rank);
	return R.dir;
}

/* The directory is made with a marker naming this run, or one a killed
 * run left is looked at: taken over only when its marker proves it a dead
 * storbench run's, with nothing in it that run did not make
 * (lib/target/rankdir.h); nothing is removed before cli_ranks_claim_dir,
 * after every rank agreed. */
int cli_ranks_make_dir(struct sb_error *er)
{
	if (!R.dir[0] || (R.rd_open && !strcmp(R.rd.path, R.dir)))
		return 0; /* none, or made by this run already */
	R.noted = 0;
	int e = sb_rankdir_open(&R.rd, R.dir, R.run_id, sb_coord_host(R.c), er);
	if (e) {
		sb_rankdir_close(&R.rd, SB_RANKDIR_REMOVE); /* only one made here */
		R.dir[0] = '\0';
		return e;
	}
	R.rd_open = 1;
	return 0;
}

int cli_ranks_claim_dir(struct sb_error *er)
{
	if (!R.rd_open || !R.rd.reuse)
		return 0;
	char made[64] = "?", size[32];
	const time_t t = (time_t)R.rd.old_created;
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(made, sizeof(made), "%Y-%m-%d %H:%M:%S UTC", &tm);
	const unsigned n = R.rd.nfound;
	const uint64_t bytes = R.rd.found_bytes;
	int e = sb_rankdir_claim(&R.rd, er);
	if (e)
		return e;
	sb_warn("reusing '%s', left by run %s (pid %ld on %s, made %s), which did not end: "
		"removed the %u file%s it made there (%s)",
		R.dir, R.rd.old_run, R.rd.old_pid, R.rd.old_host, made, n, n == 1 ? "" : "s",
		sb_fmt_size(bytes, size, sizeof(size)));
	return 0;
}

int cli_ranks_dir(const char *path, int is_dir, int write, const char **where)
{
	struct sb_error er = { 0 };
	*where = cli_ranks_target(path, is_dir);
	const int mine = *where != path && write;
	/* a refusal on any rank removes nothing on any: what a killed run
	 * left is claimed only once every rank may go on. Every rank agrees
	 * as often, with a directory of its own or not (a rank's target may
	 * be a file or a device: mpirun's A : B form) */
	int rc = cli_ranks_agree_error(mine ? cli_ranks_make_dir(&er) : 0, &er);
	if (!rc)
		rc = cli_ranks_agree_error(mine ? cli_ranks_claim_dir(&er) : 0, &er);
	if (rc)
		cli_ranks_remove_dir(0);
	return rc;
}

void cli_ranks_note_file(const char *path)
{
	if (R.rd_open && sb_rankdir_note(&R.rd, path) == 0)
		R.noted++;
}

void cli_ranks_remove_dir(int keep)
{
	if (R.rd_open) {
		/* kept files are marked so, and no later run takes them */
		const int e = sb_rankdir_close(&R.rd, keep && R.noted ? SB_RANKDIR_KEEP
								      : SB_RANKDIR_REMOVE);
		if (e < 0)
			sb_warn("could not remove '%s': %s", R.dir,
				e == -ENOTEMPTY ? "it holds files storbench did not remove"
						: strerror(-e));
		R.rd_open = 0;
	}
	/* a directory of that name this run did not make (a user's, empty or
	 * not) is never removed */
	R.dir[0] = '\0';
}

/* ---- measurement ---- */

int cli_ranks_stonewall(void)
{
	return R.stonewall;
}

double cli_ranks_time(void)
{
	return sb_coord_time(R.c);
}

void cli_ranks_round_start(int done, uint64_t bytes, uint64_t ios)
{
	const uint64_t v[SB_COORD_SUMS] = { bytes, ios };
	if (R.size > 1 && sb_coord_poll_start(R.c, done, v) < 0)
		cli_ranks_give_up("while measuring", -EIO);
}

/* A round's test with the wait bounded by timeout_s: rank 0 gets the sums
 * in v. */
static int round_test(int *any, int *all, uint64_t *v, double timeout_s)
{
	if (R.size < 2)
		return -1;
	int e = sb_coord_poll_test(R.c, any, all, v, timeout_s);
	if (e < 0)
		cli_ranks_give_up("while measuring", e);
	return e;
}

int cli_ranks_round_test(int *any, int *all, uint64_t *bytes, uint64_t *ios)
{
	uint64_t v[SB_COORD_SUMS] = { 0, 0 };
	const int e = round_test(any, all, v, ROUND_TIMEOUT_S);
	*bytes = v[0];
	*ios = v[1];
	return e;
}

/* A round polled from an I/O loop (soak's phases): a rank may be in a long
 * request or its fsync, not dead, so the wait is bounded as a setup's. */
int cli_ranks_round_test_slow(int *any, int *all, uint64_t *bytes, uint64_t *ios)
{
	uint64_t v[SB_COORD_SUMS] = { 0, 0 };
	const int e = round_test(any, all, v, SETUP_TIMEOUT_S);
	*bytes = v[0];
	*ios = v[1];
	return e;
}

int cli_ranks_round_look(struct sb_coord_round *r, int done, uint64_t a, uint64_t b, uint64_t now,
			 int *any, int *all, uint64_t sum[2])
{
	if (R.size < 2)
		return 0;
	const int e = sb_coord_round_look(R.c, r, done, a, b, now, any, all, sum, SETUP_TIMEOUT_S);
	if (e < 0)
		cli_ranks_give_up("while measuring", e);
	return e;
}

int cli_ranks_sum_look(struct sb_coord_sum *s, uint64_t done, uint64_t total, int over,
		       uint64_t now)
{
	if (R.size < 2)
		return 0;
	const int e = sb_coord_sum_look(R.c, s, done, total, over, now, SETUP_TIMEOUT_S);
	if (e < 0)
		cli_ranks_give_up("while measuring", e);
	return e;
}

/* ---- output ---- */

int cli_ranks_collect(struct sb_results *res, int *rc)
{
	struct sb_error er;
	long worst = *rc;
	const int e = sb_run_collect(R.c, res, R.stonewall, &worst, &er);
	*rc = (int)worst;
	if (e == -EPROTO) {
		if (er.msg[0])
			sb_err("%s", er.msg);
		*rc = *rc ? *rc : SB_EXIT_FAIL;
		return 1;
	}
	if (e < 0)
		cli_ranks_give_up(er.msg, e);
	return e;
}

/* ---- space on a filesystem the ranks share ---- */

int cli_ranks_space_agree(const char *path, uint64_t need, uint64_t avail, const char *fs)
{
	struct sb_coord_space mine;
	struct {
		long first;
		char msg[1024];
	} v = { -1, "" };
	if (R.size < 2)
		return 0;
	sb_coord_space_mine(R.c, &mine, path, need, avail, fs);
	struct sb_coord_space *all = cli_ranks_gather(&mine, sizeof(mine));
	if (all)
		v.first = sb_coord_space_verdict(all, R.size, v.msg, sizeof(v.msg));
	free(all);
	cli_ranks_bcast(&v, sizeof(v));
	/* the refusal is the group's first rank's, as any other rank's */
	const int me = v.first == R.rank;
	return cli_ranks_agree(me ? SB_EXIT_ENV : 0, me ? v.msg : NULL);
}
