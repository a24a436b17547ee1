/*
 * storbench soak: the target made ready for the library's run, as verify
 * makes its own (cli/verify_run.c): probed, resolved, its space checked,
 * the engine chosen, a device or an existing file made ready to be written
 * in place (a directory's files are made by each iteration). Under mpirun
 * every step is agreed, and a directory TARGET gets a directory of its own
 * per rank.
 */
#include "cli/soak_cli.h"

#include <sys/stat.h>
#include <unistd.h>

/* Many ranks: a directory of the rank's own under a directory TARGET,
 * made and marked by this run or taken over from a dead one
 * (cli_ranks_dir: a directory a killed soak left, its files each
 * iteration's, made anew by the next, is where --resume goes on). */
static int ranks_target(struct soak_target *st, const char **target)
{
	return cli_ranks_probe_dir(&st->t.ct, target, 1);
}

/* The verify workload's target. */
static int verify_target(struct soak_opts *o, const char *target, struct soak_target *st)
{
	struct vtarget *t = &st->t;
	int rc;
	o->v.phase = SB_VPHASE_BOTH;
	if (cli_ranks() > 1 && (rc = ranks_target(st, &target)))
		return rc;
	/* probed once: verify_target_resolve takes what was found here */
	if (!t->ct.probed && (rc = cli_ranks_probe(&t->ct, target)))
		return rc;
	const enum sb_target_kind kind = t->ct.info.kind;
	if (!o->v.size_given && (kind == SB_TARGET_DIR || kind == SB_TARGET_NONE)) {
		/* verify fills a directory's free space; a soak repeats: 1 GiB */
		o->v.size = 1ull << 30;
		o->v.size_given = 1;
	}
	if ((rc = cli_ranks_agree(verify_target_resolve(t, target, &o->v), NULL)))
		return rc;
	/* many ranks: each one's files fit; and those on one filesystem? (a
	 * device or an existing file is written in place: nothing to add) */
	if (cli_ranks() > 1 &&
	    (rc = cli_ranks_space_agree(target,
					t->v.is_blockdev || kind == SB_TARGET_FILE ? 0 : t->v.size,
					t->ct.info.fs_free, t->ct.info.mountpoint)))
		return rc;
	st->ops = verify_engine(&o->v);
	if ((rc = cli_ranks_agree(st->ops ? 0 : SB_EXIT_USAGE, NULL)))
		return rc;
	st->region_mode = t->v.is_blockdev || kind == SB_TARGET_FILE;
	/* every option is valid: only now is anything written; a Ctrl-C
	 * from here on is handled, so the files made are removed */
	cli_signals_install();
	return cli_ranks_agree(st->region_mode ? verify_target_create(t, &o->v) : 0, NULL);
}

int soak_target_prepare(struct soak_opts *o, const char *target, struct soak_target *st)
{
	memset(st, 0, sizeof(*st));
	/* iozone's test file is looked at here, checked by the library */
	if (o->iozone)
		return cli_target_probe(&st->t.ct, target);
	return verify_target(o, target, st);
}

void soak_target_cleanup(struct soak_target *st)
{
	verify_target_cleanup(&st->t, !st->region_mode);
}
