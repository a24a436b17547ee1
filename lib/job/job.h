/*
 * The job model: what one workload does. Filled from options (cli) and
 * checked here, before anything is created or written.
 */
#ifndef SB_JOB_H
#define SB_JOB_H

#include "lib/sb.h"
#include "lib/base/units.h"
#include "lib/job/offsets.h"
#include "lib/job/segments.h"
#include "lib/engine/engine.h"

#define SB_CPUS_MAX 1024 /* CPUs fio's cpus_allowed can name */
#define SB_IGNORE_MAX 8	 /* errnos of an ignore_error list */
#define SB_PRIO_MAX 4	 /* I/O priorities a direction's requests may carry */
#define SB_CMDPRIO_SPLIT_MAX 16 /* entries of a direction's cmdprio_bssplit */

/* one entry of fio's cmdprio_bssplit: pct percent of the requests of bs
 * bytes go with prio (SB_CMDPRIO_IMPLICIT: cmdprio_class and cmdprio's) */
#define SB_CMDPRIO_IMPLICIT 0xffffu
struct sb_cmdprio_split {
	uint32_t bs;
	unsigned pct;
	unsigned prio;
};

enum sb_rw {
	SB_RW_READ,
	SB_RW_WRITE,
	SB_RW_RANDREAD,
	SB_RW_RANDWRITE,
	SB_RW_RW,
	SB_RW_RANDRW,
	SB_RW_TRIM,
	SB_RW_RANDTRIM,
	/* fio's trimwrite, randtrimwrite: each block trimmed, then written at
	 * the same offset with the same length */
	SB_RW_TRIMWRITE,
	SB_RW_RANDTRIMWRITE,
};

enum sb_sync {
	SB_SYNC_NONE,
	SB_SYNC_DSYNC,
	SB_SYNC_SYNC,
};

/* fio's fadvise_hint: the advice given on a job's files as they open
 * (posix_fadvise over its region): none, by the job's pattern (random
 * or sequential), or the one named. */
enum sb_fadvise {
	SB_FADV_NONE,
	SB_FADV_TYPE,
	SB_FADV_RANDOM,
	SB_FADV_SEQUENTIAL,
	SB_FADV_NOREUSE,
};

/* Which failed requests a run survives (counted, reported, exit 1). */
enum sb_continue {
	SB_CONTINUE_NONE,
	SB_CONTINUE_READ,
	SB_CONTINUE_WRITE,
	SB_CONTINUE_ALL,
};

/* fio's log files (write_bw_log and the like, from job files): which,
 * named how, and fio's options for them (docs/jobfiles.md, "Log files"). */
enum sb_fiolog_kind {
	SB_FIOLOG_BW,
	SB_FIOLOG_IOPS,
	SB_FIOLOG_LAT, /* write_lat_log: lat, clat and slat files */
	SB_FIOLOG_HIST,
	SB_FIOLOG_KINDS,
};

struct sb_fiolog_opts {
	unsigned on;			   /* 1u << enum sb_fiolog_kind */
	char prefix[SB_FIOLOG_KINDS][256]; /* "": the job's name, as fio */
	unsigned avg_ms;		   /* log_avg_msec: 0 logs every I/O */
	unsigned hist_ms;		   /* log_hist_msec: 0 writes no histograms */
	unsigned hist_coarse;		   /* log_hist_coarseness, 0..6 */
	int offset;			   /* log_offset: an offset column */
	int max;			   /* log_max_value: the window's max, not mean */
	int shared;			   /* per_job_logs=0: one file, no .N */
	int prio;			   /* log_prio: the ioprio in hex, not the RT flag */
	int no_lat, no_clat, no_slat;	   /* disable_lat and the like: no such file */
	unsigned jobnum; /* fio's number of the job's first thread (1-based); 0: 1 */
	/* bwavgtime, iopsavgtime: the windows of the bw and iops samples (ms;
	 * 0: not given, 500 or with its log log_avg_msec, as fio) */
	unsigned bw_avg_ms, iops_avg_ms;
};

struct sb_iolog;

