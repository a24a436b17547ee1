/* Which engine a job uses: the one asked for, or the best one available. */
#include "cli/cli.h"

static void list_engines(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; sb_engines[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", sb_engines[i]->name);
}

static int known(const char *name)
{
	for (int i = 0; sb_engine_all_names[i]; i++)
		if (!strcmp(sb_engine_all_names[i], name))
			return 1;
	return 0;
}

/* Says once per run (quick chooses for every test) why the default engine
 * is not the first choice: a kernel without io_uring, or with it disabled. */
static void fell_back_note(const char *missed, int err, const char *used)
{
	static int said;
	const char *sync = strcmp(used, "psync") ? "" :
			   ", one request at a time per job (for more in flight, raise --numjobs)";
	if (said++)
		return;
	if (missed)
		sb_warn("%s cannot be used here (%s): using %s%s", missed, strerror(-err), used,
			sync);
	else
		sb_warn("no asynchronous engine built in: using %s%s", used, sync);
}

const struct sb_engine_ops *cli_engine_choose(const struct sb_job_opts *job, int *fell_back)
{
	char names[128];
	*fell_back = 0;
	if (job->engine[0]) {
		const struct sb_engine_ops *ops = sb_engine_find(job->engine);
		list_engines(names, sizeof(names));
		if (!ops && known(job->engine)) {
			sb_err("--engine: '%s' is not built into this storbench (built in: %s; "
			       "rebuild with its library installed)", job->engine, names);
			return NULL;
		}
		if (!ops) {
			sb_err("--engine: '%s' is not an engine (expected one of: %s)", job->engine,
			       names);
			return NULL;
		}
		int e = ops->available ? ops->available() : 0;
		if (e < 0) {
			sb_err("--engine: %s cannot be used on this system: %s", ops->name,
			       strerror(-e));
			return NULL;
		}
		return ops;
	}
	/* default: io_uring for queue depth > 1, else libaio, else psync threads */
	if (job->iodepth > 1) {
		static const char *const order[] = { "io_uring", "libaio" };
		const struct sb_engine_ops *missed = NULL;
		int err = 0;
		for (size_t i = 0; i < SB_ARRAY_SIZE(order); i++) {
			const struct sb_engine_ops *ops = sb_engine_find(order[i]);
			if (!ops)
				continue;
			int e = ops->available ? ops->available() : 0;
			if (e == 0) {
				if (missed)
					fell_back_note(missed->name, err, ops->name);
				*fell_back = !!missed;
				return ops;
			}
			if (!missed) {
				missed = ops;
				err = e;
			}
		}
		fell_back_note(missed ? missed->name : NULL, err, "psync");
		*fell_back = 1;
	}
	return sb_engine_find("psync");
}
