/*
 * Results in fio's normal output layout (fio 3.33's stat.c:
 * show_thread_status_normal, show_ddir_status, display_lat,
 * show_clat_percentiles, show_latencies, show_group_stats, print_disk_util),
 * with fio's unit rules (num2str with 4 significant figures, nsec to usec
 * to msec by magnitude), so that scripts reading fio's text read ours.
 * Each of fio's report entries (lib/results/fio_report.c: a job's numjobs
 * threads each, or with group_reporting a group whole) is printed as fio
 * prints a thread_stat, with its cpu, IO depths, submit, complete, issued
 * and latency lines.
 */
#include "report/fio_text.h"

#include <math.h>
#include <time.h>
#include <unistd.h>

enum n2s { N2S_NONE, N2S_BYTE, N2S_BYTEPERSEC };

/* fio's num2str (lib/num2str.c): at most maxlen digits, carry-rounded;
 * post0, the prefix num is already in (fio's base: 1 for 1024 or 1000) */
static const char *num2str_in(uint64_t num, int maxlen, int pow2, enum n2s units, unsigned post0,
			      char *buf, size_t len)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	static const char *const us[] = { "", "B", "B/s" };
	const char *const *prefix = pow2 ? iec : si;
	const unsigned thousand = pow2 ? 1024 : 1000;
	unsigned modulo = -1U, post = post0;
	int carry = 0;
	char tmp[32];

	while (post < 7) {
		snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)num);
		if ((int)strlen(tmp) <= maxlen)
			break;
		modulo = (unsigned)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		post++;
	}
	if (post >= 7)
		post = 0;
	if (modulo == -1U) {
		snprintf(buf, len, "%llu%s%s", (unsigned long long)num, prefix[post], us[units]);
		return buf;
	}
	snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)num);
	if (maxlen - (int)strlen(tmp) <= 1) {
		snprintf(buf, len, "%llu%s%s", (unsigned long long)(num + (uint64_t)carry),
			 prefix[post], us[units]);
		return buf;
	}
	snprintf(tmp, sizeof(tmp), "%.*f", maxlen - (int)strlen(tmp) - 1,
		 (double)modulo / (double)thousand);
	if (tmp[0] == '1')
		num++;
	snprintf(buf, len, "%llu.%s%s%s", (unsigned long long)num, tmp + 2, prefix[post],
		 us[units]);
	return buf;
}

static const char *num2str(uint64_t num, int maxlen, int pow2, enum n2s units, char *buf,
			   size_t len)
{
	return num2str_in(num, maxlen, pow2, units, 0, buf, len);
}

#define SIG 4 /* fio's default sig_figs */

/* fio's runtime[d] in ms (at least 1) */
static uint64_t run_ms(const struct sb_job_result *j, int d)
{
	uint64_t ms = (sb_dir_runtime_ns(j, d) + 500000) / 1000000;
	return ms ? ms : 1;
}

static void display_lat(FILE *f, const char *name, const struct sb_hist *h)
{
	unsigned long long min = h->min, max = h->max;
	double mean = sb_hist_mean(h), dev = sb_hist_stddev(h);
	const char *base = "(nsec)";
	char a[32], b[32];

	if (min > 2000000 && max > 99999999ULL && dev > 1000000.0) {
		min /= 1000000;
		max /= 1000000;
		mean /= 1e6;
		dev /= 1e6;
		base = "(msec)";
	} else if (min > 2000 && max > 99999 && dev > 1000.0) {
		min /= 1000;
		max /= 1000;
		mean /= 1e3;
		dev /= 1e3;
		base = "(usec)";
	}
	fprintf(f, "    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, base,
		num2str(min, 6, 0, N2S_NONE, a, sizeof(a)),
		num2str(max, 6, 0, N2S_NONE, b, sizeof(b)), mean, dev);
}

/* fio's default percentile_list */
static const double plist[] = { 1,  5,	10, 20, 30,   40,   50,	   60,	 70,
				80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };
#define NP (sizeof(plist) / sizeof(plist[0]))

