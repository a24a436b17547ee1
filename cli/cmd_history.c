/*
 * storbench history (docs/history.md): the results listed by device, firmware, label,
 * command and date, a figure across groups with each group judged against
 * the baseline (report/history_groups.c), results made earlier imported
 * (storbench's JSON, fio's).
 */
#include "cli/cli.h"
#include "cli/report_files.h"
#include "report/history_groups.h"
#include "report/report.h"

#include <limits.h>
#include <math.h>
#include <time.h>
#include <unistd.h>

/* ---- storbench history ---- */

enum {
	O_MODEL,
	O_SERIAL,
	O_FIRMWARE,
	O_COMMAND,
	O_HOST,
	O_SINCE,
	O_UNTIL,
	O_FIGURE,
	O_GROUP,
	O_BASELINE,
	O_IMPORT,
};

static const struct cli_opt opts[] = {
	{ "model", OPT_ARG, O_MODEL, "MODEL", "only results of this device model" },
	{ "serial", OPT_ARG, O_SERIAL, "SERIAL", "only results of this serial number" },
	{ "firmware", OPT_ARG, O_FIRMWARE, "FW", "only results of this firmware" },
	{ "command", OPT_ARG, O_COMMAND, "CMD", "only results of this command (quick, soak...)" },
	{ "host", OPT_ARG, O_HOST, "HOST", "only results made on this host" },
	{ "since", OPT_ARG, O_SINCE, "DATE",
	  "only results started at or after DATE (2026-12-01, 2026-12-01T08:00, UTC)" },
	{ "until", OPT_ARG, O_UNTIL, "DATE", "only results started before DATE" },
	{ "figure", OPT_ARG, O_FIGURE, "NAME",
	  "a figure of each result (the names plans use: storbench plan --figures CMD)" },
	{ "group-by", OPT_ARG, O_GROUP, "G",
	  "with --figure: a table per group, each against the baseline: firmware, model, "
	  "serial, host, version, command, day or label:KEY" },
	{ "baseline", OPT_ARG, O_BASELINE, "GROUP",
	  "the group the others are judged against [the first]" },
	{ "import", OPT_NOARG, O_IMPORT, NULL,
	  "record the FILEs given (storbench's JSON results, soak's JSON Lines logs, fio's "
	  "--output-format=json) "
	  "with --label's labels" },
	{ NULL, 0, 0, NULL, NULL },
};

struct hist_opts {
	struct sb_history_query q;
	const char *since, *until, *baseline;
	int import;
};

/* DATE: 2026-12-01, 2026-12-01T08:00[:00] (UTC), or seconds since 1970 */
static int parse_date(const char *v, int64_t *out)
{
	struct tm tm = { 0 };
	const char *end;
	uint64_t n;
	if (sb_parse_u64(v, &n) == 0 && n > 99999999 && n < INT64_MAX)
		return *out = (int64_t)n, 0;
	if (!(end = strptime(v, "%Y-%m-%d", &tm)))
		return -EINVAL;
	if (*end == 'T' || *end == ' ') {
		const char *e2 = strptime(end + 1, "%H:%M:%S", &tm);
		end = e2 ? e2 : strptime(end + 1, "%H:%M", &tm);
		if (!end)
			return -EINVAL;
	}
	if (*end)
		return -EINVAL;
	*out = (int64_t)timegm(&tm);
	return 0;
}

static int set_opt(void *ctx, int id, const char *v, char *hint, size_t hl)
{
	struct hist_opts *o = ctx;
	switch (id) {
	case O_MODEL: o->q.model = v; return 0;
	case O_SERIAL: o->q.serial = v; return 0;
	case O_FIRMWARE: o->q.firmware = v; return 0;
	case O_COMMAND: o->q.command = v; return 0;
	case O_HOST: o->q.host = v; return 0;
	case O_SINCE:
	case O_UNTIL:
		if (parse_date(v, id == O_SINCE ? &o->q.since : &o->q.until) < 0)
			return snprintf(hint, hl, "a date: 2026-12-01 or 2026-12-01T08:00 (UTC)"),
			       -EINVAL;
		return 0;
	case O_FIGURE:
		if (!*v)
			return snprintf(hint, hl, "a figure's name"), -EINVAL;
		o->q.figure = v;
		return 0;
	case O_GROUP: {
		struct sb_error err = { 0 };
		if (sb_history_group_check(v, &err) < 0)
			return snprintf(hint, hl,
					"firmware, model, serial, host, version, command, day or "
					"label:KEY"),
			       -EINVAL;
		o->q.group_by = v;
		return 0;
	}
	case O_BASELINE: o->baseline = v; return 0;
	case O_IMPORT: o->import = 1; return 0;
	}
	return -EINVAL;
}

