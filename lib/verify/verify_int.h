/* Inside lib/verify: what the files of a verify target (verify_target.c,
 * verify_files.c, verify_scan.c, verify_learn.c) share. Not a public
 * header. Each of them includes lib/verify/verify_target.h for the types;
 * this header only names them, so that verify_target.c (which calls the
 * others) and the others (which take its types) do not include each
 * other's headers both ways. */
#ifndef SB_VERIFY_INT_H
#define SB_VERIFY_INT_H

#include "lib/sb.h"

struct sb_vseg;
struct sb_vtarget;
struct sb_vtarget_opts;

#define SB_VNAME_PREFIX ".storbench-verify-"
#define SB_VNAME_SUFFIX ".tmp"

/* msg gets the message; returns err. */
int sb_vfail(char *msg, size_t ml, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* verify_files.c */
/* Append a segment (fd -1). 0 or -ENOMEM. */
int sb_vseg_add(struct sb_vtarget *t, const char *path, uint64_t base, uint64_t off, uint64_t size,
		char *msg, size_t ml);
/* The name of file k of run `run` in directory dir ("" run: the fixed
 * names of storbench before runs had one). 0 or -ENAMETOOLONG. */
int sb_vname(char *buf, size_t len, const char *dir, const char *run, unsigned k);
/* Create segment s's file, only where nothing is (not even a symlink),
 * marked as ours (where the filesystem keeps xattrs), empty, held open in
 * s->fd and locked (a run is writing it). 0 or -errno (msg says why). */
int sb_vseg_create(struct sb_vseg *s, char *msg, size_t ml);
/* Remove the file sb_vseg_create made and close it. */
void sb_vseg_drop(struct sb_vseg *s);
/* Open an existing file for reading (or, to hold it exclusively, writing:
 * only files of earlier runs that carry storbench's mark) without following
 * a symlink, without blocking on a FIFO: fd of a regular file, or -errno
 * (-ELOOP a symlink, -EINVAL not a regular file). A target the user named
 * is written only through the write gate (lib/target/gate.h). */
int sb_vopen_regular(const char *path, int write);
/* verify_scan.c */
/* Check: find the files of one run in t->path (t->is_dir) into t->seg. */
int sb_vscan_find(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml);
/* A fill: the bytes that the files of earlier runs hold, which
 * sb_vscan_remove_leftovers frees. */
uint64_t sb_vscan_leftover(const struct sb_vtarget *t);
/* Remove the files earlier runs left in t->path that are ours and that no
 * run is using. */
void sb_vscan_remove_leftovers(const struct sb_vtarget *t);

/* verify_fill.c */
/* A fill: create the planned files, each as large as the filesystem lets
 * it grow; the plan ends where the first one stops short. 0 or -errno
 * (msg says why). */
int sb_vfill_create(struct sb_vtarget *t, const struct sb_vtarget_opts *o, char *msg, size_t ml);

#endif
