/*
 * Sudden power off (SPO) integrity: does the device keep what it
 * acknowledged as durable when the power goes? (METHODS.md section 9.)
 *
 * The writer fills blocks of --bs in storbench's verify format (lib/verify/
 * block.h) with 512-byte sectors, each carrying the run's id (the seed),
 * its own address and the generation of the write (a 64-bit sequence
 * number, one per write), and keeps an acknowledgement journal on another
 * medium: an INTENT record, on the journal's medium before the write is
 * submitted, and an ACK record once the write passed its durability point
 * (fsync/fdatasync return, O_DSYNC completion, or a flush covering it). A
 * canary region is written and flushed before the run begins.
 *
 * The journal is text, one record a line, each line written whole with one
 * write(2) and flushed before the write it covers counts:
 *
 *   storbench-spo-journal 1 run=HEX16 bs=N offset=N size=N canary=N
 *       sync=NAME rw=NAME iodepth=N start=UNIX_NS       (one line)
 *   I SEQ OFFSET T        intent: write SEQ of bs bytes at OFFSET
 *   A SEQ T               acknowledged: SEQ passed its durability point
 *   C T                   the cut: --cut-cmd was started
 *   E T                   the writer stopped by itself (--duration)
 *
 * T: nanoseconds since the run began (monotonic clock). The check reads
 * the journal strictly: a line that is not one of these is an error,
 * except the last one when it is torn (no newline: the cut interrupted
 * it), which is left out.
 */
#ifndef SB_SPO_H
#define SB_SPO_H

#include "lib/sb.h"

#include <sys/types.h>

#define SB_SPO_SECTOR 512u
#define SB_SPO_MAX_BS (1u << 20)
#define SB_SPO_MAX_DEPTH 64u
#define SB_SPO_JOURNAL_MAGIC "storbench-spo-journal"

enum sb_spo_sync { SB_SPO_FDATASYNC, SB_SPO_FSYNC, SB_SPO_DSYNC, SB_SPO_NONE };
enum sb_spo_rw { SB_SPO_RANDWRITE, SB_SPO_SEQWRITE, SB_SPO_MIXED };

/* "fdatasync", "fsync", "dsync", "none" and back (-1: unknown). */
const char *sb_spo_sync_name(int s);
int sb_spo_sync_parse(const char *s);
/* "randwrite", "write", "mixed" and back (-1: unknown). */
const char *sb_spo_rw_name(int rw);
int sb_spo_rw_parse(const char *s);

/* ---- the journal ---- */

/* The run a journal describes (its first line). */
struct sb_spo_header {
	uint64_t run_id;
	uint32_t bs;
	uint64_t offset, size; /* the region, bytes from the target's start */
	uint64_t canary;       /* bytes at the region's start written before the run */
	int sync, rw;
	unsigned iodepth;
	uint64_t start_unix_ns;
};

/* One write the journal announced. */
struct sb_spo_write {
	uint64_t seq, offset;
	uint64_t t_intent, t_ack; /* t_ack UINT64_MAX: never acknowledged */
};

struct sb_spo_journal {
	struct sb_spo_header h;
	struct sb_spo_write *w; /* in seq order */
	size_t nw;
	uint64_t nacked;
	uint64_t t_last; /* the last record's time */
	int cut_known;	 /* a C record */
	uint64_t t_cut;
	int ended;     /* an E record: the writer stopped by itself */
	int torn_tail; /* the last line was torn and left out */
	size_t lines;
};

/* Parse a journal held in memory (len bytes). 0, or -EINVAL with msg
 * naming the line and what is wrong, -ENOMEM. Free with
 * sb_spo_journal_free (also after a failure). */
int sb_spo_journal_parse(const char *buf, size_t len, struct sb_spo_journal *jn, char *msg,
			 size_t msglen);