static void show_percentiles(FILE *f, const char *pre, const struct sb_hist *h)
{
	unsigned long long v[NP], minv = ~0ull, maxv = 0;
	for (size_t i = 0; i < NP; i++) {
		v[i] = sb_hist_percentile(h, plist[i]);
		minv = SB_MIN(minv, v[i]);
		maxv = SB_MAX(maxv, v[i]);
	}
	unsigned divisor = 1, scale = 0;
	if (minv > 2000000 && maxv > 99999999ULL) {
		scale = 2;
		divisor = 1000000;
		fprintf(f, "    %s percentiles (msec):\n     |", pre);
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		divisor = 1000;
		fprintf(f, "    %s percentiles (usec):\n     |", pre);
	} else {
		fprintf(f, "    %s percentiles (nsec):\n     |", pre);
	}
	const int width = SB_MAX(5, (int)(log10((double)(maxv / divisor)) + 1));
	const int precision = 2, per_line = (80 - 7) / (precision + 10 + width);
	for (size_t j = 0; j < NP; j++) {
		if (j && j % (size_t)per_line == 0)
			fprintf(f, "     |");
		for (unsigned s = 0; s < scale; s++)
			v[j] = (v[j] + 999) / 1000;
		const int last = j == NP - 1;
		fprintf(f, " %*.*fth=[%*llu]%c", precision + 3, precision, plist[j], width, v[j],
			last ? '\n' : ',');
		if (!last && j % (size_t)per_line == (size_t)per_line - 1)
			fprintf(f, "\n");
	}
}

static void show_dir(FILE *f, const struct sb_job_result *j, int d, double agg)
{
	/* fio's zbd_write_status: every write line has it (storbench has no
	 * zoned mode: no resets) */
	const char *post = d == SB_DDIR_WRITE ? "; 0 zone resets" : "";
	const struct sb_dir_result *dr = &j->dir[d];
	const uint64_t ms = run_ms(j, d);
	const uint64_t bw = 1000 * dr->bytes / ms, iops = 1000 * dr->ios / ms;
	char a[32], b[32], c[32], e[32];

	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n", sb_ddir_name(d),
		num2str(iops, SIG, 0, N2S_NONE, a, sizeof(a)),
		num2str(bw, SIG, 1, N2S_BYTEPERSEC, b, sizeof(b)),
		num2str(bw, SIG, 0, N2S_BYTEPERSEC, c, sizeof(c)),
		num2str(dr->bytes, SIG, 1, N2S_BYTE, e, sizeof(e)), (unsigned long long)ms, post);
	if (dr->slat.count)
		display_lat(f, "slat", &dr->slat);
	if (dr->clat.count)
		display_lat(f, "clat", &dr->clat);
	if (dr->lat.count)
		display_lat(f, " lat", &dr->lat);
	if (dr->clat.count)
		show_percentiles(f, "clat", &dr->clat);

	struct sb_rate_stats bs, is;
	sb_job_rate_stats(j, d, 0, &bs);
	sb_job_rate_stats(j, d, 1, &is);
	if (bs.samples) {
		/* fio's bw figures are KiB/s, MiB/s once the mean passes 1 GiB/s */
		double k = 1024, min = bs.min / k, max = bs.max / k, mean = bs.mean / k,
		       dev = bs.samples > 1 ? bs.dev / k : 0;
		const char *unit = "KiB";
		double per = agg > 1024 ? mean * 100.0 / (agg / 1024.0) : 100.0;
		if (mean > k * k) {
			min /= k;
			max /= k;
			mean /= k;
			dev /= k;
			unit = "MiB";
		}
		fprintf(f,
			"   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, "
			"stdev=%5.02f, samples=%llu\n",
			unit, (unsigned long long)min, (unsigned long long)max,
			per > 100 ? 100 : per, mean, dev, (unsigned long long)bs.samples);
	}
	if (is.samples)
		fprintf(f,
			"   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, "
			"samples=%llu\n",
			(unsigned long long)is.min, (unsigned long long)is.max, is.mean,
			is.samples > 1 ? is.dev : 0, (unsigned long long)is.samples);
}

/* fio's io_u_lat_{n,u,m} buckets: "50=" holds [20, 50) of its unit. */
static const unsigned lat_edges[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };

static unsigned lat_bucket(uint64_t v)
{
	unsigned i = 0;
	while (i < 9 && v >= lat_edges[i])
		i++;
	return i;
}

