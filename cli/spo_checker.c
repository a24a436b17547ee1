/*
 * storbench spo --check: the check as one call (sb_spo_check_run,
 * lib/spo/spo_check_run.c: the journal read strictly, the target read back
 * and classified) given the target opened here; the findings printed:
 * counts per class, the damaged and lost ranges, the histogram of how long
 * before the cut each lost write was acknowledged, what to make of it, and
 * the verdict as the exit code.
 */
#include "cli/spo_cmd.h"

#include <unistd.h>

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

static void text(FILE *f, const char *path, const struct sb_spo_check *c)
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

static int results(const struct spo_opts *o, const char *path, const struct sb_jobtarget *jt,
		   const struct sb_spo_check *c)
{
	struct sb_results *res = sb_results_create("spo");
	int rc = 0;
	if (!res)
		return sb_err("out of memory"), SB_EXIT_ENV;
	cli_results_describe(res, jt, path);
	sb_results_spo(res, c);
	if (o->output && cli_write_json(res, o->output) < 0)
		rc = SB_EXIT_ENV;
	if (o->json_stdout && cli_write_json(res, "-") < 0)
		rc = SB_EXIT_ENV;
	sb_results_free(res);
	return rc;
}

struct checker {
	struct spo_opts *o;
	const char *path;
	struct sb_jobtarget jt;
	int fd, rc; /* the target's exit code when it could not be opened */
};

/* The target opened after the journal was read (spo_open_target) */
static int open_target(void *ctx, struct sb_spo_target *t)
{
	struct checker *k = ctx;
	k->rc = spo_open_target(k->o, k->path, 0, &k->jt, &k->fd);
	t->fd = k->fd;
	t->device = k->jt.info.kind == SB_TARGET_BLOCK;
	t->size = k->jt.info.file_size;
	return k->rc;
}

static void note(void *ctx, const char *msg)
{
	(void)ctx;
	sb_note("%s", msg);
}

int spo_check(struct spo_opts *o, const char *path)
{
	struct checker k = { .o = o, .path = path, .fd = -1 };
	struct sb_spo_check c;
	struct sb_error er;
	const struct sb_spo_check_opts co = { .journal = o->journal,
					      .target = path,
					      .allow_torn = o->allow_torn,
					      .max_ranges = o->max_ranges };
	const struct sb_spo_check_hooks h = { .ctx = &k, .target = open_target, .note = note };

	const int e = sb_spo_check_run(&co, &h, NULL, &c, &er);
	if (k.fd >= 0)
		close(k.fd);
	if (e) {
		cli_target_cleanup(&k.jt, 1);
		return k.rc ? k.rc : cli_error(&er);
	}
	text(o->json_stdout ? stderr : stdout, path, &c);
	int rc = results(o, path, &k.jt, &c);
	if (!rc)
		rc = c.pass ? SB_EXIT_OK : SB_EXIT_FAIL;
	sb_spo_check_free(&c);
	cli_target_cleanup(&k.jt, 1);
	return rc;
}