static void help(const struct cli_cmd_opts *co, const struct cli_command *cmd)
{
	printf("usage: storbench history --db=PATH [filters] [--figure=NAME [--group-by=G]]\n"
	       "       storbench history --db=PATH --import [--label=KEY=VALUE...] FILE...\n\n"
	       "The results history: every command that writes a result records it when --db\n"
	       "(or STORBENCH_DB) names a history, with the device's identity (model, serial,\n"
	       "firmware, capacity, an eMMC's CID and EXT_CSD revision), the host, storbench's\n"
	       "version, the command line, the target's state and write cache, the --label\n"
	       "labels, every figure by the names plans use, and the result file itself. The\n"
	       "result file is written first: a history that cannot record it loses nothing.\n\n"
	       "Without --figure, lists the results the filters select, oldest first. With\n"
	       "--figure, lists that figure of each. With --group-by, one row a group: its\n"
	       "median, p5 and p95, its count, and whether it differs from the baseline group\n"
	       "by compare's rule (the Mann-Whitney U test of the group's results against the\n"
	       "baseline's, two-sided at 5%%, the shift's 95%% interval): two groups of the same\n"
	       "device and firmware are called \"no difference\", not a change. --format=html\n"
	       "draws the figure's trend across the groups.\n\n"
	       "--import records results made earlier: storbench's JSON results, a soak's JSON\n"
	       "Lines log (its last summary's verdict and figures; a log that ends without one,\n"
	       "a soak killed or still running, is recorded \"interrupted\", never \"pass\") and\n"
	       "fio's JSON output.\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench quick --repeat=5 --db=lab.db --label board=rk3399 /dev/mmcblk0\n"
	       "  storbench history --db=lab.db --model=SDINBDG4-8G\n"
	       "  storbench history --db=lab.db --figure=RND4K-Q1T1.read.iops --group-by=firmware\n"
	       "  storbench history --db=lab.db --figure=write.bw.median --group-by=label:chamber "
	       "-o trend.html\n"
	       "  storbench history --db=lab.db --import --label firmware=1.2b old.json fio.json\n"
	       "  storbench history --db=lab.db --import /root/sd.jsonl\n");
	cli_print_exit_status(stdout, cmd);
}

/* ---- --import ---- */

static int import_one(struct sb_history *h, const char *path)
{
	struct sb_history_rec rec;
	struct sb_error err = { 0 };
	char *text = NULL, real[PATH_MAX];
	size_t len = 0;
	int64_t id = 0;
	int e = sb_read_file(path, 0, &text, &len);
	if (e < 0) {
		sb_err("cannot read '%s': %s", path, strerror(-e));
		return cli_exit_of_errno(e);
	}
	e = sb_history_rec_read(text, len, &rec, &err);
	free(text);
	if (e == 0 && (e = cli_history_labels(&rec, &err)) == 0) {
		if (realpath(path, real))
			rec.source = strdup(real);
		e = sb_history_record(h, &rec, &id, &err);
	}
	if (e == 0) {
		struct rep_vis_ring v = { .k = 0 };
		printf("recorded '%s': result %lld, %s, %zu figure%s\n", rep_vs(&v, path),
		       (long long)id, rep_vs(&v, rec.command), rec.figs.n,
		       rec.figs.n == 1 ? "" : "s");
	} else if (err.cls == SB_ERR_INPUT)
		sb_err("'%s': %s", path, err.msg);
	else
		sb_err("%s", err.msg);
	sb_history_rec_free(&rec);
	return e == 0 ? 0 : cli_error_told(&err);
}

/* ---- listing (report/history_list.c) ---- */

struct list_out {
	struct sb_history *h;
	struct rep_hist_list *l;
	struct sb_error *err;
};

static int write_list(FILE *f, const void *vctx)
{
	const struct list_out *c = vctx;
	rep_history_list_begin(c->l, f);
	int e = sb_history_query(c->h, c->l->q, rep_history_list_row, c->l, c->err);
	if (e < 0)
		return e == -ENOMEM ? e : (sb_err("%s", c->err->msg), CLI_WRITE_SAID);
	return rep_history_list_end(c->l);
}

/* --figure NAME that no stored result has: the nearest names */
static int figure_unknown(struct sb_history *h, const char *db, const char *name)
{
	char near[5][SB_FIGURE_NAME];
	struct sb_error err = { 0 };
	long n = sb_history_nearest(h, name, near, 5, &err);
	if (n < 0) {
		sb_err("%s", err.msg);
		return cli_error_told(&err);
	}
	if (n > 0 && !strcmp(near[0], name))
		return 0; /* stored, only not by the results selected */
	char list[5 * (SB_FIGURE_NAME + 2)] = "";
	for (long i = 0; i < n; i++) {
		size_t k = strlen(list);
		snprintf(list + k, sizeof(list) - k, "%s%s", i ? ", " : "", near[i]);
	}
	sb_err("--figure: no result in '%s' has a figure '%s'%s%s%s", db, name,
	       n ? " (nearest: " : "", list, n ? ")" : "");
	return SB_EXIT_USAGE;
}

