/* The error a call reports to the program (lib/sb.h). */
#include "lib/sb.h"

#include <stdarg.h>

int sb_error_set(struct sb_error *e, int err, enum sb_errclass cls, const char *fmt, ...)
{
	va_list ap;
	e->err = err;
	e->cls = cls;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return err;
}