/* The same for a file ("-": standard input), read whole. */
int sb_spo_journal_read(const char *path, struct sb_spo_journal *jn, char *msg, size_t msglen);
void sb_spo_journal_free(struct sb_spo_journal *jn);

/* ---- the writer ---- */

/* TARGET opened for the check, to read: O_DIRECT where the filesystem has
 * it, never through a symlink. The fd, or -errno. (The writer writes
 * through what the write gate gave, lib/target/gate.h.) */
int sb_spo_open(const char *path);

struct sb_spo_opts {
	int fd; /* the target, open O_RDWR (O_DIRECT where it works) */
	/* sb_spo_write_run: the journal, a new file made there (never
	 * overwritten) or "-" (standard output); NULL: journal_fd */
	const char *journal;
	int journal_fd;	  /* where records go */
	int journal_sync; /* fdatasync the journal after each record (a file;
			     sb_spo_write_run: from what the journal is) */
	uint64_t run_id;
	uint32_t bs;
	uint64_t offset, size, canary;
	int sync, rw;
	unsigned iodepth;
	uint64_t flush_writes;	/* fsync/fdatasync every N writes (1: each) */
	uint64_t flush_ns;	/* or at least every N ns (0: by count only) */
	uint64_t duration_ns;	/* 0: until stopped */
	uint64_t start_unix_ns; /* for the header */
	/* polled between writes: non-zero stops the run */
	int (*stop)(void *ctx);
	void *stop_ctx;
	/* sb_spo_write_run: the cut at a random time in [cut_min_ns, cut_max_ns]
	 * after the start (0 0: none) */
	uint64_t cut_min_ns, cut_max_ns;
};

struct sb_spo_run;
/* Validate o, write the journal's header and the canary (flushed). 0 or
 * -errno with msg. */
int sb_spo_run_create(struct sb_spo_run **out, const struct sb_spo_opts *o, char *msg,
		      size_t msglen);
/* Write until stopped, o->duration_ns or an error: 0 (stopped, or the
 * duration ran out) or -errno with msg (a write, a flush or the journal
 * failed). Starts iodepth threads and waits for them. */
int sb_spo_run_go(struct sb_spo_run *r, char *msg, size_t msglen);
/* Record the cut (C) in the journal now: called from another thread just
 * before the power is cut. 0 or -errno. */
int sb_spo_run_mark_cut(struct sb_spo_run *r);
/* Counters, readable while it runs. */
struct sb_spo_counts {
	uint64_t writes, acked, reads, flushes, bytes;
	uint64_t elapsed_ns;
};
void sb_spo_run_counts(const struct sb_spo_run *r, struct sb_spo_counts *c);
void sb_spo_run_free(struct sb_spo_run *r);

/* The writer as one call (spo_run.c, sb_spo_write_run): what the
 * program hears of as it writes; each may be NULL. */
struct sb_spo_hooks {
	void *ctx;
	/* Polled between writes, from the writer threads: non-zero stops it
	 * (the result interrupted). */
	int (*stop)(void *ctx);
	/* Every 20 ms while it writes, with the counts so far. */
	void (*progress)(void *ctx, const struct sb_spo_counts *c);
	/* The cut's moment came (the C record is in the journal): cut the
	 * power; its status (0..255, 128+N for a signal) or -errno. */
	int (*cut)(void *ctx);
	/* What is said as it happens: the cut returned and the writer runs
	 * on. */
	void (*note)(void *ctx, const char *msg);
};
struct sb_spo_result {
	int started;		/* the journal's header and the canary were written */
	struct sb_spo_counts c; /* what the writer did */
	int cut_rc;		/* the cut hook's status; -1: no cut came */
	int interrupted;	/* stop asked */
};
/* Makes the journal (o->journal: a new file, or "-"; never on the target:
 * SB_ERR_INPUT), validates o, writes the journal's header and the canary
 * (flushed), then writes until o->duration_ns, h's stop, or the cut: with
 * o->cut_max_ns, at a random time in [cut_min_ns, cut_max_ns] from the
 * start the cut is recorded in the journal, h->cut runs, and the writer,
 * still alive, is stopped (o->stop is the run's own: h->stop is polled).
 * coord: NULL (one process). 0, or -errno with err: the journal cannot be
 * made (SB_ERR_INPUT when it exists) or closed, a bad option
 * (SB_ERR_INPUT), what the writer could not start with, a write, flush or
 * journal that failed before any cut (SB_ERR_FAIL; out->started, out->c
 * say how far it got). */
