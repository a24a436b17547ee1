/*
 * fio's command line (`fio -filename=F -rw=read -bs=16k -name=x`) read as
 * fio reads it and written down as the job file it amounts to, so that
 * `storbench fio ARGS` goes through the job-file parser (jobfile_parse.c) and
 * cannot mean anything else than the same options in a job file.
 *
 * What fio's getopt_long_only takes: one or two dashes; "-opt=value" or
 * "-opt value" (the next argument is the value unless it starts with '-'
 * and is not a number); options fio declares as bare flags (thread,
 * group_reporting, time_based, stonewall, ...) never take the next argument,
 * only "-thread=1"; "--" ends the options. Job options before the first
 * --name are [global]; --name=X starts job [X]; other arguments are job
 * files, read after the command line's jobs, their [global] continuing the
 * command line's, as in fio. fio's own process options (--output,
 * --output-format, --parse-only, --readonly, --eta...) and storbench's
 * safety flags (--destroy-data, --keep, --quiet) are kept apart.
 */
#ifndef SB_FIO_CMDLINE_H
#define SB_FIO_CMDLINE_H

#include "lib/sb.h"
#include "lib/job/jobfile.h"

/* --output-format's values, as bits (fio takes a comma list) */
enum {
	SB_FIO_OUT_NORMAL = 1,
	SB_FIO_OUT_JSON = 2,
	SB_FIO_OUT_JSONPLUS = 4,
	SB_FIO_OUT_TERSE = 8, /* terse, minimal, csv; --minimal, --append-terse */
};

struct sb_fio_src;

struct sb_fio_cmdline {
	char *text; /* the command line as a job file: [global], then each --name */
	size_t len;
	const char **files; /* positional arguments (job files), in order */
	unsigned nfiles;
	const char *output; /* --output=FILE, else NULL */
	unsigned formats;   /* SB_FIO_OUT_*; SB_FIO_OUT_NORMAL when none given */
	int terse_version;  /* --terse-version: 2 to 5, fio's default 3 */
	uint64_t status_ns; /* --status-interval: the whole output this often (0: never) */
	int help, version, parse_only, readonly;
	int destroy_data, keep, quiet;
	/* where each line of the text, then of each job file, came from */
	struct sb_fio_src *src;
	unsigned nsrc, srccap;
};

/*
 * Read argv[0..argc) (the arguments after "fio"). Returns 0 with a new
 * *out, or -EINVAL with msg = "OPT: ..." naming the option as it was
 * written ("-foo: unknown fio option"), or -ENOMEM. Values are checked
 * later, by sb_fio_cmdline_jobs.
 */
int sb_fio_cmdline_parse(int argc, char *const *argv, struct sb_fio_cmdline **out, char *msg,
			 size_t msglen);

/*
 * The jobs of the command line, then of the job files (texts[i] of lens[i]
 * bytes, the contents of cl->files[i]), through sb_jobfile_parse. Messages
 * name the option as the command line wrote it ("-bs: '4q' is not a
 * size...") or the job file and its line ("a.fio: line 3: ..."); so do
 * notes (rewritten in place). Returns 0 with *out, or -EINVAL with msg.
 */
int sb_fio_cmdline_jobs(struct sb_fio_cmdline *cl, const char *const *texts, const size_t *lens,
			const char *(*env)(const char *name), struct sb_jobfile **out, char *msg,
			size_t msglen);

/* Where line `line` of the combined text came from: "--name=x" or
 * "a.fio: line 3", into buf. */
const char *sb_fio_cmdline_where(const struct sb_fio_cmdline *cl, unsigned line, char *buf,
				 size_t len);

void sb_fio_cmdline_free(struct sb_fio_cmdline *cl);

#endif
