/* A result's text as a command ends (report.h): a job's figures, the
 * target, its state before the measurement, the repeats' medians, the
 * warnings; IEC units spelled out. */
#include "report/report.h"

static void latency_lines(FILE *f, const char *what, const struct sb_hist *h)
{
	static const double show[] = { 50, 90, 99, 99.9, 99.99 };
	char a[32], b[32], c[32], d[32];
	if (!h->count)
		return;
	fprintf(f, "    %s latency: min %s, mean %s, max %s, stddev %s\n", what,
		sb_fmt_ns((double)h->min, a, sizeof(a)), sb_fmt_ns(sb_hist_mean(h), b, sizeof(b)),
		sb_fmt_ns((double)h->max, c, sizeof(c)),
		sb_fmt_ns(sb_hist_stddev(h), d, sizeof(d)));
	fprintf(f, "    percentiles:");
	for (size_t i = 0; i < SB_ARRAY_SIZE(show); i++)
		fprintf(f, "  p%g %s", show[i],
			sb_fmt_ns((double)sb_hist_percentile(h, show[i]), a, sizeof(a)));
	fputc('\n', f);
}

void rep_job_run_text(FILE *f, const struct sb_job_result *j)
{
	const struct sb_job_opts *o = &j->opts;
	char a[32], b[32], c[32], d[32];
	uint64_t ios = 0;

	char all[48] = "";
	if (j->nclients)
		snprintf(all, sizeof(all), " (All clients: %u ranks)", j->nclients);
	fprintf(f, "%s%s: %s, bs %s, iodepth %u, %u job%s, %s, %s%s\n", j->name, all,
		sb_rw_name(o->rw), o->nbssplit ? "split" : sb_fmt_size(o->bs, a, sizeof(a)),
		o->iodepth, o->numjobs, o->numjobs > 1 ? "s" : "", j->engine,
		o->direct ? "direct" : "buffered", j->interrupted ? " (interrupted)" : "");
	for (int dd = 0; dd < SB_DDIR_N; dd++) {
		const struct sb_dir_result *r = &j->dir[dd];
		ios += r->ios;
		if (!r->ios)
			continue;
		fprintf(f, "  %-5s %s, %s IOPS, %s in %s\n", sb_ddir_name(dd),
			rep_fmt_rate(sb_dir_bw(j, dd), a, sizeof(a)),
			sb_fmt_count(sb_dir_iops(j, dd), b, sizeof(b)),
			sb_fmt_size(r->bytes, c, sizeof(c)),
			sb_fmt_ns((double)j->runtime_ns, d, sizeof(d)));
		latency_lines(f, "total", &r->lat);
	}
	if (j->sync_lat.count)
		fprintf(f, "  sync  %llu %s calls, mean %s, max %s\n",
			(unsigned long long)j->sync_lat.count,
			!j->datasyncs			    ? "fsync"
			: j->datasyncs == j->sync_lat.count ? "fdatasync"
							    : "fsync and fdatasync",
			sb_fmt_ns(sb_hist_mean(&j->sync_lat), a, sizeof(a)),
			sb_fmt_ns((double)j->sync_lat.max, b, sizeof(b)));
	fprintf(f, "  cpu   usr %.1f%%, sys %.1f%%, %s per I/O\n", j->usr_cpu, j->sys_cpu,
		sb_fmt_ns(ios ? (double)j->cpu_ns / (double)ios : 0, a, sizeof(a)));
	if (j->have_diskstat) {
		const struct sb_diskstat *x = &j->ds_before, *y = &j->ds_after;
		double util = j->ds_elapsed_ns ? 100.0 * (double)(y->io_ticks - x->io_ticks) * 1e6 /
							 (double)j->ds_elapsed_ns
					       : 0;
		fprintf(f, "  disk  %llu reads (%s), %llu writes (%s), util %.1f%%\n",
			(unsigned long long)(y->ios[0] - x->ios[0]),
			sb_fmt_size((y->sectors[0] - x->sectors[0]) * 512, a, sizeof(a)),
			(unsigned long long)(y->ios[1] - x->ios[1]),
			sb_fmt_size((y->sectors[1] - x->sectors[1]) * 512, b, sizeof(b)),
			util > 100 ? 100 : util);
	}
	if (j->errors)
		fprintf(f, "  errors %llu\n", (unsigned long long)j->errors);
}

