/*
 * storbench soak's verdict in text as its run ends (report.h,
 * rep_soak_run_text): failed iterations, and per metric its stability,
 * changes ("write throughput fell from X to Y at iteration N") and
 * outliers; from the run's struct sb_soak_result, whose records and
 * summary the report reads back. The verdict itself is lib/soak's
 * (soak_verdict.c).
 */
#include "report/report.h"

#define FAILED_LINES 10 /* failed iterations named at the end; the log has all */

/* scale: bytes per unit of the values (1024: KiB/s) */
static void metric_text(FILE *f, const struct sb_soak_metric *m, const char *what, double scale)
{
	char a[32], b[32], c[32];
	if (!m->st.n)
		return;
	fprintf(f, "  %s: median %s, p5 %s, p95 %s, cv %.1f%%\n", what,
		rep_fmt_rate(m->st.median * scale, a, sizeof(a)),
		rep_fmt_rate(m->st.p5 * scale, b, sizeof(b)),
		rep_fmt_rate(m->st.p95 * scale, c, sizeof(c)), m->st.cv * 100);
	for (size_t i = 0; i < m->nchanges; i++)
		fprintf(f, "    %s %s from %s to %s at iteration %llu\n", what,
			m->changes[i].after < m->changes[i].before ? "fell" : "rose",
			rep_fmt_rate(m->changes[i].before * scale, a, sizeof(a)),
			rep_fmt_rate(m->changes[i].after * scale, b, sizeof(b)),
			(unsigned long long)m->changes[i].at);
	if (m->noutliers) {
		fprintf(f, "    outliers at iteration%s", m->noutliers > 1 ? "s" : "");
		for (size_t i = 0; i < m->noutliers; i++)
			fprintf(f, "%s %llu", i ? "," : "", (unsigned long long)m->outliers[i]);
		if (m->outliers_total > m->noutliers)
			fprintf(f, " and %zu more", m->outliers_total - m->noutliers);
		fputc('\n', f);
	}
}

void rep_soak_cells_text(FILE *f, const struct sb_soak_cell_metric *c, size_t n)
{
	if (n)
		fprintf(f, "  iozone cells:\n");
	for (size_t i = 0; i < n; i++) {
		char what[96], a[32], b[32];
		snprintf(what, sizeof(what), "  %s, file %s, record %s",
			 sb_sweep_test_name(c[i].test), sb_fmt_size(c[i].file_size, a, sizeof(a)),
			 sb_fmt_size(c[i].record_size, b, sizeof(b)));
		metric_text(f, &c[i].m, what, 1024);
	}
}

/* "72 h", "90 min", "45 s", "250 ms" */
static void duration_text(uint64_t ns, char *buf, size_t len)
{
	const uint64_t s = 1000000000ull;
	if (ns % (3600 * s) == 0)
		snprintf(buf, len, "%llu h", (unsigned long long)(ns / (3600 * s)));
	else if (ns % (60 * s) == 0)
		snprintf(buf, len, "%llu min", (unsigned long long)(ns / (60 * s)));
	else if (ns < s && ns % 1000000 == 0)
		snprintf(buf, len, "%llu ms", (unsigned long long)(ns / 1000000));
	else
		snprintf(buf, len, "%.3g s", (double)ns / 1e9);
}

/* "50 iterations", "72 h", "50 iterations or 72 h, whichever comes first" */
static void stop_text(uint64_t iterations, uint64_t duration_ns, char *buf, size_t len)
{
	char d[32] = "";
	if (duration_ns)
		duration_text(duration_ns, d, sizeof(d));
	if (iterations)
		snprintf(buf, len, "%llu iteration%s%s%s%s", (unsigned long long)iterations,
			 iterations == 1 ? "" : "s", duration_ns ? " or " : "", d,
			 duration_ns ? ", whichever comes first" : "");
	else
		snprintf(buf, len, "%s", d);
}

void rep_soak_stop_change_text(const struct sb_soak_stop_change *c, char *buf, size_t len)
{
	char a[96], b[96];
	stop_text(c->iterations_before, c->duration_ns_before, a, sizeof(a));
	stop_text(c->iterations, c->duration_ns, b, sizeof(b));
	snprintf(buf, len, "resumed; stop condition changed from %s to %s", a, b);
}

