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

/* The progress hook's view of the sweep: "sweep cell 3 of 6, randread,
 * 1.00 MiB file, 64.0 KiB records: ..." */
static void tell(struct soak *s, uint64_t now)
{
	const struct sb_sweep_meter *m = &s->meter;
	const uint64_t done = sb_sweep_meter_done(m), elapsed = now - s->phase_ns;
	struct sb_soak_progress g = {
		.iteration = s->cur_n,
		.last = soak_last_planned(s),
		.phase = sb_sweep_test_name(m->test),
		.done = done,
		.total = m->total,
		.pct = m->total ? 100.0 * (double)done / (double)m->total : 0,
		.elapsed_ns = elapsed,
		.eta_ns = -1,
		.cell = m->cell,
		.ncells = m->ncells,
		.file_size = s->zr->file_sizes[m->fi],
		.record_size = s->zr->record_sizes[m->ri],
	};
	if (sb_rate_get(&m->rate, now, m->moved, 0, &g.bps, NULL) < 0)
		g.bps = -1;
	if (done && m->total)
		g.eta_ns = (double)elapsed * (double)(m->total - done) / (double)done;
	s->h->progress(s->h->ctx, &g);
}

static void progress(void *ctx, unsigned fi, unsigned ri, int test)
{
	struct soak *s = ctx;
	const uint64_t now = sb_now_ns();
	sb_sweep_meter_step(&s->meter, fi, ri, test, now);
	if (test >= 0)
		tell(s, now);
}

/* Polled before each record: counted for the line, told once a MiB. */
static int should_stop(void *ctx)
{
	struct soak *s = ctx;
	uint64_t now;
	if (s->h->progress && sb_sweep_meter_record(&s->meter, &now))
		tell(s, now);
	return soak_stop_asked(s) != 0;
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
	s->zo.should_stop = should_stop;
	s->zo.progress = s->h->progress ? progress : NULL;
	s->zo.ctx = s;
	sb_sweep_meter_start(&s->meter, s->zr);
	s->phase_ns = sb_now_ns();
	if (f.owned && s->h->track)
		s->h->track(s->h->ctx, f.path, -1, 1);
	*ran = 1;
	e = sb_sweep_run(s->zr, &s->zo, f.path, f.fd);
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
