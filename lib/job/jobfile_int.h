/*
 * What the two halves of the fio job-file reader share: the reader's state
 * (jobfile_parse.c: lines, sections, ${NAME}) and the table of fio's
 * options with their setters (jobfile_opts.c). Private to lib/job.
 */
#ifndef SB_JOBFILE_INT_H
#define SB_JOBFILE_INT_H

#include "lib/job/jobfile.h"

#define MAX_LINE 4096 /* bytes of a line, also once ${NAME} is replaced */
#define MAX_ENV_NAME 255
#define QUOTE_MAX 64 /* bytes of a value quoted in a message */

/* What the sections read so far set: [global]'s, then a job's. */
struct state {
	struct sb_job_opts opts;
	char filename[4096];
	char directory[4096];
	int stonewall;
	int wait_for;			    /* stonewall from wait_for= naming the job before */
	int new_group;			    /* stonewall or new_group: fio's groupid starts anew */
	int bsrange;			    /* opts.bssplit is bsrange='s, not bssplit='s */
	/* fio's bs=READ,WRITE[,TRIM]: each direction's size and the line
	 * (0: one size given), resolved for the job's rw at its end */
	uint32_t bsdir[3];
	unsigned bsdir_line;
	/* fio's bssplit=READ,WRITE[,TRIM]: each direction's split (0
	 * entries: its bs) and the line (0: one split given), resolved for
	 * the job's rw at its end */
	struct sb_bssplit dsplit[3][SB_BSSPLIT_MAX];
	unsigned ndsplit[3];
	unsigned dsplit_line;
	int strided;			    /* zonemode=strided */
	unsigned serialize_line;	    /* serialize_overlap=1's line, 0: not given */
	uint64_t zonesize, zoneskip;	    /* fio's, taken with zonemode=strided or zbd */
	unsigned zone_line;		    /* the line of zonemode=strided or zbd */
	int zbd;			    /* zonemode=zbd */
	uint64_t zonecap;		    /* fio's zonecapacity (zbd), 0: zonesize */
	/* fio's size=Nz, offset=Nz: N zones (0: a size given in bytes), and
	 * their lines */
	uint64_t size_nz, offset_nz;
	unsigned size_nz_line, offset_nz_line;
	int do_verify;			    /* fio's do_verify, 1 by default */
	unsigned openfiles, openfiles_line; /* fio's openfiles (0: all) and its line */
	unsigned nrfiles_line;		    /* nrfiles='s line, 0: not given */
	unsigned offset_inc_line;	    /* offset_increment='s line, 0: not given */
	/* a rate of trims given (rate=,,T and the like): "KEY: 'VALUE'" and
	 * its line, refused if the job trims (0: none) */
	unsigned trim_rate_line;
	char trim_rate[QUOTE_MAX + 32];
};

enum section { SEC_NONE, SEC_GLOBAL, SEC_JOB };

struct ctx {
	struct sb_jobfile *jf;
	unsigned jobcap;
	unsigned threads;  /* fio's threads so far: numjobs of each job before */
	int last_wait_for; /* the job before waited for one job (wait_for=) */
	int exitall;	   /* fio's exitall, in any section: for every job */
	const char *(*env)(const char *name);
	char *msg;
	size_t msglen;
	unsigned line;
	enum section sec;
	unsigned sec_line;
	char sec_name[64];
	struct state global;
	struct state job;
	struct state *cur; /* &global or &job */
	char raw[MAX_LINE + 1];
	char text[MAX_LINE + 1];      /* raw with ${NAME} replaced */
	struct sb_fio_rawopts jobraw; /* the job section's options as written */
};

struct fio_opt;
typedef int (*setter)(struct ctx *c, const struct fio_opt *o, const char *v);

struct fio_opt {
	const char *name;
	setter set;
	const char *sb;	 /* storbench's option, for set_plain and the like */
	const char *why; /* what a refusal or a note says */
	int flag;	 /* may stand alone, meaning 1 (2: meaning "") */
};

/* "line N: ..." into the context's message; returns -EINVAL. */
int sb_jf_fail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A note on the current line, kept once per text (jobfile_opts.c). */
void sb_jf_note(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* fio's option KEY in the table, NULL when storbench does not take it. */
const struct fio_opt *sb_jf_option(const char *key);
/* Why storbench refuses fio's option KEY, when the table says; else NULL. */
const char *sb_jf_refused_why(const char *key);

#endif
