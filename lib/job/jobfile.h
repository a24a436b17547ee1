/*
 * fio job files: the INI text fio reads, mapped onto storbench's job
 * options, so that `storbench run JOB.fio` measures what `fio JOB.fio`
 * measures. Only what storbench does the same way is accepted; an option
 * that would change the workload and that storbench cannot honour is an
 * error naming its line, never silently dropped. Options that change only
 * fio's own reporting are accepted and listed in notes.
 *
 * The text: sections "[name]"; "[global]" sets defaults for the job
 * sections after it (a later [global] changes them for the jobs after that
 * one; as in fio, any section whose name begins with "global" is one);
 * "key=value" or a bare "key" (a flag, value "1"; options that take a value,
 * such as bs, refuse a bare key); spaces around keys and values are trimmed;
 * lines starting with ';' or '#' are comments, as is the rest of a line
 * after " ;" or " #"; ${NAME} is replaced by the environment variable NAME
 * (an error when unset or when env is NULL; not in section names, and not
 * again in what it is replaced by). "include" lines are refused, as are
 * lines over 4096 bytes (also once ${NAME} is replaced) and NUL bytes.
 * Lines end in "\n" or "\r\n"; the last one need not end at all.
 *
 * Each job starts from fio's defaults, not storbench's (buffered I/O,
 * psync, iodepth 1), then [global], then its own section. Options are
 * checked one by one; the caller checks each job as a whole with
 * sb_job_check (bs larger than size, time_based without runtime, ...).
 */
#ifndef SB_JOBFILE_H
#define SB_JOBFILE_H

#include "lib/sb.h"
#include "lib/job/job.h"

#define SB_JOBFILE_MAX_JOBS 64
#define SB_JOBFILE_MAX_NOTES 16

/* Options as the job file wrote them, for fio's "job options" and "global
 * options": pairs "key\0value\0" in the file's order, the key under fio's
 * own name (readwrite as rw, blocksize as bs, ...), the value as it stood
 * after '=' (${NAME} replaced; fio keeps the blanks after '=', so does
 * this). A bare flag ("thread") has no value and is not kept (fio prints
 * none). */
struct sb_fio_rawopts {
	char *kv;
	size_t len;
};

struct sb_jobfile_job {
	char name[64];		 /* the section name; opts.name too, unless name= */
	unsigned line;		 /* the line of its "[name]" */
	struct sb_job_opts opts; /* fio's defaults, [global], then the section */
	/* filename= (with directory= in front when both are given, unless
	 * filename= is absolute), or "" */
	char filename[4096];
	/* directory= when there is no filename=, or "" */
	char directory[4096];
	int stonewall;		   /* stonewall or wait_for_previous: waits for the jobs before */
	/* fio's groupid starts anew here (the first job aside): stonewall,
	 * wait_for_previous or new_group; not wait_for alone */
	int new_group;
	struct sb_fio_rawopts raw; /* its own section's options, as written */
};

struct sb_jobfile {
	unsigned njobs;
	struct sb_jobfile_job *jobs;
	/* "line N: group_reporting only changes fio's own reporting or
	 * bookkeeping: ignored", "line N: ioengine=sync runs as psync": each
	 * text once, the first SB_JOBFILE_MAX_NOTES of them */
	unsigned nnotes;
	char notes[SB_JOBFILE_MAX_NOTES][160];
	struct sb_fio_rawopts global_raw; /* every [global] section's options, as written */
	/* each job's read_iolog= log once read (sb_jobfile_iologs), NULL: none */
	struct sb_iolog *iologs;
};

/* Read each job's read_iolog= (relative to the current directory, as fio)
 * and make the job replay it (lib/job/iolog.h): its file (the log's, or
 * replay_redirect=), size, directions and block. 0, or -errno with msg
 * naming the job and the log. */
int sb_jobfile_iologs(struct sb_jobfile *jf, char *msg, size_t msglen);

/* Appends key=value to o (-ENOMEM). */
int sb_fio_rawopts_add(struct sb_fio_rawopts *o, const char *key, const char *value);
/* The pair after *pos (start at 0): 1 with *key and *value, 0 past the last. */
int sb_fio_rawopts_next(const struct sb_fio_rawopts *o, size_t *pos, const char **key,
			const char **value);

/*
 * Parse len bytes of text (need not end in NUL) into a new *out. env looks
 * up ${NAME} (getenv, or NULL to refuse ${...}). Returns 0, or -EINVAL with
 * msg = "line N: ..." naming the option and what it accepts (or -ENOMEM).
 * A file with no job section is an error. *out is NULL on failure.
 */
int sb_jobfile_parse(const char *text, size_t len, const char *(*env)(const char *name),
		     struct sb_jobfile **out, char *msg, size_t msglen);
void sb_jobfile_free(struct sb_jobfile *jf);

/* What storbench does with each of fio's options in a job file, from the
 * table the reader uses (docs/fio-compat.md is generated from it by
 * `storbench run --list-fio-options`). */
enum sb_fio_support {
	SB_FIO_HONOURED, /* as fio does it (within the note's limits) */
	SB_FIO_MAPPED,	 /* onto storbench's own way of doing it (the note says how) */
	SB_FIO_NOOP,	 /* only the values that do nothing are taken */
	SB_FIO_IGNORED,	 /* taken, changes nothing storbench measures */
	SB_FIO_REFUSED,	 /* "fio option not supported by storbench" */
};
struct sb_fio_support_info {
	const char *name; /* fio's option, or ioengine */
	enum sb_fio_support support;
	char note[512];
};
/* The i-th of fio's options (sorted); -ENOENT past the last. */
int sb_fio_option_support(unsigned i, struct sb_fio_support_info *out);
/* The i-th of fio's ioengines (sorted); -ENOENT past the last. */
int sb_fio_engine_support(unsigned i, struct sb_fio_support_info *out);
const char *sb_fio_support_name(enum sb_fio_support s);

/* Jobs [first, first + n) start together (jobgroups.c). */
struct sb_jobfile_group {
	unsigned first;
	unsigned n; /* at least 1 */
};
/* The groups of jf in the order they run, into groups (room for
 * jf->njobs; SB_JOBFILE_MAX_JOBS always do). Returns how many. */
unsigned sb_jobfile_groups(const struct sb_jobfile *jf, struct sb_jobfile_group *groups);
/* fio's groupid of each of the first n jobs into group (its reports' groups:
 * a job that waits with wait_for alone reports with the ones before) */
void sb_jobfile_report_groups(const struct sb_jobfile *jf, unsigned *group, size_t n);

#endif
