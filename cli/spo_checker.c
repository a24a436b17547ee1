/*
 * storbench spo --check: the check as one call (sb_spo_check_run,
 * lib/spo/spo_check_run.c: the journal read strictly, the target read back
 * and classified) given the target opened here; the findings printed
 * (report/'s rep_spo_check_text), written as results, and the verdict as
 * the exit code.
 */
#include "cli/spo_cmd.h"
#include "report/report.h"

#include <unistd.h>

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
	rep_spo_check_text(o->json_stdout ? stderr : stdout, path, &c);
	int rc = results(o, path, &k.jt, &c);
	if (!rc)
		rc = c.pass ? SB_EXIT_OK : SB_EXIT_FAIL;
	sb_spo_check_free(&c);
	cli_target_cleanup(&k.jt, 1);
	return rc;
}
