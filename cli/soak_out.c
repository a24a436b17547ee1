/*
 * storbench soak: what the program prints while the library's soak runs
 * (its hooks: the progress line, a line per iteration, the messages) and
 * at its end (the results, the exit code); the lines themselves are
 * report/'s (report/text_soak_iter.c). Under mpirun rank 0 says it all.
 */
#include "cli/soak_cli.h"
#include "cli/cli.h"
#include "report/report.h"

static int stop(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

/* "soak iteration 3 of 10, write: 42% 1.20 GiB of 3.00 GiB 512 MiB/s
 * elapsed 3s ETA 4s" (the ETA of the whole soak), the iozone workload's
 * "soak iteration 3 of 10, cell 3 of 6, randread 1.00 MiB/64.0 KiB: 42%
 * ..." (file and record size): a soak's line, never an inner command's. */
static void progress(void *ctx, const struct sb_soak_progress *p)
{
	struct soak_out *so = ctx;
	char what[128], a[32], b[32];
	/* a new phase (an iozone iteration's sweep is one): a line of its own,
	 * drawn once it ran a moment */
	const char *phase = p->ncells ? NULL : p->phase;
	if (p->iteration != so->pg_step || phase != so->pg_phase) {
		cli_progress_clear(&so->pg);
		cli_progress_init(&so->pg, so->o->v.quiet || cli_rank() != 0);
		so->pg_step = p->iteration;
		so->pg_phase = phase;
	}
	const uint64_t now = sb_now_ns();
	if (!cli_progress_due(&so->pg, now))
		return;
	struct cli_line l = {
		.label = "soak",
		.step_word = "iteration",
		.step = p->iteration,
		.nsteps = p->last,
		.what = what,
		.pct = p->pct,
		.done = p->done,
		.total = p->total,
		.bps = p->bps,
		.ops = -1,
		.elapsed_ns = p->elapsed_ns,
		.eta_ns = p->eta_ns,
	};
	if (p->ncells)
		snprintf(what, sizeof(what), "cell %u of %u, %s %s/%s", p->cell, p->ncells,
			 p->phase, sb_fmt_size(p->file_size, a, sizeof(a)),
			 sb_fmt_size(p->record_size, b, sizeof(b)));
	else if (p->ranks > 1)
		snprintf(what, sizeof(what), "%s, %u ranks", p->phase, p->ranks);
	else
		snprintf(what, sizeof(what), "%s", p->phase);
	if (p->ncells) /* a sweep's line is of the matrix, not its bytes */
		l.done = l.total = 0;
	cli_progress_draw(&so->pg, &l, now);
}

static void begin(void *ctx, const struct sb_soak_begin *b)
{
	struct soak_out *so = ctx;
	if (!b->kmsg_watched && !so->o->v.quiet)
		sb_warn("cannot read /dev/kmsg: kernel messages will not be watched");
	if (so->text && b->resumed_after)
		printf("resuming after iteration %llu%s\n", (unsigned long long)b->resumed_after,
		       b->cut_short ? " (cut short: it does not count, one more runs)" : "");
	if (so->text && b->stop_change) {
		char why[256];
		rep_soak_stop_change_text(b->stop_change, why, sizeof(why));
		printf("%s\n", why);
	}
}

static void iteration(void *ctx, const struct sb_soak_event *e)
{
	struct soak_out *so = ctx;
	cli_progress_clear(&so->pg);
	if (!so->text)
		return;
	if (e->sweep)
		rep_soak_iozone_iter_text(stdout, &so->o->za, so->o->iozone_output, e);
	else
		rep_soak_iter_text(stdout, e->it);
	for (unsigned k = 0; k < e->nranks; k++)
		rep_soak_rank_text(stdout, &e->ranks[k]);
	fflush(stdout);
}

static void track(void *ctx, const char *path, int fd, int on)
{
	(void)ctx;
	if (fd >= 0)
		cli_signals_track_fd(path, fd, on);
	else
		cli_signals_track_file(path, on);
}

static void note(void *ctx, const char *msg)
{
	struct soak_out *so = ctx;
	cli_progress_clear(&so->pg);
	if (!so->o->v.quiet)
		sb_note("%s", msg);
}

static void warn(void *ctx, const char *msg)
{
	struct soak_out *so = ctx;
	cli_progress_clear(&so->pg);
	sb_warn("%s", msg);
}

static void say_error(void *ctx, const char *msg)
{
	struct soak_out *so = ctx;
	cli_progress_clear(&so->pg);
	sb_err("%s", msg);
}

void soak_out_hooks(struct soak_out *so, const struct soak_opts *o, struct sb_soak_hooks *h)
{
	memset(so, 0, sizeof(*so));
	so->o = o;
	so->text = !o->v.json_stdout && cli_rank() == 0;
	cli_progress_init(&so->pg, 1);
	*h = (struct sb_soak_hooks){
		.ctx = so,
		.stop = stop,
		.progress = o->v.quiet || cli_rank() != 0 ? NULL : progress,
		.begin = begin,
		.iteration = iteration,
		.track = track,
		.note = note,
		.warn = warn,
		.error = say_error,
	};
}

/* The results: -o FILE, --format=json on stdout, or the text; 0 or -1
 * when a file could not be written (said). */
static int results(const struct soak_out *so, const struct soak_target *st,
		   const struct sb_soak_result *r)
{
	const struct soak_opts *o = so->o;
	int w = 0;
	struct sb_results *res = sb_results_create("soak");
	if (!res) {
		sb_err("out of memory");
		return -1;
	}
	cli_results_describe(res, &st->t.ct, o->iozone ? o->za.file : st->t.v.path);
	res->target_created = !st->region_mode;
	res->interrupted = !!cli_interrupted();
	sb_soak_results(res, r);
	if (o->v.output && cli_write_json(res, o->v.output) < 0)
		w = -1;
	if (o->v.json_stdout) {
		if (cli_write_json(res, "-") < 0)
			w = -1;
	} else {
		rep_soak_end_text(stdout, r, o->fail_on_anomaly, res);
		fflush(stdout);
	}
	rep_warnings_text(stderr, res);
	if (!o->v.json_stdout && cli_ranks() > 1)
		rep_soak_ranks_end_text(stdout, r);
	sb_results_free(res);
	return w;
}

int soak_out_end(struct soak_out *so, struct soak_target *st, int e, const struct sb_error *err,
		 const struct sb_soak_result *r)
{
	cli_progress_clear(&so->pg);
	cli_ranks_end_if_failed();
	const int w = r && r->ran && cli_rank() == 0 ? results(so, st, r) : 0;
	if (e < 0) { /* said as it happened */
		struct sb_error quiet = *err;
		quiet.msg[0] = '\0';
		return cli_error(&quiet);
	}
	if (cli_interrupted())
		return cli_interrupt_status();
	if (r->end == SB_SOAK_END_ENV || w)
		return SB_EXIT_ENV;
	if (r->end == SB_SOAK_END_STOPPED) /* another rank's stop */
		return SB_EXIT_SIGINT;
	return r->end == SB_SOAK_END_PASS ? SB_EXIT_OK : SB_EXIT_FAIL;
}
