/*
 * fio's I/O logs read for replay (read_iolog=): versions 2 and 3, as fio
 * 3.33's iolog.c reads them (lib/run/iolog.h writes version 3).
 *
 *   fio version 3 iolog              fio version 2 iolog
 *   13 FILE add                      FILE add
 *   88 FILE open                     FILE open
 *   93 FILE write OFFSET LENGTH      FILE write OFFSET LENGTH
 *   127 FILE close                   FILE wait MILLISECONDS 0
 *                                    FILE close
 *
 * Version 3's first column is the microseconds since the log began: the
 * replay keeps that pace (replay_no_stall=1 does not, replay_time_scale
 * scales it). The requests (read, write, trim, sync, datasync) are
 * replayed on one file, in the log's order.
 */
#ifndef SB_JOB_IOLOG_H
#define SB_JOB_IOLOG_H

#include "lib/sb.h"

struct sb_job_opts;

struct sb_iolog_entry {
	uint64_t t_us; /* version 3: since the log began; a wait: since the job began */
	uint64_t offset;
	uint32_t len;
	uint8_t ddir; /* SB_DDIR_* */
	uint8_t wait; /* version 2's wait: nothing issued, the job waits until t_us */
};

struct sb_iolog {
	int version;	 /* 2 or 3 */
	char file[4096]; /* the file its requests name (the first one's) */
	struct sb_iolog_entry *e;
	size_t n, cap;
	uint64_t end;	  /* past the last byte a request touches */
	uint32_t max_len; /* the longest read or write */
	unsigned reads, writes, trims, syncs;
	uint64_t bytes; /* of reads, writes and trims */
	/* from the job's options, for the replay */
	int no_stall;
	unsigned time_scale; /* percent, 100: as logged */
};

/* Parse len bytes of a log (need not end in NUL) into *l (zeroed first).
 * one_file: refuse requests naming a second file (no replay_redirect).
 * scale, align: fio's replay_scale (offsets divided by it; 0 or 1: not)
 * and replay_align (offsets rounded down to its multiple; 0: not). 0, or
 * -EINVAL with msg "line N: ..." (-ENOMEM). */
int sb_iolog_parse(const char *text, size_t len, int one_file, uint64_t scale, uint64_t align,
		   struct sb_iolog *l, char *msg, size_t msglen);
void sb_iolog_free(struct sb_iolog *l);

#endif
