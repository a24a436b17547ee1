/*
 * storbench spo, the writer: the target opened safely, the journal opened
 * (never on the device under test), the library's writer
 * (lib/spo/spo_write.c) run in a thread while this one draws the progress
 * line and, with --cut-after, records the cut and runs --cut-cmd.
 */
#include "cli/spo_cmd.h"

#include <fcntl.h>
#include <signal.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MSG_LEN 512

static int region(struct spo_opts *o, const char *path, uint64_t cap)
{
	if (o->offset >= cap)
		return sb_err("--offset: beyond the end of '%s'", path), SB_EXIT_USAGE;
	if (!o->size_given)
		o->size = (cap - o->offset) / o->bs * o->bs;
	if (o->size > cap - o->offset)
		return sb_err("--size: the region ends beyond the end of '%s'", path),
		       SB_EXIT_USAGE;
	return 0;
}

/* The target to write: from the write gate (a device: not in use, held
 * O_EXCL; a file: never a symlink, never a file the kernel uses), then
 * reopened as the writer wants it: O_DIRECT where it works, O_DSYNC for
 * --sync=dsync. The fd, or an exit code (said) as -code. */
static int gate_open(const struct spo_opts *o, const char *path, struct sb_jobtarget *jt)
{
	struct sb_error er;
	int held, e;
	if (jt->info.kind == SB_TARGET_BLOCK) {
		jt->destroy_data = 1;
		if ((e = cli_device_consent(jt, path)))
			return -e;
		held = jt->excl_fd - 1;
	} else if ((held = sb_gate_file(path, 1, NULL, NULL, &er)) < 0) {
		return -cli_error(&er);
	}
	const int flags = O_RDWR | (o->sync == SB_SPO_DSYNC ? O_DSYNC : 0);
	int fd = sb_scratch_reopen(held, flags | O_DIRECT);
	if (fd == -EINVAL)
		fd = sb_scratch_reopen(held, flags); /* no O_DIRECT here (tmpfs) */
	if (jt->info.kind != SB_TARGET_BLOCK)
		close(held);
	if (fd < 0)
		return sb_err("cannot open '%s': %s", path, strerror(-fd)), -SB_EXIT_ENV;
	return fd;
}

int spo_open_target(struct spo_opts *o, const char *path, int write, struct sb_jobtarget *jt,
		    int *fd)
{
	int e;

	*fd = -1;
	if ((e = cli_target_probe(jt, path)) || (e = cli_target_missing(jt->info.kind, path)))
		return e;
	if (jt->info.kind != SB_TARGET_BLOCK && jt->info.kind != SB_TARGET_FILE)
		return sb_err("spo: '%s' is not a block device or a file", path), SB_EXIT_USAGE;
	char ram[512];
	if (sb_target_ram_warning(&jt->info, ram, sizeof(ram)))
		sb_warn("%s", ram); /* nothing there survives a power cut */
	if (write && !o->destroy)
		return jt->info.kind == SB_TARGET_BLOCK
			       ? cli_refuse_device(path)
			       : (sb_err("spo overwrites '%s': give --destroy-data to allow it",
					 path),
				  SB_EXIT_USAGE);
	*fd = write ? gate_open(o, path, jt) : sb_spo_open(path);
	if (*fd < 0 && write) {
		e = -*fd;
		*fd = -1;
		return e;
	}
	if (*fd < 0) {
		e = *fd;
		*fd = -1;
		return sb_err("cannot open '%s': %s", path, strerror(-e)), SB_EXIT_ENV;
	}
	/* held for the run (a device to write is, by the gate's exclusive
	 * open): another storbench run using it is a refusal */
	long who;
	if (!(write && jt->info.kind == SB_TARGET_BLOCK) && sb_hold(*fd, write, &who) == -EBUSY) {
		char why[512];
		sb_hold_why(why, sizeof(why), path, who);
		return sb_err("%s", why), SB_EXIT_ENV;
	}
	return write ? region(o, path, jt->info.file_size) : 0;
}

/* The journal: a new file (never overwritten), or standard output; never
 * the target itself nor a file on it. */