struct sb_job_opts {
	char name[64];
	enum sb_rw rw;
	unsigned rwmixread; /* percent of reads in rw/randrw */
	uint32_t bs;
	unsigned nbssplit; /* 0: bs alone */
	struct sb_bssplit bssplit[SB_BSSPLIT_MAX];
	/* fio's bssplit=READ,WRITE (job files): the writes' own split when
	 * a job that reads and writes has one that differs from bssplit,
	 * which is then the reads' (nbssplit at least 1); 0: bssplit (or
	 * bs) for both */
	unsigned nwbssplit;
	struct sb_bssplit wbssplit[SB_BSSPLIT_MAX];
	uint64_t size; /* region size; 0 = whole target */
	uint64_t offset;
	unsigned size_pct;   /* size=N%: N percent of the file or device; 0: size */
	unsigned offset_pct; /* offset=N%: likewise */
	unsigned iodepth;
	unsigned batch_complete; /* completions to wait for when the queue is full; 0: auto */
	unsigned numjobs;
	char engine[16]; /* "" = choose */
	int direct;
	int direct_given;     /* --direct was set by the user, not defaulted */
	uint64_t runtime_ns;  /* 0 = until size is done */
	int time_based;	      /* loop over the region until runtime */
	int norandommap;      /* fio's: random offsets drawn afresh, last block whole */
	uint64_t ramp_ns;     /* run, unmeasured, before measuring */
	unsigned fsync_every; /* fsync after every N writes, 0 never */
	unsigned fdatasync_every; /* fdatasync after every N writes, 0 never */
	int end_fsync;	      /* fsync at the end, inside the timing */
	enum sb_sync sync;
	uint64_t seed;
	uint64_t rate_bps; /* per job, 0 unlimited */
	/* fio's rate=READ,WRITE: a cap on each direction alone (0: none) */
	uint64_t rate_dir_bps[2];
	/* requests per second, reads and writes each (fio's rate_iops=N; 0:
	 * none); rate_iops_dir, fio's rate_iops=READ,WRITE, when either is set */
	uint64_t rate_iops;
	uint64_t rate_iops_dir[2];
	/* fio's rate_process=poisson (job files): the capped requests at a
	 * Poisson process's arrivals, exponential gaps of the same mean rate;
	 * 0: evenly (fio's linear) */
	int rate_poisson;
	/* fio's steadystate, ss_dur, ss_ramp (job files): ss_dur_s 0 none;
	 * else the job (with group_reporting its report group) ends once
	 * ss_flags' criterion (SB_SS_* of lib/stats/fio_ss.h) is below
	 * ss_limit over the last ss_dur_s one-second figures, those taken
	 * from ss_ramp_ns + 1 s on (fio's steadystate_check) */
	/* fio's fill_device (fill_fs; job files): a write on a full file
	 * system (ENOSPC, EDQUOT, or short) ends the job as done, not as an
	 * error; a new file without size= is as large as the space free */
	int fill_device;
	/* fio's latency_target (job files): 0 none; else the depth is
	 * searched from 1 up to iodepth for the deepest at which
	 * latency_percentile of the requests of each latency_window_us
	 * complete within latency_target_ns (lib/stats/lat_target.h);
	 * latency_run: never settle */
	uint64_t latency_target_ns, latency_window_us;
	double latency_percentile; /* 0: fio's default, 100 */
	int latency_run;
	unsigned ss_flags;
	double ss_limit;
	unsigned ss_dur_s;
	uint64_t ss_ramp_ns;
	/* fio's rate_min and rate_iops_min (job files): each direction's
	 * floor, bytes (requests) per second over every ratecycle_ms (0:
	 * 1000) once the job has measured 2 s; a job below it ends with EIO,
	 * as fio's check_min_rate (0: none) */
	uint64_t ratemin_bps[2], ratemin_iops[2];
	unsigned ratecycle_ms;
	/* fio's exitall with exit_what (job files): when the first of the
	 * job's threads ends, the jobs running with it that exit_what names
	 * stop: those of its report group (fio's groupid, exit_group), or
	 * every one (stonewall, all); SB_EXIT_NONE: no exitall */
	unsigned exit_what, exit_group;
	/* fio's cpus_allowed, cpumask (job files): the CPUs the job's threads
	 * run on (none set: any); cpus_split, cpus_allowed_policy=split:
	 * each thread one of them in turn, by fio's thread number */
	uint64_t cpus[SB_CPUS_MAX / 64];
	int cpus_split;
	/* fio's numa_cpu_nodes and numa_mem_policy (job files): the nodes
	 * whose CPUs the job's threads run on in place of cpus (0: none), as
	 * fio's numa_run_on_node_mask; the memory policy (enum sb_mpol) of
	 * its threads and their buffers, over numa_mem_nodes */
	uint64_t numa_cpu_nodes, numa_mem_nodes;
	unsigned numa_mem_mode;
	/* fio's prio and prioclass (job files): the threads' I/O priority
	 * (ioprio_set), and every request's that cmdprio does not choose;
	 * prio_given 0: none set */
	int prio_given;
	unsigned prioclass, prio;
	/* fio's cmdprio_percentage, cmdprio_class, cmdprio (libaio and
	 * io_uring; READ,WRITE each): the share of a direction's requests
	 * sent with class (0: RT, fio's default) and level cmdprio instead */
	unsigned cmdprio_pct[2], cmdprio_class[2], cmdprio[2];
	/* fio's cmdprio_bssplit (in place of cmdprio_percentage): each
	 * direction's entries by block size, in fio's order */
	struct sb_cmdprio_split cmdprio_split[2][SB_CMDPRIO_SPLIT_MAX];
	unsigned ncmdprio_split[2];
	enum sb_dist dist; /* for random patterns: UNIFORM, ZIPF, PARETO or ZONED */
	double dist_param;
	struct sb_zones zones;	  /* SB_DIST_ZONED */
	unsigned buffer_compress; /* percent */
	/* fio's dedupe_percentage, dedupe_mode, dedupe_working_set_percentage
	 * and dedupe_global (job files): that share of the write buffers
	 * repeats one made before, the last unique one (repeat) or one of a
	 * working set of dedupe_ws_pct of the job's size, each job's own or
	 * (dedupe_global) spread over the file's dedupe_threads threads, as
	 * fio's get_buf_state; 0: every buffer its own */
	unsigned dedupe_pct, dedupe_ws_pct, dedupe_threads;
	int dedupe_ws, dedupe_global;
	/* fio's buffer_pattern: every write buffer holds it, repeated from
	 * the buffer's start (buffer_pattern_len 0: none) */
	uint8_t buffer_pattern[512];
	unsigned buffer_pattern_len;
	enum sb_continue continue_on_error;
	/* fio's ignore_error=READ,WRITE lists (job files): a direction with a
	 * list survives only its errnos (nignore[0] reads', [1] writes') */
	int ignore_err[2][SB_IGNORE_MAX];
	unsigned nignore[2];
	uint64_t log_interval_ns;
	uint64_t io_size;	/* bytes per loop; 0: size */
	unsigned loops;		/* passes over io_size (or size), at least 1 */
	uint64_t number_ios;	/* stop after this many requests; 0: no limit */
	uint64_t startdelay_ns; /* wait this long before starting */
	int invalidate;		/* drop the region's page cache before each loop */
	enum sb_fadvise fadvise; /* fio's fadvise_hint (job files: SB_FADV_TYPE, as fio) */
	int gtod_reduce;	/* fio's gtod_reduce=1: no latency kept, bw and iops only */
	/* fio's group_reporting (a stonewall group's jobs reported as one)
	 * and thread (threads, not processes: "Starting N threads"): job
	 * files only; what storbench fio prints, nothing of the run */
	int group_reporting, thread;
	unsigned batch_submit;	/* submit once this many are queued; 0: iodepth */
	/* fio's rules for a new file (job files): it needs a size, and
	 * offset= makes it offset + size long */
	int fio_new_file;
	/* fio's verify=NAME from a job file (md5, crc32c, meta, ...): the job
	 * is verified as run --verify does, with storbench's own block
	 * format, and NAME is recorded; "" for none */
	char fio_verify[16];
	/* fio's do_verify=0 with verify=NAME: the job writes verify blocks
	 * (a later job's verify= reads them back) and checks nothing */
	int fio_verify_nocheck;
	/* fio's verify_state_save=1 (given: storbench writes no state file
	 * unasked) and verify_state_load=1: lib/verify/verify_state.h */
	int verify_state_save, verify_state_load;
	/* fio's nrfiles, filesize, file_service_type and blockalign (job
	 * files): files per job in a directory (0 or 1: one), each of
	 * filesize_lo..filesize_hi bytes (0: size split evenly), which file
	 * serves the next request (SB_FSERVICE_*) and after how many
	 * (file_service_nr, 0: 1), random offsets aligned to blockalign
	 * bytes instead of the block size (0) */
	unsigned nrfiles;
	/* fio's filename=a:b:c (job files): the job's files, each name
	 * NUL-ended one after the other (sb_job_filename_list), nfilenames of
	 * them (0: no list; a list is 2 or more, nrfiles then as many) */
	char filenames[4096];
	unsigned nfilenames;
	/* fio's filename_format (job files): the names of the job's files in
	 * its directory, $jobname, $jobnum and $filenum (and $clientuid,
	 * empty here) replaced as fio's make_filename; "": JOB.JOBNUM.FILENUM
	 * with nrfiles, a name of storbench's own without */
	char filename_format[256];
	/* fio's stat_type= of its filestat engine (enum sb_stat_type: 0
	 * stat, lstat, statx) */
	unsigned stat_type;
	/* fio's donorname= and inplace= of its e4defrag engine: the donor, a
	 * plain name beside the job's file ("": none) */
	char donorname[256];
	unsigned inplace;
	uint64_t filesize_lo, filesize_hi;
	/* fio's offset_increment (job files): clone k of the numjobs works
	 * on [offset + k * offset_increment, + size), size then being the
	 * span of all of them (the job file's size + (numjobs - 1) *
	 * offset_increment); 0: the clones share one region */
	uint64_t offset_increment;
	unsigned file_service;
	unsigned file_service_nr;
	uint32_t blockalign;
	/* fio's rw=read:N (job files): sequential requests N bytes apart
	 * after each (holes), or, negative, stepping back; 0: none */
	int64_t seq_add;
	/* fio's zonemode=strided (job files, sequential only): of each
	 * zone_size + zone_skip bytes of the region, the first zone_size are
	 * moved; zone_size 0: none */
	uint64_t zone_size, zone_skip;
	/* fio's zonemode=zbd (job files) on a target that reports no zones:
	 * zones of zbd_zone_size emulated, each written at its write pointer
	 * (lib/run/zbd.h); zbd 0: none */
	struct sb_zbd_opts {
		int on;
		uint64_t zone_size, zone_cap; /* zone_cap 0: the zone size */
		unsigned max_open, job_max_open; /* 0: no limit */
		double reset_threshold, reset_frequency;
		int read_beyond_wp;
	} zbd;
	/* fio's thinktime (job files): a stall of thinktime_ns after every
	 * thinktime_blocks requests (0: 1), the ones in flight reaped first */
	uint64_t thinktime_ns;
	unsigned thinktime_blocks;
	/* fio's flow (job files): the jobs running together with the same
	 * flow_id issue requests in proportion to their flow weights (0: not
	 * in a flow); one held back stalls flow_sleep_ns */
	unsigned flow, flow_id;
	uint64_t flow_sleep_ns;
	/* random patterns only: offsets confined to these segments of the
	 * region (PTS-C's active-range segments); NULL: the whole region.
	 * The caller owns them; they outlive the run. */
	const struct sb_segments *segments;
	struct sb_fiolog_opts fiolog;
	/* fio's write_iolog (job files): every request as it is issued, in
	 * fio's I/O log (version 3, as fio 3.33 writes it); "": none */
	char write_iolog[256];
	/* fio's read_iolog (job files) and its replay_* options: the log,
	 * the file it is replayed on instead of its own, no pause between
	 * requests, the pace in percent (0: 100), offsets divided by
	 * replay_scale and rounded down to replay_align (0: neither); the
	 * log itself once read (lib/job/iolog.h, sb_jobfile_iologs), NULL:
	 * the job makes its own requests */
	char read_iolog[256];
	char replay_redirect[256];
	int replay_no_stall;
	unsigned replay_time_scale;
	uint64_t replay_scale, replay_align;
	const struct sb_iolog *replay;
	/* fio's cpuio and exec engines' options (job files) */
	struct sb_cpuio_opts cpuio;
	struct sb_exec_opts exec;
};