void rep_soak_other_text(FILE *f, const struct sb_soak_iter *it)
{
	const size_t n = it->nkother + it->kother_omitted;
	if (n)
		fprintf(f, "  other devices: %zu kernel line%s (%s%s, not counted)", n,
			n == 1 ? "" : "s", it->nkother ? it->kother[0].device : "",
			it->nkother > 1 || it->kother_omitted ? ", ..." : "");
}

/* Kernel lines about devices outside the target's stack: not counted,
 * told by device. */
static void other_devices_text(FILE *f, const struct sb_soak_summary *sum)
{
	if (!sum->kmsg_other_lines)
		return;
	fprintf(f,
		"  %llu kernel message%s about other devices (not the target's: not counted)%s\n",
		(unsigned long long)sum->kmsg_other_lines, sum->kmsg_other_lines == 1 ? "" : "s",
		sum->nother ? ":" : "");
	for (size_t i = 0; i < sum->nother; i++)
		fprintf(f, "    %s: %llu, first: %s\n", sum->other[i].device,
			(unsigned long long)sum->other[i].lines, sum->other[i].first);
}

/* Which iterations failed and what failed (the report's words), so the
 * end of a long soak's output says it without the lines above. */
static void failed_text(FILE *f, const struct sb_soak_result *r)
{
	char why[REP_LEAD_LEN];
	size_t told = 0, more = 0;
	for (size_t i = 0; i < r->nit; i++) {
		if (!sb_soak_iter_failed(&r->it[i]))
			continue;
		if (told == FAILED_LINES) {
			more++;
			continue;
		}
		rep_trouble_text(&r->it[i], why, sizeof(why));
		fprintf(f, "  iteration %llu failed: %s\n", (unsigned long long)r->it[i].n,
			why[0] ? why : "failed");
		told++;
	}
	if (more)
		fprintf(f, "  and %zu more failed iteration%s (the log has them all)\n", more,
			more == 1 ? "" : "s");
}

void rep_soak_run_text(FILE *f, const struct sb_soak_result *r, int fail_on_anomaly)
{
	const struct sb_soak_summary *sum = &r->sum;
	char cut[48] = "", word[16];
	if (sum->cut_short)
		snprintf(cut, sizeof(cut), " (%zu cut short)", sum->cut_short);
	snprintf(word, sizeof(word), "%s", sb_soak_verdict_name(sum->verdict));
	for (char *c = word; *c; c++)
		*c = (char)(*c - 'a' + 'A');
	fprintf(f, "\nsoak: %zu iteration%s%s, %zu failed: %s\n", sum->iterations,
		sum->iterations == 1 ? "" : "s", cut, sum->failed, word);
	failed_text(f, r);
	if (sum->stopped)
		fprintf(f, "  stopped early: %s\n", sum->reason);
	if (sum->stopped && sum->resume[0])
		fprintf(f, "  resume with: %s\n", sum->resume);
	if (r->stop_changed) {
		char why[256];
		rep_soak_stop_change_text(&r->stop_change, why, sizeof(why));
		fprintf(f, "  %s\n", why);
	}
	if (sum->verify_bad)
		fprintf(f, "  %llu blocks did not verify\n", (unsigned long long)sum->verify_bad);
	if (sum->io_errors)
		fprintf(f, "  %llu I/O errors\n", (unsigned long long)sum->io_errors);
	if (sum->kmsg_lines)
		fprintf(f, "  %llu kernel messages about storage trouble\n",
			(unsigned long long)sum->kmsg_lines);
	other_devices_text(f, sum);
	metric_text(f, &sum->m[0], r->iozone ? "write tests" : "write throughput", 1);
	metric_text(f, &sum->m[1], r->iozone ? "read tests" : "read throughput", 1);
	if (sum->anomalies && !fail_on_anomaly)
		fprintf(f,
			"  anomalies are warnings (--fail-on-anomaly makes them fail the soak)\n");
	if (!r->kmsg_watched)
		fprintf(f, "  kernel messages were not watched (/dev/kmsg not readable)\n");
}
