/*
 * Many ranks at once (mpirun -n N storbench COMMAND ...): the program's
 * side of lib/coord/coord_ranks.h, which holds the ranks' state and every step
 * over lib/coord (Open MPI, or a single process where every call is a
 * no-op). Here: joining the job, printing what the steps tell (rank 0
 * naming a refusing rank, its host and why), and ending the job when a
 * step lost a rank: the one path for that is cli_ranks_lost.
 *
 *   - output: rank 0 gathers every rank's figures and writes one result
 *     with the "All clients" aggregate; the others print nothing.
 */
#include "cli/cli.h"

#include <time.h>
#include <unistd.h>

static struct sb_ranks R = SB_RANKS_INIT;

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

/* A rank that cannot go on takes the whole job down: waiting for it would
 * hang the others. er (NULL or "": said already) is printed. */
void cli_ranks_lost(int code, const struct sb_error *er)
{
	if (er && er->msg[0])
		sb_err("%s", er->msg);
	sb_coord_abort(R.c, code);
	exit(code);
}

void cli_ranks_end_if_lost(int lost, int code)
{
	if (R.size > 1 && lost)
		cli_ranks_lost(code, NULL);
}

void cli_ranks_end_if_failed(void)
{
	cli_ranks_end_if_lost(sb_coord_failed(R.c), SB_EXIT_ENV);
}

void cli_ranks_give_up(const char *what, int e)
{
	struct sb_error lost;
	sb_coord_lost(&lost, what, e);
	cli_ranks_lost(SB_EXIT_ENV, &lost);
}

/* a step of lib/coord/coord_ranks.h that lost a rank ends the job here */
static void step(int e, const struct sb_error *er)
{
	if (e < 0)
		cli_ranks_lost(SB_EXIT_ENV, er);
}

void cli_ranks_set_stonewall(void)
{
	R.stonewall = 1;
}

void cli_ranks_set_per_rank_dir(int on)
{
	R.per_rank_dir = on;
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

static void said(void *ctx, int rank, const char *msg)
{
	(void)ctx;
	(void)rank;
	fprintf(stderr, "storbench: %s\n", msg);
}

static void error(void *ctx, const char *msg)
{
	(void)ctx;
	sb_err("%s", msg);
}

static void warning(void *ctx, const char *msg)
{
	(void)ctx;
	sb_warn("%s", msg);
}

int cli_ranks_init(int *argc, char ***argv)
{
	static const struct sb_ranks_hooks h = { .said = said, .error = error, .warning = warning };
	const int n = launched_size();
	if (n > 1 && !sb_coord_library()) {
		sb_err("launched as one of %d ranks, but this storbench was built without MPI "
		       "(build it with make MPI=1; see docs/mpi.md)",
		       n);
		return SB_EXIT_ENV;
	}
	if (sb_ranks_join(&R, n > 0 && sb_coord_library(), argc, argv, &h) < 0) {
		sb_err("cannot join the MPI job (MPI_Init failed)");
		return SB_EXIT_ENV;
	}
	if (R.size < 2)
		return 0;
	char prefix[128], ident[SB_COORD_IDENT_LEN];
	sb_coord_prefix(R.c, prefix, sizeof(prefix));
	cli_msg_set_prefix(prefix);
	snprintf(ident, sizeof(ident), "%s %s %zu", sb_version(), sb_features(),
		 sizeof(struct sb_job_result));
	struct sb_error er;
	const int e = sb_ranks_start(&R, ident, (long)getpid(), (long long)time(NULL), &er);
	if (e == -EPROTO)
		return SB_EXIT_ENV; /* said */
	step(e, &er);
	return 0;
}

void cli_ranks_finish(void)
{
	sb_ranks_finish(&R);
}

void cli_ranks_said_refused(int rank)
{
	fprintf(stderr,
		"storbench: rank %d refused or failed: no rank goes on (every rank stops before "
		"its I/O)\n",
		rank);
}

/* rank 0 names the first rank that refused */
static int agreed(int e, const struct sb_error *er, int code, int who)
{
	step(e, er);
	if (who >= 0 && R.rank == 0)
		cli_ranks_said_refused(who);
	return code;
}

int cli_ranks_agree(int code, const char *msg)
{
	struct sb_error er;
	int who;
	if (R.size < 2)
		return code;
	const int e = sb_ranks_agree(&R, &code, &who, msg, &er);
	return agreed(e, &er, code, who);
}

void cli_ranks_bcast(void *buf, size_t len)
{
	struct sb_error er;
	step(sb_ranks_bcast(&R, buf, len, &er), &er);
}

/* ---- targets ---- */

/* The exit code of a refusal, said by rank 0 (the message goes there) */
static int code_of(const struct sb_error *er)
{
	struct sb_error quiet = *er;
	quiet.msg[0] = '\0';
	return cli_error(&quiet);
}

int cli_ranks_agree_error(int e, const struct sb_error *er)
{
	struct sb_error lost;
	int code = e ? code_of(er) : 0, who;
	if (R.size < 2)
		return code;
	const int le = sb_ranks_agree_error(&R, &code, &who, er, &lost);
	return agreed(le, &lost, code, who);
}

int cli_ranks_dir(const char *path, int is_dir, int write, const char **where)
{
	struct sb_error er;
	struct sb_ranks_agreed a = { .code_of = code_of };
	const int e = sb_ranks_dir(&R, path, is_dir, write, where, &a, &er);
	return agreed(e, &er, a.code, a.who);
}

int cli_ranks_probe(struct sb_jobtarget *t, const char *path)
{
	struct sb_error er;
	struct sb_ranks_agreed a = { .code_of = code_of };
	const int e = sb_ranks_probe(&R, t, path, &a, &er); /* alone: as cli_target_probe */
	return agreed(e, &er, a.code, a.who);
}

int cli_ranks_probe_dir(struct sb_jobtarget *t, const char **path, int write)
{
	struct sb_error er;
	struct sb_ranks_agreed a = { .code_of = code_of };
	const int e = sb_ranks_probe_dir(&R, t, path, write, &a, &er);
	return agreed(e, &er, a.code, a.who);
}

int cli_ranks_jobtarget_prepare(struct sb_jobtarget *t, const char *path, struct sb_job_opts *job,
				int needs_data, int noio, int *own_dir)
{
	struct sb_error er;
	struct sb_ranks_agreed a = { .code_of = code_of };
	const int e = sb_ranks_jobtarget_prepare(&R, t, path, job, needs_data, noio, own_dir, &a,
						 &er);
	return agreed(e, &er, a.code, a.who);
}

void cli_ranks_note_file(const char *path)
{
	sb_ranks_note_file(&R, path);
}

void cli_ranks_remove_dir(int keep)
{
	sb_ranks_remove_dir(&R, keep);
}

/* ---- measurement ---- */

int cli_ranks_stonewall(void)
{
	return R.stonewall;
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
	struct sb_error er;
	int code, who;
	const int e = sb_ranks_space_agree(&R, path, need, avail, fs, SB_EXIT_ENV, &code, &who,
					   &er);
	return agreed(e, &er, code, who);
}