enum sb_exit_what { SB_EXIT_NONE, SB_EXIT_GROUP, SB_EXIT_STONEWALL, SB_EXIT_ALL };

/* fio's file_service_type: which of a job's files serves the next request */
enum sb_fservice {
	SB_FSERVICE_RR,	    /* roundrobin: the next file after file_service_nr */
	SB_FSERVICE_SEQ,    /* sequential: one file until it is done */
	SB_FSERVICE_RANDOM, /* random: any file not done, after file_service_nr */
};
#define SB_JOB_MAX_NRFILES 256
/* an engine that works on its files by name and holds none open
 * (filecreate, filestat, filedelete): a bit a file of memory, and for
 * those laid out, their inode numbers */
#define SB_JOB_MAX_NRFILES_MADE (1u << 24)

void sb_job_opts_default(struct sb_job_opts *o);

/* Parse the value of a named job option ("rw", "bs", "size", ...) into o.
 * Returns 0, -ENOENT for an unknown name, -EINVAL for a bad value; in the
 * latter case hint gets what the option accepts. */
int sb_job_set(struct sb_job_opts *o, const char *name, const char *value, char *hint,
	       size_t hintlen);

/* Consistency of the whole job (bs > size, iodepth 0, ...). On failure
 * returns -EINVAL and writes "--opt: what is wrong" into msg. */
