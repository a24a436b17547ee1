/*
 * storbench spo --check's findings in text as it ends (report.h,
 * rep_spo_check_text): counts per class, the damaged and lost ranges, the
 * histogram of how long before the cut each lost write was acknowledged,
 * what to make of it, the verdict. From the check's struct sb_spo_check,
 * the one report/ reads back from a result (sb_spo_read) for its spo
 * section.
 */
#include "report/report.h"

static void text_counts(FILE *f, const struct sb_spo_check *c)
{
	fprintf(f, "blocks checked: %llu (%llu of them the canary)\n",
		(unsigned long long)c->blocks, (unsigned long long)c->canary_blocks);
	for (int i = 0; i < SB_SPO_NCLASS; i++)
		fprintf(f, "  %-12s %10llu%s\n", sb_spo_class_name(i),
			(unsigned long long)c->count[i],
			i == SB_SPO_OK_UNACKED && c->torn_allowed ? "  (torn within --allow-torn)"
								  : "");
}

static void text_ranges(FILE *f, const struct sb_spo_check *c)
{
	char a[32], b[32];
	if (!c->nranges)
		return;
	fprintf(f, "ranges (offset, length):\n");
	for (size_t i = 0; i < c->nranges; i++)
		fprintf(f, "  %-12s %llu +%llu  (%s, %s)\n", sb_spo_class_name(c->ranges[i].cls),
			(unsigned long long)c->ranges[i].offset,
			(unsigned long long)c->ranges[i].length,
			sb_fmt_size(c->ranges[i].offset, a, sizeof(a)),
			sb_fmt_size(c->ranges[i].length, b, sizeof(b)));
	if (c->ranges_omitted)
		fprintf(f, "  ... %llu more ranges (--max-ranges)\n",
			(unsigned long long)c->ranges_omitted);
}

static void text_hist(FILE *f, const struct sb_spo_check *c)
{
	if (!c->count[SB_SPO_LOST_ACKED])
		return;
	fprintf(f, "lost acknowledged writes by time from acknowledgement to the cut%s:\n",
		c->cut_known ? "" : " (the cut: the journal's last record)");
	for (int i = 0; i < SB_SPO_HIST_N; i++)
		fprintf(f, "  %-9s %10llu\n", sb_spo_hist_label[i], (unsigned long long)c->hist[i]);
}

void rep_spo_check_text(FILE *f, const char *path, const struct sb_spo_check *c)
{
	char t[32], bs[32];
	fprintf(f, "spo check of '%s' (run %016llx, bs %s, sync %s, rw %s, iodepth %u)\n", path,
		(unsigned long long)c->h.run_id, sb_fmt_size(c->h.bs, bs, sizeof(bs)),
		sb_spo_sync_name(c->h.sync), sb_spo_rw_name(c->h.rw), c->h.iodepth);
	fprintf(f, "journal: %llu writes, %llu acknowledged, %s %s into the run%s\n",
		(unsigned long long)c->writes, (unsigned long long)c->acked,
		c->cut_known ? "cut recorded" : "last record",
		sb_fmt_ns((double)c->t_cut, t, sizeof(t)),
		c->torn_tail ? "; its torn last line was left out" : "");
	if (c->short_target)
		fprintf(f,
			"target: ends at %llu, before the journal's region ends (%llu): %llu blocks "
			"not all there, checked as old content past its end\n",
			(unsigned long long)c->target_size,
			(unsigned long long)(c->h.offset + c->h.size),
			(unsigned long long)c->missing_blocks);
	text_counts(f, c);
	text_ranges(f, c);
	text_hist(f, c);
	for (unsigned i = 0; i < c->nrec; i++)
		fprintf(f, "%s %s\n", i ? "            " : "recommended:", c->rec[i]);
	if (c->pass)
		fprintf(f, "verdict: pass\n");
	else
		fprintf(f,
			"verdict: FAIL (%llu lost-acked, %llu torn, %llu misdirected, %llu corrupt, "
			"%llu unreadable, %llu collateral)\n",
			(unsigned long long)c->count[SB_SPO_LOST_ACKED],
			(unsigned long long)c->count[SB_SPO_TORN],
			(unsigned long long)c->count[SB_SPO_MISDIRECTED],
			(unsigned long long)c->count[SB_SPO_CORRUPT],
			(unsigned long long)c->count[SB_SPO_UNREADABLE],
			(unsigned long long)c->count[SB_SPO_COLLATERAL]);
}
