/*
 * --precondition and --discard-before (quick, run, sweep): the target is
 * brought to a named state before the measurement, through the same jobs
 * as `storbench pts` (lib/target/precond.h), and the state goes into the
 * results. docs/states.md says what each state is.
 */
#include "cli/cli.h"

#include <fcntl.h>
#include <unistd.h>

static int asked(const struct cli_shared *sh)
{
	return sh->state.precond != SB_PRECOND_NONE || sh->state.discard_before;
}

static const char *what(const struct cli_shared *sh, char *buf, size_t len)
{
	if (sh->state.precond != SB_PRECOND_NONE)
		snprintf(buf, len, "--precondition=%s", sb_precond_name(sh->state.precond));
	else
		snprintf(buf, len, "--discard-before");
	return buf;
}

static int check(const struct cli_shared *sh, struct sb_jobtarget *t, const char *path,
		 int each_rank)
{
	char w[48];
	if (!asked(sh))
		return 0;
	what(sh, w, sizeof(w));
	if (cli_ranks() > 1 && !each_rank) {
		sb_err("%s: not yet under mpirun with this command (docs/states.md)", w);
		return SB_EXIT_USAGE;
	}
	const enum sb_target_kind k = t->info.kind;
	if (sh->state.precond == SB_PRECOND_PURGE && k != SB_TARGET_BLOCK) {
		sb_err("--precondition=purge: '%s' is not a block device (a purge asks a device to "
		       "forget its blocks; on a file use fill or --discard-before)",
		       path);
		return SB_EXIT_USAGE;
	}
	if (k == SB_TARGET_FILE && !sh->destroy_data && sb_file_is_ours(path) != 1) {
		sb_err("%s: destroys what '%s' holds in the region (add --destroy-data to "
		       "allow it)",
		       w, path);
		return SB_EXIT_USAGE;
	}
	/* a device without consent: the write gate's one refusal */
	if (k == SB_TARGET_BLOCK && !sh->destroy_data)
		return cli_refuse_device(path);
	/* a target the measurement only reads is written all the same: it
	 * passes the write gate when it is prepared, as a written one */
	t->writes = 1;
	return 0;
}

int cli_state_check(const struct cli_shared *sh, struct sb_jobtarget *t, const char *path)
{
	return check(sh, t, path, 0);
}

int cli_state_check_each(const struct cli_shared *sh, struct sb_jobtarget *t, const char *path)
{
	return check(sh, t, path, 1);
}

static void add_written(const struct sb_job_result *jr, void *st)
{
	((struct sb_state *)st)->written += jr->dir[SB_DDIR_WRITE].bytes;
}

/* One fill job over the region of every file of t. */
static int fill(struct sb_jobtarget *t, const struct sb_job_opts *jb, struct sb_state *st,
		int quiet, int step, int nsteps)
{
	struct sb_job_opts j = *jb;
	j.numjobs = t->info.kind == SB_TARGET_DIR ? t->npaths : 1;
	if (t->direct_fallback)
		j.direct = 0;
	/* the runner works on the target's region: this job's part of it */
	struct sb_jobtarget v = *t;
	v.region_offset = j.offset;
	v.region_size = j.size;
	/* many ranks: each fills its own target, whose size is its own */
	const struct cli_measure m = { .quiet = quiet,
				       .command = "precondition",
				       .step_word = "pass",
				       .step = (unsigned)step,
				       .nsteps = (unsigned)nsteps,
				       .alone = cli_ranks() > 1 };
	uint64_t errors;
	const int rc = cli_measure_one(&m, &j, &v, add_written, st, &errors);
	if (!rc && errors) {
		sb_err("preconditioning: %llu I/O errors", (unsigned long long)errors);
		return SB_EXIT_FAIL;
	}
	return rc;
}

static int purge(const struct cli_shared *sh, struct sb_jobtarget *t, const char *path,
		 struct sb_state *st)
{
	struct sb_error er;
	const int fd = sb_jobtarget_open(t, 0, O_RDWR);
	if (fd < 0) {
		sb_err("cannot open '%s' to purge it: %s", path, strerror(-fd));
		return SB_EXIT_ENV;
	}
	const int e = sb_purge_how(fd, path, sh->state.purge, &st->purge, st->purge_how,
				   sizeof(st->purge_how), &er);
	close(fd);
	if (e)
		return cli_error(&er);
	st->region_offset = 0;
	st->region_bytes = t->info.capacity;
	return 0;
}

