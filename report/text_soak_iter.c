/*
 * storbench soak's lines in text (from the library's events and result,
 * lib/soak/soak.h): an iteration's line as it ends (its rates, the
 * verify's verdict, errors, the kernel's first line, the damaged ranges),
 * each rank's own under mpirun, the iozone workload's (and with
 * --iozone-output iozone's rows first); as the soak ends the verdict, its
 * cells, the target, the device's health before and after, where its log
 * is, and under mpirun the ranks that failed iterations.
 */
#include "report/iozone_layout.h"
#include "report/report.h"

void rep_soak_iter_text(FILE *f, const struct sb_soak_iter *it)
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
void rep_soak_rank_text(FILE *f, const struct sb_soak_rank *k)
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

/* The iozone workload's line (and with iozone_output iozone's rows
 * first). */
void rep_soak_iozone_iter_text(FILE *f, const struct sb_iozone_args *a, int iozone_output,
			       const struct sb_soak_event *e)
{
	const struct sb_soak_iter *it = e->it;
	char w[32], r[32];
	if (iozone_output && it->ncells) {
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

/* The text after the soak: its verdict, health, where its log is. */
void rep_soak_end_text(FILE *f, const struct sb_soak_result *r, int fail_on_anomaly,
		       const struct sb_results *res)
{
	rep_soak_run_text(f, r, fail_on_anomaly);
	rep_soak_cells_text(f, r->cells, r->ncells);
	rep_target_text(f, res); /* what was soaked: a device, RAM, a file made */
	for (int k = 0; k < 2; k++) {
		if (!r->health_ok[k] || r->health[k].kind == SB_HEALTH_NONE)
			continue;
		fprintf(f, "health %s:\n", k ? "after" : "before");
		rep_health_text(f, &r->health[k], "  ");
	}
	fprintf(f, "log: %s\n", r->log);
}

/* Rank 0 under mpirun: the ranks that failed iterations, and their logs. */
void rep_soak_ranks_end_text(FILE *f, const struct sb_soak_result *r)
{
	for (unsigned k = 0; r->rank_failed && k < r->nranks; k++)
		if (r->rank_failed[k])
			fprintf(f, "  rank %u on %s: %llu failed iteration%s\n", k, r->rank_host[k],
				(unsigned long long)r->rank_failed[k],
				r->rank_failed[k] > 1 ? "s" : "");
	fprintf(f, "each rank's own log: %s.rank-N\n", r->log);
}