struct sb_coord;
int sb_spo_write_run(const struct sb_spo_opts *o, const struct sb_spo_hooks *h,
		     struct sb_coord *coord, struct sb_spo_result *out, struct sb_error *err);

/* ---- commands (spo_shell.c) ---- */

/* Start CMD with sh -c, its standard input and output as given (-1:
 * this process's), in a process group of its own when group: 0 with
 * *pid, or -errno. */
int sb_spo_spawn(const char *cmd, int in_fd, int out_fd, int group, pid_t *pid);
/* Wait for pid: its exit status (0..255, 128+N for a signal) or -errno. */
int sb_spo_wait(pid_t pid);
/* Both: CMD run to its end. */
int sb_spo_shell(const char *cmd, int in_fd, int out_fd);
/* Append 'arg' to the command line buf (len bytes), quoted for sh (a '
 * inside closed, escaped and reopened). */
void sb_spo_sh_quote(char *buf, size_t len, const char *arg);
/* What --cycles' writer and check are given, as the program was. */
struct sb_spo_cmd_args {
	const char *self;   /* the program, on the host the commands run on */
	const char *remote; /* NULL, or the prefix that runs a command there
			     * (ssh HOST): the command is its one argument */
	const char *target;
	uint32_t bs;
	unsigned iodepth;
	int rw, sync; /* enum sb_spo_rw, sb_spo_sync_name's */
	uint64_t flush_writes, flush_ns, canary, offset, size;
	int flush_writes_given, flush_ns_given, size_given; /* else left out */
	uint32_t allow_torn;				    /* the check's (0: left out) */
};
/* The writer's and the check's sh command lines into writer and check
 * (SB_SPO_CMD_LEN bytes each). 0, or -E2BIG with err when one is too long. */
int sb_spo_commands(const struct sb_spo_cmd_args *a, char *writer, char *check,
		    struct sb_error *err);

/* ---- the check ---- */

enum sb_spo_class {
	SB_SPO_OK,	    /* the last acknowledged generation */
	SB_SPO_OK_UNACKED,  /* in flight at the cut: old or new, all sectors alike */
	SB_SPO_LOST_ACKED,  /* older than the last acknowledged generation */
	SB_SPO_TORN,	    /* sectors of one write with mixed generations */
	SB_SPO_MISDIRECTED, /* a block written for another address */
	SB_SPO_CORRUPT,	    /* bad checksum, or a generation never announced */
	SB_SPO_UNREADABLE,  /* the read failed */
	SB_SPO_COLLATERAL,  /* the canary region changed */
	SB_SPO_NCLASS,
};
/* "ok", "ok-unacked", "lost-acked", ... ("?" out of range). */
const char *sb_spo_class_name(int cls);

struct sb_spo_range {
	uint64_t offset, length;
	int cls;
};

/* A lost acknowledged write: where, and how long before the cut its
 * acknowledgement came. */
struct sb_spo_lost {
	uint64_t offset, seq, found_seq; /* found_seq 0: not a block of this run */
	uint64_t ack_to_cut_ns;
};

/* ack-to-cut histogram: < 1 ms, < 10 ms, < 100 ms, < 1 s, < 10 s, >= 10 s */
#define SB_SPO_HIST_N 6
extern const char *const sb_spo_hist_label[SB_SPO_HIST_N];
/* The bucket of an ack-to-cut time in ns. */
unsigned sb_spo_hist_bucket(uint64_t ns);

