/* Which engine a job uses: the one it names, or the best one available
 * (engine.h). */
#include "lib/engine/engine.h"

/* "psync, io_uring, ...": the engines built in. */
static void built_in(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; sb_engines[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", sb_engines[i]->name);
}

int sb_engine_choose(const char *name, unsigned iodepth, struct sb_engine_pick *pick,
		     struct sb_error *err)
{
	char names[128];
	if (!name || !name[0]) {
		sb_engine_default(iodepth, pick);
		return 0;
	}
	*pick = (struct sb_engine_pick){ sb_engine_find(name), NULL, 0, 0 };
	built_in(names, sizeof(names));
	if (!pick->ops && sb_engine_is_known(name))
		return sb_error_set(err, -ENOENT, SB_ERR_INPUT,
				    "--engine: '%s' is not built into this storbench (built in: "
				    "%s; rebuild with its library installed)",
				    name, names);
	if (!pick->ops)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "--engine: '%s' is not an engine (expected one of: %s)", name,
				    names);
	const int e = sb_engine_available(pick->ops);
	if (e < 0)
		return sb_error_set(err, e, SB_ERR_INPUT,
				    "--engine: %s cannot be used on this system: %s",
				    pick->ops->name, strerror(-e));
	return 0;
}
