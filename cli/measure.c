/*
 * The program's side of a measurement (lib/run/jobs.h): the live progress
 * line of what the look hook tells (cli/progress.c: on a terminal at most
 * 4 updates a second, redrawn in place; otherwise a plain line every
 * 10 s; nothing when quiet; under mpirun rank 0's alone, of every rank's
 * work), the library's messages, a signal as the stop asked, and the
 * targets prepared the program's way (cli/target_prepare.c).
 */
#include "cli/cli.h"
#include "report/report.h"

/* The line: the figures of the look, under the words of m. */
static void draw(struct cli_run_ui *ui, const struct sb_run_look *k)
{
	struct cli_progress *pg = &ui->pg;
	const struct cli_measure *m = &ui->m;
	const char *parts[CLI_LINE_PARTS], *more[CLI_LINE_PARTS];
	char part[CLI_LINE_PARTS][64], pct[CLI_LINE_PARTS][8];
	char label[32], rlabel[sizeof(((struct sb_job_result *)0)->name) + 32];
	struct cli_line l = { .label = m->label,
			      .pct = k->pct,
			      .bps = k->bps,
			      .ops = k->iops,
			      .eta_ns = k->eta_ns,
			      .state = k->ramp ? "ramp" : NULL,
			      .elapsed_ns = k->elapsed_ns };
	const uint64_t this_ns = l.elapsed_ns;
	const unsigned n = k->njobs;
	if (n > 1) {
		/* a job's percent where it can differ: jobs bound by bytes, or
		 * by times of their own */
		int same = 1;
		for (unsigned i = 0; i < n; i++)
			same &= !k->jobs[i].p.total_bytes &&
				k->jobs[i].p.total_ns == k->jobs[0].p.total_ns;
		snprintf(label, sizeof(label), "%u jobs", n);
		l.label = label;
		for (unsigned i = 0; i < n && i < CLI_LINE_PARTS; i++) {
			char r[32];
			const struct sb_run_job_look *w = &k->jobs[i];
			pct[i][0] = '\0';
			if (w->p.done) {
				snprintf(part[i], sizeof(part[i]), "%.10s done", w->name);
			} else {
				snprintf(part[i], sizeof(part[i]), "%.10s %s", w->name,
					 rep_fmt_rate(SB_MAX(w->bps, 0), r, sizeof(r)));
				if (!same)
					snprintf(pct[i], sizeof(pct[i]), "%.0f%%",
						 w->p.fraction * 100);
			}
			parts[i] = part[i];
			more[i] = pct[i];
		}
		l.parts = parts;
		l.part_more = more;
		l.nparts = SB_MIN(n, (unsigned)CLI_LINE_PARTS);
	}
	if (k->ranks) { /* every rank's work together, the label says so ("4 ranks") */
		const struct sb_run_ranks_look *rk = k->ranks;
		l.bps = rk->bps;
		l.ops = rk->iops;
		l.pct = rk->fraction * 100;
		l.done = rk->done;
		l.total = rk->total;
		l.eta_ns = rk->eta_ns;
		for (unsigned i = 0; i < l.nparts && i < rk->njobs; i++) {
			char r[32];
			pct[i][0] = '\0'; /* a job's own percent would be this rank's */
			if (rk->job_done[i])
				snprintf(part[i], sizeof(part[i]), "%.10s done", k->jobs[i].name);
			else
				snprintf(part[i], sizeof(part[i]), "%.10s %s", k->jobs[i].name,
					 rep_fmt_rate(rk->job_bps[i], r, sizeof(r)));
		}
		snprintf(rlabel, sizeof(rlabel), "%s, %d ranks", l.label, rk->nranks);
		l.label = rlabel;
	}
	if (m->step) { /* "quick test 3 of 16, NAME" */
		l.what = l.label;
		l.label = m->command;
		l.step_word = m->step_word;
		l.step = m->step;
		l.nsteps = m->nsteps;
	}
	if (m->start_ns && k->now > m->start_ns)
		l.elapsed_ns = k->now - m->start_ns;
	/* what comes after this measurement: as long again, each */
	if (l.eta_ns >= 0 && (m->later || m->later_ns))
		l.eta_ns += (double)m->later * ((double)this_ns + l.eta_ns) + (double)m->later_ns;
	/* a command of many measurements whose ETA is of it all: the percent
	 * is of the same whole, the time so far over that and the time left,
	 * and never falls (a measurement longer than the last one was) */
	if (m->whole) {
		const double all = (double)l.elapsed_ns + l.eta_ns;
		if (l.eta_ns >= 0 && all > 0)
			ui->pct_most = SB_MAX(ui->pct_most, 100 * (double)l.elapsed_ns / all);
		l.pct = ui->pct_most > 0 ? ui->pct_most : -1;
	}
	cli_progress_draw(pg, &l, k->now);
}