static int open_journal(const struct spo_opts *o, int target_fd, FILE **jf, int *jfd, int *jsync)
{
	struct stat js, ts;

	*jf = strcmp(o->journal, "-") ? fopen(o->journal, "wxe") : NULL; /* x: O_EXCL */
	*jfd = *jf ? fileno(*jf) : strcmp(o->journal, "-") ? -1 : 1;
	if (*jfd < 0)
		return sb_err("--journal: cannot create '%s': %s%s", o->journal, strerror(errno),
			      errno == EEXIST ? " (a journal is never overwritten)" : ""),
		       errno == EEXIST ? SB_EXIT_USAGE : SB_EXIT_ENV;
	if (fstat(*jfd, &js) || fstat(target_fd, &ts))
		return sb_err("--journal: cannot stat: %s", strerror(errno)), SB_EXIT_ENV;
	if ((S_ISBLK(ts.st_mode) && (js.st_dev == ts.st_rdev || js.st_rdev == ts.st_rdev)) ||
	    (S_ISREG(ts.st_mode) && js.st_dev == ts.st_dev && js.st_ino == ts.st_ino)) {
		if (*jf) {
			fclose(*jf);
			*jf = NULL;
			unlink(o->journal);
		}
		return sb_err("--journal: '%s' is on the device under test: keep it on another "
			      "device",
			      o->journal),
		       SB_EXIT_USAGE;
	}
	/* a file or a device is flushed per record; a pipe has nothing to flush */
	*jsync = S_ISREG(js.st_mode) || S_ISBLK(js.st_mode);
	return 0;
}

struct writer {
	struct sb_spo_run *run;
	int stop; /* set by the main thread: the cut command returned */
	int err;
	char msg[MSG_LEN];
	int done;
};

static int stop_asked(void *ctx)
{
	const struct writer *w = ctx;
	return cli_interrupted() || __atomic_load_n(&w->stop, __ATOMIC_RELAXED);
}

