/* Whether a name is one of fio's options or ioengines (fio_names.c). */
#ifndef SB_FIO_NAMES_H
#define SB_FIO_NAMES_H

#include "lib/sb.h"

int sb_fio_option_known(const char *name);
int sb_fio_engine_known(const char *name);
/* The i-th of fio's options and of its ioengines, sorted; NULL past the
 * last. */
const char *sb_fio_option_name(unsigned i);
const char *sb_fio_engine_name(unsigned i);

#endif
