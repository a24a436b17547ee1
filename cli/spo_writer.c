/*
 * storbench spo, the writer: the target opened safely, the library's writer
 * run (sb_spo_write_run, lib/spo/spo_run.c: the journal made, never on the
 * device under test, and written) with hooks that draw the progress line
 * and, with --cut-after, run --cut-cmd.
 */
#include "cli/spo_cmd.h"

#include <fcntl.h>
#include <unistd.h>

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

struct writer {
	const struct spo_opts *o;
	struct cli_progress pg; /* from the writer's start (its first progress) */
	int drawing;
};

static int stop_asked(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

/* "spo writing until the cut: 1234 writes, 1230 acknowledged ..." */
static void progress(void *ctx, const struct sb_spo_counts *c)
{
	struct writer *w = ctx;
	char parts[2][64];
	const char *pp[2] = { parts[0], parts[1] };
	if (!w->drawing) {
		cli_progress_init(&w->pg, w->o->quiet);
		w->drawing = 1;
	}
	const uint64_t now = sb_now_ns();
	if (!cli_progress_due(&w->pg, now))
		return;
	snprintf(parts[0], sizeof(parts[0]), "%llu writes", (unsigned long long)c->writes);
	snprintf(parts[1], sizeof(parts[1]), "%llu acknowledged", (unsigned long long)c->acked);
	struct cli_line l = { .label = "spo",
			      .what = "writing until the cut",
			      .pct = -1,
			      .bps = -1,
			      .ops = -1,
			      .elapsed_ns = c->elapsed_ns,
			      .eta_ns = -1,
			      .parts = pp,
			      .nparts = 2 };
	cli_progress_draw(&w->pg, &l, now);
}

static int cut(void *ctx)
{
	struct writer *w = ctx;
	if (w->drawing)
		cli_progress_clear(&w->pg);
	return sb_spo_shell(w->o->cut_cmd, -1, 2); /* its output is not the journal */
}

static void note(void *ctx, const char *msg)
{
	(void)ctx;
	sb_note("%s", msg);
}

static int run_writer(struct spo_opts *o, int fd)
{
	struct writer w = { .o = o };
	struct timespec ts;
	struct sb_spo_result res;
	struct sb_error er;

	clock_gettime(CLOCK_REALTIME, &ts);
	const struct sb_spo_opts lo = {
		.fd = fd,
		.journal = o->journal,
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
		.cut_min_ns = o->cut_cmd ? o->cut_min_ns : 0,
		.cut_max_ns = o->cut_cmd ? o->cut_max_ns : 0,
	};
	const struct sb_spo_hooks h = {
		.ctx = &w, .stop = stop_asked, .progress = progress, .cut = cut, .note = note
	};
	const int e = sb_spo_write_run(&lo, &h, NULL, &res, &er);
	if (w.drawing)
		cli_progress_clear(&w.pg);
	if (!res.started)
		return cli_error(&er);
	char t[32];
	if (!o->quiet)
		fprintf(stderr,
			"spo: %llu writes, %llu acknowledged, %llu flushes in %s (run %016llx)\n",
			(unsigned long long)res.c.writes, (unsigned long long)res.c.acked,
			(unsigned long long)res.c.flushes,
			sb_fmt_ns((double)res.c.elapsed_ns, t, sizeof(t)),
			(unsigned long long)o->seed);
	if (e)
		return cli_error(&er);
	if (cli_interrupted())
		return cli_interrupt_status();
	return SB_EXIT_OK;
}

int spo_write(struct spo_opts *o, const char *path)
{
	struct sb_jobtarget jt = { 0 };
	int fd = -1;

	if (!o->seed_given)
		o->seed = sb_now_ns() ^ ((uint64_t)getpid() << 32);
	int rc = spo_open_target(o, path, 1, &jt, &fd);
	if (!rc && o->size < o->canary + (uint64_t)o->bs * o->iodepth)
		rc = (sb_err("the region of '%s' is too small: --canary plus --iodepth blocks of "
			     "--bs at least",
			     path),
		      SB_EXIT_USAGE);
	if (!rc) {
		cli_signals_install();
		rc = run_writer(o, fd);
	}
	if (fd >= 0)
		close(fd);
	cli_target_cleanup(&jt, 1);
	return rc;
}
