/*
 * storbench soak --workload=iozone: each iteration runs iozone's command
 * line once, as storbench iozone maps it (lib/sweep/iozone_args.c), and
 * its cells (test x file size x record size, KiB/s) become the
 * iteration's figures: what a shell loop of iozone and a spreadsheet of
 * its columns did, with soak's log, verdict, drift analysis and --resume.
 */
#include "lib/soak/soak_int.h"
#include "lib/target/jobtarget.h"

/* The sweep's options, as storbench iozone sets them up: iozone's, with
 * the soak's seed (the data, and the random tests' order). */
static void sweep_opts(const struct soak *s, struct sb_sweep_opts *o)
{
	const struct sb_iozone_args *a = s->o->iozone;
	*o = a->o;
	o->seed = s->seed;
	o->keep = a->keep;
	if (!o->tests)
		o->tests = SB_SWEEP_ALL_TESTS;
}

int soak_iozone_prepare(struct soak *s)
{
	struct sb_sweep_file f;
	struct sb_error er;
	if (!(s->zr = calloc(1, sizeof(*s->zr))))
		return soak_fail(s, -ENOMEM, SB_ERR_ENV, "out of memory");
	sweep_opts(s, &s->zo);
	if (sb_sweep_plan(s->zr, &s->zo) < 0)
		return soak_fail(s, -EINVAL, SB_ERR_INPUT,
				 "-r: no record size fits in any file size (records are never larger "
				 "than the file)");
	/* what storbench iozone refuses (a file it did not make, no room, no
	 * O_DIRECT) is refused before the log exists */
	f.fd = -1;
	const int e = sb_sweep_file_open(&f, s->o->iozone->file, s->o->info, s->zr, &s->zo,
					 s->o->destroy, &er);
	sb_sweep_file_close(&f);
	return e ? soak_fail(s, e, er.cls, "%s", er.msg) : 0;
}

/* The progress hook's view of the sweep, a phase of the soak: "soak
 * iteration 4 of 10, randread, 1.00 MiB file, 64.0 KiB records (cell 3 of
 * 6): ...", the time and ETA the soak's (the sweep's percent and rate). */
static void tell(struct soak *s, const struct sb_sweep_progress *p)
{
	const uint64_t elapsed = p->now_ns - s->phase_ns;
	struct sb_soak_progress g = {
		.iteration = s->cur_n,
		.last = soak_last_planned(s),
		.phase = sb_sweep_test_name(p->test),
		.done = p->done,
		.total = p->total,
		.pct = p->total ? 100.0 * (double)p->done / (double)p->total : 0,
		.elapsed_ns = elapsed,
		.eta_ns = -1,
		.cell = p->cell,
		.ncells = p->ncells,
		.file_size = s->zr->file_sizes[p->fi],
		.record_size = s->zr->record_sizes[p->ri],
		.bps = p->bps,
	};
	if (p->done && p->total)
		g.eta_ns = (double)elapsed * (double)(p->total - p->done) / (double)p->done;
	g.eta_ns = soak_eta(s, 0, (double)elapsed, g.eta_ns, p->now_ns, &g.elapsed_ns);
	s->h->progress(s->h->ctx, &g);
}

/* As each test begins and once a MiB of its records went. */
static void progress(void *ctx, const struct sb_sweep_progress *p)
{
	if (p->kind == SB_SWEEP_TELL_MIB || (p->kind == SB_SWEEP_TELL_STEP && p->test >= 0))
		tell(ctx, p);
}

static int should_stop(void *ctx)
{
	return soak_stop_asked(ctx) != 0;
}

/* One sweep on the test file: 0, or the class of its failure (said). */
static int run_sweep(struct soak *s, int *ran)
{
	const char *file = s->o->iozone->file;
	struct sb_jobtarget t;
	struct sb_sweep_file f;
	struct sb_error er;
	char msg[8448];
	sweep_opts(s, &s->zo);
	int e = sb_sweep_plan(s->zr, &s->zo);
	if (e)
		return soak_fail(s, e, SB_ERR_INPUT, "the sweep cannot be planned: %s",
				 strerror(-e));
	/* looked at anew, as storbench iozone does */
	f.fd = -1;
	memset(&t, 0, sizeof(t));
	if ((e = sb_jobtarget_probe(&t, file, &er)) ||
	    (e = sb_sweep_file_open(&f, file, &t.info, s->zr, &s->zo, s->o->destroy, &er))) {
		sb_sweep_file_close(&f);
		return soak_fail(s, e, er.cls, "%s", er.msg);
	}
	const struct sb_sweep_hooks h = { .ctx = s,
					  .stop = should_stop,
					  .progress = s->h->progress ? progress : NULL };
	s->zo.path = f.path;
	s->zo.fd = f.fd;
	s->phase_ns = sb_now_ns();
	if (f.owned && s->h->track)
		s->h->track(s->h->ctx, f.path, -1, 1);
	*ran = 1;
	e = sb_sweep_run(&s->zo, &h, NULL, s->zr, &er);
	if (f.owned && s->h->track)
		s->h->track(s->h->ctx, f.path, -1, 0);
	sb_sweep_file_close(&f);
	if (!e || e == -EINTR)
		return 0;
	const int cls = sb_sweep_failure(s->zr, f.path, e, msg, sizeof(msg));
	if (cls == SB_ERR_FAIL) { /* the iteration's failure, not the soak's */
		if (s->h->error)
			s->h->error(s->h->ctx, msg);
		return 1;
	}
	return soak_fail(s, e, cls, "%s", msg);
}

int soak_iozone_iteration(struct soak *s, struct sb_soak_iter *it)
{
	int ran = 0;
	it->iozone = 1;
	const int e = run_sweep(s, &ran);
	if (ran) {
		if (sb_soak_cells_from_sweep(it, s->zr) < 0)
			return soak_fail(s, -ENOMEM, SB_ERR_ENV, "out of memory");
		it->cache = s->zr->cache_method;
		it->interrupted = s->zr->interrupted || !!soak_stop_asked(s);
	}
	if (e == 1) {
		/* a test's read, write or fsync failed: this iteration failed */
		it->io_errors = 1;
		it->first_errno = s->zr->fail_errno;
		it->first_error_offset = s->zr->fail_offset;
		return 0;
	}
	if (e)
		snprintf(s->why, sizeof(s->why), "the iozone sweep of '%s' could not run",
			 s->o->iozone->file);
	return e;
}
