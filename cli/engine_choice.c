/* Which engine a job uses (sb_engine_choose), with the program's words:
 * its refusal, and once per run why the default fell back. */
#include "cli/cli.h"

void cli_engine_fell_back(const struct sb_engine_pick *pk)
{
	static int said;
	const char *sync =
		!(pk->ops->flags & SB_ENGINE_SYNC)
			? ""
			: ", one request at a time per job (for more in flight, raise --numjobs)";
	if (said++)
		return;
	if (pk->missed)
		sb_warn("%s cannot be used here (%s): using %s%s", pk->missed->name,
			strerror(-pk->err), pk->ops->name, sync);
	else
		sb_warn("no asynchronous engine built in: using %s%s", pk->ops->name, sync);
}

const struct sb_engine_ops *cli_engine_choose(const struct sb_job_opts *job, int *fell_back)
{
	struct sb_engine_pick pk;
	struct sb_error er;
	*fell_back = 0;
	if (sb_engine_choose(job->engine, job->iodepth, &pk, &er) < 0) {
		cli_error(&er);
		return NULL;
	}
	if (pk.fell_back)
		cli_engine_fell_back(&pk);
	*fell_back = pk.fell_back;
	return pk.ops;
}
