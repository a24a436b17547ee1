/*
 * The soak's verdict in text: failed iterations, and per metric its
 * stability, changes ("write throughput fell from X to Y at iteration N")
 * and outliers. The verdict itself is lib/analysis' (soak_verdict.c).
 */
#include "cli/soak.h"

static void metric_text(FILE *f, const struct sb_soak_metric *m, const char *what)
{
	char a[32], b[32], c[32];
	if (!m->st.n)
		return;
	fprintf(f, "  %s: median %s, p5 %s, p95 %s, cv %.1f%%\n", what,
		sb_fmt_rate(m->st.median, a, sizeof(a)), sb_fmt_rate(m->st.p5, b, sizeof(b)),
		sb_fmt_rate(m->st.p95, c, sizeof(c)), m->st.cv * 100);
	for (size_t i = 0; i < m->nchanges; i++)
		fprintf(f, "    %s %s from %s to %s at iteration %llu\n", what,
			m->changes[i].after < m->changes[i].before ? "fell" : "rose",
			sb_fmt_rate(m->changes[i].before, a, sizeof(a)),
			sb_fmt_rate(m->changes[i].after, b, sizeof(b)),
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

void soak_summary_text(FILE *f, const struct soak_state *s, const struct sb_soak_summary *sum)
{
	fprintf(f, "\nsoak: %zu iteration%s, %zu failed: %s\n", sum->iterations,
		sum->iterations == 1 ? "" : "s", sum->failed,
		sum->aborted ? "ABORTED"
		: sum->pass  ? "PASS"
			     : "FAIL");
	if (sum->aborted)
		fprintf(f, "  stopped early: %s\n", sum->reason);
	if (sum->verify_bad)
		fprintf(f, "  %llu blocks did not verify\n", (unsigned long long)sum->verify_bad);
	if (sum->io_errors)
		fprintf(f, "  %llu I/O errors\n", (unsigned long long)sum->io_errors);
	if (sum->kmsg_lines)
		fprintf(f, "  %llu kernel messages about storage trouble\n",
			(unsigned long long)sum->kmsg_lines);
	metric_text(f, &sum->m[0], "write throughput");
	metric_text(f, &sum->m[1], "read throughput");
	if (sum->anomalies && !s->o->fail_on_anomaly)
		fprintf(f,
			"  anomalies are warnings (--fail-on-anomaly makes them fail the soak)\n");
	if (!s->kmsg_ok)
		fprintf(f, "  kernel messages were not watched (/dev/kmsg not readable)\n");
}
