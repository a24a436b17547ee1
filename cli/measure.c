/*
 * One measurement: run the job on the prepared target with a live progress
 * line (a terminal: at most 4 updates a second, redrawn in place; otherwise
 * a plain line every 10 s; nothing when quiet), and the device's counters
 * sampled around it.
 */
#include "cli/cli.h"

#include <sys/statvfs.h>
#include <unistd.h>

static void progress_line(FILE *f, const char *label, const struct sb_progress *p,
			  const struct sb_progress *prev, uint64_t dt, int tty)
{
	char bw[32], io[32], el[32];
	uint64_t db = 0, di = 0;
	for (int d = 0; d < SB_DDIR_N; d++) {
		db += p->bytes[d] - prev->bytes[d];
		di += p->ios[d] - prev->ios[d];
	}
	double s = dt ? (double)dt / 1e9 : 1;
	sb_fmt_rate((double)db / s, bw, sizeof(bw));
	sb_fmt_count((double)di / s, io, sizeof(io));
	sb_fmt_ns((double)p->elapsed_ns, el, sizeof(el));
	fprintf(f, "%s%s: %s %3.0f%% %s  %s IOPS  elapsed %s%s", tty ? "\r" : "", label,
		p->ramping ? "ramp" : "run ", p->fraction * 100, bw, io, el, tty ? "\033[K" : "\n");
	fflush(f);
}

/* When the last progress line was printed: kept across measurements, so a
 * log gets its line every 10 s even when each measurement is shorter. */
static uint64_t last_line_ns;

/* Progress of every run, summed; 1 when all have finished. */
static int progress(struct sb_run *const *runs, unsigned n, struct sb_progress *sum)
{
	int done = 1;
	memset(sum, 0, sizeof(*sum));
	for (unsigned i = 0; i < n; i++) {
		struct sb_progress p;
		done &= sb_run_progress(runs[i], &p);
		for (int d = 0; d < SB_DDIR_N; d++) {
			sum->bytes[d] += p.bytes[d];
			sum->ios[d] += p.ios[d];
		}
		sum->elapsed_ns = SB_MAX(sum->elapsed_ns, p.elapsed_ns);
		sum->ramping |= p.ramping;
		/* the slowest sets the pace; finished ones count as done */
		double f = p.done ? 1.0 : p.fraction;
		sum->fraction = i ? SB_MIN(sum->fraction, f) : f;
	}
	return done;
}

static void watch(struct sb_run *const *runs, unsigned n, const struct cli_measure *m)
{
	int tty = isatty(STDERR_FILENO);
	uint64_t every = tty ? 250000000ull : 10000000000ull;
	if (!last_line_ns || tty)
		last_line_ns = sb_now_ns();
	struct sb_progress p, prev;
	memset(&prev, 0, sizeof(prev));
	while (!progress(runs, n, &p)) {
		struct timespec ts = { 0, 50000000 };
		nanosleep(&ts, NULL);
		uint64_t now = sb_now_ns();
		if (m->quiet || now - last_line_ns < every)
			continue;
		/* prev counts from this measurement's start, or from the last line */
		uint64_t since = SB_MAX(last_line_ns, now - p.elapsed_ns);
		progress_line(stderr, m->label, &p, &prev, now - since, tty);
		prev = p;
		last_line_ns = now;
	}
	if (tty && !m->quiet && prev.elapsed_ns)
		fputs("\r\033[K", stderr);
}

/* The first failed request, with where and why; a full filesystem gets
 * how much was written and how much space is left. */