static int precondition(const struct cli_shared *sh, struct sb_jobtarget *t, const char *path,
			struct sb_state *st, int quiet)
{
	const uint64_t off = t->region_offset, size = t->region_size;
	const uint64_t seed = sb_now_ns();
	struct sb_job_opts j;
	switch (sh->state.precond) {
	case SB_PRECOND_NONE: return 0;
	case SB_PRECOND_PURGE: return purge(sh, t, path, st);
	case SB_PRECOND_FILL: {
		/* whole 128 KiB requests, then the tail in one request */
		const uint64_t tail = size % SB_PRECOND_FILL_BS;
		int rc = 0;
		if (size - tail) {
			sb_precond_fill_job(&j, off, size - tail, 32, seed);
			rc = fill(t, &j, st, quiet, 1, tail ? 2 : 1);
		}
		if (!rc && tail && !cli_interrupted()) {
			sb_precond_fill_job(&j, off + size - tail, tail, 1, seed + 1);
			j.bs = (uint32_t)tail;
			rc = fill(t, &j, st, quiet, 2, 2);
		}
		return rc;
	}
	case SB_PRECOND_FILL_RANDOM:
		st->amount = sb_precond_amount(&sh->state, size);
		if (size < SB_PRECOND_RANDOM_BS) {
			sb_err("--precondition=fill-random: the region (%llu bytes) is smaller than "
			       "one 4 KiB request",
			       (unsigned long long)size);
			return SB_EXIT_USAGE;
		}
		sb_precond_random_job(&j, off, size - size % SB_PRECOND_RANDOM_BS, st->amount, 32,
				      seed);
		return fill(t, &j, st, quiet, 1, 1);
	}
	return 0;
}

/* Many ranks: each brought its own target to the state, in its own time;
 * the measurement starts once every rank is done (a wait bounded by
 * RANKS_WAIT_S plus RANKS_WAIT_X times this rank's own preconditioning,
 * since another rank's target may be larger or slower), and not at all
 * when one failed (rank 0 names it). Rank 0 keeps every rank's state. */
#define RANKS_WAIT_S 600.0
#define RANKS_WAIT_X 50.0

static int ranks_done(const struct cli_shared *sh, const char *path, struct sb_results *res, int rc)
{
	struct sb_rank_state mine;
	char msg[512], w[48];
	long v = rc;
	cli_ranks_max_within(&v, 1, RANKS_WAIT_S + RANKS_WAIT_X * (double)res->state.took_ns / 1e9);
	snprintf(msg, sizeof(msg), "rank %d on %s: %s on '%.300s' failed", cli_rank(),
		 cli_ranks_host(), what(sh, w, sizeof(w)), path);
	rc = cli_ranks_agree(rc, rc ? msg : NULL);
	memset(&mine, 0, sizeof(mine));
	mine.rank = cli_rank();
	snprintf(mine.host, sizeof(mine.host), "%s", cli_ranks_host());
	snprintf(mine.path, sizeof(mine.path), "%s", path);
	mine.state = res->state;
	struct sb_rank_state *all = cli_ranks_gather(&mine, sizeof(mine));
	if (all) { /* rank 0 */
		free(res->rank_states);
		res->rank_states = all;
		res->nrank_states = (unsigned)cli_ranks();
	}
	return rc;
}

int cli_state_apply(const struct cli_shared *sh, struct sb_jobtarget *t, const char *path,
		    struct sb_results *res, int quiet)
{
	if (!asked(sh))
		return 0;
	struct sb_state *st = &res->state;
	memset(st, 0, sizeof(*st));
	st->precond = sh->state.precond;
	st->purge = SB_PURGE_NONE;
	st->purge_asked = sh->state.purge;
	st->region_offset = t->region_offset;
	st->region_bytes = t->region_size;
	res->have_state = 1;
	const uint64_t t0 = sb_now_ns();
	int rc = precondition(sh, t, path, st, quiet);
	st->took_ns = sb_now_ns() - t0;
	for (unsigned i = 0; !rc && sh->state.discard_before && i < t->npaths; i++) {
		struct sb_error er;
		const int fd = sb_jobtarget_open(t, i, O_RDWR);
		if (fd < 0) {
			sb_err("cannot open '%s' to discard it: %s", t->paths[i], strerror(-fd));
			rc = SB_EXIT_ENV;
			break;
		}
		const uint64_t before = st->discard_bytes;
		const int e = sb_discard_region(fd, t->is_blockdev, t->paths[i], t->region_offset,
						t->region_size, st, &er);
		close(fd);
		st->discard_bytes += before;
		if (e)
			rc = cli_error(&er);
	}
	sb_state_name(st);
	if (!rc && cli_interrupted())
		rc = cli_interrupt_status();
	if (cli_ranks() > 1)
		rc = ranks_done(sh, path, res, rc);
	return rc;
}
