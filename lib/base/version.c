#include "lib/sb.h"

#ifndef SB_VERSION
#define SB_VERSION "unknown"
#endif
#ifndef SB_FEATURES
#define SB_FEATURES ""
#endif

const char *sb_version(void)
{
	return SB_VERSION;
}

const char *sb_features(void)
{
	return SB_FEATURES;
}