#define SB_SPO_REC_MAX 12
struct sb_spo_check {
	struct sb_spo_header h;
	uint64_t writes, acked; /* in the journal */
	uint64_t blocks;	/* blocks checked (journal slots + canary) */
	uint64_t canary_blocks;
	uint64_t count[SB_SPO_NCLASS];
	uint64_t torn_allowed; /* mixed only between --allow-torn units: ok-unacked */
	uint32_t allow_torn;   /* 0: none */
	int cut_known;	       /* the journal recorded the cut; else t_cut is its last record */
	uint64_t t_cut;
	int torn_tail;
	uint64_t hist[SB_SPO_HIST_N];
	struct sb_spo_range *ranges;
	size_t nranges, max_ranges;
	uint64_t ranges_omitted;
	struct sb_spo_lost *lost; /* the first max_lost */
	size_t nlost, max_lost;
	/* a file that ends before the journal's region (it lost its tail):
	 * its size; what is past it is old content (lost-acked where a write
	 * was acknowledged, collateral in the canary) */
	int short_target;
	uint64_t target_size;
	uint64_t missing_blocks; /* blocks (slots and canary) not all there */
	uint64_t lost_missing;	 /* lost-acked blocks among them */
	uint64_t own_sectors;	 /* sectors of the journal's run found */
	uint64_t other_run;	 /* the first other run whose block was found, 0 none */
	int pass;
	const char *rec[SB_SPO_REC_MAX]; /* recommendations, static strings */
	unsigned nrec;
};

/* Read every block the journal mentions and the canary from fd (the
 * target), classify. max_ranges: ranges listed at most; allow_torn: the
 * atomic unit the device promises (0: none). A file that ends before the
 * region is checked as far as it goes, what is past its end is old
 * content, when it holds blocks of the journal's run; without one it is
 * another target: -EINVAL, msg says what it holds. 0 or -errno with msg;
 * the verdict is c->pass. Free with sb_spo_check_free. */
int sb_spo_classify(int fd, const struct sb_spo_journal *jn, uint32_t allow_torn,
		    size_t max_ranges, struct sb_spo_check *c, char *msg, size_t msglen);
void sb_spo_check_free(struct sb_spo_check *c);

/* The check as one call (spo_check_run.c): the journal read strictly, the
 * target the caller opens (after the journal, so that what is wrong with
 * the journal is said first) read back and classified. */
struct sb_spo_check_opts {
	const char *journal; /* its file; "-": standard input */
	const char *target;  /* as named, for messages */
	uint32_t allow_torn; /* the atomic unit the device promises (0: none) */
	size_t max_ranges;   /* ranges listed at most */
};
/* The target opened to read (sb_spo_open). */
struct sb_spo_target {
	int fd;
	int device;    /* a block device: it does not shrink, the region must fit */
	uint64_t size; /* bytes */
};
struct sb_spo_check_hooks {
	void *ctx;
	/* the journal is read: open the target into t; non-zero: the check
	 * does not run, sb_spo_check_run returns -ECANCELED (SB_ERR_ENV,
	 * nothing in err->msg: the hook said why). Required. */
	int (*target)(void *ctx, struct sb_spo_target *t);
	/* what is said as it happens: the journal's torn last line left out */
	void (*note)(void *ctx, const char *msg);
};
/* 0 with out filled (the verdict out->pass; free it with
 * sb_spo_check_free), or -errno with err: the journal or the options
 * (SB_ERR_INPUT: a journal that cannot be read or is not one, a region
 * beyond a device's end, a target that holds another run), the target
 * cannot be read (SB_ERR_ENV). The caller closes t.fd. coord: NULL. */
struct sb_coord;
int sb_spo_check_run(const struct sb_spo_check_opts *o, const struct sb_spo_check_hooks *h,
		     struct sb_coord *coord, struct sb_spo_check *out, struct sb_error *err);