int sb_job_check(const struct sb_job_opts *o, char *msg, size_t msglen);
/* How many files the job may have (part of sb_job_check, and of a job
 * file's read, so that --parse-only refuses what the run would): nrfiles
 * up to the engine's limit, and in a directory (in_dir) at most
 * SB_JOB_MAX_NRFILES for every clone together where the engine holds
 * each file open. 0, or -EINVAL with msg. */
int sb_job_nrfiles_check(const struct sb_job_opts *o, int in_dir, char *msg, size_t msglen);

const char *sb_rw_name(enum sb_rw rw);
int sb_rw_is_random(enum sb_rw rw);
int sb_rw_reads(enum sb_rw rw);	 /* 1 when the pattern reads */
int sb_rw_writes(enum sb_rw rw); /* 1 when it writes (trim counts) */
int sb_rw_trims(enum sb_rw rw);	 /* 1 when it trims (trimwrite too) */
uint32_t sb_job_max_bs(const struct sb_job_opts *o);
uint32_t sb_job_min_bs(const struct sb_job_opts *o);
/* The request sizes a job names, reads' and writes' (repeats and all):
 * how many, and the i-th */
unsigned sb_job_nsizes(const struct sb_job_opts *o);
uint32_t sb_job_size(const struct sb_job_opts *o, unsigned i);
/* The split of a direction's request sizes (d: 0 reads, 1 writes and
 * trims) into *n entries; NULL with *n 0: bs alone */