/* The words of the line from what the library says it measures: a
 * preconditioning pass, a repeat of a job, a group of a job file. */
static void words_of(struct cli_run_ui *ui, const struct sb_run_event *ev)
{
	struct cli_measure *m = &ui->m;
	const int quiet = m->quiet;
	memset(m, 0, sizeof(*m));
	m->quiet = quiet;
	m->label = ev->label;
	if (ev->phase == SB_RUN_PHASE_PRECOND) {
		m->command = "precondition";
		m->step_word = "pass";
		m->step = ev->step;
		m->nsteps = ev->nsteps;
		return;
	}
	if (ev->phase == SB_RUN_PHASE_TESTS) { /* "quick test 3 of 16, NAME" */
		m->command = "quick";
		m->step_word = "test";
		m->step = ev->step;
		m->nsteps = ev->nsteps;
		m->later = ev->later;
		m->later_ns = ev->later_ns;
		m->start_ns = ui->start_ns;
		m->whole = 1;
		return;
	}
	m->later = ev->later;
	m->later_ns = ev->later_ns;
	/* with more than one measurement, the time elapsed is the command's */
	if (ev->nruns > 1 || ev->nsteps > 1)
		m->start_ns = ui->start_ns;
	/* the ETA of run --repeat is of every run: so is the percent (a job
	 * file's later groups are not in its ETA: the percent is the job's) */
	m->whole = ev->nruns > 1 && ev->nsteps <= 1;
	if (ev->nsteps > 1) { /* "run group 2 of 3, NAME" */
		m->command = "run";
		m->step_word = "group";
		m->step = ev->step;
		m->nsteps = ev->nsteps;
	}
}

static void on_event(void *ctx, const struct sb_run_event *ev)
{
	struct cli_run_ui *ui = ctx;
	if (ev->what == SB_RUN_MEASURE_BEGAN) {
		if (!ui->fixed)
			words_of(ui, ev);
		/* many ranks: rank 0's line alone, of the rate of all */
		cli_progress_init(&ui->pg, ui->m.quiet || cli_rank() != 0);
	} else if (ev->what == SB_RUN_MEASURE_ENDED) {
		cli_progress_clear(&ui->pg);
	}
}

static void on_look(void *ctx, const struct sb_run_look *l)
{
	struct cli_run_ui *ui = ctx;
	if (cli_progress_due(&ui->pg, l->now))
		draw(ui, l);
}

