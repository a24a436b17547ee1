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

long sb_errclass_code(enum sb_errclass cls)
{
	switch (cls) {
	case SB_ERR_FAIL: return 1;
	case SB_ERR_INPUT: return 2;
	case SB_ERR_ENV: return 3;
	case SB_ERR_STOPPED: return 4;
	}
	return 1;
}

enum sb_errclass sb_errclass_of(long code)
{
	static const enum sb_errclass c[] = { SB_ERR_FAIL, SB_ERR_FAIL, SB_ERR_INPUT, SB_ERR_ENV,
					      SB_ERR_STOPPED };
	return code >= 0 && code <= 4 ? c[code] : SB_ERR_FAIL;
}

/* What the system said about a path or a device the command was given:
 * the command line was right, the target or the system cannot be used
 * now (docs/promises.md, the exit status table), or the device failed a
 * request (EIO: what the test is there to find). Unsupported operations
 * are the caller's to class: a method the device lacks is the input's. */
enum sb_errclass sb_errno_class(int err)
{
	switch (err < 0 ? -err : err) {
	case ENOENT:
	case ENOTDIR:
	case EROFS:
	case ENOSPC:
	case EDQUOT:
	case EACCES:
	case EPERM:
	case EBUSY:
	case ETXTBSY:
	case ENXIO:
	case ENODEV:
	case ENOMEDIUM:
	case ENOMEM:
	case EMFILE:
	case ENFILE:
	case EFBIG:
	case EAGAIN:
	case ETIMEDOUT: return SB_ERR_ENV;
	case EIO: return SB_ERR_FAIL; /* the device failed a request: a finding */
	default: return SB_ERR_INPUT;
	}
}