static void show_lat_line(FILE *f, const char *unit, const double *pct, unsigned n)
{
	int on_line = 0, shown = 0;
	char label[16];
	for (unsigned i = 0; i < n; i++) {
		if (pct[i] <= 0.0)
			continue;
		if (!on_line)
			fprintf(f, "%s  lat (%s)   : ", shown ? "\n" : "", unit);
		else
			fprintf(f, ", ");
		if (i < 10)
			snprintf(label, sizeof(label), "%u=", lat_edges[i]);
		else
			snprintf(label, sizeof(label), "%s", i == 10 ? "2000=" : ">=2000=");
		fprintf(f, "%s%3.2f%%", label, pct[i]);
		shown = 1;
		if (++on_line == 5)
			on_line = 0;
	}
	if (shown)
		fprintf(f, "\n");
}

static void show_latencies(FILE *f, const struct sb_job_result *j)
{
	double n[10] = { 0 }, u[10] = { 0 }, m[12] = { 0 };
	uint64_t total = 0; /* the requests timed (a verify pass's reads are not) */
	for (int d = 0; d < SB_DDIR_N; d++)
		total += (j->dir[d].lat.count ? &j->dir[d].lat : &j->dir[d].clat)->count;
	if (!total)
		return;
	for (int d = 0; d < SB_DDIR_N; d++) {
		const struct sb_hist *h = j->dir[d].lat.count ? &j->dir[d].lat : &j->dir[d].clat;
		for (unsigned b = 0; b < SB_HIST_NBUCKETS; b++) {
			if (!h->bucket[b])
				continue;
			const uint64_t v = sb_hist_bucket_low(b);
			double *slot;
			if (v < 1000)
				slot = &n[lat_bucket(v)];
			else if (v < 1000000)
				slot = &u[lat_bucket(v / 1000)];
			else if (v < 1000000000)
				slot = &m[lat_bucket(v / 1000000)];
			else
				slot = &m[v < 2000000000ull ? 10 : 11];
			*slot += (double)h->bucket[b];
		}
	}
	double *all[3] = { n, u, m };
	const unsigned nn[3] = { 10, 10, 12 };
	for (int k = 0; k < 3; k++)
		for (unsigned i = 0; i < nn[k]; i++)
			if (all[k][i] > 0) {
				all[k][i] = all[k][i] * 100.0 / (double)total;
				if (all[k][i] < 0.01)
					all[k][i] = 0.01;
			}
	show_lat_line(f, "nsec", n, 10);
	show_lat_line(f, "usec", u, 10);
	show_lat_line(f, "msec", m, 12);
}

/* fio's lines after the latencies: cpu, IO depths, submit, complete,
 * issued, errors (continue_on_error), latency (latency_target's: the
 * depth its search ended at; without one the job's iodepth, as fio's) */