void rep_target_text(FILE *f, const struct sb_results *r)
{
	const struct sb_target_info *t = &r->target;
	char a[32];
	fprintf(f, "target: %s", r->target_path);
	if (r->target_created)
		fprintf(f, " (created for the test)");
	fputc('\n', f);
	if (t->devname[0]) {
		fprintf(f, "device: %s", t->devname);
		if (t->model[0])
			fprintf(f, " (%s)", t->model);
		fprintf(f, ", %s, logical block %u B", sb_fmt_size(t->capacity, a, sizeof(a)),
			t->logical_bs);
		if (t->rotational >= 0)
			fprintf(f, ", %s", t->rotational ? "rotational" : "non-rotational");
		if (t->fstype[0])
			fprintf(f, ", %s on %s", t->fstype, t->mountpoint);
		fputc('\n', f);
	} else if (t->fstype[0]) {
		fprintf(f, "filesystem: %s on %s (%sno block device beneath)\n", t->fstype,
			t->mountpoint, sb_target_in_ram(t) ? "in RAM, " : "");
	}
	if (r->have_state)
		rep_state_text(f, &r->state);
}

void rep_state_text(FILE *f, const struct sb_state *st)
{
	char a[32], b[32], c[32];
	fprintf(f, "state: %s", st->name);
	switch (st->precond) {
	case SB_PRECOND_PURGE: {
		/* the command where the method's name does not say it */
		const int plain = st->purge == SB_PURGE_DISCARD ||
				  st->purge == SB_PURGE_SECURE_DISCARD;
		fprintf(f, " (purge by %s%s%s", sb_purge_name(st->purge),
			st->purge_how[0] && !plain ? ": " : "", plain ? "" : st->purge_how);
	}
		if (st->purge_asked != st->purge)
			fprintf(f, ", --purge=%s", sb_purge_name(st->purge_asked));
		fputc(')', f);
		break;
	case SB_PRECOND_FILL:
	case SB_PRECOND_FILL_RANDOM:
		fprintf(f, " (%s writes: %s written over %s in %s)",
			st->precond == SB_PRECOND_FILL ? "128 KiB sequential" : "4 KiB random",
			sb_fmt_size(st->written, a, sizeof(a)),
			sb_fmt_size(st->region_bytes, b, sizeof(b)),
			sb_fmt_ns((double)st->took_ns, c, sizeof(c)));
		break;
	case SB_PRECOND_NONE: break;
	}
	if (st->discarded)
		fprintf(f, "%s%s discarded by %s", st->precond ? ", " : " (",
			sb_fmt_size(st->discard_bytes, a, sizeof(a)), st->discard_method);
	fprintf(f, "%s\n", st->discarded && !st->precond ? ")" : "");
}

void rep_repeats_text(FILE *f, const struct sb_results *r)
{
	char a[32], b[32], c[32];
	for (size_t i = 0; i < r->nsummary; i++) {
		const struct sb_summary_row *s = &r->summary[i];
		fprintf(f, "%-5s median of %u runs: %s (%s .. ", sb_ddir_name(s->ddir), s->nruns,
			rep_fmt_rate(s->bw_median, a, sizeof(a)),
			rep_fmt_rate(s->bw_min, b, sizeof(b)));
		fprintf(f, "%s), %s IOPS\n", rep_fmt_rate(s->bw_max, c, sizeof(c)),
			sb_fmt_count(s->iops_median, a, sizeof(a)));
	}
}

static void warning_line(const char *line, void *f)
{
	fprintf(f, "warning: %s\n", line);
}

/* Each warning once, with the runs it applies to (sb_results_warnings). */
void rep_warnings_text(FILE *f, const struct sb_results *r)
{
	sb_results_warnings(r, warning_line, f);
}