static int grouped(struct sb_history *h, const char *db, struct hist_opts *o,
		   const struct cli_shared *sh, const char *fmt)
{
	struct sb_error err = { 0 };
	struct rep_hist g = { .db = db, .figure = o->q.figure, .group_by = o->q.group_by };
	struct rep_hist_list l = { .q = &o->q, .fmt = fmt, .groups = &g };
	int rc = 0, e = sb_history_query(h, &o->q, rep_history_list_row, &l, &err);
	if (e < 0) {
		sb_err("%s", e == -ENOMEM ? "out of memory" : err.msg);
		rc = SB_EXIT_ENV;
	} else if (!g.ng) {
		if (!(rc = figure_unknown(h, db, o->q.figure)))
			sb_note("no result in '%s' matches", db);
	} else if ((e = rep_history_judge(&g, o->baseline)) == -ENOENT) {
		sb_err("--baseline: no group '%s' of --group-by=%s", o->baseline, o->q.group_by);
		rc = SB_EXIT_USAGE;
	} else if (e < 0) {
		sb_err("out of memory");
		rc = SB_EXIT_ENV;
	} else {
		int (*w)(FILE *, const void *) = !strcmp(fmt, "json")	? rep_history_json
						 : !strcmp(fmt, "csv")	? rep_history_csv
						 : !strcmp(fmt, "html") ? rep_history_html
									: rep_history_text;
		rc = cli_write_file(sh->output, w, &g);
	}
	rep_history_free(&g);
	return rc;
}

static int run(struct hist_opts *o, const struct cli_shared *sh, const char *fmt, char **pos,
	       int npos)
{
	const char *db = cli_history_where();
	struct sb_history *h = NULL;
	struct sb_error err = { 0 };
	const char *labels[64];
	char kv[64][400];
	size_t nl = cli_history_label_list(kv, SB_ARRAY_SIZE(kv));
	int rc = 0;
	if (!db) {
		sb_err("history needs --db=PATH (or STORBENCH_DB)");
		return SB_EXIT_USAGE;
	}
	if (o->import && !npos) {
		sb_err("--import needs one or more FILEs");
		return SB_EXIT_USAGE;
	}
	if (!o->import && npos) {
		sb_err("'%s': history takes no FILE but with --import", pos[0]);
		return SB_EXIT_USAGE;
	}
	if (o->import && (o->q.figure || o->q.group_by)) {
		sb_err("--import records; --figure and --group-by query: one at a time");
		return SB_EXIT_USAGE;
	}
	if (o->q.group_by && !o->q.figure) {
		sb_err("--group-by needs --figure=NAME (the figure the groups are compared by)");
		return SB_EXIT_USAGE;
	}
	if (!strcmp(fmt, "html") && !o->q.group_by) {
		sb_err("--format=html draws a figure across groups: it needs --figure and --group-by");
		return SB_EXIT_USAGE;
	}
	if (nl > SB_ARRAY_SIZE(labels)) {
		sb_err("--label: at most %zu", SB_ARRAY_SIZE(labels));
		return SB_EXIT_USAGE;
	}
	/* a query of a history that is not there: said, not made empty */
	if (!o->import && !strstr(db, "://") && access(db, F_OK) < 0) {
		int e = -errno;
		sb_err("cannot open the history '%s': %s", db, strerror(-e));
		return cli_exit_of_errno(e);
	}
	if (sb_history_open(db, &h, &err) < 0) {
		sb_err("%s", err.msg);
		return cli_error_told(&err);
	}
	if (o->import) {
		for (int i = 0; i < npos; i++) {
			int r = import_one(h, pos[i]);
			rc = SB_MAX(rc, r);
		}
	} else {
		for (size_t i = 0; i < nl; i++)
			labels[i] = kv[i];
		o->q.labels = labels;
		o->q.nlabels = nl;
		if (o->q.group_by) {
			rc = grouped(h, db, o, sh, fmt);
		} else {
			struct rep_hist_list l = { .q = &o->q, .fmt = fmt };
			struct list_out c = { h, &l, &err };
			rc = cli_write_file(sh->output, write_list, &c);
			if (!rc && !l.n &&
			    !(o->q.figure && (rc = figure_unknown(h, db, o->q.figure))))
				sb_note("no result in '%s' matches", db);
		}
	}
	sb_history_close(h);
	return rc;
}

int cmd_history(const struct cli_command *cmd, int argc, char **argv)
{
	struct hist_opts o;
	struct cli_shared sh = { 0 };
	memset(&o, 0, sizeof(o));
	cli_signals_install_exit();
	struct cli_cmd_opts co = { opts, set_opt, 0, NULL, &o, cmd, &sh };
	char **pos = calloc((size_t)argc + 1, sizeof(*pos));
	const char *fmt = "text";
	int npos, rc = 0;
	if (!pos)
		return sb_err("out of memory"), SB_EXIT_ENV;
	int p = cli_parse(argc, argv, &co, pos, argc, &npos);
	if (p == 1)
		help(&co, cmd);
	else if (p < 0)
		rc = SB_EXIT_USAGE;
	else if (!(rc = cli_output_format(cmd, &sh, ".json, .csv, .html or .txt", &fmt)))
		rc = run(&o, &sh, fmt, pos, npos);
	free(pos);
	return rc;
}
