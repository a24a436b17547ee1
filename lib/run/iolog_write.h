/*
 * Internal to lib/run: fio's I/O logs (write_iolog=, read_iolog=), as
 * fio 3.33's iolog.c writes and reads them.
 *
 * What fio 3.33 writes is version 3: a header line, then a line per file
 * event and per request, each with the microseconds since the log began:
 *
 *   fio version 3 iolog
 *   13 FILE add
 *   88 FILE open
 *   93 FILE write OFFSET LENGTH      (read, write, trim, sync, datasync)
 *   127 FILE close
 *
 * Version 2 is the same without the times, and may hold "wait" lines;
 * both are read. A log is replayed on one file.
 */
#ifndef SB_IOLOG_WRITE_H
#define SB_IOLOG_WRITE_H

#include "lib/sb.h"

/* ---- writing (write_iolog=) ---- */

struct sb_iolog_w;

/* Creates (truncates) path through the write gate (sb_gate_log: a new
 * file, or one of storbench's, or with destroy any regular file; never a
 * device, a fifo or a file the kernel uses) and writes the header and an
 * "add" line for each of the nfiles names. 0, or -errno. */
int sb_iolog_w_open(struct sb_iolog_w **out, const char *path, int destroy,
		    const char *const *names, unsigned nfiles, uint64_t now);
/* A file event ("open", "close") of file i. */
void sb_iolog_w_file(struct sb_iolog_w *l, unsigned i, const char *what, uint64_t now);
/* A request of ddir (SB_DDIR_*) on file i, as it is issued. */
void sb_iolog_w_io(struct sb_iolog_w *l, unsigned i, int ddir, uint64_t offset, uint32_t len,
		   uint64_t now);
/* Everything written out; 0 or the first write error (-errno). Frees. */
int sb_iolog_w_close(struct sb_iolog_w *l);

#endif
