/* storbench fio: results in fio's normal output layout (cli/fio_text.c). */
#ifndef SB_FIO_TEXT_H
#define SB_FIO_TEXT_H

#include "cli/cli.h"

struct fio_text_in {
	const struct sb_results *res;
	const unsigned *group; /* res->jobs[i] ran in group group[i] (stonewall) */
};

/* Written to f (cli_write_file's writer: vin is a struct fio_text_in). */
int fio_text_write(FILE *f, const void *vin);

#endif