/* ---- its results ---- */

/* The results' "spo" section (spo_json.c): what a check found, its fields
 * written at the current level of j (the cycles log embeds them too); c
 * must outlive res. */
struct sb_json;
struct sb_results;
void sb_spo_check_json(struct sb_json *j, const struct sb_spo_check *c);
void sb_results_spo(struct sb_results *res, const struct sb_spo_check *c);

/* The "spo" section read back (spo_read.c): c as the check filled it, but
 * for what is not written (max_lost and max_ranges are the lists' lengths;
 * lost_missing, own_sectors, other_run 0); c.rec point into rec_text. A
 * section before target_size and missing_blocks were written reads as
 * a target that did not end short. */
struct sb_jv;
struct sb_spo_doc {
	struct sb_spo_check c;
	char *rec_text[SB_SPO_REC_MAX];
};
/* Reads section (storbench.spo) into out, each value's type and range
 * checked: 0, or -EINVAL with err->msg naming the key path of what is
 * wrong ("ranges[2].class: expected ..."), -ENOMEM. Free out with
 * sb_spo_doc_free (also after a failure). */
int sb_spo_read(const struct sb_jv *section, struct sb_spo_doc *out, struct sb_error *err);
void sb_spo_doc_free(struct sb_spo_doc *d);

/* ---- the cycles (spo_cycles.c) ---- */

#define SB_SPO_CMD_LEN 8192

/* The controlling host's loop: N cycles of write, cut, reconnect, check,
 * one record each in a JSON Lines log. */
struct sb_spo_cycles_opts {
	const char *log;    /* the log, resumed when it exists; journals go to LOG.N.journal */
	const char *target; /* as named: the log's header says it, a resumed log must */
	/* sh command lines (at most SB_SPO_CMD_LEN bytes): the writer writes
	 * its journal to its standard output; the check reads the journal on
	 * its standard input and writes its JSON results (with the "spo"
	 * section) to its standard output, its exit status 0 (pass) or 1
	 * (fail); the reconnection succeeds once the board is back */
	const char *writer_cmd, *check_cmd, *reconnect_cmd;
	const char *cut_cmd; /* for the log's header: the cut is the hook's */
	uint64_t cycles;     /* the last cycle (a resumed log starts after its last) */
	uint32_t bs;	     /* for the log's header */
	uint64_t cut_min_ns, cut_max_ns; /* the cut at a random time in [min, max) */
	uint64_t reconnect_timeout_ns;
};

/* A cycle that ran to its check. */
struct sb_spo_cycle {
	uint64_t n, of;
	int pass;
	uint64_t cut_after_ns;
	const struct sb_spo_check *check; /* what the check found (as read back) */
};

struct sb_spo_cycles_hooks {
	void *ctx;
	/* polled while the writer runs and between reconnections: non-zero
	 * kills the writer and ends the run interrupted */
	int (*stop)(void *ctx);
	/* the log is open (its header written, or read and resumed): the
	 * first cycle comes */
	void (*started)(void *ctx);
	/* the cut's moment came: cut the power; the writer runs in process
	 * group writer_pgid (a fake cut kills it) */
	void (*cut)(void *ctx, int writer_pgid);
	/* a cycle's record is in the log */
	void (*cycle)(void *ctx, const struct sb_spo_cycle *cy);
	/* what a person is told as it happens: a note (the log resumed), an
	 * error besides the run's err (the log could not take a cycle's
	 * error) */
	void (*note)(void *ctx, const char *msg);
	void (*error)(void *ctx, const char *msg);
};

struct sb_spo_cycles_result {
	uint64_t resumed;     /* cycles the log held before (0: a new log) */
	uint64_t done;	      /* cycles in the log now */
	uint64_t failed;      /* cycles that failed, the log's earlier ones too */
	uint64_t first_fail;  /* 0: none */
	uint64_t error_cycle; /* the cycle whose error ended the run (logged), 0 none */
	int interrupted;      /* stop asked */
};