const struct sb_bssplit *sb_job_split(const struct sb_job_opts *o, int d, unsigned *n);

/* fio's ioprio_value: class << 13 | level, class 0 taken as best effort;
 * the job's own (prio, prioclass; 0 when not given) and the one cmdprio
 * gives a direction's requests (d: 0 reads, 1 writes) */
unsigned sb_ioprio_value(unsigned cls, unsigned level);
unsigned sb_job_ioprio(const struct sb_job_opts *o);
unsigned sb_job_cmdprio(const struct sb_job_opts *o, int d);
/* The priority of cmdprio_bssplit's entry e of direction d */
unsigned sb_job_split_prio(const struct sb_job_opts *o, int d, const struct sb_cmdprio_split *e);
/* whether the job's requests carry priorities fio keeps latencies by */
int sb_job_has_prio(const struct sb_job_opts *o);

/* The name of file filenum of clone jobnum (both from 0) of the job in its
 * directory, as fio's make_filename: filename_format's keywords replaced
 * (matched in any case), or JOB.JOBNUM.FILENUM. 0, -EINVAL for a name that
 * is not a file inside the directory (empty, ., .., or with a '/'), or
 * -ENAMETOOLONG. */
int sb_job_file_name(const struct sb_job_opts *o, unsigned jobnum, unsigned filenum, char *buf,
		     size_t len);

/* fio's filename= list: names separated by ':', a ':' inside a name
 * written '\:'. The names, unescaped and each NUL-ended, one after the
 * other into out. Returns how many (1 or more, at most
 * SB_JOB_MAX_NRFILES), or -EINVAL (an empty name: msg says which),
 * -E2BIG (too many), -ENAMETOOLONG (more than out holds). */
int sb_job_filename_list(const char *v, char *out, size_t len, char *msg, size_t ml);
/* Name i of such a list (i below its count). */
const char *sb_job_filename_at(const char *list, unsigned i);

/* The job option table, for help text and job-file readers. */
struct sb_job_optdef {
	const char *name;
	const char *arg; /* e.g. "SIZE", "read|write|..." */
	const char *help;
	const char *dflt; /* default, for --help */
};
/* The i-th job option, NULL past the last. */
const struct sb_job_optdef *sb_job_optdef(unsigned i);
#endif
