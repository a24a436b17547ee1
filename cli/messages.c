/* Messages: "storbench: ..." on stderr, lowercase, no full stop. */
#include "cli/cli.h"

#include <stdarg.h>

void sb_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("storbench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void sb_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("storbench: warning: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
