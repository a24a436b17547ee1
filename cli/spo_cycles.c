/* storbench spo --cycles: not built yet (refused). */
#include "cli/spo.h"

int spo_cycles(struct spo_opts *o, const char *target)
{
	(void)o;
	(void)target;
	sb_err("--cycles: not available in this build yet");
	return SB_EXIT_USAGE;
}