static void show_counts(FILE *f, const struct sb_job_result *j)
{
	fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
		j->usr_cpu, j->sys_cpu, (unsigned long long)j->ctx, (unsigned long long)j->majf,
		(unsigned long long)j->minf);
	uint64_t n = 0;
	double p[SB_DEPTH_LEVELS];
	for (unsigned k = 0; k < SB_DEPTH_LEVELS; k++)
		n += j->depth_map[k];
	for (unsigned k = 0; k < SB_DEPTH_LEVELS; k++)
		p[k] = n ? 100.0 * (double)j->depth_map[k] / (double)n : 0;
	fprintf(f,
		"  IO depths    : 1=%3.1f%%, 2=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, "
		"32=%3.1f%%, >=64=%3.1f%%\n",
		p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
	static const char *const what[2] = { "submit", "complete" };
	for (int c = 0; c < 2; c++) {
		sb_fio_submit_dist(j, c, p);
		fprintf(f,
			"     %-8s  : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, "
			"64=%3.1f%%, >=64=%3.1f%%\n",
			what[c], p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
	}
	fprintf(f, "     issued rwts: total=%llu,%llu,%llu,0 short=0,0,0,0 dropped=0,0,0,0\n",
		(unsigned long long)j->dir[0].ios, (unsigned long long)j->dir[1].ios,
		(unsigned long long)j->dir[2].ios);
	if (j->opts.continue_on_error != SB_CONTINUE_NONE)
		fprintf(f, "     errors    : total=%llu, first_error=%d/<%s>\n",
			(unsigned long long)j->errors, j->first_error.err,
			strerror(j->first_error.err));
	fprintf(f, "     latency   : target=%llu, window=%llu, percentile=%.2f%%, depth=%u\n",
		(unsigned long long)j->opts.latency_target_ns,
		(unsigned long long)j->opts.latency_window_us,
		j->opts.latency_percentile > 0 ? j->opts.latency_percentile : 100.0,
		j->latency_depth ? j->latency_depth : j->opts.iodepth);
}

/* fio's show_ss_normal: the window's mean bw (in KiB/s, shown in IEC and,
 * as fio does, the same KiB figure with SI prefixes), iops and the
 * criterion's newest value */
static void show_ss(FILE *f, const struct sb_job_result *j)
{
	const struct sb_fio_ss *ss = j->ss;
	char a[32], b[32], c[32];
	if (!ss)
		return;
	const uint64_t bw = sb_fio_ss_mean(ss, 0) / 1024;
	fprintf(f, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
		ss->attained ? "yes" : "no",
		num2str_in(bw, SIG, 1, N2S_BYTEPERSEC, 1, a, sizeof(a)),
		num2str_in(bw, SIG, 0, N2S_BYTEPERSEC, 1, b, sizeof(b)),
		num2str(sb_fio_ss_mean(ss, 1), SIG, 0, N2S_NONE, c, sizeof(c)),
		ss->flags & SB_SS_IOPS ? "iops" : "bw",
		ss->flags & SB_SS_SLOPE ? " slope" : " mean dev", (double)(float)ss->criterion,
		ss->flags & SB_SS_PCT ? "%" : "");
}

/* name: what the line starts with (the job's name, or of many ranks the
 * client's, as fio's client/server prints its clients and "All clients") */
static void show_job(FILE *f, const struct sb_job_result *j, const char *name, unsigned group,
		     const double *agg, const char *desc)
{
	char when[64];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	const unsigned members = j->members ? j->members : j->opts.numjobs;
	if (j->errors)
		fprintf(f, "%s: (groupid=%u, jobs=%u): err=%2d (%s): pid=%d: %s\n", name, group,
			members, j->first_error.err, strerror(j->first_error.err), (int)getpid(),
			when);
	else
		fprintf(f, "%s: (groupid=%u, jobs=%u): err= 0: pid=%d: %s\n", name, group, members,
			(int)getpid(), when);
	if (desc && *desc)
		fprintf(f, "  Description  : [%s]\n", desc);
	for (int d = 0; d < SB_DDIR_N; d++)
		if (j->dir[d].bytes)
			show_dir(f, j, d, agg[d]);
	show_latencies(f, j);
	if (j->sync_lat.count) {
		fprintf(f, "  fsync/fdatasync/sync_file_range:\n");
		display_lat(f, "sync", &j->sync_lat);
		show_percentiles(f, "sync", &j->sync_lat);
	}
	show_counts(f, j);
	show_ss(f, j);
}

/* "   READ: bw=..., min-max (...), io=..., run=min-maxmsec" for group g. */
static void show_group(FILE *f, const struct rep_fio_in *in, unsigned g)
{
	static const char *const str[] = { "   READ", "  WRITE", "   TRIM" };
	fprintf(f, "\nRun status group %u (all jobs):\n", g);
	for (int d = 0; d < SB_DDIR_N; d++) {
		uint64_t io = 0, min_bw = UINT64_MAX, max_bw = 0, min_run = UINT64_MAX, max_run = 0;
		for (size_t i = 0; i < in->res->njobs; i++) {
			const struct sb_job_result *j = in->res->jobs[i];
			if (in->group[i] != g || !j->dir[d].bytes)
				continue;
			const uint64_t ms = run_ms(j, d), bw = 1000 * j->dir[d].bytes / ms;
			io += j->dir[d].bytes;
			min_bw = SB_MIN(min_bw, bw);
			max_bw = SB_MAX(max_bw, bw);
			min_run = SB_MIN(min_run, ms);
			max_run = SB_MAX(max_run, ms);
		}
		if (!max_run)
			continue;
		const uint64_t agg = io * 1000 / max_run;
		char s[8][32];
		fprintf(f, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n", str[d],
			num2str(agg, SIG, 1, N2S_BYTEPERSEC, s[0], 32),
			num2str(agg, SIG, 0, N2S_BYTEPERSEC, s[1], 32),
			num2str(min_bw, SIG, 1, N2S_BYTEPERSEC, s[2], 32),
			num2str(max_bw, SIG, 1, N2S_BYTEPERSEC, s[3], 32),
			num2str(min_bw, SIG, 0, N2S_BYTEPERSEC, s[4], 32),
			num2str(max_bw, SIG, 0, N2S_BYTEPERSEC, s[5], 32),
			num2str(io, SIG, 1, N2S_BYTE, s[6], 32),
			num2str(io, SIG, 0, N2S_BYTE, s[7], 32), (unsigned long long)min_run,
			(unsigned long long)max_run);
	}
}

/* fio's print_disk_util (3.33): the jobs' disk counters added up. */
static void show_disk(FILE *f, const struct sb_results *r)
{
	struct sb_diskstat s;
	double util;
	if (!rep_fio_disk_sum(r, &s, &util))
		return;
	fprintf(f, "\nDisk stats (read/write):\n");
	fprintf(f,
		"  %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, in_queue=%llu, "
		"util=%3.2f%%\n",
		r->target.devname, (unsigned long long)s.ios[0], (unsigned long long)s.ios[1],
		(unsigned long long)s.merges[0], (unsigned long long)s.merges[1],
		(unsigned long long)s.ticks[0], (unsigned long long)s.ticks[1],
		(unsigned long long)s.in_queue, util);
}

/* fio's "NAME: Laying out IO file (1 file / 4MiB)" of each file storbench
 * created: a job's filename= once (the first job naming it), else (a
 * directory) each of its numjobs threads' own. */
static void show_layout(FILE *f, const struct sb_results *r)
{
	if (!r->target_created)
		return;
	for (size_t i = 0; i < r->njobs; i++) {
		const struct sb_job_result *j = r->jobs[i];
		const char *name = sb_fio_rawopt(r, j, "filename");
		int first = 1;
		for (size_t k = 0; name && k < i; k++) {
			const char *other = sb_fio_rawopt(r, r->jobs[k], "filename");
			first &= !other || strcmp(other, name) != 0;
		}
		if (!first || !strcmp(j->engine, "null"))
			continue;
		const unsigned nf = j->opts.nrfiles > 1 ? j->opts.nrfiles : 1;
		const unsigned long long mib = (j->opts.offset + j->opts.size) >> 20;
		const unsigned times = name ? 1 : SB_MAX(j->opts.numjobs, 1u);
		for (unsigned t = 0; t < times; t++)
			fprintf(f, "%s: Laying out IO file%s (%u file%s / %s%lluMiB)\n", j->name,
				nf > 1 ? "s" : "", nf, nf > 1 ? "s" : "", nf > 1 ? "total " : "",
				mib);
	}
}

/* "NAME: (g=0): rw=read, bs=(R) 16.0KiB-16.0KiB, ..., ioengine=psync,
 * iodepth=1", "..." for its clones, the version, "Starting N threads" (of
 * the jobs with thread=, "N processes" of the others, as fio), the files
 * laid out. */
static void show_preamble(FILE *f, const struct rep_fio_in *in)
{
	unsigned threads = 0, procs = 0;
	for (size_t i = 0; i < in->res->njobs; i++) {
		const struct sb_job_result *j = in->res->jobs[i];
		const struct sb_job_opts *o = &j->opts;
		char lo[32], hi[32];
		num2str(sb_job_min_bs(o), SIG, 1, N2S_BYTE, lo, sizeof(lo));
		num2str(sb_job_max_bs(o), SIG, 1, N2S_BYTE, hi, sizeof(hi));
		fprintf(f,
			"%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, "
			"iodepth=%u\n",
			j->name, in->group[i], sb_rw_name(o->rw), lo, hi, lo, hi, lo, hi, j->engine,
			o->iodepth);
		if (o->numjobs > 1)
			fprintf(f, "...\n");
		*(o->thread ? &threads : &procs) += o->numjobs;
	}
	fprintf(f, "storbench-%s\n", sb_version());
	fprintf(f, "Starting ");
	if (threads)
		fprintf(f, "%u thread%s", threads, threads > 1 ? "s" : "");
	if (procs)
		fprintf(f, "%s%u process%s", threads ? " and " : "", procs, procs > 1 ? "es" : "");
	fprintf(f, "\n");
	show_layout(f, in->res);
	fprintf(f, "\n");
}

void rep_fio_text_preamble(FILE *f, const struct rep_fio_in *in)
{
	show_preamble(f, in);
}

int rep_fio_view_make(const struct rep_fio_in *in, struct rep_fio_view *v)
{
	memset(v, 0, sizeof(*v));
	if (sb_fio_report_make(in->res, in->group, &v->rep) < 0)
		return -ENOMEM;
	v->res = *in->res;
	v->res.jobs = v->rep.jobs;
	v->res.njobs = v->rep.njobs;
	v->in.res = &v->res;
	v->in.group = v->rep.group;
	return 0;
}

void rep_fio_view_free(struct rep_fio_view *v)
{
	sb_fio_report_free(&v->rep);
}

uint64_t rep_fio_group_agg(const struct rep_fio_in *in, unsigned g, int d)
{
	return sb_fio_group_agg(in->res->jobs, in->res->njobs, in->group, g, d);
}

int rep_fio_text_body(FILE *f, const struct rep_fio_in *orig)
{
	struct rep_fio_view v;
	if (rep_fio_view_make(orig, &v) < 0)
		return -ENOMEM;
	const struct rep_fio_in *in = &v.in;
	const struct sb_results *r = in->res;
	unsigned ngroups = 0;
	for (size_t i = 0; i < r->njobs; i++)
		ngroups = SB_MAX(ngroups, in->group[i] + 1);
	for (size_t i = 0; i < r->njobs; i++) {
		/* per=: the job's share of its group's aggregate bandwidth */
		double agg[SB_DDIR_N] = { 0 };
		for (int d = 0; d < SB_DDIR_N; d++)
			agg[d] = (double)rep_fio_group_agg(in, in->group[i], d);
		const struct sb_job_result *j = r->jobs[i];
		/* many ranks: each rank's job ("HOST rank N JOB"), then All clients */
		for (unsigned k = 0; k < j->nclients; k++) {
			char name[sizeof(j->name) + 96];
			snprintf(name, sizeof(name), "%s rank %d %s", j->clients[k].host,
				 j->clients[k].rank, j->name);
			show_job(f, j->clients[k].job, name, in->group[i], agg, NULL);
		}
		char all[sizeof(j->name) + 16];
		snprintf(all, sizeof(all), "All clients%s%s", r->njobs > 1 ? " " : "",
			 r->njobs > 1 ? j->name : "");
		show_job(f, j, j->nclients ? all : j->name, in->group[i], agg,
			 sb_fio_rawopt(r, j, "description"));
	}
	for (unsigned g = 0; g < ngroups; g++)
		show_group(f, in, g);
	show_disk(f, orig->res);
	rep_fio_view_free(&v);
	return ferror(f) ? -EIO : 0;
}

int rep_fio_json_write(FILE *f, const struct rep_fio_in *in)
{
	struct rep_fio_view v;
	if (rep_fio_view_make(in, &v) < 0)
		return -ENOMEM;
	v.res.fio_layout = 1;
	const int e = sb_results_write_json(&v.res, f);
	rep_fio_view_free(&v);
	return e;
}

int rep_fio_disk_sum(const struct sb_results *r, struct sb_diskstat *s, double *util)
{
	uint64_t ms = 0;
	int any = 0;
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < r->njobs; i++) {
		const struct sb_job_result *j = r->jobs[i];
		if (!j->have_diskstat)
			continue;
		const struct sb_diskstat *x = &j->ds_before, *y = &j->ds_after;
		any = 1;
		for (int k = 0; k < 2; k++) {
			s->ios[k] += y->ios[k] - x->ios[k];
			s->merges[k] += y->merges[k] - x->merges[k];
			s->ticks[k] += y->ticks[k] - x->ticks[k];
		}
		s->in_queue += y->in_queue - x->in_queue;
		s->io_ticks += y->io_ticks - x->io_ticks;
		ms += j->ds_elapsed_ns / 1000000;
	}
	double u = ms ? 100.0 * (double)s->io_ticks / (double)ms : 0;
	*util = u > 100 ? 100 : u;
	return any && r->target.devname[0];
}