static void report_errors(const struct sb_jobtarget *t, const struct sb_job_result *res, int w)
{
	const struct sb_io_error *fe = &res->first_error;
	char a[32], b[32];
	if (fe->err == ENOSPC) {
		struct statvfs vfs;
		uint64_t avail = 0;
		if (t->npaths && statvfs(t->paths[0], &vfs) == 0)
			avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
		sb_err("no space left on the device after writing %s; the filesystem has %s free",
		       sb_fmt_size(res->dir[SB_DDIR_WRITE].bytes, a, sizeof(a)),
		       sb_fmt_size(avail, b, sizeof(b)));
	} else if (fe->err) {
		sb_err("%s error at offset %llu (%s), length %u: %s", sb_ddir_name(fe->ddir),
		       (unsigned long long)fe->offset, sb_fmt_size(fe->offset, a, sizeof(a)),
		       fe->len, strerror(fe->err));
	} else if (w < 0) {
		sb_err("%s failed: %s", res->name, strerror(-w));
	}
	if (res->errors > 1)
		sb_err("%llu requests failed in all", (unsigned long long)res->errors);
}

static void params_of(struct sb_run_params *p, const struct cli_measure *m,
		      const struct cli_measure_job *j)
{
	memset(p, 0, sizeof(*p));
	p->job = *j->job;
	p->engine = j->ops;
	p->paths = (const char *const *)j->t->paths;
	p->npaths = j->t->npaths;
	p->held = j->t->fd;
	p->is_blockdev = j->t->is_blockdev;
	p->region_offset = j->t->region_offset;
	p->region_size = j->t->region_size;
	p->align = j->t->align;
	p->verify = m->verify;
}

int cli_measure_group(const struct cli_measure *m, const struct cli_measure_job *js, unsigned n)
{
	struct sb_run *runs[CLI_GROUP_MAX] = { NULL };
	int have_ds[CLI_GROUP_MAX] = { 0 };
	int w[CLI_GROUP_MAX] = { 0 };
	const char *step = NULL;
	int e = 0;

	if (!n || n > CLI_GROUP_MAX)
		return -EINVAL;
	/* every run is set up (files opened, buffers made) before any starts */
	for (unsigned i = 0; i < n && !e; i++) {
		struct sb_run_params p;
		params_of(&p, m, &js[i]);
		e = sb_run_create(&runs[i], &p, &step);
		if (e < 0)
			sb_err("cannot start %s (%s): %s", n > 1 ? js[i].res->name : m->label,
			       step ? step : "setup", strerror(-e));
	}
	if (e < 0) {
		for (unsigned i = 0; i < n; i++)
			sb_run_free(runs[i]);
		return e;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct sb_jobtarget *t = js[i].t;
		have_ds[i] = t->info.devname[0] &&
			     sb_diskstat_read(t->info.devname, &js[i].res->ds_before) == 0;
	}
	uint64_t t0 = sb_now_ns();
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	cli_signals_set_runs(runs, n);
	unsigned started = 0;
	for (; started < n && !e; started++) {
		e = sb_run_start(runs[started]);
		js[started].res->start_unix_ns = (uint64_t)wall.tv_sec * 1000000000ull +
						 (uint64_t)wall.tv_nsec;
	}
	if (e == 0)
		watch(runs, n, m);
	else
		for (unsigned i = 0; i < started; i++)
			sb_run_stop(runs[i]);
	for (unsigned i = 0; i < n; i++)
		w[i] = sb_run_wait(runs[i], js[i].res);
	cli_signals_set_runs(NULL, 0);
	for (unsigned i = 0; i < n; i++) {
		struct sb_job_result *res = js[i].res;
		if (have_ds[i] && sb_diskstat_read(js[i].t->info.devname, &res->ds_after) == 0) {
			res->have_diskstat = 1;
			res->ds_elapsed_ns = sb_now_ns() - t0;
		}
		sb_run_free(runs[i]);
	}
	if (e < 0) {
		sb_err("cannot start the workers: %s", strerror(-e));
		return e;
	}
	int first = 0;
	for (unsigned i = 0; i < n; i++) {
		if (w[i] < 0 || js[i].res->errors) {
			report_errors(js[i].t, js[i].res, w[i]);
			if (!first)
				first = w[i];
		}
	}
	return first;
}

int cli_measure(const struct cli_measure *m, const struct sb_job_opts *job,
		const struct sb_engine_ops *ops, struct sb_jobtarget *t, struct sb_job_result *res)
{
	const struct cli_measure_job j = { job, ops, t, res };
	return cli_measure_group(m, &j, 1);
}