static void *writer_thread(void *arg)
{
	struct writer *w = arg;
	w->err = sb_spo_run_go(w->run, w->msg, sizeof(w->msg));
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

int spo_shell(const char *cmd, int in_fd, int out_fd)
{
	const pid_t pid = fork();
	int st;
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (in_fd >= 0)
			dup2(in_fd, 0);
		if (out_fd >= 0)
			dup2(out_fd, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static uint64_t cut_delay(const struct spo_opts *o, uint64_t seed)
{
	uint64_t x = seed ^ sb_now_ns();
	const uint64_t span = o->cut_max_ns - o->cut_min_ns;
	return o->cut_min_ns + (span ? (x * 0x9e3779b97f4a7c15ull >> 11) % (span + 1) : 0);
}

static void progress(struct cli_progress *pg, const struct sb_spo_run *run, uint64_t now)
{
	struct sb_spo_counts c;
	char parts[2][64];
	const char *pp[2] = { parts[0], parts[1] };

	sb_spo_run_counts(run, &c);
	snprintf(parts[0], sizeof(parts[0]), "%llu writes", (unsigned long long)c.writes);
	snprintf(parts[1], sizeof(parts[1]), "%llu acknowledged", (unsigned long long)c.acked);
	struct cli_line l = { .label = "spo",
			      .what = "writing until the cut",
			      .pct = -1,
			      .bps = -1,
			      .ops = -1,
			      .elapsed_ns = c.elapsed_ns,
			      .eta_ns = -1,
			      .parts = pp,
			      .nparts = 2 };
	cli_progress_draw(pg, &l, now);
}

/* Wait for the writer; at the cut moment record it and run --cut-cmd.
 * Returns the cut command's status (-1: no cut ran). */
static int supervise(const struct spo_opts *o, struct writer *w, uint64_t cut_at)
{
	struct cli_progress pg;
	int cut_rc = -1;

	cli_progress_init(&pg, o->quiet);
	while (!__atomic_load_n(&w->done, __ATOMIC_ACQUIRE)) {
		const uint64_t now = sb_now_ns();
		if (cut_at && now >= cut_at && cut_rc < 0) {
			cli_progress_clear(&pg);
			sb_spo_run_mark_cut(w->run);
			cut_rc = spo_shell(o->cut_cmd, -1, 2); /* its output is not the journal */
			/* still alive: a software reset still on its way, or a fake cut */
			sb_note("the cut command returned (status %d) and the writer still runs: "
				"stopping it",
				cut_rc);
			__atomic_store_n(&w->stop, 1, __ATOMIC_RELAXED);
		}
		if (cli_progress_due(&pg, now))
			progress(&pg, w->run, now);
		usleep(20000);
	}
	cli_progress_clear(&pg);
	return cut_rc;
}

static int run_writer(struct spo_opts *o, int fd, int jfd, int jsync)
{
	struct writer w = { 0 };
	struct timespec ts;
	char msg[MSG_LEN];
	pthread_t th;

	clock_gettime(CLOCK_REALTIME, &ts);
	const struct sb_spo_opts lo = {
		.fd = fd,
		.journal_fd = jfd,
		.journal_sync = jsync,
		.run_id = o->seed,
		.bs = o->bs,
		.offset = o->offset,
		.size = o->size,
		.canary = o->canary,
		.sync = o->sync,
		.rw = o->rw,
		.iodepth = o->iodepth,
		.flush_writes = o->flush_writes,
		.flush_ns = o->flush_ns,
		.duration_ns = o->duration_ns,
		.start_unix_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec,
		.stop = stop_asked,
		.stop_ctx = &w,
	};
	int e = sb_spo_run_create(&w.run, &lo, msg, sizeof(msg));
	if (e)
		return sb_err("%s", msg), e == -EINVAL ? SB_EXIT_USAGE : cli_exit_of_errno(e);
	const uint64_t cut_at = o->cut_cmd ? sb_now_ns() + cut_delay(o, o->seed) : 0;
	if (pthread_create(&th, NULL, writer_thread, &w)) {
		sb_spo_run_free(w.run);
		return sb_err("cannot start the writer"), SB_EXIT_ENV;
	}
	const int cut_rc = supervise(o, &w, cut_at);
	pthread_join(th, NULL);
	struct sb_spo_counts c;
	sb_spo_run_counts(w.run, &c);
	sb_spo_run_free(w.run);
	char t[32];
	if (!o->quiet)
		fprintf(stderr,
			"spo: %llu writes, %llu acknowledged, %llu flushes in %s (run %016llx)\n",
			(unsigned long long)c.writes, (unsigned long long)c.acked,
			(unsigned long long)c.flushes,
			sb_fmt_ns((double)c.elapsed_ns, t, sizeof(t)), (unsigned long long)o->seed);
	if (w.err && cut_rc < 0)
		return sb_err("%s", w.msg), SB_EXIT_FAIL;
	if (cli_interrupted())
		return cli_interrupt_status();
	return SB_EXIT_OK;
}

int spo_write(struct spo_opts *o, const char *path)
{
	struct sb_jobtarget jt = { 0 };
	int fd = -1, jfd = -1, jsync = 0;
	FILE *jf = NULL;

	if (!o->seed_given)
		o->seed = sb_now_ns() ^ ((uint64_t)getpid() << 32);
	int rc = spo_open_target(o, path, 1, &jt, &fd);
	if (!rc && o->size < o->canary + (uint64_t)o->bs * o->iodepth)
		rc = (sb_err("the region of '%s' is too small: --canary plus --iodepth blocks of "
			     "--bs at least",
			     path),
		      SB_EXIT_USAGE);
	if (!rc)
		rc = open_journal(o, fd, &jf, &jfd, &jsync);
	if (!rc) {
		cli_signals_install();
		rc = run_writer(o, fd, jfd, jsync);
	}
	if (jf && fclose(jf) && !rc)
		rc = (sb_err("--journal: %s", strerror(errno)), SB_EXIT_ENV);
	if (fd >= 0)
		close(fd);
	cli_target_cleanup(&jt, 1);
	return rc;
}