static int on_stop(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

static void on_say(void *ctx, enum sb_say kind, const char *msg)
{
	(void)ctx;
	switch (kind) {
	case SB_SAY_ERROR: sb_err("%s", msg); break;
	case SB_SAY_WARNING: sb_warn("%s", msg); break;
	case SB_SAY_NOTE: sb_note("%s", msg); break;
	case SB_SAY_RELAYED: fprintf(stderr, "storbench: %s\n", msg); break;
	}
}

static void on_lost(void *ctx, const char *what, int e)
{
	(void)ctx;
	cli_ranks_give_up(what, e);
}

static void on_fell_back(void *ctx, const struct sb_engine_pick *pk)
{
	(void)ctx;
	cli_engine_fell_back(pk);
}

/* An exit code (said) as the library's error of a hook. */
static int as_error(int rc, struct sb_error *er)
{
	const enum sb_errclass cls = rc == SB_EXIT_USAGE  ? SB_ERR_INPUT
				     : rc == SB_EXIT_ENV  ? SB_ERR_ENV
				     : rc == SB_EXIT_FAIL ? SB_ERR_FAIL
							  : SB_ERR_STOPPED;
	return rc ? sb_error_set(er, cls == SB_ERR_INPUT ? -EINVAL : -EIO, cls, "%s", "") : 0;
}

static int on_prepare(void *ctx, struct sb_jobtarget *t, const char *path, struct sb_job_opts *job,
		      int needs_data, int noio, struct sb_error *er)
{
	(void)ctx;
	return as_error(cli_target_prepare(t, path, job, needs_data, noio), er);
}

static void on_cleanup(void *ctx, struct sb_jobtarget *t, int keep)
{
	(void)ctx;
	cli_target_cleanup(t, keep);
}

static void on_hold(void *ctx, int on, int keep)
{
	(void)ctx;
	cli_target_hold_rank_dir(on, keep);
}

void cli_run_hooks(struct sb_run_hooks *h, struct cli_run_ui *ui, int quiet, uint64_t start_ns)
{
	memset(ui, 0, sizeof(*ui));
	ui->m.quiet = quiet;
	ui->start_ns = start_ns;
	*h = (struct sb_run_hooks){ .ctx = ui,
				    .stop = on_stop,
				    .event = on_event,
				    .look = on_look,
				    .say = on_say,
				    .lost = on_lost,
				    .fell_back = on_fell_back,
				    .prepare = on_prepare,
				    .cleanup = on_cleanup,
				    .hold = on_hold };
}

int cli_run_status(enum sb_run_status st)
{
	switch (st) {
	case SB_RUN_OK: return SB_EXIT_OK;
	case SB_RUN_FAILED: return SB_EXIT_FAIL;
	case SB_RUN_INPUT: return SB_EXIT_USAGE;
	case SB_RUN_ENV: return SB_EXIT_ENV;
	case SB_RUN_STOPPED: break;
	}
	return cli_interrupt_status() ? cli_interrupt_status() : SB_EXIT_SIGINT;
}

/* Jobs that run at the same time (a job file's jobs without stonewall). */
struct cli_measure_job {
	const struct sb_job_opts *job;
	const struct sb_engine_ops *ops;
	struct sb_jobtarget *t;
	struct sb_job_result *res;
};

/* Starts n (<= SB_RUN_GROUP_MAX) jobs together, one progress line for all;
 * returns as cli_measure, the first failure. */
static int measure_group(const struct cli_measure *m, const struct cli_measure_job *js, unsigned n)
{
	struct sb_run_hooks h;
	struct cli_run_ui ui;
	struct sb_run_group_job g[SB_RUN_GROUP_MAX];
	if (!n || n > SB_RUN_GROUP_MAX)
		return -EINVAL;
	cli_run_hooks(&h, &ui, m->quiet, 0);
	ui.m = *m;
	ui.fixed = 1;
	for (unsigned i = 0; i < n; i++)
		g[i] = (struct sb_run_group_job){ js[i].job, js[i].ops, js[i].t, js[i].res,
						  NULL,	     NULL,	NULL };
	const struct sb_run_group_opts o = { .label = m->label,
					     .verify = m->verify,
					     .alone = m->alone,
					     .stonewall = cli_ranks_stonewall() };
	return sb_run_group(&o, g, n, &h, cli_ranks_coord());
}

int cli_measure(const struct cli_measure *m, const struct sb_job_opts *job,
		const struct sb_engine_ops *ops, struct sb_jobtarget *t, struct sb_job_result *res)
{
	const struct cli_measure_job j = { job, ops, t, res };
	return measure_group(m, &j, 1);
}

int cli_measure_one(const struct cli_measure *m, const struct sb_job_opts *job,
		    struct sb_jobtarget *t, void (*take)(const struct sb_job_result *jr, void *ctx),
		    void *ctx, uint64_t *errors)
{
	int fell_back;
	struct sb_job_opts j = *job;
	*errors = 0;
	const struct sb_engine_ops *ops = cli_engine_choose(&j, &fell_back);
	if (!ops)
		return SB_EXIT_USAGE;
	snprintf(j.engine, sizeof(j.engine), "%s", ops->name);
	struct sb_job_result *jr = sb_job_result_create();
	if (!jr) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	struct cli_measure mm = *m;
	mm.label = j.name;
	const int e = cli_measure(&mm, &j, ops, t, jr);
	take(jr, ctx);
	*errors = jr->errors;
	sb_job_result_free(jr);
	return e < 0 ? SB_EXIT_FAIL : 0;
}
