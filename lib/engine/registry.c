/*
 * The engines built in, in the order `storbench --help` lists them. An
 * explicit array rather than constructors: it survives static linking.
 */
#include "lib/sb.h"
#include "lib/engine/engine.h"

extern const struct sb_engine_ops sb_engine_psync;
#ifdef HAVE_URING
extern const struct sb_engine_ops sb_engine_io_uring;
#endif
#ifdef HAVE_AIO
extern const struct sb_engine_ops sb_engine_libaio;
#endif
extern const struct sb_engine_ops sb_engine_null;

const struct sb_engine_ops *const sb_engines[] = {
	&sb_engine_psync,
#ifdef HAVE_URING
	&sb_engine_io_uring,
#endif
#ifdef HAVE_AIO
	&sb_engine_libaio,
#endif
	&sb_engine_null,
	NULL,
};
