/* Which engine a job uses: the one asked for, or the best one available. */
#include "cli/cli.h"

static void list_engines(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; sb_engines[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", sb_engines[i]->name);
}

/* Says once per run (quick chooses for every test) why the default engine
 * is not the first choice: a kernel without io_uring, or with it disabled. */
static void fell_back_note(const struct sb_engine_pick *pk)
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
	char names[128];
	*fell_back = 0;
	if (job->engine[0]) {
		const struct sb_engine_ops *ops = sb_engine_find(job->engine);
		list_engines(names, sizeof(names));
		if (!ops && sb_engine_is_known(job->engine)) {
			sb_err("--engine: '%s' is not built into this storbench (built in: %s; "
			       "rebuild with its library installed)",
			       job->engine, names);
			return NULL;
		}
		if (!ops) {
			sb_err("--engine: '%s' is not an engine (expected one of: %s)", job->engine,
			       names);
			return NULL;
		}
		int e = sb_engine_available(ops);
		if (e < 0) {
			sb_err("--engine: %s cannot be used on this system: %s", ops->name,
			       strerror(-e));
			return NULL;
		}
		return ops;
	}
	struct sb_engine_pick pk;
	sb_engine_default(job->iodepth, &pk);
	if (pk.fell_back)
		fell_back_note(&pk);
	*fell_back = pk.fell_back;
	return pk.ops;
}
