/*
 * storbench soak: what the program prints while the library's soak runs
 * (its hooks: the progress line, a line per iteration, the messages) and
 * at its end (the results, the verdict in text, the exit code). Under
 * mpirun rank 0 says it all.
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

void soak_print_iteration(FILE *f, const struct sb_soak_iter *it)
{
	char w[32], rd[32];
	const uint64_t bad = sb_soak_iter_bad(it);
	/* an iteration cut short checked part of its blocks, or none */
	fprintf(f, "%5llu  write %12s  read %12s  verify %s", (unsigned long long)it->n,
		rep_fmt_rate(it->write_bw, w, sizeof(w)), rep_fmt_rate(it->read_bw, rd, sizeof(rd)),
		bad		  ? "FAILED"
		: it->interrupted ? "cut short"
				  : "ok");
	if (bad)
		fprintf(f, " (%llu of %llu blocks)", (unsigned long long)bad,
			(unsigned long long)it->blocks);
	fprintf(f, "  errors %llu", (unsigned long long)it->io_errors);
	if (it->nkmsg)
		fprintf(f, "  kernel: %s", it->kmsg[0].text);
	rep_soak_other_text(f, it);
	if (it->unwritten)
		fprintf(f, "  %s: %llu blocks not written", strerror(ENOSPC),
			(unsigned long long)it->unwritten);
	if (it->interrupted)
		fprintf(f, "  (interrupted)");
	fputc('\n', f);
	for (size_t i = 0; i < it->nranges; i++) {
		char o[32], l[32];
		fprintf(f, "       %s at %s, %s\n", sb_verify_class_name(it->ranges[i].cls),
			sb_fmt_size(it->ranges[i].offset, o, sizeof(o)),
			sb_fmt_size(it->ranges[i].length, l, sizeof(l)));
	}
}

/* Many ranks: a rank's own figures of the iteration. */
static void rank_line(FILE *f, const struct sb_soak_rank *k)
{
	char w[32], rd[32];
	const uint64_t bad = sb_soak_iter_bad(&k->it);
	fprintf(f, "       rank %d on %s: write %s  read %s  verify %s", k->rank, k->host,
		rep_fmt_rate(k->it.write_bw, w, sizeof(w)),
		rep_fmt_rate(k->it.read_bw, rd, sizeof(rd)),
		sb_soak_iter_failed(&k->it) ? "FAILED" : "ok");
	if (bad)
		fprintf(f, " (%llu of %llu blocks)", (unsigned long long)bad,
			(unsigned long long)k->it.blocks);
	if (k->it.io_errors)
		fprintf(f, "  errors %llu", (unsigned long long)k->it.io_errors);
	for (size_t i = 0; i < k->it.nranges && i < 2; i++) {
		char o[32], l[32];
		fprintf(f, "; %s at %s, %s", sb_verify_class_name(k->it.ranges[i].cls),
			sb_fmt_size(k->it.ranges[i].offset, o, sizeof(o)),
			sb_fmt_size(k->it.ranges[i].length, l, sizeof(l)));
	}
	fputc('\n', f);
}

/* The iozone workload's line (and with --iozone-output iozone's rows
 * first). */
static void iozone_iteration(FILE *f, const struct soak_opts *o, const struct sb_soak_event *e)
{
	const struct sb_iozone_args *a = &o->za;
	const struct sb_soak_iter *it = e->it;
	char w[32], r[32];
	if (o->iozone_output && it->ncells) {
		const uint32_t asked = a->tests ? a->tests : SB_SWEEP_ALL_TESTS;
		rep_iozone_columns(f);
		rep_iozone_rows(f, e->sweep, asked, a->ops, 0);
		if (a->excel)
			rep_iozone_excel(f, e->sweep, asked, a->ops);
		fputc('\n', f);
	}
	fprintf(f, "%5llu  iozone: %zu figure%s, write tests %s, read tests %s  errors %llu",
		(unsigned long long)it->n, it->ncells, it->ncells == 1 ? "" : "s",
		rep_fmt_rate(it->write_bw, w, sizeof(w)), rep_fmt_rate(it->read_bw, r, sizeof(r)),
		(unsigned long long)it->io_errors);
	if (it->first_errno)
		fprintf(f, " (%s)", strerror(it->first_errno));
	if (it->nkmsg)
		fprintf(f, "  kernel: %s", it->kmsg[0].text);
	rep_soak_other_text(f, it);
	if (it->interrupted)
		fprintf(f, "  (interrupted)");
	fputc('\n', f);
}

static void iteration(void *ctx, const struct sb_soak_event *e)
{
	struct soak_out *so = ctx;
	cli_progress_clear(&so->pg);
	if (!so->text)
		return;
	if (e->sweep)
		iozone_iteration(stdout, so->o, e);
	else
		soak_print_iteration(stdout, e->it);
	for (unsigned k = 0; k < e->nranks; k++)
		rank_line(stdout, &e->ranks[k]);
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

/* The text after the soak: its verdict, health, where its log is. */
static void text(const struct soak_out *so, const struct sb_soak_result *r,
		 const struct sb_results *res)
{
	rep_soak_run_text(stdout, r, so->o->fail_on_anomaly);
	rep_soak_cells_text(stdout, r->cells, r->ncells);
	rep_target_text(stdout, res); /* what was soaked: a device, RAM, a file made */
	for (int k = 0; k < 2; k++) {
		if (!r->health_ok[k] || r->health[k].kind == SB_HEALTH_NONE)
			continue;
		printf("health %s:\n", k ? "after" : "before");
		rep_health_text(stdout, &r->health[k], "  ");
	}
	printf("log: %s\n", r->log);
}

/* Rank 0 under mpirun: the ranks that failed iterations, and their logs. */
static void ranks_text(const struct sb_soak_result *r)
{
	for (unsigned k = 0; r->rank_failed && k < r->nranks; k++)
		if (r->rank_failed[k])
			printf("  rank %u on %s: %llu failed iteration%s\n", k, r->rank_host[k],
			       (unsigned long long)r->rank_failed[k],
			       r->rank_failed[k] > 1 ? "s" : "");
	printf("each rank's own log: %s.rank-N\n", r->log);
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
		text(so, r, res);
		fflush(stdout);
	}
	rep_warnings_text(stderr, res);
	if (!o->v.json_stdout && cli_ranks() > 1)
		ranks_text(r);
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
