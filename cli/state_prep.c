/*
 * --precondition and --discard-before (quick, sweep): the checks and the
 * state the library brings the target to (lib/run/state.c), with the
 * program's words and progress line. docs/states.md says what each state
 * is.
 */
#include "cli/cli.h"

int cli_state_alone(const struct cli_shared *sh)
{
	if (cli_ranks() < 2 || (!sh->state.precond && !sh->state.discard_before))
		return 0;
	if (sh->state.precond) {
		sb_err("--precondition=%s: not yet under mpirun with this command (docs/states.md)",
		       sb_precond_name(sh->state.precond));
		return SB_EXIT_USAGE;
	}
	sb_err("--discard-before: not yet under mpirun with this command (docs/states.md)");
	return SB_EXIT_USAGE;
}

int cli_state_check(const struct cli_shared *sh, struct sb_jobtarget *t, const char *path)
{
	struct sb_error er;
	const int rc = cli_state_alone(sh);
	if (rc)
		return rc;
	return sb_run_state_check(&sh->state, sh->destroy_data, t, path, &er) ? cli_error(&er) : 0;
}

int cli_state_apply(const struct cli_shared *sh, struct sb_jobtarget *t, const char *path,
		    struct sb_results *res, int quiet)
{
	struct sb_run_hooks h;
	struct cli_run_ui ui;
	struct sb_error er;
	cli_run_hooks(&h, &ui, quiet, 0);
	const int e = sb_run_state_apply(&sh->state, t, path, res, &h, cli_ranks_coord(), &er);
	return e ? cli_error(&er) : 0;
}
