/* storbench verify: the progress line of its phases and the results
 * written (the JSON section is the library's, lib/verify/verify_json.c; the
 * text summary report/'s, report/text_verify_run.c). */
#include "cli/verify_cli.h"
#include "lib/storbench.h"
#include "report/report.h"

int verify_output(const struct verify_opts *o, struct sb_verify_result *v, int *code)
{
	struct sb_results *res = v->res;
	int rc = 0;
	if (cli_ranks() > 1) {
		if (cli_ranks_collect(res, code))
			return 1;
		sb_verify_ranks_times(v); /* from the earliest start to the latest end */
	}
	if (o->output && cli_write_json(res, o->output) < 0)
		rc = SB_EXIT_ENV;
	if (o->json_stdout) {
		if (cli_write_json(res, "-") < 0)
			rc = SB_EXIT_ENV;
	} else {
		const struct rep_verify_settings set = { .block_size = o->block_size,
							 .request_size = o->request_size,
							 .iodepth = o->iodepth,
							 .seed = o->seed,
							 .generation = o->generation };
		rep_verify_run_text(stdout, &set, &v->rep);
		rep_verify_ranks_text(stdout, &v->rep);
		rep_verify_jobs_ranks_text(stdout, res);
	}
	/* what the figures may not be (a target in RAM) */
	rep_warnings_text(stderr, res);
	return rc;
}

/* ---- the progress line ---- */

static int line_stop(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

static void line_error(void *ctx, const char *msg)
{
	(void)ctx;
	sb_err("%s", msg);
}

static void line_created(void *ctx, const char *path, int fd)
{
	const struct verify_line *l = ctx;
	verify_track_created(path, fd, l->o);
}

/* A phase begins: the line from now (many ranks: rank 0's alone); ends:
 * the line cleared. */
static void line_phase(void *ctx, const char *phase, int begin)
{
	struct verify_line *l = ctx;
	(void)phase;
	if (begin)
		cli_progress_init(&l->pg, l->o->quiet || cli_rank() != 0);
	else
		cli_progress_clear(&l->pg);
}

/* "verify write: 42% 1.20 GiB of 3.00 GiB 512 MiB/s  elapsed 3s ETA 4s"
 * (the ETA of the phase). */
static void line_progress(void *ctx, const struct sb_verify_progress *p)
{
	struct verify_line *l = ctx;
	const uint64_t now = sb_now_ns();
	if (!cli_progress_due(&l->pg, now))
		return;
	struct cli_line ln = {
		.label = "verify",
		.what = p->phase,
		.pct = p->pct,
		.done = p->done,
		.total = p->total,
		.bps = p->bps,
		.ops = -1,
		.elapsed_ns = p->elapsed_ns,
		.eta_ns = p->eta_ns,
	};
	if (p->ranks > 1) {
		snprintf(l->what, sizeof(l->what), "%s, %u ranks", p->phase, p->ranks);
		ln.what = l->what;
	}
	cli_progress_draw(&l->pg, &ln, now);
}

void verify_hooks(struct sb_verify_hooks *h, struct verify_line *l, const struct verify_opts *o)
{
	memset(l, 0, sizeof(*l));
	l->o = o;
	*h = (struct sb_verify_hooks){ l,	   line_stop,	 line_progress,
				       line_phase, line_created, line_error };
}