/* ---- the cycles log, written and read back (spo_cycles_read.c) ---- */

/* A cycle's record keeps at most this many lost writes' ack-to-cut times
 * (its histogram counts them all). */
#define SB_SPO_CYCLE_LOST_MAX 100

/* The log's first line: the run's settings. Strings point into what was
 * read (or what the writer is given). */
struct sb_spo_cycles_header {
	uint64_t log_version;
	const char *storbench; /* the version that made the log */
	const char *target, *writer, *check, *cut_cmd;
	uint64_t cycles, bs, cut_min_ns, cut_max_ns, started_unix_ns;
};
/* A cycle that ran to its check, as its line keeps it. */
struct sb_spo_cycle_rec {
	uint64_t n, of; /* of 0: a log from before it was written */
	uint64_t unix_ns, cut_after_ns;
	int pass;
	int has_counts; /* writes and acknowledged written (a check that had them) */
	uint64_t writes, acked;
	uint64_t count[SB_SPO_NCLASS]; /* blocks per class (0: not written) */
	int has_hist; /* 0: a log from before the histogram: the times only */
	uint64_t hist[SB_SPO_HIST_N];
	uint64_t lost_ns[SB_SPO_CYCLE_LOST_MAX]; /* the first lost writes' ack-to-cut */
	size_t nlost;
};
/* What a line of the log is. */
enum sb_spo_cycles_kind {
	SB_SPO_LINE_OTHER,  /* none of these: not the log's */
	SB_SPO_LINE_HEADER, /* "spo_cycles" */
	SB_SPO_LINE_CYCLE,  /* "cycle" */
	SB_SPO_LINE_ERROR,  /* "cycle_error": a cycle that could not run */
};
struct sb_spo_cycles_line {
	enum sb_spo_cycles_kind kind;
	struct sb_spo_cycles_header h;
	struct sb_spo_cycle_rec cy;
	uint64_t error_cycle; /* SB_SPO_LINE_ERROR: the cycle, and why */
	const char *error;
};
/* The record of a cycle from what its check found. */
void sb_spo_cycle_rec_of(struct sb_spo_cycle_rec *r, uint64_t n, uint64_t of, uint64_t unix_ns,
			 uint64_t cut_after_ns, int pass, const struct sb_spo_check *c);
/* Each line's members, written at the current level of j (the caller
 * opens and closes the line's object). */
void sb_spo_cycles_header_json(struct sb_json *j, const struct sb_spo_cycles_header *h);
void sb_spo_cycle_json(struct sb_json *j, const struct sb_spo_cycle_rec *r);
void sb_spo_cycle_error_json(struct sb_json *j, uint64_t n, const char *why);
/* One line of the log read back into out (its strings point into line),
 * each value's type and range checked: 0 (out->kind SB_SPO_LINE_OTHER for
 * a line that is none of the log's), or -EINVAL with err->msg naming the
 * key path of what is wrong ("classes.torn: expected ..."). Nothing to
 * free. */
int sb_spo_cycles_read(const struct sb_jv *line, struct sb_spo_cycles_line *out,
		       struct sb_error *err);

/* Runs cycles from the one after the log's last to o->cycles. coord: NULL
 * (one process). 0 when every cycle ran (out->first_fail says whether one
 * failed), or -errno with err: the log cannot be used (SB_ERR_INPUT, as
 * cannot be opened or is another target's; SB_ERR_ENV: it cannot be
 * written), a cycle's error (SB_ERR_ENV: logged, out->error_cycle), a stop
 * (SB_ERR_STOPPED, out->interrupted). */
struct sb_coord;
int sb_spo_cycles_run(const struct sb_spo_cycles_opts *o, const struct sb_spo_cycles_hooks *h,
		      struct sb_coord *coord, struct sb_spo_cycles_result *out,
		      struct sb_error *err);

#endif
