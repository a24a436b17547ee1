/*
 * storbench verify --probe: the fake-capacity probe of the library's run
 * (lib/verify/verify.h) on a whole block device, consented to through the
 * write gate, reported in text and JSON.
 */
#include "cli/verify_cli.h"
#include "report/report.h"
#include "lib/storbench.h"

#include <fcntl.h>
#include <unistd.h>

static int report(const struct verify_opts *o, const char *path, struct sb_verify_result *v)
{
	struct sb_results *res = v->res;
	int rc = 0;
	if (o->output && cli_write_json(res, o->output) < 0)
		rc = SB_EXIT_ENV;
	if (o->json_stdout && cli_write_json(res, "-") < 0)
		rc = SB_EXIT_ENV;
	if (!o->json_stdout)
		rep_verify_probe_text(stdout, path, &v->probe);
	if (rc)
		return rc;
	if (v->interrupted)
		return cli_interrupt_status();
	return v->probe.res.kind == SB_CAPACITY_GOOD ? SB_EXIT_OK : SB_EXIT_FAIL;
}

/* May the probe have the device? An exit code when not. */
static int consent(const struct verify_opts *o, struct sb_jobtarget *ct, const char *path)
{
	int e = cli_target_probe(ct, path);
	if (e)
		return e;
	if (ct->info.kind != SB_TARGET_BLOCK) {
		sb_err("--probe: '%s' is not a block device (the probe tests a whole device)",
		       path);
		return SB_EXIT_USAGE;
	}
	if (!o->destroy)
		return cli_refuse_device(path);
	ct->destroy_data = 1;
	return cli_device_consent(ct, path);
}

int verify_probe(const struct verify_opts *o, const char *path)
{
	struct sb_jobtarget ct;
	struct sb_verify_result v;
	struct sb_error er;
	struct verify_line l;
	struct sb_verify_hooks h;

	memset(&ct, 0, sizeof(ct));
	memset(&v, 0, sizeof(v));
	int rc = consent(o, &ct, path);
	if (rc)
		goto out;
	struct sb_verify_probe p = {
		.path = path,
		.capacity = ct.info.capacity,
		.block_size = ct.info.logical_bs ? ct.info.logical_bs : 512,
		.seed = o->seed_given ? o->seed : sb_now_ns() ^ ((uint64_t)getpid() << 32),
	};
	/* written through what the write gate gave, never the name again */
	if ((p.fd = sb_jobtarget_open(&ct, 0, O_RDWR | O_DIRECT)) < 0) {
		sb_err("cannot open '%s': %s", path, strerror(-p.fd));
		rc = SB_EXIT_ENV;
		goto out;
	}
	const struct sb_verify_opts vo = { .info = &ct.info, .probe = &p };
	verify_hooks(&h, &l, o);
	cli_signals_install();
	if (sb_verify_run(&vo, &h, NULL, &v, &er) < 0)
		rc = cli_error_told(&er);
	else
		rc = report(o, path, &v);
out:
	sb_verify_result_free(&v);
	cli_target_cleanup(&ct, 1);
	return rc;
}
