/* The names a latency run goes by, in its results and its words, and the
 * percentiles its section has. */
#include "lib/latency/lat_run.h"

const double sb_lat_pcts[SB_LAT_NPCTS] = { 1, 5, 10, 50, 90, 95, 99, 99.9, 99.99 };

const char *sb_lat_preset_name(enum sb_lat_preset p)
{
	static const char *const names[] = { "ioping", "dd-sync", "hdparm", "hdparm-cache" };
	return (unsigned)p < SB_ARRAY_SIZE(names) ? names[p] : "?";
}

const char *sb_lat_pattern_name(enum sb_probe_pattern p)
{
	return p == SB_PROBE_RANDOM ? "random" : p == SB_PROBE_SEQ ? "sequential" : "fixed";
}
